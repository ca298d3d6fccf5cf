import { Badge, Card, Dropdown, Empty, Popover, Progress, Space, Typography } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { STORED_AGENT_STATES, type MonitorAgentDto, type StoredAgentState } from '@kefu/protocol';
import { useConfirmAction } from '../../../lib/confirm';
import { formatDuration } from '../../dialogue/components/useNow';
import { monitorApi } from '../api';
import type { Group } from '../model';

const STATE_BADGE: Record<StoredAgentState, 'success' | 'warning' | 'default'> = {
  ready: 'success',
  busy: 'warning',
  notready: 'default',
};

/** Today's figures of one agent (first and average response), read when asked for. */
function AgentFigures({ userid }: { userid: string }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['monitor', 'staticagent', userid],
    queryFn: () => monitorApi.staticAgent(userid),
  });
  const a = q.data?.list[0];
  if (!a) return <Typography.Text type="secondary">{t('monitor.transcript.loading')}</Typography.Text>;
  const sec = (n: number | null) => (n === null ? '—' : t('monitor.stats.seconds', { n: Math.round(n) }));
  return (
    <div data-testid={`monitor-agent-stats-${userid}`} style={{ minWidth: 180 }}>
      <div>
        {t('monitor.stats.served')}: {a.servedToday}
      </div>
      <div>
        {t('monitor.stats.firstreply')}: {sec(a.firstreply)}
      </div>
      <div>
        {t('monitor.stats.avgreply')}: {sec(a.avgreply)}
      </div>
    </div>
  );
}

function AgentRow({ a, now }: { a: MonitorAgentDto; now: number }) {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const state = t(`state.${a.status}`);
  return (
    <div
      data-testid={`monitor-agent-${a.userid}`}
      data-state={a.status}
      style={{
        display: 'grid',
        gridTemplateColumns: '1fr 110px 150px',
        alignItems: 'center',
        gap: 8,
        padding: '6px 0',
      }}
    >
      <Popover title={t('monitor.agents.stats')} content={<AgentFigures userid={a.userid} />} trigger="click">
        <Space size={6} style={{ cursor: 'pointer', minWidth: 0 }}>
          <Badge status={STATE_BADGE[a.status]} />
          <Typography.Text ellipsis style={{ maxWidth: 120 }}>
            {a.uname}
          </Typography.Text>
        </Space>
      </Popover>
      <div>
        <Progress
          percent={a.maxusers ? Math.round((a.users / a.maxusers) * 100) : 0}
          size="small"
          showInfo={false}
          status={a.users >= a.maxusers ? 'exception' : 'normal'}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('monitor.agents.load', { users: a.users, max: a.maxusers })}
        </Typography.Text>
      </div>
      <Dropdown
        trigger={['click']}
        menu={{
          items: STORED_AGENT_STATES.map((s) => ({
            key: s,
            label: t(`state.${s}`),
            disabled: s === a.status,
          })),
          onClick: ({ key }) =>
            confirm(t('monitor.agents.forceConfirm', { name: a.uname, state: t(`state.${key}`) }), () =>
              monitorApi.endAgent(a.userid, key as StoredAgentState),
            ),
        }}
      >
        <Typography.Link
          data-testid={`monitor-agent-force-${a.userid}`}
          style={{ fontSize: 12, whiteSpace: 'nowrap' }}
        >
          {t('monitor.agents.inState', { state, time: formatDuration(Math.max(0, now - a.statetime)) })}{' '}
          <DownOutlined />
        </Typography.Link>
      </Dropdown>
    </div>
  );
}

/** The wallboard: one card per skill group with its agents, their state, load and time in state. */
export function Wallboard({ groups, now }: { groups: Group[]; now: number }) {
  const { t } = useTranslation();
  if (groups.length === 0) return <Empty description={t('monitor.agents.empty')} />;
  return (
    <div
      data-testid="monitor-wallboard"
      style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(360px, 1fr))', gap: 12 }}
    >
      {groups.map((g) => (
        <Card
          key={g.id || 'other'}
          size="small"
          data-testid={`monitor-group-${g.id || 'other'}`}
          title={g.name}
          extra={
            <Space size={12}>
              <Typography.Text type="secondary">
                {t('monitor.agents.serving', { n: g.serving })}
              </Typography.Text>
              <Typography.Text type={g.queued ? 'warning' : 'secondary'}>
                {t('monitor.agents.queue', { n: g.queued })}
              </Typography.Text>
            </Space>
          }
        >
          {g.agents.length === 0 ? (
            <Typography.Text type="secondary">{t('monitor.agents.empty')}</Typography.Text>
          ) : (
            g.agents.map((a) => <AgentRow key={a.userid} a={a} now={now} />)
          )}
        </Card>
      ))}
    </div>
  );
}
