import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Upload quotas and orphan clean-up:
 * - media.ip: the uploader's address (visitor uploads are counted per IP), with indexes for the windowed
 *   counts per owner and per IP, and for the orphan sweep (visitor uploads by age);
 * - chat_message(attachmentid), partial (only rows with an attachment): which messages carry a file,
 *   for the /res access check and the sweep; plain text messages do not enter it;
 * - media_usage: bytes stored per tenant, reserved by one conditional UPDATE per upload so the cap holds
 *   across nodes; filled from what is stored now.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('media').addColumn('ip', 'text').execute();
  await db.schema.createIndex('media_owner_time').on('media').columns(['owner', 'createtime']).execute();
  await db.schema
    .createIndex('media_ip_time')
    .on('media')
    .columns(['ip', 'createtime'])
    .where(sql.ref('ip'), 'is not', null)
    .execute();
  await db.schema.createIndex('media_kind_time').on('media').columns(['owner_kind', 'createtime']).execute();
  await db.schema
    .createIndex('chat_message_attachment')
    .on('chat_message')
    .column('attachmentid')
    .where(sql.ref('attachmentid'), 'is not', null)
    .execute();
  await db.schema
    .createTable('media_usage')
    .addColumn('orgi', 'text', (c) => c.primaryKey())
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into media_usage (orgi, bytes) select orgi, sum(size) from media group by orgi`.execute(
    db,
  );
}
