import { useEffect, useState } from 'react';
import { Alert, Badge, Segmented, Tabs, Tag, Tooltip, theme } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TalkSort } from '@kefu/protocol';
import { optionalApi, type EndedService } from '../api';
import { useDialogue, useSelectedChat } from '../store';
import { freshTotal, unreadTotal } from '../model/chatList';
import { ChatList } from '../components/ChatList';
import { ChatPane } from '../components/ChatPane';
import { EndedList, EndedPane } from '../components/EndedChats';
import { VisitorPanel } from '../components/VisitorPanel';

type Tab = 'dialogue' | 'end';

/** /dialogue: the agent workspace — chat tabs and list, the open conversation, the visitor's facts. */
export default function DialogueScreen() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [tab, setTab] = useState<Tab>('dialogue');
  const [ended, setEnded] = useState<EndedService | null>(null);
  const chats = useDialogue((s) => s.chats);
  const typing = useDialogue((s) => s.typing);
  const sort = useDialogue((s) => s.sort);
  const connected = useDialogue((s) => s.connected);
  const agentState = useDialogue((s) => s.agentState);
  const { select, setSort } = useDialogue.getState();
  const selected = useSelectedChat();
  const leaveMsgs = useQuery({
    queryKey: ['dialogue', 'leavemsgSize'],
    queryFn: () => optionalApi.leaveMessageSize(),
    retry: false,
    refetchInterval: 60_000,
  });
  // Unread messages plus chats that arrived and were not opened yet.
  const unread = unreadTotal(chats) + freshTotal(chats);

  useEffect(() => {
    const { setViewing, markRead } = useDialogue.getState();
    setViewing(true);
    markRead();
    const onVisible = () => {
      if (!document.hidden) useDialogue.getState().markRead();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      setViewing(false);
    };
  }, []);
  const panel = {
    background: token.colorBgContainer,
    borderRadius: token.borderRadiusLG,
    minHeight: 0,
    overflow: 'hidden',
  };

  return (
    <div
      data-testid="dialogue-screen"
      style={{ display: 'flex', flexDirection: 'column', gap: 8, height: 'calc(100vh - 56px - 32px)' }}
    >
      {connected === false && (
        <Alert
          type="error"
          showIcon
          banner
          data-testid="socket-banner"
          message={t('dialogue.disconnectedBanner')}
        />
      )}
      {connected !== false && agentState !== 'ready' && (
        <Alert
          type="info"
          showIcon
          banner
          data-testid="state-banner"
          message={t('dialogue.notReadyBanner', { state: t(`state.${agentState}`) })}
        />
      )}
      <div style={{ display: 'flex', gap: 8, flex: 1, minHeight: 0 }}>
        <div style={{ ...panel, width: 290, flexShrink: 0, display: 'flex', flexDirection: 'column' }}>
          <Tabs
            activeKey={tab}
            onChange={(k) => setTab(k as Tab)}
            centered
            style={{ marginBottom: 0 }}
            tabBarStyle={{ marginBottom: 0 }}
            items={[
              {
                key: 'dialogue',
                label: (
                  <span data-testid="tab-dialogue">
                    {t('dialogue.tab.dialogue')}{' '}
                    <Badge count={unread} size="small" showZero={false} data-testid="tab-dialogue-badge" />
                  </span>
                ),
              },
              { key: 'end', label: <span data-testid="tab-end">{t('dialogue.tab.end')}</span> },
            ]}
          />
          {tab === 'dialogue' && (
            <div
              style={{
                padding: '8px 12px',
                display: 'flex',
                justifyContent: 'space-between',
                alignItems: 'center',
                gap: 8,
              }}
            >
              <Segmented<TalkSort>
                size="small"
                data-testid="talk-sort"
                value={sort}
                onChange={setSort}
                options={[
                  { value: 'servicetime', label: t('dialogue.sort.servicetime') },
                  { value: 'lastmessage', label: t('dialogue.sort.lastmessage') },
                ]}
              />
              {typeof leaveMsgs.data === 'number' && (
                <Tooltip title={t('dialogue.leaveMessages')}>
                  <Tag icon={<MailOutlined />} data-testid="leavemsg-size" style={{ marginInlineEnd: 0 }}>
                    {leaveMsgs.data}
                  </Tag>
                </Tooltip>
              )}
            </div>
          )}
          <div style={{ flex: 1, overflowY: 'auto', borderTop: `1px solid ${token.colorBorderSecondary}` }}>
            {tab === 'dialogue' ? (
              <ChatList list={chats.list} selectedId={chats.selectedId} typing={typing} onSelect={select} />
            ) : (
              <EndedList selectedId={ended?.id ?? null} onSelect={setEnded} />
            )}
          </div>
        </div>
        <div style={{ ...panel, flex: 1, display: 'flex', flexDirection: 'column', minWidth: 360 }}>
          {tab === 'dialogue' ? <ChatPane chat={selected} /> : <EndedPane service={ended} />}
        </div>
        {tab === 'dialogue' && (
          <div style={{ ...panel, width: 280, flexShrink: 0, padding: 16, overflowY: 'auto' }}>
            <VisitorPanel chat={selected} />
          </div>
        )}
      </div>
    </div>
  );
}
