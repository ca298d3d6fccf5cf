import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Button, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SystemLineDto } from '@kefu/protocol';
import { ImageViewer, type ViewerImage } from '../../../components/ImageViewer';
import { mediaUrl } from '../api';
import { canWithdraw, type ChatMessage } from '../model/messages';
import { useNow } from './useNow';
import { MessageItem } from './MessageItem';
import { SystemLine } from './SystemLine';
import { withSystemLines } from '../model/messages';
import { useTranslates } from '../../translate/components/useTranslates';

interface Props {
  sid: string;
  messages: readonly ChatMessage[];
  hasMore: boolean;
  me: string;
  readOnly?: boolean;
  typing?: string;
  onLoadOlder: () => Promise<void>;
  onWithdraw?: (m: ChatMessage) => void;
  onRetry?: (m: ChatMessage) => void;
  /** The visitor's notices that are not messages, placed among the messages by time. */
  system?: readonly SystemLineDto[];
  /** The visitor's language when this is the agent's own chat: foreign lines get a translation. */
  translateFrom?: string;
}

/** The conversation: older pages load when scrolled to the top; new messages keep it at the bottom. */
export function MessageList({
  sid,
  messages,
  hasMore,
  me,
  readOnly,
  typing,
  onLoadOlder,
  onWithdraw,
  onRetry,
  system,
  translateFrom,
}: Props) {
  const { t } = useTranslation();
  const translates = useTranslates(translateFrom);
  const box = useRef<HTMLDivElement>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [viewer, setViewer] = useState<number | null>(null);
  const now = useNow(10_000);
  /** Scroll height before prepending older messages, to keep the view where it was. */
  const anchor = useRef<number | null>(null);
  const atBottom = useRef(true);
  const lastCount = useRef(0);

  const images: ViewerImage[] = useMemo(
    () =>
      messages
        .filter((m) => m.msgtype === 'image' && m.attachmentid && !m.withdrawn)
        .map((m) => ({
          src: mediaUrl('image', m.attachmentid ?? ''),
          name: m.filename ?? undefined,
        })),
    [messages],
  );

  useEffect(() => {
    atBottom.current = true;
    lastCount.current = 0;
  }, [sid]);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (anchor.current !== null) {
      el.scrollTop = el.scrollHeight - anchor.current;
      anchor.current = null;
    } else if (atBottom.current || messages.length - lastCount.current === 1) {
      el.scrollTop = el.scrollHeight;
    }
    lastCount.current = messages.length;
  }, [messages, typing]);

  const older = useCallback(async () => {
    const el = box.current;
    if (!el || loadingOlder || !hasMore) return;
    setLoadingOlder(true);
    anchor.current = el.scrollHeight - el.scrollTop;
    try {
      await onLoadOlder();
    } catch {
      anchor.current = null;
    } finally {
      setLoadingOlder(false);
    }
  }, [hasMore, loadingOlder, onLoadOlder]);

  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (el.scrollTop < 30) void older();
  };

  return (
    <div
      ref={box}
      onScroll={onScroll}
      data-testid="message-list"
      style={{ flex: 1, overflowY: 'auto', padding: '8px 16px', minHeight: 0 }}
    >
      <div style={{ textAlign: 'center', minHeight: 24 }}>
        {loadingOlder ? (
          <Spin size="small" />
        ) : hasMore ? (
          <Button type="link" size="small" data-testid="load-older" onClick={() => void older()}>
            {t('dialogue.loadOlder')}
          </Button>
        ) : messages.length ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('dialogue.noMore')}
          </Typography.Text>
        ) : null}
      </div>
      {withSystemLines(messages, system, hasMore).map((m) =>
        'kind' in m ? (
          <SystemLine key={`sys:${m.kind}:${m.createtime}`} line={m} />
        ) : (
          <MessageItem
            key={m.id}
            m={m}
            mayWithdraw={!readOnly && canWithdraw(m, me, now)}
            translate={translates(m)}
            onImage={(id) =>
              setViewer(
                Math.max(
                  0,
                  images.findIndex((i) => i.src === mediaUrl('image', id)),
                ),
              )
            }
            onWithdraw={(x) => onWithdraw?.(x)}
            onRetry={(x) => onRetry?.(x)}
          />
        ),
      )}
      {typing && (
        <Typography.Text type="secondary" italic data-testid="visitor-typing" style={{ fontSize: 12 }}>
          {t('dialogue.visitorTyping')}: {typing}
        </Typography.Text>
      )}
      <ImageViewer images={images} index={viewer} onClose={() => setViewer(null)} />
    </div>
  );
}
