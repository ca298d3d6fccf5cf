import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Quality inspection, third step (issue 17): quality_decision, the inspector's decision on each automatic
 * finding of an inspected conversation (confirmed, or overridden with the inspector's points and a
 * reason), kept apart from quality_finding (whose values never change): one row per inspection and
 * finding, with the rule and the finding's points when decided, who and when.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('quality_decision')
    .addColumn('inspectionid', 'text', (c) => c.notNull())
    .addColumn('findingid', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('decision', 'text', (c) => c.notNull())
    .addColumn('autopoints', 'integer', (c) => c.notNull())
    .addColumn('points', 'integer')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('quality_decision_pk', ['inspectionid', 'findingid'])
    .execute();
}
