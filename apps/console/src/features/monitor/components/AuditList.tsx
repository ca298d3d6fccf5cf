import { List, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../lib/time';
import { monitorApi } from '../api';

/** The supervision records (who did what, when), of one chat or of the whole scope. */
export function AuditList({ agentserviceid }: { agentserviceid?: string }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['monitor', 'audit', agentserviceid ?? ''],
    queryFn: () => monitorApi.audit({ agentserviceid, ps: 100 }),
    refetchInterval: 10_000,
  });
  return (
    <List
      data-testid="monitor-audit"
      size="small"
      loading={q.isLoading}
      dataSource={q.data?.list ?? []}
      locale={{ emptyText: t('monitor.alerts.empty') }}
      renderItem={(a) => (
        <List.Item data-testid={`monitor-audit-${a.action}`}>
          <List.Item.Meta
            title={
              <span>
                {t(`monitor.audit.action.${a.action}`)} · {a.username}
              </span>
            }
            description={
              <Typography.Text type="secondary" ellipsis style={{ maxWidth: 480 }}>
                {formatTime(a.createtime)}
                {a.detail && a.action !== 'rules' ? ` · ${a.detail}` : ''}
              </Typography.Text>
            }
          />
        </List.Item>
      )}
    />
  );
}
