import type { MessageDto } from './dto.js';

/**
 * Client-side catch-up, shared by the console's agent runtime and the visitor widget (and used by the
 * server's two-node test): where a client resumes a conversation, when a hole in what it holds is worth a
 * fetch, and paging a replay until the server has nothing more.
 *
 * The resume position is NOT the highest seq seen: a client's own acknowledged messages interleave with
 * the other side's, so "highest seen" jumps over lines that never arrived (a Redis outage between nodes)
 * and a reconnect would never ask for them again. It is the highest seq below which every message is held.
 */

/** Messages per replay page: the server's connect catch-up and the `replay` event both page by this. */
export const REPLAY_PAGE_SIZE = 500;

/**
 * How long a hole may stay open before it is fetched. A hole is usually a line still in flight: an ack of
 * one's own message can overtake the other side's line that was stored just before it.
 */
export const GAP_GRACE_MS = 500;

/** Why the server asks its sockets to replay (`resync`): cross-node delivery was down and is back. */
export type ResyncReason = 'delivery_restored';

export interface ResyncNotice {
  reason: ResyncReason;
}

/** One page of a conversation's messages with seq > `after`, ascending (ack of `replay`). */
export interface ReplayPage {
  agentserviceid: string;
  list: MessageDto[];
  /** More messages follow the page: ask again from the new resume position. */
  hasMore: boolean;
}

/**
 * The highest seq h such that every seq in (base, h] is among `seqs` (any order; duplicates and
 * non-positive values, i.e. unsent drafts, are ignored). Seqs at or below `base` count as held: history the
 * client has not loaded and does not need to resume.
 */
export function resumePosition(seqs: Iterable<number>, base = 0): number {
  const held = new Set(seqs);
  let h = base;
  while (held.has(h + 1)) h++;
  return h;
}

/**
 * The first hole above the resume position: the seqs strictly between `after` (the resume position) and
 * `next` (the lowest seq held above it) are missing. Null when nothing is held above the resume position.
 */
export function firstGap(seqs: Iterable<number>, base = 0): { after: number; next: number } | null {
  const list = [...seqs];
  const after = resumePosition(list, base);
  let next = Infinity;
  for (const s of list) if (s > after && s < next) next = s;
  return next === Infinity ? null : { after, next };
}

/** What a client holds of one conversation. */
export interface Holding {
  /** Seqs of the messages held, any order. */
  seqs: Iterable<number>;
  /** Seqs at or below it are history the client does not keep (0: it keeps the conversation from its start). */
  base?: number;
}

type Timer = ReturnType<typeof setTimeout>;

export interface CatchUpOptions {
  /** What the client holds of a conversation, read afresh at every step. */
  holding(agentserviceid: string): Holding;
  /** One page of messages with seq > `after`, at most `ps` of them (the `replay` event). Rejects on failure. */
  fetch(agentserviceid: string, after: number, ps: number): Promise<ReplayPage>;
  /** Merges a page into the client's state (which drops messages it already has, by id). */
  deliver(page: ReplayPage): void;
  /** A fetch failed (timeout, refused): the next resync, reconnect or gap tries again. */
  onError?(err: unknown): void;
  /** For tests: timers. */
  setTimer?(fn: () => void, ms: number): Timer;
  clearTimer?(t: Timer): void;
}

/**
 * Keeps a client's conversations complete: `noticed` after every merge fetches a hole that stays open for
 * GAP_GRACE_MS, `catchUp` replays from the resume position until the server has no more (after the server's
 * `resync`). Steps of one conversation run one after the other, each reading the position afresh, so a
 * page that arrives while another is merged never makes it ask twice for the same range.
 */
export class CatchUp {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, Timer>();
  private stopped = false;

  constructor(private readonly o: CatchUpOptions) {}

  /** The seq to resume `agentserviceid` from (the handshake's `lastSeq` / `lastSeqs`). */
  position(agentserviceid: string): number {
    const h = this.o.holding(agentserviceid);
    return resumePosition(h.seqs, h.base);
  }

  /** A message of the conversation was merged: if it left a hole below it, fetch the hole unless it fills. */
  noticed(agentserviceid: string): void {
    if (this.stopped || this.timers.has(agentserviceid) || !this.gap(agentserviceid)) return;
    const set = this.o.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.timers.set(
      agentserviceid,
      set(() => {
        this.timers.delete(agentserviceid);
        const gap = this.gap(agentserviceid);
        if (!gap) return;
        void this.step(agentserviceid, gap.next).then(() => this.noticed(agentserviceid));
      }, GAP_GRACE_MS),
    );
  }

  /** Replays the conversation from its resume position until the server answers that nothing follows. */
  catchUp(agentserviceid: string): Promise<void> {
    return this.step(agentserviceid, undefined);
  }

  stop(): void {
    this.stopped = true;
    const clear = this.o.clearTimer ?? ((t) => clearTimeout(t));
    for (const t of this.timers.values()) clear(t);
    this.timers.clear();
  }

  private gap(agentserviceid: string): { after: number; next: number } | null {
    const h = this.o.holding(agentserviceid);
    return firstGap(h.seqs, h.base);
  }

  /** Queues a replay of the conversation: to seq `until` (exclusive), or until the server has no more. */
  private step(agentserviceid: string, until: number | undefined): Promise<void> {
    const prev = this.chains.get(agentserviceid) ?? Promise.resolve();
    const run = prev.then(() => this.replay(agentserviceid, until));
    this.chains.set(agentserviceid, run);
    void run.then(() => {
      if (this.chains.get(agentserviceid) === run) this.chains.delete(agentserviceid);
    });
    return run;
  }

  private async replay(agentserviceid: string, until: number | undefined): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        const after = this.position(agentserviceid);
        const ps = until === undefined ? REPLAY_PAGE_SIZE : Math.min(REPLAY_PAGE_SIZE, until - after - 1);
        if (ps <= 0) return;
        const page = await this.o.fetch(agentserviceid, after, ps);
        if (this.stopped) return;
        this.o.deliver(page);
        // The client could not place what came (a conversation it no longer follows): do not loop on it.
        if (!page.hasMore || page.list.length === 0 || this.position(agentserviceid) <= after) return;
      }
    } catch (err) {
      this.o.onError?.(err);
    }
  }
}
