import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Visitor channel: per-access-point widget settings and tenant settings (JSON documents), FAQ,
 * working-hours schedules, satisfaction opinions and ratings, leave messages, IP blacklist.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('channel_setting')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('section', 'text', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('channel_setting_pk', ['orgi', 'scope', 'section'])
    .execute();

  await db.schema
    .createTable('access_faq')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('sortindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_faq_appid').on('access_faq').columns(['appid', 'sortindex']).execute();

  await db.schema
    .createTable('work_service')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('organ', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('notinwhmsg', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('weekly', 'text', (c) => c.notNull())
    .addColumn('holidays', 'text', (c) => c.notNull())
    .addColumn('workdays', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  // One schedule per department ('' = the whole organisation).
  await db.schema
    .createIndex('work_service_organ')
    .on('work_service')
    .columns(['orgi', 'organ'])
    .unique()
    .execute();

  await db.schema
    .createTable('satis_opinion')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sortindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('satis_opinion_name')
    .on('satis_opinion')
    .columns(['orgi', 'name'])
    .unique()
    .execute();

  await db.schema
    .createTable('satis_rating')
    .addColumn('agentserviceid', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('agentno', 'text')
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('levelname', 'text', (c) => c.notNull())
    .addColumn('opinions', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('times', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('leave_message')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mobile', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('agentno', 'text')
    .addColumn('allocator', 'text')
    .addColumn('allocatetime', 'bigint')
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('donetime', 'bigint')
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('leave_message_status')
    .on('leave_message')
    .columns(['orgi', 'status', 'createtime'])
    .execute();
  await db.schema
    .createIndex('leave_message_agent')
    .on('leave_message')
    .columns(['agentno', 'status'])
    .execute();

  await db.schema
    .createTable('blacklist_ip')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('controltime', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('endtime', 'bigint')
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('blacklist_ip_ip')
    .on('blacklist_ip')
    .columns(['orgi', 'ip'])
    .unique()
    .execute();
}
