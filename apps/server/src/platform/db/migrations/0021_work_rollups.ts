import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Work statistics over long ranges (bench B12: a year of 50 agents is 18,250 stat_agent_day rows, which
 * the per-agent table and the chart each summed):
 * - stat_agent_block: stat_agent_day summed by blocks of 16 local days (block = day / 16). An agent's
 *   figures over a range read the whole blocks inside it and stat_agent_day only at the two ends.
 * - stat_agent_total: stat_agent_day summed over the tenant's agents, by day (the chart when every agent
 *   with time in the range is shown).
 * - stat_agent_day (orgi, day, userid, sums): read in order without the table rows (the per-day list's
 *   page and the chart of a subset of agents).
 * Both new rollups are backfilled from stat_agent_day; from then on the state-change hook and
 * `npm run analysis:rebuild` keep them with it.
 */
/** Days per stat_agent_block row (contribution.ts BLOCK_DAYS: the two must agree). */
const BLOCK_DAYS = 16;

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('stat_agent_block')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('block', 'integer', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('ready_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('busy_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('notready_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stat_agent_block_pk', ['orgi', 'block', 'userid'])
    .execute();
  await db.schema
    .createTable('stat_agent_total')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('ready_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('busy_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('notready_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stat_agent_total_pk', ['orgi', 'day'])
    .execute();
  await db.schema
    .createIndex('stat_agent_day_sums')
    .on('stat_agent_day')
    .columns(['orgi', 'day', 'userid', 'ready_ms', 'busy_ms', 'notready_ms'])
    .execute();
  await backfill(db);
}

/** The two rollups from stat_agent_day (the rows stored before this migration). */
export async function backfill(db: Kysely<unknown>): Promise<void> {
  await sql`insert into stat_agent_block (orgi, block, userid, ready_ms, busy_ms, notready_ms)
    select orgi, day / ${sql.lit(BLOCK_DAYS)}, userid, sum(ready_ms), sum(busy_ms), sum(notready_ms)
    from stat_agent_day group by orgi, day / ${sql.lit(BLOCK_DAYS)}, userid`.execute(db);
  await sql`insert into stat_agent_total (orgi, day, ready_ms, busy_ms, notready_ms)
    select orgi, day, sum(ready_ms), sum(busy_ms), sum(notready_ms)
    from stat_agent_day group by orgi, day`.execute(db);
}
