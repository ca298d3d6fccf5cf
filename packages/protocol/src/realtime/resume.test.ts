import { describe, expect, it } from 'vitest';
import type { MessageDto } from './dto.js';
import {
  CatchUp,
  firstGap,
  GAP_GRACE_MS,
  REPLAY_PAGE_SIZE,
  resumePosition,
  type ReplayPage,
} from './resume.js';

describe('resumePosition / firstGap', () => {
  it('is the highest seq below which everything is held, not the highest seen', () => {
    expect(resumePosition([])).toBe(0);
    expect(resumePosition([1, 2, 3])).toBe(3);
    // own acked 5 and 6 arrived, the other side's 3 and 4 did not
    expect(resumePosition([1, 2, 5, 6])).toBe(2);
    expect(firstGap([1, 2, 5, 6])).toEqual({ after: 2, next: 5 });
    expect(resumePosition([6, 1, 3, 2, 2])).toBe(3);
    expect(firstGap([6, 1, 3, 2, 2])).toEqual({ after: 3, next: 6 });
    expect(firstGap([1, 2, 3])).toBeNull();
  });

  it('ignores unsent drafts and starts above the base', () => {
    expect(resumePosition([0, 0, 1, 2])).toBe(2);
    expect(resumePosition([31, 32, 33], 30)).toBe(33);
    // nothing held of a conversation kept from its start: everything below seq 4 is missing
    expect(firstGap([4])).toEqual({ after: 0, next: 4 });
    expect(firstGap([4], 3)).toBeNull();
    expect(resumePosition([2, 3], 5)).toBe(5);
  });
});

const msg = (sid: string, seq: number): MessageDto =>
  ({ id: `${sid}-${seq}`, agentserviceid: sid, seq }) as unknown as MessageDto;

/** A server holding `total` messages of one conversation and a client holding some of them. */
function setup(total: number, held: number[], base = 0) {
  const seqs = new Set(held);
  const fetches: Array<{ after: number; ps: number }> = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  let failNext = false;
  const errors: unknown[] = [];
  const sync = new CatchUp({
    holding: () => ({ seqs, base }),
    fetch: (sid, after, ps) => {
      fetches.push({ after, ps });
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('timeout'));
      }
      const list: MessageDto[] = [];
      for (let s = after + 1; s <= Math.min(total, after + ps); s++) list.push(msg(sid, s));
      const page: ReplayPage = { agentserviceid: sid, list, hasMore: after + ps < total };
      return Promise.resolve(page);
    },
    deliver: (page) => page.list.forEach((m) => seqs.add(m.seq)),
    onError: (e) => errors.push(e),
    setTimer: (fn, ms) => {
      timers.push({ fn, ms });
      return 0 as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimer: () => undefined,
  });
  return {
    sync,
    seqs,
    fetches,
    timers,
    errors,
    failOnce: () => (failNext = true),
    /** Fires the pending timers and lets the fetches they start finish. */
    async tick() {
      for (const t of timers.splice(0)) t.fn();
      for (let i = 0; i < 20; i++) await Promise.resolve();
    },
  };
}

describe('CatchUp', () => {
  it('replays 1,500 missed messages page by page until the server has no more', async () => {
    const c = setup(1_500, [1, 2]);
    await c.sync.catchUp('s');
    expect(c.sync.position('s')).toBe(1_500);
    expect(c.fetches).toEqual([
      { after: 2, ps: REPLAY_PAGE_SIZE },
      { after: 502, ps: REPLAY_PAGE_SIZE },
      { after: 1002, ps: REPLAY_PAGE_SIZE },
    ]);
  });

  it('fetches a hole that stays open past the grace time, exactly the missing range', async () => {
    const c = setup(10, [1, 2, 6, 7]);
    c.sync.noticed('s');
    c.sync.noticed('s'); // one timer per conversation
    expect(c.timers.map((t) => t.ms)).toEqual([GAP_GRACE_MS]);
    expect(c.fetches).toEqual([]);
    await c.tick();
    expect(c.fetches).toEqual([{ after: 2, ps: 3 }]);
    expect([...c.seqs].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(c.sync.position('s')).toBe(7);
  });

  it('does not fetch a hole that fills within the grace time (an ack overtaking a line)', async () => {
    const c = setup(10, [1, 2, 4]);
    c.sync.noticed('s');
    c.seqs.add(3);
    await c.tick();
    expect(c.fetches).toEqual([]);
  });

  it('pages a long hole and then looks for the next one', async () => {
    const c = setup(2_000, [1, 1_200, 1_800]);
    c.sync.noticed('s');
    await c.tick();
    expect(c.fetches.slice(0, 3)).toEqual([
      { after: 1, ps: 500 },
      { after: 501, ps: 500 },
      { after: 1_001, ps: 198 },
    ]);
    // the second hole (1200, 1800) gets its own grace timer
    expect(c.timers.length).toBe(1);
    await c.tick();
    expect(c.sync.position('s')).toBe(1_800);
    expect(c.fetches.slice(3)).toEqual([
      { after: 1_200, ps: 500 },
      { after: 1_700, ps: 99 },
    ]);
  });

  it('runs the steps of one conversation one after the other, each from the position of the moment', async () => {
    const c = setup(30, [1]);
    await Promise.all([c.sync.catchUp('s'), c.sync.catchUp('s')]);
    expect(c.fetches).toEqual([
      { after: 1, ps: 500 },
      { after: 30, ps: 500 },
    ]);
  });

  it('reports a failed fetch and tries again on the next call', async () => {
    const c = setup(5, [1]);
    c.failOnce();
    await c.sync.catchUp('s');
    expect(c.errors.length).toBe(1);
    expect(c.sync.position('s')).toBe(1);
    await c.sync.catchUp('s');
    expect(c.sync.position('s')).toBe(5);
  });

  it('stops when a page cannot be placed, and after stop()', async () => {
    const c = setup(1_000, [1]);
    const stuck = new CatchUp({
      holding: () => ({ seqs: [1] }),
      fetch: (sid, after) =>
        Promise.resolve({ agentserviceid: sid, list: [msg(sid, after + 1)], hasMore: true }),
      deliver: () => undefined,
    });
    await stuck.catchUp('s');
    c.sync.stop();
    await c.sync.catchUp('s');
    expect(c.fetches).toEqual([]);
  });
});
