import { useEffect, useState } from 'react';
import { Avatar, Button, Empty, Spin, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { talkApi, type EndedService } from '../api';
import { useDialogue } from '../store';
import type { ChatMessage } from '../model/messages';
import { MessageList } from './MessageList';
import { useSystemLines } from './SystemLine';

const PAGE = 20;
const NO_MESSAGES: ChatMessage[] = [];

/**
 * Ended chats, page by page: the first page (no cursor) replaces the list, "load more" asks for the page
 * before the previous page's `next` cursor (keyset, as cheap as the first) and appends.
 */
export function EndedList({
  selectedId,
  onSelect,
}: {
  selectedId: string | null;
  onSelect: (s: EndedService) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [list, setList] = useState<EndedService[]>([]);
  const q = useQuery({
    queryKey: ['dialogue', 'ended', cursor ?? ''],
    queryFn: ({ signal }) => talkApi.ended(cursor, PAGE, signal),
  });
  useEffect(() => {
    const page = q.data?.agentServices;
    if (!page) return;
    setList((cur) => {
      if (!cursor) return page.list;
      const ids = new Set(cur.map((s) => s.id));
      return [...cur, ...page.list.filter((s) => !ids.has(s.id))];
    });
  }, [q.data, cursor]);
  const next = q.data?.agentServices.next ?? null;

  if (q.isLoading && !list.length) return <Spin style={{ display: 'block', margin: 32 }} />;
  if (!list.length)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('dialogue.noEnded')}
        style={{ marginTop: 48 }}
      />
    );
  return (
    <div data-testid="ended-list">
      {list.map((s) => (
        <div
          key={s.id}
          data-testid={`ended-item-${s.userid}`}
          onClick={() => onSelect(s)}
          style={{
            display: 'flex',
            gap: 10,
            padding: '10px 12px',
            cursor: 'pointer',
            background: s.id === selectedId ? token.controlItemBgActive : undefined,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Avatar style={{ background: token.colorTextDisabled }}>
            {(s.username || '?').slice(0, 1).toUpperCase()}
          </Avatar>
          <div style={{ minWidth: 0, flex: 1 }}>
            <Typography.Text strong ellipsis style={{ display: 'block' }}>
              {s.name || s.username}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {s.endtime ? dayjs(s.endtime).format('YYYY-MM-DD HH:mm') : ''}
              {s.endby ? ` · ${t(`dialogue.endby.${s.endby}`, { defaultValue: s.endby })}` : ''}
            </Typography.Text>
          </div>
        </div>
      ))}
      {next && (
        <Button
          block
          type="link"
          loading={q.isFetching}
          onClick={() => setCursor(next)}
          data-testid="ended-more"
        >
          {t('dialogue.loadMore')}
        </Button>
      )}
    </div>
  );
}

/** An ended chat's messages, read-only (GET /api/talk/end/message). */
export function EndedPane({ service }: { service: EndedService | null }) {
  const { t } = useTranslation();
  const sid = service?.id ?? '';
  const messages = useDialogue((s) => s.messages[sid] ?? NO_MESSAGES);
  const hasMore = useDialogue((s) => s.hasMore[sid] ?? false);
  const me = useDialogue((s) => s.me?.id ?? '');
  const loadHistory = useDialogue((s) => s.loadHistory);
  const system = useSystemLines(sid);
  useEffect(() => {
    if (sid) void loadHistory(sid, false, true).catch(() => undefined);
  }, [sid, loadHistory]);
  if (!service) return <Empty style={{ margin: 'auto' }} description={t('dialogue.noSelection')} />;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }} data-testid="ended-pane">
      <div style={{ padding: '10px 16px', borderBottom: '1px solid rgba(5,5,5,0.06)' }}>
        <Typography.Text strong>{service.name || service.username}</Typography.Text>
        <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
          {t('dialogue.endedAt', {
            time: service.endtime ? dayjs(service.endtime).format('YYYY-MM-DD HH:mm') : '',
          })}
        </Typography.Text>
      </div>
      <MessageList
        sid={sid}
        messages={messages}
        hasMore={hasMore}
        system={system}
        me={me}
        readOnly
        onLoadOlder={() => loadHistory(sid, true, true)}
      />
    </div>
  );
}
