import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/** Organisation, users, departments, roles, permission codes, tokens and login log. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('organization')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('favlogo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('organ')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parentid', 'text')
    .addColumn('skill', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sortindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organ_orgi_name').on('organ').columns(['orgi', 'name']).unique().execute();
  await db.schema.createIndex('organ_parent').on('organ').columns(['orgi', 'parentid']).execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('uname', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text')
    .addColumn('mobile', 'text')
    .addColumn('usertype', 'text', (c) => c.notNull().defaultTo('1'))
    .addColumn('superuser', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('organ', 'text')
    .addColumn('maxusers', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('zh'))
    .addColumn('warningtone', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('messagetone', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('warningpath', 'text', (c) => c.notNull().defaultTo('new.mp3'))
    .addColumn('messagepath', 'text', (c) => c.notNull().defaultTo('message.mp3'))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .addColumn('lastlogin', 'bigint')
    .execute();
  await db.schema
    .createIndex('users_orgi_username')
    .on('users')
    .columns(['orgi', 'username'])
    .unique()
    .execute();
  await db.schema.createIndex('users_orgi_mobile').on('users').columns(['orgi', 'mobile']).unique().execute();
  await db.schema.createIndex('users_orgi_email').on('users').columns(['orgi', 'email']).unique().execute();
  await db.schema.createIndex('users_organ').on('users').columns(['organ']).execute();

  await db.schema
    .createTable('user_organ')
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('organid', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_organ_pk', ['userid', 'organid'])
    .execute();
  await db.schema.createIndex('user_organ_organ').on('user_organ').columns(['organid']).execute();

  await db.schema
    .createTable('role')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('role_orgi_name').on('role').columns(['orgi', 'name']).unique().execute();

  await db.schema
    .createTable('user_role')
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('roleid', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_role_pk', ['userid', 'roleid'])
    .execute();
  await db.schema.createIndex('user_role_role').on('user_role').columns(['roleid']).execute();

  await db.schema
    .createTable('role_auth')
    .addColumn('roleid', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_auth_pk', ['roleid', 'code'])
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .addColumn('lastused', 'bigint', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('tokens_user').on('tokens').columns(['userid']).execute();

  await db.schema
    .createTable('login_log')
    .addColumn('id', sql.raw(serial) as never, (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('userid', 'text')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('useragent', 'text', (c) => c.notNull())
    .addColumn('browser', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('os', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_log_time').on('login_log').columns(['orgi', 'createtime']).execute();
}
