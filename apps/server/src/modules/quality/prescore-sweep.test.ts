import { QUALITY_API as A } from '@kefu/protocol';
import { describe, expect, it } from 'vitest';
import { perTest, type SeededApp } from '../../../test/factories.js';
import { prescoreSweeperOf } from './index.js';
import { prescore } from './prescore.js';
import { PRESCORE_SWEEP, sweepPrescore } from './prescore-sweep.js';
import { endedChat, okData, req } from './quality.fixtures.js';

const env = perTest();

/** Findings per conversation and rule (a second scoring must replace, never add). */
async function findingCounts(t: SeededApp) {
  const rows = await t.db.kysely
    .selectFrom('quality_finding')
    .select(['agentserviceid', 'rule'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .groupBy(['agentserviceid', 'rule'])
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

const scannedIds = async (t: SeededApp) =>
  (
    await t.db.kysely
      .selectFrom('quality_conv')
      .select('agentserviceid')
      .where('scanned', '=', 1)
      .orderBy('agentserviceid')
      .execute()
  ).map((r) => r.agentserviceid);

/** A tenant whose agents must close with 拜拜: every seeded chat gets a `closing` finding. */
async function world() {
  const t = await env.seeded();
  // The start-up sweep has run (and set the watermark) before anything below ended.
  await prescoreSweeperOf(t.app)!.idle();
  okData(await req(t, t.adminToken, A.settingsSave, { closings: ['拜拜'] }));
  const agent = await t.db.kysely
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
  /** Ended at `endtime` by a node whose queue never ran (written straight into the tables). */
  const lost = (endtime: number) => endedChat(t, agent.id, { createtime: endtime - 65_000, endtime });
  return { t, lost };
}

describe('pre-scoring sweep (durable)', () => {
  it('scores conversations a dead node never pre-scored, oldest first, bounded per run, once', async () => {
    const { t, lost } = await world();
    const base = Date.now();
    // Older than the watermark the start-up run left: history, not read again.
    const history = await lost(base - 3_600_000);
    const a = await lost(base + 1_000);
    const b = await lost(base + 2_000);
    const c = await lost(base + 3_000);
    expect(await scannedIds(t)).toEqual([]);

    const later = base + 3_000 + PRESCORE_SWEEP.graceMs + 1;
    // Too recent for the sweep (its node's queue has the grace period): nothing yet.
    expect(await sweepPrescore(t.db, { now: base + 3_000 })).toMatchObject({ scored: 0 });
    // Bounded: two a run, the oldest first; the watermark stops at the last scored.
    expect(await sweepPrescore(t.db, { now: later, perRun: 2 })).toEqual({ scored: 2, mark: base + 2_000 });
    expect(await scannedIds(t)).toEqual([a, b].sort());
    expect(await sweepPrescore(t.db, { now: later, perRun: 2 })).toEqual({
      scored: 1,
      mark: later - PRESCORE_SWEEP.graceMs,
    });
    expect(await scannedIds(t)).toEqual([a, b, c].sort());
    // Nothing left: a run scores nothing and the findings stay one set per conversation.
    expect(await sweepPrescore(t.db, { now: later + 1 })).toMatchObject({ scored: 0 });
    const counts = await findingCounts(t);
    expect(
      counts
        .filter((x) => x.rule === 'closing')
        .map((x) => x.agentserviceid)
        .sort(),
    ).toEqual([a, b, c].sort());
    expect(counts.every((x) => x.n === 1)).toBe(true);
    expect(counts.some((x) => x.agentserviceid === history)).toBe(false);
  });

  it('two sweeps at once (two nodes) and a queue meeting a sweep do not duplicate findings', async () => {
    const { t, lost } = await world();
    const base = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await lost(base + i));
    const now = base + 30 + PRESCORE_SWEEP.graceMs;

    const runs = await Promise.all([
      sweepPrescore(t.db, { now, owner: 'node-1' }),
      sweepPrescore(t.db, { now, owner: 'node-2' }),
    ]);
    // One node held the lease; the other left the run to it.
    expect(runs.filter((r) => r === null)).toHaveLength(1);
    expect(runs.find((r) => r !== null)?.scored).toBe(30);
    expect(await scannedIds(t)).toEqual([...ids].sort());
    const once = await findingCounts(t);
    expect(once.filter((x) => x.rule === 'closing')).toHaveLength(30);
    expect(once.every((x) => x.n === 1)).toBe(true);
    // The lease was given back: the next run (any node) may sweep.
    expect(await sweepPrescore(t.db, { now: now + 1, owner: 'node-2' })).toMatchObject({ scored: 0 });

    // The same conversations scored twice at the same time (an ending node's queue and a sweep): the
    // second waits for the first and replaces its findings.
    await Promise.all([prescore(t.db, ids), prescore(t.db, [...ids].reverse()), prescore(t.db, ids)]);
    expect(await findingCounts(t)).toEqual(expect.arrayContaining(once));
    expect((await findingCounts(t)).every((x) => x.n === 1)).toBe(true);
    expect(await findingCounts(t)).toHaveLength(once.length);
  });

  it('a lease left by a dead node runs out; until then other nodes do not sweep', async () => {
    const { t, lost } = await world();
    const base = Date.now();
    const x = await lost(base + 1_000);
    const now = base + 1_000 + PRESCORE_SWEEP.graceMs;
    // node-1 claimed the sweep and died: its lease stays.
    await t.db.kysely
      .updateTable('quality_sweep')
      .set({ owner: 'node-1', lease: now + 5_000 })
      .where('name', '=', PRESCORE_SWEEP.name)
      .execute();
    expect(await sweepPrescore(t.db, { now, owner: 'node-2' })).toBeNull();
    expect(await scannedIds(t)).toEqual([]);
    expect(await sweepPrescore(t.db, { now: now + 5_001, owner: 'node-2' })).toMatchObject({ scored: 1 });
    expect(await scannedIds(t)).toEqual([x]);
  });
});
