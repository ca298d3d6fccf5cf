import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * History keyword search, newest first without reading every match (bench B8; history.query.ts readPage):
 * the list reads the matches of a recent window of time and widens it only as far as its page and its
 * bounded count need.
 * - PostgreSQL: chat_message (createtime), so a window's matches are the GIN index's bitmap ANDed with
 *   this one's and only their rows are read (before, every matching message row was read for any page).
 *   Built over the existing rows here.
 * - SQLite: nothing to add: the FTS row id is already the message's time (migration 0008).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create index if not exists chat_message_time on chat_message (createtime)`.execute(db);
}
