import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/** Online visitors: page views reported by the embed loader, one row per visitor trace, invites. */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('online_visitor')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('traceid', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('useragent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('browser', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('os', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('firsttime', 'bigint', (c) => c.notNull())
    .addColumn('lasttime', 'bigint', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visits', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('invitestatus', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('inviteid', 'text')
    .addColumn('inviteagent', 'text')
    .addColumn('invitetimes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invitetime', 'bigint')
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('online_visitor_pk', ['orgi', 'traceid'])
    .execute();
  await db.schema
    .createIndex('online_visitor_last')
    .on('online_visitor')
    .columns(['orgi', 'lasttime'])
    .execute();

  await db.schema
    .createTable('page_view')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('traceid', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('referrer', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('browser', 'text', (c) => c.notNull())
    .addColumn('os', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('page_view_trace')
    .on('page_view')
    .columns(['orgi', 'traceid', 'createtime'])
    .execute();

  await db.schema
    .createTable('invite_record')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('traceid', 'text', (c) => c.notNull())
    .addColumn('agentno', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('result', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('responsetime', 'bigint')
    .execute();
  await db.schema
    .createIndex('invite_record_trace')
    .on('invite_record')
    .columns(['orgi', 'traceid'])
    .execute();
}
