import { WITHDRAW_WINDOW_MS, type MessageDto, type MsgType, type SystemLineDto } from '@kefu/protocol';

/** A message in the pane: a stored one, or the agent's own still waiting for its ack. */
export interface ChatMessage extends MessageDto {
  pending?: 'sending' | 'failed';
}

/**
 * Where a line sits: its seq; a supervisor's whisper (seq 0, it takes none) right after the line it
 * followed; seq 0 otherwise marks a message the server has not stored yet: those stay last, in send order.
 */
export const lineKey = (m: MessageDto): number =>
  m.whisper ? (m.afterseq ?? 0) + 0.5 : m.seq || Number.MAX_SAFE_INTEGER;
const order = (a: ChatMessage, b: ChatMessage) => lineKey(a) - lineKey(b);

/**
 * Adds stored messages (history page, realtime, catch-up, ack) to a list: a known id is replaced,
 * a pending copy with the same clientId gives way to the stored one, order is by seq.
 */
export function mergeMessages(list: readonly ChatMessage[], incoming: readonly MessageDto[]): ChatMessage[] {
  if (incoming.length === 0) return list as ChatMessage[];
  const byId = new Map(incoming.map((m) => [m.id, m]));
  const clientIds = new Set(incoming.map((m) => m.clientId));
  const kept = list.filter((m) => !byId.has(m.id) && !(m.pending && clientIds.has(m.clientId)));
  return [...kept, ...byId.values()].sort(order);
}

export const addPending = (list: readonly ChatMessage[], m: ChatMessage): ChatMessage[] => [
  ...list.filter((x) => x.clientId !== m.clientId || !x.pending),
  { ...m, pending: 'sending' },
];

export const failPending = (list: readonly ChatMessage[], clientId: string): ChatMessage[] =>
  list.map((m) => (m.pending && m.clientId === clientId ? { ...m, pending: 'failed' } : m));

export const applyWithdraw = (list: readonly ChatMessage[], id: string): ChatMessage[] =>
  list.map((m) =>
    m.id === id ? { ...m, withdrawn: true, datastatus: 1, message: '', puremsg: '', attachmentid: null } : m,
  );

/** The visitor read up to seq: the agent's messages up to it show as read. */
export const applyRead = (list: readonly ChatMessage[], seq: number): ChatMessage[] =>
  list.map((m) =>
    m.calltype === 'out' && m.seq > 0 && m.seq <= seq && !m.readstatus ? { ...m, readstatus: 1 } : m,
  );

export const highestSeq = (list: readonly ChatMessage[]): number =>
  list.reduce((n, m) => (m.seq > n ? m.seq : n), 0);

export const lowestSeq = (list: readonly ChatMessage[]): number | undefined =>
  list.reduce<number | undefined>(
    (n, m) => (m.seq > 0 && (n === undefined || m.seq < n) ? m.seq : n),
    undefined,
  );

/** Own, stored, not withdrawn, and sent less than 2 minutes ago. */
export const canWithdraw = (m: ChatMessage, me: string, now: number): boolean =>
  !m.pending &&
  !m.withdrawn &&
  !m.whisper &&
  m.calltype === 'out' &&
  m.userid === me &&
  m.type === 'message' &&
  now - m.createtime <= WITHDRAW_WINDOW_MS;

export type MediaLabels = Record<Exclude<MsgType, 'text' | 'tips'>, string>;

/** Placeholders of the chat-list summary (spec section 5): media never shows as raw text. */
export function messageSummary(
  m: Pick<MessageDto, 'msgtype' | 'message' | 'withdrawn'>,
  labels: MediaLabels,
  withdrawnLabel: string,
): string {
  if (m.withdrawn) return withdrawnLabel;
  if (m.msgtype === 'text' || m.msgtype === 'tips') return m.message.replace(/\s+/g, ' ').slice(0, 100);
  return labels[m.msgtype];
}

/** The server keeps `[image]`-style previews in lastmsg; show them with the same placeholders. */
export function lastmsgSummary(lastmsg: string, labels: MediaLabels): string {
  const m = /^\[(image|file|voice|video|emoticon)\]$/.exec(lastmsg);
  return m ? labels[m[1] as keyof MediaLabels] : lastmsg;
}

/** A random id of `len` characters from [A-Za-z0-9] (socket uuid, message clientId). */
export function randomId(len = 32): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(len);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => chars[b % chars.length]).join('');
}

/** Voice uploads: mp3/mpeg/ogg only (spec section 5). */
export function isVoiceFile(f: { name: string; type: string }): boolean {
  const t = f.type.toLowerCase();
  if (t === 'audio/mp3' || t === 'audio/mpeg' || t === 'audio/ogg') return true;
  return !t && /\.(mp3|mpeg|ogg)$/i.test(f.name);
}

/** Calls fn at most once per `ms` (sounds: spec 1.3 s). */
export function throttle(ms: number, now: () => number = () => Date.now()) {
  let last = Number.NEGATIVE_INFINITY;
  return (fn: () => void): boolean => {
    const t = now();
    if (t - last < ms) return false;
    last = t;
    fn();
    return true;
  };
}

/**
 * The messages with the conversation's system lines placed among them by time. Lines older than the
 * oldest message loaded wait until the older pages are (`hasMore`), so they never sit above a gap.
 */
export function withSystemLines(
  messages: readonly ChatMessage[],
  system: readonly SystemLineDto[] | undefined,
  hasMore: boolean,
): Array<ChatMessage | SystemLineDto> {
  if (!system?.length) return [...messages];
  const from = hasMore && messages.length ? messages[0].createtime : -Infinity;
  const lines = system.filter((l) => l.createtime >= from);
  const out: Array<ChatMessage | SystemLineDto> = [];
  let i = 0;
  for (const m of messages) {
    while (i < lines.length && lines[i].createtime <= m.createtime) out.push(lines[i++]);
    out.push(m);
  }
  while (i < lines.length) out.push(lines[i++]);
  return out;
}
