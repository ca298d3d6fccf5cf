import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The appeal-window reminder sweep (quality/notify.ts) reads sent results not yet reminded, soonest-closing
 * first: a partial index holds exactly those rows in that order, so the sweep reads its page and stops
 * instead of walking every inspection of the tenant (200k in bench B13).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('quality_inspection_remind')
    .on('quality_inspection')
    .columns(['appealuntil', 'id'])
    .where(sql.ref('status'), '=', 'sent')
    .where(sql.ref('reminded'), '=', 0)
    .execute();
}
