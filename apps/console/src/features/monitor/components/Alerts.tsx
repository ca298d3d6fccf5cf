import { useEffect, useRef } from 'react';
import { Badge, Button, List, Popover, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { MonitorAlertDto } from '@kefu/protocol';
import { notify } from '../../../lib/notify';
import { formatTime } from '../../../lib/time';
import { useMonitor } from '../store';

export const alertText = (t: TFunction, a: MonitorAlertDto): string =>
  t(`monitor.alert.${a.type}`, { user: a.username, agent: a.agentname || '—', limit: a.limit });

/** The alerts pushed to this supervisor: each one toasted once, the latest kept in a list. */
export function Alerts() {
  const { t } = useTranslation();
  const alerts = useMonitor((s) => s.alerts);
  const seen = useRef(alerts.length);
  useEffect(() => {
    const fresh = alerts.length - seen.current;
    for (const a of alerts.slice(0, Math.max(0, fresh))) notify.warning(alertText(t, a));
    seen.current = alerts.length;
  }, [alerts, t]);
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('monitor.alerts')}
      content={
        <List
          size="small"
          data-testid="monitor-alerts"
          style={{ width: 360, maxHeight: 360, overflowY: 'auto' }}
          dataSource={alerts}
          locale={{ emptyText: t('monitor.alerts.empty') }}
          renderItem={(a) => (
            <List.Item>
              <List.Item.Meta
                title={<span style={{ fontWeight: 'normal' }}>{alertText(t, a)}</span>}
                description={<Typography.Text type="secondary">{formatTime(a.createtime)}</Typography.Text>}
              />
            </List.Item>
          )}
        />
      }
    >
      <Badge count={alerts.length} size="small" overflowCount={49}>
        <Button icon={<BellOutlined />} data-testid="monitor-alerts-button">
          {t('monitor.alerts')}
        </Button>
      </Badge>
    </Popover>
  );
}
