import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import { prescore } from './prescore.js';

/**
 * The durable side of automatic pre-scoring. The ending node's in-memory queue scores a conversation
 * within milliseconds; this sweep, run by every node, scores what a queue lost (its node died): ended
 * conversations without a pre-score, oldest first, from a watermark kept in `quality_sweep` so history is
 * not read again. One node sweeps at a time (a lease claimed by one conditional update; a dead node's lease
 * runs out); scoring itself is idempotent per conversation (see `prescore`), so a queue and a sweep meeting
 * on the same conversation still leave one set of findings.
 */
export const PRESCORE_SWEEP = {
  name: 'prescore',
  everyMs: 30_000,
  /** Conversations ended this recently are left to their node's queue. */
  graceMs: 60_000,
  batch: 200,
  /** At most this many conversations a run (the rest on the next one). */
  perRun: 1_000,
  leaseMs: 120_000,
  /**
   * Where the very first run starts (then the watermark moves on): a day back covers queues lost around
   * the upgrade that brought the sweep, without pre-scoring years of history on start-up.
   */
  backfillMs: 86_400_000,
} as const;

export interface SweepResult {
  scored: number;
  /** The watermark after the run. */
  mark: number;
}

/**
 * One run. Returns null when another node holds the lease. `now` and `perRun` are for the tests.
 */
export async function sweepPrescore(
  db: Db,
  opts: { now?: number; perRun?: number; owner?: string } = {},
): Promise<SweepResult | null> {
  const k = db.kysely;
  const now = opts.now ?? Date.now();
  const owner = opts.owner ?? newId();
  const name = PRESCORE_SWEEP.name;
  const upto = now - PRESCORE_SWEEP.graceMs;
  await k
    .insertInto('quality_sweep')
    .values({ name, mark: now - PRESCORE_SWEEP.backfillMs, updatetime: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const claimed = await k
    .updateTable('quality_sweep')
    .set({ owner, lease: now + PRESCORE_SWEEP.leaseMs, updatetime: now })
    .where('name', '=', name)
    .where('lease', '<', now)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  const row = await k
    .selectFrom('quality_sweep')
    .select('mark')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  let mark = Number(row.mark);
  let scored = 0;
  const perRun = opts.perRun ?? PRESCORE_SWEEP.perRun;
  try {
    while (scored < perRun) {
      const want = Math.min(PRESCORE_SWEEP.batch, perRun - scored);
      const rows = await k
        .selectFrom('agent_service')
        .select(['id', 'endtime'])
        .where('status', '=', 'end')
        .where('endtime', '>=', mark)
        .where('endtime', '<=', upto)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('quality_conv')
                .select(sql<number>`1`.as('one'))
                .whereRef('quality_conv.agentserviceid', '=', 'agent_service.id')
                .where('quality_conv.scanned', '=', 1),
            ),
          ),
        )
        .orderBy('endtime')
        .orderBy('id')
        .limit(want)
        .execute();
      if (rows.length)
        scored += await prescore(
          db,
          rows.map((r) => r.id),
          now,
        );
      // A short batch: nothing unscored is left before `upto`. A full one: rows ending at the last one's
      // time may remain, so the mark stops there (the scored ones drop out of the next read).
      if (rows.length < want) {
        mark = Math.max(mark, upto);
        break;
      }
      mark = Number(rows[rows.length - 1]!.endtime);
    }
  } finally {
    await k
      .updateTable('quality_sweep')
      .set({ mark, owner: '', lease: 0, updatetime: now })
      .where('name', '=', name)
      .where('owner', '=', owner)
      .execute();
  }
  return { scored, mark };
}

/**
 * A node's sweeper: runs one sweep at a time (a tick arriving during a run is dropped). `idle()` waits
 * for the run in flight (shutdown, tests).
 */
export function prescoreSweeper(db: Db, onError: (err: unknown) => void) {
  let running: Promise<void> | null = null;
  return {
    run(): Promise<void> {
      running ??= sweepPrescore(db)
        .then(() => undefined, onError)
        .finally(() => (running = null));
      return running;
    },
    idle: (): Promise<void> => running ?? Promise.resolve(),
  };
}
