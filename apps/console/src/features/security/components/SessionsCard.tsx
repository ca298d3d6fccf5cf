import { Button, Card, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SessionDto } from '@kefu/protocol';
import { securityApi } from '../api';
import { useConfirmAction } from '../../../lib/confirm';
import { formatTime } from '../../../lib/time';

/** The browsers and devices signed in to the account, and "sign out all the others". */
export function SessionsCard() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const list = useQuery({
    queryKey: ['security-sessions'],
    queryFn: ({ signal }) => securityApi.sessions(signal),
  });
  const columns: ColumnsType<SessionDto> = [
    {
      title: t('sec.session.device'),
      dataIndex: 'browser',
      render: (_: string, s) => (
        <>
          {[s.browser, s.os].filter(Boolean).join(' · ') || '—'}
          {s.current && (
            <Tag color="green" style={{ marginLeft: 8 }}>
              {t('sec.session.current')}
            </Tag>
          )}
        </>
      ),
    },
    { title: t('sec.session.ip'), dataIndex: 'ip', width: 160, render: (v: string) => v || '—' },
    {
      title: t('sec.session.created'),
      dataIndex: 'createtime',
      width: 180,
      render: (v: number) => formatTime(v),
    },
    {
      title: t('sec.session.expires'),
      dataIndex: 'expires',
      width: 180,
      render: (v: number) => formatTime(v),
    },
  ];
  const others = (list.data ?? []).filter((s) => !s.current).length;
  return (
    <Card
      title={t('sec.sessions')}
      data-testid="security-sessions"
      extra={
        <Button
          danger
          disabled={others === 0}
          data-testid="security-revoke-others"
          onClick={() =>
            confirm(
              t('sec.signOutOthersConfirm'),
              async () => t('sec.signedOut', { n: (await securityApi.revokeOthers()).revoked }),
              () => void list.refetch(),
            )
          }
        >
          {t('sec.signOutOthers')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('sec.sessionsDesc')}</Typography.Paragraph>
      <Table<SessionDto>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={false}
      />
    </Card>
  );
}
