import type { MessageDto, MsgType, WithdrawNotice } from '@kefu/protocol';

/**
 * The visitor's view of a conversation, as pure immutable updates:
 * - server messages, deduplicated by id and by (agentserviceid, seq), kept in seq order per conversation;
 * - the outbox: messages the visitor sent that have no ack yet (pending, or failed until resent with the
 *   same clientId);
 * - local notices (welcome, queue place, agent assigned, end) in arrival order, keyed so a new queue place
 *   replaces the old one.
 */
export type Entry =
  { kind: 'msg'; key: string; m: MessageDto } | { kind: 'notice'; key: string; text: string; time: number };

export interface Outgoing {
  clientId: string;
  msgtype: MsgType;
  message: string;
  attachmentid: string | null;
  filename: string | null;
  filesize: number | null;
  createtime: number;
  state: 'pending' | 'failed';
  /** The conversation it was written in (null or absent: before one existed). */
  agentserviceid?: string | null;
}

export interface Timeline {
  entries: Entry[];
  outbox: Outgoing[];
  /** Conversation the widget follows (its seq numbers are what `lastSeq` refers to). */
  current: string | null;
  /** Highest seq seen in `current` (read receipts); a reconnect resumes from `resumePosition` instead. */
  lastSeq: number;
  /** The agent has read the visitor's messages up to this seq of `current`. */
  readSeq: number;
}

export const emptyTimeline = (): Timeline => ({
  entries: [],
  outbox: [],
  current: null,
  lastSeq: 0,
  readSeq: 0,
});

/** Switches to a conversation; seq bookkeeping restarts when it is a different one. */
export function follow(tl: Timeline, agentserviceid: string | null, lastSeq = 0): Timeline {
  if (agentserviceid === tl.current) return tl;
  return { ...tl, current: agentserviceid, lastSeq, readSeq: 0 };
}

function sameSlot(e: Entry, m: MessageDto): boolean {
  return (
    e.kind === 'msg' && (e.m.id === m.id || (e.m.agentserviceid === m.agentserviceid && e.m.seq === m.seq))
  );
}

/** Adds or updates a server message; a duplicate (same id, or same conversation and seq) only updates. */
export function mergeMessage(tl: Timeline, m: MessageDto): Timeline {
  const entries = tl.entries.slice();
  const at = entries.findIndex((e) => sameSlot(e, m));
  const entry: Entry = { kind: 'msg', key: `m:${m.id}`, m };
  if (at >= 0) {
    const old = entries[at] as Extract<Entry, { kind: 'msg' }>;
    // Never resurrect a withdrawn message from a stale copy.
    const withdrawn = old.m.withdrawn || m.withdrawn;
    entries[at] = {
      ...entry,
      key: old.key,
      m: withdrawn ? { ...m, withdrawn: true, datastatus: 1, message: '' } : m,
    };
  } else {
    // After the last message of the same conversation with a smaller seq, else at the end.
    let pos = entries.length;
    let sawConversation = false;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (e.kind !== 'msg' || e.m.agentserviceid !== m.agentserviceid) continue;
      sawConversation = true;
      if (e.m.seq > m.seq) {
        pos = i;
        break;
      }
    }
    if (!sawConversation) pos = entries.length;
    entries.splice(pos, 0, entry);
  }
  const outbox = tl.outbox.filter((o) => o.clientId !== m.clientId);
  const lastSeq = m.agentserviceid === tl.current ? Math.max(tl.lastSeq, m.seq) : tl.lastSeq;
  return { ...tl, entries, outbox, lastSeq };
}

/** Seqs of the messages held of one conversation (what its resume position is computed from). */
export const heldSeqs = (tl: Timeline, agentserviceid: string): number[] => {
  const out: number[] = [];
  for (const e of tl.entries)
    if (e.kind === 'msg' && e.m.agentserviceid === agentserviceid) out.push(e.m.seq);
  return out;
};

export function addNotice(tl: Timeline, key: string, text: string, time: number): Timeline {
  const entries = tl.entries.filter((e) => e.key !== `n:${key}`);
  entries.push({ kind: 'notice', key: `n:${key}`, text, time });
  return { ...tl, entries };
}

export function removeNotice(tl: Timeline, key: string): Timeline {
  return { ...tl, entries: tl.entries.filter((e) => e.key !== `n:${key}`) };
}

export function withdrawMessage(tl: Timeline, n: WithdrawNotice): Timeline {
  return {
    ...tl,
    entries: tl.entries.map((e) =>
      e.kind === 'msg' && (e.m.id === n.id || (e.m.agentserviceid === n.agentserviceid && e.m.seq === n.seq))
        ? { ...e, m: { ...e.m, withdrawn: true, datastatus: 1 as const, message: '' } }
        : e,
    ),
  };
}

export function markRead(tl: Timeline, agentserviceid: string, seq: number): Timeline {
  if (agentserviceid !== tl.current || seq <= tl.readSeq) return tl;
  return { ...tl, readSeq: seq };
}

export function addOutgoing(tl: Timeline, o: Omit<Outgoing, 'state'>): Timeline {
  if (tl.outbox.some((x) => x.clientId === o.clientId)) return tl;
  return { ...tl, outbox: [...tl.outbox, { ...o, state: 'pending' }] };
}

/** The ack: the stored message replaces the pending one. */
export const ackOutgoing = (tl: Timeline, m: MessageDto): Timeline => mergeMessage(tl, m);

export function setOutgoingState(tl: Timeline, clientId: string, state: Outgoing['state']): Timeline {
  return { ...tl, outbox: tl.outbox.map((o) => (o.clientId === clientId ? { ...o, state } : o)) };
}

/**
 * Keeps the outbox entries written in `agentserviceid` (or before any conversation); `undefined` (no open
 * conversation) drops them all. Used on the first welcome for messages restored from storage.
 */
export function keepOutboxOf(tl: Timeline, agentserviceid: string | null | undefined): Timeline {
  const outbox =
    agentserviceid === undefined
      ? []
      : tl.outbox.filter((o) => !o.agentserviceid || o.agentserviceid === agentserviceid);
  return outbox.length === tl.outbox.length ? tl : { ...tl, outbox };
}

/** Everything without an ack, oldest first: resent (same clientId) after a reconnect. */
export const unacked = (tl: Timeline): Outgoing[] => tl.outbox.slice();

/** Visitor messages of `current` the agent has not read yet count as unread; others (agent's) are ignored. */
export const isReadByAgent = (tl: Timeline, m: MessageDto): boolean =>
  m.agentserviceid === tl.current ? m.seq <= tl.readSeq || m.readstatus === 1 : m.readstatus === 1;

/** Agent messages newer than `seenSeq` in the current conversation (the consult button's badge). */
export const unreadFromAgent = (tl: Timeline, seenSeq: number): number =>
  tl.entries.filter(
    (e) =>
      e.kind === 'msg' && e.m.agentserviceid === tl.current && e.m.calltype === 'out' && e.m.seq > seenSeq,
  ).length;
