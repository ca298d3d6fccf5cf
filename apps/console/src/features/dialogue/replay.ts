import { CatchUp, type MessageDto, type ReplayPage } from '@kefu/protocol';
import { ackWithin, type AgentSocket } from '../../lib/socket';
import { useDialogue } from './store';
import { highestSeq, lowestSeq, mergeMessages } from './model/messages';
import { summaryOf } from './summary';

/** No answer to a `replay` within this time: the step fails and the next resync, gap or reconnect retries. */
const REPLAY_ACK_TIMEOUT_MS = 15_000;

export interface DialogueReplay {
  /** Resume position per conversation held in the store: the handshake's `lastSeqs`. */
  lastSeqs(): Record<string, number>;
  /** The server's `resync`: replays every held conversation from its resume position. */
  resync(): Promise<void>;
  stop(): void;
}

/**
 * The agent workspace's side of catch-up (CatchUp from packages/protocol over the dialogue store): a
 * conversation's seqs are the messages the store holds; a conversation opened on a page that has older
 * history (`hasMore`) is kept from that page's first seq, any other from its start. Every change of a
 * message list is checked for a hole, and replayed pages are merged without disturbing the chat list's
 * summary with lines older than the ones it already shows.
 */
export function dialogueReplay(socket: () => AgentSocket | null): DialogueReplay {
  const sync = new CatchUp({
    holding: (sid) => {
      const s = useDialogue.getState();
      const list = s.messages[sid] ?? [];
      const base = s.loaded[sid] && s.hasMore[sid] ? (lowestSeq(list) ?? 1) - 1 : 0;
      return { seqs: list.map((m) => m.seq), base };
    },
    fetch: (agentserviceid, after, ps) =>
      new Promise<ReplayPage>((resolve, reject) => {
        const s = socket();
        if (!s?.connected) return reject(new Error('offline'));
        s.emit(
          'replay',
          { agentserviceid, after, ps },
          ackWithin<ReplayPage>(REPLAY_ACK_TIMEOUT_MS, (res) =>
            res?.success ? resolve(res.data) : reject(new Error(res ? res.msg : 'timeout')),
          ),
        );
      }),
    deliver: (page) => merge(page.agentserviceid, page.list),
  });

  const unsubscribe = useDialogue.subscribe((s, prev) => {
    if (s.messages === prev.messages) return;
    for (const sid of Object.keys(s.messages)) if (s.messages[sid] !== prev.messages[sid]) sync.noticed(sid);
  });

  return {
    lastSeqs: () => {
      const out: Record<string, number> = {};
      for (const sid of Object.keys(useDialogue.getState().messages)) out[sid] = sync.position(sid);
      return out;
    },
    resync: async () => {
      await Promise.all(Object.keys(useDialogue.getState().messages).map((sid) => sync.catchUp(sid)));
    },
    stop: () => {
      unsubscribe();
      sync.stop();
    },
  };
}

/** Adds replayed messages the store lacks; only lines newer than all it held move the chat list on. */
function merge(sid: string, list: readonly MessageDto[]): void {
  const st = useDialogue.getState();
  const held = st.messages[sid] ?? [];
  const known = new Set(held.map((m) => m.id));
  const fresh = list.filter((m) => !known.has(m.id));
  if (fresh.length === 0) return;
  const top = highestSeq(held);
  useDialogue.setState((s) => ({
    messages: { ...s.messages, [sid]: mergeMessages(s.messages[sid] ?? [], fresh) },
  }));
  for (const m of fresh) if (m.seq > top) st.dispatch({ type: 'message', msg: m, summary: summaryOf(m) });
}
