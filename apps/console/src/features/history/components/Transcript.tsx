import { useEffect, useState } from 'react';
import { Spin } from 'antd';
import type { MessageDto } from '@kefu/protocol';
import { MessageList } from '../../dialogue/components/MessageList';
import { historyApi } from '../api';

/**
 * A conversation's transcript, read-only: the newest page first, older pages as the reader scrolls up
 * (the chat's own message list: images open in the image viewer, media through /res).
 */
export function Transcript({ agentserviceid }: { agentserviceid: string }) {
  const [messages, setMessages] = useState<MessageDto[] | null>(null);
  const [hasMore, setHasMore] = useState(false);
  useEffect(() => {
    const ctrl = new AbortController();
    setMessages(null);
    historyApi
      .messages(agentserviceid, {}, ctrl.signal)
      .then((p) => {
        setMessages(p.list);
        setHasMore(p.hasMore);
      })
      .catch(() => setMessages([]));
    return () => ctrl.abort();
  }, [agentserviceid]);
  if (!messages) return <Spin data-testid="transcript-loading" />;
  const older = async () => {
    const first = messages[0];
    if (!first) return;
    const p = await historyApi.messages(agentserviceid, { before: first.seq });
    setMessages((m) => [...p.list, ...(m ?? [])]);
    setHasMore(p.hasMore);
  };
  return (
    <div
      data-testid="history-transcript"
      style={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <MessageList
        sid={agentserviceid}
        messages={messages}
        hasMore={hasMore}
        me=""
        readOnly
        onLoadOlder={older}
      />
    </div>
  );
}
