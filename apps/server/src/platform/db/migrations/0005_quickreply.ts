import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Quick replies (canned replies): a tree of types and the replies, each public (`type` 'pub', owner '')
 * or personal (`type` 'pri', owner = the agent). '' stands for "no parent" / "no type" so the unique
 * indexes cover the root level on both dialects.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('quick_type')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parentid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('sortindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('quick_type_name')
    .on('quick_type')
    .columns(['orgi', 'owner', 'parentid', 'name'])
    .unique()
    .execute();

  await db.schema
    .createTable('quick_reply')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('cate', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('sortindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('quick_reply_title')
    .on('quick_reply')
    .columns(['orgi', 'owner', 'cate', 'title'])
    .unique()
    .execute();
}
