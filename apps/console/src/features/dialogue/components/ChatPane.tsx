import { useEffect, useMemo, useState } from 'react';
import { App, Button, Empty, Space, Tag, Tooltip, Typography } from 'antd';
import { LogoutOutlined, StarOutlined, StopOutlined, SwapOutlined, UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useConfirmAction } from '../../../lib/confirm';
import { notify } from '../../../lib/notify';
import { talkApi } from '../api';
import { useDialogue } from '../store';
import type { ChatEntry } from '../model/chatList';
import type { ChatMessage } from '../model/messages';
import { MessageList } from './MessageList';
import { useSystemLines } from './SystemLine';
import { OfflineTag } from './OfflineTag';
import { Composer } from './Composer';
import { TransferDialog } from './TransferDialog';
import { InviteDialog } from './InviteDialog';
import { BlackDialog } from './BlackDialog';
import { ChannelBar } from '../../channels/components/ChannelBar';
import { sendableKinds } from '../../channels/capabilities';
import { KbAssist } from '../../knowledge/components/KbAssist';
import { ChannelTag } from '../../channels/components/ChannelTag';

const NO_MESSAGES: ChatMessage[] = [];

/** The open current chat: header actions, messages, composer. */
export function ChatPane({ chat }: { chat: ChatEntry | undefined }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirmAction();
  const sid = chat?.agentserviceid ?? '';
  const messages = useDialogue((s) => s.messages[sid] ?? NO_MESSAGES);
  // The visitor's latest text (agent assist asks the knowledge base about it) and an answer picked there.
  const lastVisitorLine = useMemo(() => {
    const m = [...messages]
      .reverse()
      .find((x) => x.calltype === 'in' && x.msgtype === 'text' && !x.withdrawn);
    return m ? m.id : null;
  }, [messages]);
  const [inserted, setInserted] = useState<{ text: string; seq: number } | undefined>(undefined);
  const hasMore = useDialogue((s) => s.hasMore[sid] ?? false);
  const loaded = useDialogue((s) => s.loaded[sid] ?? false);
  const typing = useDialogue((s) => s.typing[sid]);
  const me = useDialogue((s) => s.me);
  const socket = useDialogue((s) => s.socket);
  const { loadHistory, send, retry, withdrawn } = useDialogue.getState();
  const system = useSystemLines(sid);
  const [transfer, setTransfer] = useState<ChatEntry | null>(null);
  const [invite, setInvite] = useState<ChatEntry | null>(null);
  const [black, setBlack] = useState<ChatEntry | null>(null);

  useEffect(() => {
    if (sid && !loaded) void loadHistory(sid).catch(() => undefined);
  }, [sid, loaded, loadHistory]);

  if (!chat) return <Empty style={{ margin: 'auto' }} description={t('dialogue.noSelection')} />;
  const over = chat.over === 1;
  // A chat this agent was invited to: it can only leave it (transfer, end, statf, black are the owner's).
  const collab = chat.collabora === 1;

  const withdraw = async (m: ChatMessage) => {
    try {
      await talkApi.withdraw(m.id);
      withdrawn(sid, m.id);
    } catch {
      // toasted
    }
  };
  const statf = async () => {
    try {
      await talkApi.statf(sid);
      void message.success(t('dialogue.statfSent'));
    } catch {
      // toasted
    }
  };
  const end = () =>
    confirm(t('dialogue.endConfirm', { name: chat.username }), async () => {
      await talkApi.end(chat.id);
      return t('dialogue.ended');
    });
  const leave = () =>
    confirm(t('dialogue.collab.leaveConfirm', { name: chat.username }), async () => {
      await talkApi.leaveCollaboration(chat.id);
      return t('dialogue.collab.left');
    });
  const typingOut = (draft: string) => {
    if (!socket?.connected || over) return;
    socket.emit('message', {
      touser: chat.userid,
      agentserviceid: sid,
      message: draft,
      msgtype: 'text',
      type: 'writing',
    });
  };

  return (
    <div
      style={{ display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0 }}
      data-testid="chat-pane"
    >
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          padding: '8px 16px',
          borderBottom: '1px solid rgba(5,5,5,0.06)',
          gap: 8,
        }}
      >
        <Space size={8} style={{ minWidth: 0 }}>
          <Typography.Text strong data-testid="chat-title" ellipsis>
            {chat.username}
          </Typography.Text>
          <ChannelTag channel={chat.agentservice?.channel} testId="chat-pane-channel" />
          {over && <Tag color="default">{t('dialogue.over')}</Tag>}
          {!over && chat.online === false && <OfflineTag since={chat.offtime} testid="chat-pane-offline" />}
          {collab && (
            <Tag color="blue" data-testid="chat-collab-tag">
              {t('dialogue.collaborator')}
            </Tag>
          )}
        </Space>
        <Space size={4} style={{ flexShrink: 0 }}>
          {collab ? (
            <Button size="small" icon={<LogoutOutlined />} onClick={leave} data-testid="chat-collab-leave">
              {t('dialogue.collab.leave')}
            </Button>
          ) : (
            <>
              <Button
                size="small"
                icon={<SwapOutlined />}
                disabled={over}
                onClick={() => setTransfer(chat)}
                data-testid="chat-transfer"
              >
                {t('dialogue.transfer.action')}
              </Button>
              <Tooltip title={t('dialogue.invite.action')}>
                <Button
                  size="small"
                  icon={<UserAddOutlined />}
                  disabled={over}
                  aria-label={t('dialogue.invite.action')}
                  onClick={() => setInvite(chat)}
                  data-testid="chat-invite"
                />
              </Tooltip>
              <Tooltip title={t('dialogue.statf')}>
                <Button
                  size="small"
                  icon={<StarOutlined />}
                  disabled={over}
                  aria-label={t('dialogue.statf')}
                  onClick={() => void statf()}
                  data-testid="chat-statf"
                />
              </Tooltip>
              <Tooltip title={t('dialogue.black.action')}>
                <Button
                  size="small"
                  icon={<StopOutlined />}
                  aria-label={t('dialogue.black.action')}
                  onClick={() => setBlack(chat)}
                  data-testid="chat-black"
                />
              </Tooltip>
              <Button size="small" danger icon={<LogoutOutlined />} onClick={end} data-testid="chat-end">
                {over ? t('dialogue.close') : t('dialogue.end')}
              </Button>
            </>
          )}
        </Space>
      </div>
      <MessageList
        sid={sid}
        messages={messages}
        hasMore={hasMore}
        system={system}
        me={me?.id ?? ''}
        typing={typing}
        onLoadOlder={() => loadHistory(sid, true)}
        onWithdraw={(m) => void withdraw(m)}
        onRetry={(m) => retry(sid, m.clientId)}
        translateFrom={collab ? '' : chat.langto}
      />
      <ChannelBar agentserviceid={sid} userid={chat.userid} socket={socket} />
      {!over && !collab && (
        <KbAssist
          agentserviceid={sid}
          lastVisitorLine={lastVisitorLine}
          onPick={(text) => setInserted((x) => ({ text, seq: (x?.seq ?? 0) + 1 }))}
        />
      )}
      <Composer
        picked={inserted}
        kinds={sendableKinds(chat.userid)}
        disabled={over}
        onSend={(m) => {
          if (!socket?.connected) notify.error(t('dialogue.disconnected'));
          send(chat, m);
        }}
        onTyping={typingOut}
      />
      <TransferDialog chat={transfer} onClose={() => setTransfer(null)} />
      <InviteDialog chat={invite} onClose={() => setInvite(null)} />
      <BlackDialog chat={black} onClose={() => setBlack(null)} />
    </div>
  );
}
