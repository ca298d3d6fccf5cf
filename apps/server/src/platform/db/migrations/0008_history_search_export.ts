import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The FTS row id orders entries by the message's time (ms × 65,536 plus the low bits of the message's row
 * id), so a date range bounds the index scan (rowid >= begin × 65,536) and the newest matches come first,
 * whether a row was indexed when stored or by the backfill. Two messages of the same millisecond collide
 * only 65,536 inserts apart; then the newer one replaces the older in the index (OR REPLACE), which can
 * never fail the message's own INSERT.
 */
const FTS_ROWID = sql.raw('new.createtime * 65536 + (new.rowid & 65535)');

/**
 * Conversation history, message search and background exports (issue 12):
 * - chat_message.tokens: the message's words as segmented by jieba (search mode) plus its single Chinese
 *   characters, space-separated, written with the message inside the group commit ('' when there is
 *   nothing to index, null only for rows stored before this migration until the backfill reaches them;
 *   the partial index finds those).
 *   SQLite: a contentless FTS5 table over it (unicode61, bm25), fed by triggers; it keeps the message
 *   and conversation ids (unindexed) so a search needs no join to find its conversations.
 *   PostgreSQL: a GIN index on to_tsvector('simple', tokens).
 * - agent_service (orgi, status, createtime, id): the history list, newest first, by page or cursor;
 *   (id, orgi, status, createtime): a keyword's matches looked up by id without reading the wide rows.
 * - export_job: background exports with their progress and file.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('chat_message').addColumn('tokens', 'text').execute();
  await db.schema
    .createIndex('chat_message_untokenized')
    .on('chat_message')
    .column('id')
    .where(sql.ref('tokens'), 'is', null)
    .execute();
  if (dialect === 'sqlite') {
    await sql`create virtual table chat_message_fts using fts5(
      tokens, agentserviceid unindexed, msgid unindexed,
      content='', contentless_delete=1, contentless_unindexed=1, tokenize='unicode61 remove_diacritics 2')`.execute(
      db,
    );
    await sql`create trigger chat_message_fts_insert after insert on chat_message
      when new.tokens is not null and new.tokens <> '' begin
        insert or replace into chat_message_fts (rowid, tokens, agentserviceid, msgid)
        values (${FTS_ROWID}, new.tokens, new.agentserviceid, new.id);
      end`.execute(db);
    // The backfill of rows stored before this migration sets tokens once (null → value).
    await sql`create trigger chat_message_fts_backfill after update of tokens on chat_message
      when old.tokens is null and new.tokens <> '' begin
        insert or replace into chat_message_fts (rowid, tokens, agentserviceid, msgid)
        values (${FTS_ROWID}, new.tokens, new.agentserviceid, new.id);
      end`.execute(db);
    // A withdrawn message is no longer found (its text is not shown either).
    await sql`create trigger chat_message_fts_withdraw after update of withdrawn on chat_message
      when new.withdrawn = 1 and old.withdrawn = 0 and old.tokens <> '' begin
        delete from chat_message_fts where rowid = old.createtime * 65536 + (old.rowid & 65535);
      end`.execute(db);
  } else {
    await sql`create index chat_message_search on chat_message using gin (to_tsvector('simple', tokens))`.execute(
      db,
    );
  }

  await db.schema
    .createIndex('agent_service_history')
    .on('agent_service')
    .columns(['orgi', 'status', 'createtime', 'id'])
    .execute();
  // A keyword's matching conversations are looked up by id, tens of thousands at a time: this index
  // answers the lookup, the scope's default filter and the default order without reading the wide rows.
  await db.schema
    .createIndex('agent_service_hit')
    .on('agent_service')
    .columns(['id', 'orgi', 'status', 'createtime'])
    .execute();

  await db.schema
    .createTable('export_job')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('rows', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'bigint')
    .addColumn('size', 'bigint')
    .addColumn('path', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'text')
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .addColumn('finishtime', 'bigint')
    .execute();
  await db.schema.createIndex('export_job_user').on('export_job').columns(['userid', 'createtime']).execute();
  await db.schema.createIndex('export_job_finish').on('export_job').columns(['finishtime']).execute();
}
