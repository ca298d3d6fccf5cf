import { Card, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MyIdentityDto } from '@kefu/protocol';
import { ConfirmLink } from '../../../components/RowActions';
import { formatTime } from '../../../lib/time';
import { securityApi } from '../api';

/** Personal security: the provider identities linked to the account, each with "unlink". */
export function IdentitiesCard() {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: ['security-identities'],
    queryFn: ({ signal }) => securityApi.identities(signal),
  });
  const columns: ColumnsType<MyIdentityDto> = [
    { title: t('idp.mine.provider'), dataIndex: 'providername' },
    { title: t('idp.mine.subject'), dataIndex: 'subject', ellipsis: true },
    { title: t('idp.mine.time'), dataIndex: 'createtime', width: 180, render: (v: number) => formatTime(v) },
    {
      title: t('common.actions'),
      width: 110,
      render: (_, i) => (
        <ConfirmLink
          label={t('idp.mine.unbind')}
          confirmText={t('idp.mine.unbindConfirm')}
          onConfirm={() => securityApi.unbind(i.provider)}
          onDone={() => void list.refetch()}
          danger
          testId={`identity-unbind-${i.providername}`}
        />
      ),
    },
  ];
  return (
    <Card title={t('idp.mine.title')} data-testid="identities-card">
      <Typography.Paragraph type="secondary">{t('idp.mine.hint')}</Typography.Paragraph>
      <Table<MyIdentityDto>
        rowKey="provider"
        size="middle"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={false}
        locale={{ emptyText: t('idp.mine.empty') }}
      />
    </Card>
  );
}
