import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Knowledge base and AI robots (issue 15):
 * - kb_type: the type tree; kb_item: standard question, similar questions (JSON array), rich-text answer,
 *   enabled flag, validity window; kb_item_topic: related service topics.
 * - kb_question: one row per question of an item (standard and similar), with its jieba words in `tokens`
 *   (platform/search/tokens.ts). SQLite: a contentless FTS5 table (unicode61, bm25) over them, kept by
 *   triggers on kb_question and keyed by its rowid; PostgreSQL: a GIN index on to_tsvector('simple', tokens).
 * - robot, robot_binding (channel + target, e.g. webim + appid → robot), robot_session (one per robot
 *   conversation: fallbacks in a row, handoff), robot_question (every question asked, its outcome: the AI
 *   statistics and the unanswered-question list), robot_reply (a robot line's outcome, suggestions and
 *   citations, keyed by its chat_message id).
 * - agent_service.queuetime: when a conversation joined the human queue (a robot conversation joins it
 *   long after it was created; its wait and queue timeout count from here).
 * Scores and thresholds are stored as per-mille integers (0–1000).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const s = db.schema;
  await s
    .createTable('kb_type')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parentid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sortindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('kb_type_name').on('kb_type').columns(['orgi', 'parentid', 'name']).unique().execute();

  await s
    .createTable('kb_item')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('typeid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('similar', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('begintime', 'bigint')
    .addColumn('endtime', 'bigint')
    .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creater', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('kb_item_list').on('kb_item').columns(['orgi', 'updatetime', 'id']).execute();
  await s.createIndex('kb_item_type').on('kb_item').columns(['orgi', 'typeid', 'updatetime']).execute();
  await s.createIndex('kb_item_question').on('kb_item').columns(['orgi', 'question']).unique().execute();

  await s
    .createTable('kb_item_topic')
    .addColumn('itemid', 'text', (c) => c.notNull())
    .addColumn('topicid', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('kb_item_topic_pk', ['itemid', 'topicid'])
    .execute();
  await s.createIndex('kb_item_topic_topic').on('kb_item_topic').columns(['topicid']).execute();

  await s
    .createTable('kb_question')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('itemid', 'text', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('tokens', 'text', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s.createIndex('kb_question_item').on('kb_question').columns(['itemid']).execute();
  await s.createIndex('kb_question_orgi').on('kb_question').columns(['orgi']).execute();
  if (dialect === 'sqlite') {
    await sql`create virtual table kb_question_fts using fts5(
      tokens, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(db);
    await sql`create trigger kb_question_fts_insert after insert on kb_question
      when new.tokens <> '' begin
        insert into kb_question_fts (rowid, tokens) values (new.rowid, new.tokens);
      end`.execute(db);
    await sql`create trigger kb_question_fts_delete after delete on kb_question
      when old.tokens <> '' begin
        delete from kb_question_fts where rowid = old.rowid;
      end`.execute(db);
  } else {
    await sql`create index kb_question_search on kb_question using gin (to_tsvector('simple', tokens))`.execute(
      db,
    );
  }

  await s
    .createTable('robot')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('welcome', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fallback', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('suggestmsg', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('handoffmsg', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('answer_score', 'integer', (c) => c.notNull())
    .addColumn('suggest_score', 'integer', (c) => c.notNull())
    .addColumn('handoff_fallbacks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('handoff_keywords', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('handoff_button', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('kbtypes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('robot_name').on('robot').columns(['orgi', 'name']).unique().execute();

  await s
    .createTable('robot_binding')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('robotid', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('robot_binding_pk', ['channel', 'target'])
    .execute();
  await s.createIndex('robot_binding_robot').on('robot_binding').columns(['robotid']).execute();

  await s
    .createTable('robot_session')
    .addColumn('agentserviceid', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('robotid', 'text', (c) => c.notNull())
    .addColumn('fallbacks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('questions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('handoff', 'text')
    .addColumn('handofftime', 'bigint')
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('robot_session_time').on('robot_session').columns(['orgi', 'createtime']).execute();

  await s
    .createTable('robot_question')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('robotid', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('itemid', 'text')
    .addColumn('score', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('retrieval'))
    .addColumn('learned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('robot_question_time').on('robot_question').columns(['orgi', 'createtime']).execute();

  await s
    .createTable('robot_reply')
    .addColumn('msgid', 'text', (c) => c.primaryKey())
    .addColumn('agentserviceid', 'text', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .execute();

  await s.alterTable('agent_service').addColumn('queuetime', 'bigint').execute();
}
