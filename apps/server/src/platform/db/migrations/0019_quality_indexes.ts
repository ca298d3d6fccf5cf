import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Quality inspection, second step (issue 17):
 * - an index covering an agent's results by state and outcome in list order (bench B13: "agent + sent +
 *   failed" counted the agent's every row on SQLite);
 * - quality_sweep: the durable pre-scoring sweep's watermark (every ended conversation before `mark` has
 *   been pre-scored) and its lease (one node sweeps at a time; a dead node's lease runs out).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('quality_inspection_agent_state')
    .on('quality_inspection')
    .columns(['orgi', 'agentno', 'status', 'pass', 'allottime', 'id'])
    .execute();

  await db.schema
    .createTable('quality_sweep')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('mark', 'bigint', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lease', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
}
