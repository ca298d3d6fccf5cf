import { useEffect, useState, type MouseEvent } from 'react';
import { theme } from 'antd';
import type { MessageDto, QualityTranscriptDto } from '@kefu/protocol';
import { MessageList } from '../../dialogue/components/MessageList';
import { qualityApi } from '../api';

/**
 * The inspected conversation, read-only, drawn by the chat's own message list. Clicking a message hands
 * its id to `onPick` (citing it for the chosen item); cited messages are outlined, those of the chosen
 * item strongly. The list marks each line with data-seq, so clicks and outlines go through that attribute.
 */
export function QualityTranscript(props: {
  inspectionid: string;
  first: QualityTranscriptDto;
  cited: ReadonlySet<string>;
  active: ReadonlySet<string>;
  onPick?: (messageid: string) => void;
}) {
  const { token } = theme.useToken();
  const [messages, setMessages] = useState<MessageDto[]>(props.first.messages);
  const { inspectionid, first } = props;
  useEffect(() => {
    // The rest of a long conversation, page after page (a transcript is read whole to be inspected).
    const ctrl = new AbortController();
    setMessages(first.messages);
    const more = async (after: number) => {
      let list = first.messages;
      let next = after;
      let go = first.more;
      while (go && !ctrl.signal.aborted) {
        const p = await qualityApi.read(inspectionid, next, ctrl.signal);
        list = [...list, ...p.messages];
        setMessages(list);
        const last = p.messages[p.messages.length - 1];
        go = p.more && !!last;
        next = last?.seq ?? next;
      }
    };
    void more(first.messages[first.messages.length - 1]?.seq ?? 0).catch(() => undefined);
    return () => ctrl.abort();
  }, [inspectionid, first]);

  const bySeq = new Map(messages.map((m) => [String(m.seq), m.id]));
  const seqOf = new Map(messages.map((m) => [m.id, m.seq]));
  const outline = (ids: ReadonlySet<string>, color: string, width: number) => {
    const sel = [...ids]
      .map((id) => seqOf.get(id))
      .filter((s) => s !== undefined)
      .map((s) => `[data-testid="qc-transcript"] [data-seq="${s}"] [data-testid="message-body"]`);
    return sel.length ? `${sel.join(',')}{outline:${width}px solid ${color};outline-offset:2px;}` : '';
  };
  const pick = (e: MouseEvent<HTMLDivElement>) => {
    if (!props.onPick) return;
    const el = (e.target as HTMLElement).closest('[data-seq]');
    const id = el ? bySeq.get(el.getAttribute('data-seq') ?? '') : undefined;
    if (id) props.onPick(id);
  };
  return (
    <div
      data-testid="qc-transcript"
      data-picking={props.onPick ? 'on' : 'off'}
      onClick={pick}
      style={{
        display: 'flex',
        flexDirection: 'column',
        height: '100%',
        cursor: props.onPick ? 'crosshair' : undefined,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
      }}
    >
      <style>
        {outline(props.cited, token.colorWarningBorder, 2)}
        {outline(props.active, token.colorError, 3)}
      </style>
      <MessageList
        sid={inspectionid}
        messages={messages}
        hasMore={false}
        me=""
        readOnly
        onLoadOlder={async () => undefined}
      />
    </div>
  );
}
