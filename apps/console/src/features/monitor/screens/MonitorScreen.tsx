import { useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Button, Drawer, Space, Tabs, Tag, Typography, theme } from 'antd';
import { SettingOutlined, HistoryOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { MonitorTab } from '@kefu/protocol';
import { useSession } from '../../../app/session';
import { useNow } from '../../dialogue/components/useNow';
import { chatList, emptyCounters, liveTimeouts, wallboard } from '../model';
import { useMonitor } from '../store';
import { Counters } from '../components/Counters';
import { ChatTable } from '../components/ChatTable';
import { Wallboard } from '../components/Wallboard';
import { TranscriptDrawer } from '../components/TranscriptDrawer';
import { RulesDrawer } from '../components/RulesDrawer';
import { AuditList } from '../components/AuditList';
import { Alerts } from '../components/Alerts';

/** Rows shown before the list scrolls (the table is virtualised, so thousands stay fast). */
const LIST_HEIGHT = 'calc(100vh - 360px)';

/**
 * /monitor (A03): counters, tabs ('lastmessage' first; the choice kept as chatMonitorActive) — live chats,
 * the wallboard by skill group, the queue, overdue replies — and a chat's transcript with the supervisor's
 * actions. Fed by the desktop snapshot and the coalesced `monitor_update` events of its own socket.
 */
export default function MonitorScreen() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const user = useSession((s) => s.info?.user);
  const view = useMonitor((s) => s.view);
  const tab = useMonitor((s) => s.tab);
  const service = useMonitor((s) => s.service);
  const connected = useMonitor((s) => s.connected);
  const [rules, setRules] = useState(false);
  const [audit, setAudit] = useState(false);
  const now = useNow(1_000);
  const [height, setHeight] = useState(480);

  useEffect(() => {
    if (!user) return;
    return useMonitor.getState().start(user);
  }, [user]);
  useEffect(() => {
    const fit = () => setHeight(Math.max(240, window.innerHeight - 380));
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, []);

  const rows = useMemo(() => (view ? chatList(view, tab, service, now) : []), [view, tab, service, now]);
  const groups = useMemo(() => (view ? wallboard(view, t('monitor.agents.ungrouped')) : []), [view, t]);
  const groupName = view?.organ ? (view.groups.find((g) => g.id === view.organ)?.name ?? '') : '';
  const { setTab, setService, open } = useMonitor.getState();
  const table = (key: MonitorTab) => (
    <ChatTable
      testId={`monitor-list-${key}`}
      rows={rows}
      now={now}
      height={height}
      service={service}
      onService={setService}
      onOpen={open}
    />
  );
  const count = (n: number, danger = false) =>
    n ? (
      <Badge count={n} size="small" overflowCount={9999} color={danger ? token.colorError : undefined} />
    ) : null;

  return (
    <div
      data-testid="monitor-screen"
      style={{ display: 'flex', flexDirection: 'column', gap: 12, minHeight: LIST_HEIGHT }}
    >
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 12 }}>
        <Space>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('monitor.title')}
          </Typography.Title>
          {view && (
            <Tag color="blue" data-testid="monitor-scope">
              {view.scope === 'all' ? t('monitor.scope.all') : t('monitor.scope.organ', { name: groupName })}
            </Tag>
          )}
          <Badge status={connected ? 'processing' : 'default'} text={connected ? t('monitor.live') : ''} />
        </Space>
        <Space>
          <Alerts />
          <Button
            icon={<HistoryOutlined />}
            onClick={() => setAudit(true)}
            data-testid="monitor-audit-button"
          >
            {t('monitor.audit')}
          </Button>
          <Button
            icon={<SettingOutlined />}
            onClick={() => setRules(true)}
            data-testid="monitor-rules-button"
          >
            {t('monitor.rules')}
          </Button>
        </Space>
      </div>
      {!connected && view && <Alert type="warning" showIcon message={t('monitor.offline')} />}
      <Counters counters={view?.counters ?? emptyCounters} timeouts={view ? liveTimeouts(view, now) : 0} />
      <div
        style={{
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          padding: '0 16px 16px',
        }}
      >
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as MonitorTab)}
          data-testid="monitor-tabs"
          items={[
            { key: 'lastmessage', label: t('monitor.tab.lastmessage'), children: table('lastmessage') },
            {
              key: 'agents',
              label: t('monitor.tab.agents'),
              children: <Wallboard groups={groups} now={now} />,
            },
            {
              key: 'queue',
              label: (
                <span>
                  {t('monitor.tab.queue')} {count(view?.counters.inqueneNum ?? 0)}
                </span>
              ),
              children: table('queue'),
            },
            {
              key: 'timeout',
              label: (
                <span>
                  {t('monitor.tab.timeout')} {count(view ? liveTimeouts(view, now) : 0, true)}
                </span>
              ),
              children: table('timeout'),
            },
          ]}
        />
      </div>
      <TranscriptDrawer />
      <RulesDrawer open={rules} onClose={() => setRules(false)} />
      <Drawer
        open={audit}
        onClose={() => setAudit(false)}
        width={560}
        title={t('monitor.audit')}
        destroyOnHidden
      >
        <AuditList />
      </Drawer>
    </div>
  );
}
