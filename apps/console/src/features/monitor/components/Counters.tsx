import { Card, Statistic, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MonitorCounters } from '@kefu/protocol';

/** The counters above the monitor: queue, in service, robot, overdue replies, open leave messages. */
export function Counters({ counters, timeouts }: { counters: MonitorCounters; timeouts: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const items: Array<{ key: string; label: string; value: number; danger?: boolean }> = [
    { key: 'inqueue', label: t('monitor.count.inqueue'), value: counters.inqueneNum },
    { key: 'service', label: t('monitor.count.service'), value: counters.serviceNum },
    { key: 'ai', label: t('monitor.count.ai'), value: counters.aiNum },
    { key: 'timeout', label: t('monitor.count.timeout'), value: timeouts, danger: timeouts > 0 },
    { key: 'leavemsg', label: t('monitor.count.leavemsg'), value: counters.leavemsgNum },
  ];
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(5, minmax(0, 1fr))', gap: 12 }}>
      {items.map((i) => (
        <Card key={i.key} size="small" data-testid={`monitor-count-${i.key}`}>
          <Statistic
            title={i.label}
            value={i.value}
            styles={{ content: { color: i.danger ? token.colorError : undefined } }}
          />
        </Card>
      ))}
    </div>
  );
}
