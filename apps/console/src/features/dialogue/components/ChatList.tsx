import { Avatar, Badge, Empty, Tag, Typography, theme } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { waitedMs, type ChatEntry } from '../model/chatList';
import { lastmsgOf } from '../summary';
import { ChannelTag } from '../../channels/components/ChannelTag';
import { formatDuration, useNow } from './useNow';
import { COMPACT_TAG as TAG, OfflineTag } from './OfflineTag';

interface Props {
  list: readonly ChatEntry[];
  selectedId: string | null;
  typing: Readonly<Record<string, string>>;
  onSelect: (id: string) => void;
}

const shortTime = (t: number | null) => {
  if (!t) return '';
  const d = dayjs(t);
  return d.isSame(dayjs(), 'day') ? d.format('HH:mm') : d.format('MM-DD');
};

/** Current chats: unread badge (tokenum), waiting timer, over mark, last message summary. */
export function ChatList({ list, selectedId, typing, onSelect }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const now = useNow();
  if (list.length === 0)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('dialogue.noChats')}
        style={{ marginTop: 48 }}
      />
    );
  return (
    <ul data-testid="chat-list" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {list.map((c) => {
        const active = c.id === selectedId;
        const waited = waitedMs(c, now);
        const draft = typing[c.agentserviceid];
        return (
          <li
            key={c.id}
            data-testid={`chat-item-${c.userid}`}
            data-selected={active ? 'true' : 'false'}
            data-fresh={c.fresh ? 'true' : undefined}
            data-online={c.online === false ? 'false' : 'true'}
            aria-current={active ? 'true' : undefined}
            onClick={() => onSelect(c.id)}
            style={{
              display: 'flex',
              gap: 10,
              padding: '10px 12px',
              cursor: 'pointer',
              // A chat that just arrived stands out until it is opened.
              background: active ? token.controlItemBgActive : c.fresh ? token.colorWarningBg : undefined,
              borderLeft: `3px solid ${active ? token.colorPrimary : c.fresh ? token.colorWarning : 'transparent'}`,
              borderBottom: `1px solid ${token.colorBorderSecondary}`,
            }}
          >
            <Badge count={c.tokenum} size="small" data-testid={`chat-unread-${c.userid}`}>
              <Avatar
                style={{
                  background: c.over || c.online === false ? token.colorTextDisabled : token.colorPrimary,
                }}
              >
                {(c.username || '?').slice(0, 1).toUpperCase()}
              </Avatar>
            </Badge>
            <div style={{ flex: 1, minWidth: 0 }}>
              <div style={{ display: 'flex', justifyContent: 'space-between', gap: 6 }}>
                <Typography.Text strong ellipsis style={{ flex: 1, minWidth: 0 }}>
                  {c.username}
                </Typography.Text>
                <ChannelTag channel={c.agentservice?.channel} testId={`chat-channel-${c.userid}`} />
                {c.fresh && (
                  <Tag color="orange" data-testid={`chat-new-${c.userid}`} style={TAG}>
                    {t('dialogue.newChat')}
                  </Tag>
                )}
                {c.collabora === 1 && (
                  <Tag color="blue" style={TAG} data-testid={`chat-collab-${c.userid}`}>
                    {t('dialogue.collaborator')}
                  </Tag>
                )}
                <Typography.Text type="secondary" style={{ fontSize: 12, flexShrink: 0 }}>
                  {shortTime(c.lastmessage ?? c.servicetime)}
                </Typography.Text>
              </div>
              <div style={{ display: 'flex', alignItems: 'center', gap: 6, minWidth: 0 }}>
                <Typography.Text
                  type="secondary"
                  ellipsis
                  style={{ flex: 1, fontSize: 12, color: draft ? token.colorPrimary : undefined }}
                >
                  {draft ? t('dialogue.typing') : lastmsgOf(c.lastmsg)}
                </Typography.Text>
                {c.over ? (
                  <Tag style={{ marginInlineEnd: 0 }} data-testid={`chat-over-${c.userid}`}>
                    {t('dialogue.over')}
                  </Tag>
                ) : c.online === false ? (
                  <OfflineTag since={c.offtime} testid={`chat-offline-${c.userid}`} />
                ) : waited > 0 ? (
                  <span
                    data-testid={`chat-waiting-${c.userid}`}
                    title={t('dialogue.waiting')}
                    style={{
                      fontSize: 12,
                      flexShrink: 0,
                      color: waited > 60_000 ? token.colorError : token.colorWarning,
                    }}
                  >
                    <ClockCircleOutlined /> {formatDuration(waited)}
                  </span>
                ) : null}
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
