import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Messaging-platform channels (issue 16):
 * - channel_app: a platform app's credentials and push settings (WeChat KF: the corp; official account /
 *   mini-program: the appid; Douyin: the client; bcp: the Baidu app);
 * - channel_account: what users write to and what routes (KF account open_kfid, the official account, …),
 *   with its skill group; conversations name it as their appid;
 * - channel_user: a platform user as the conversation engine's visitor (id `<channel>:<32 chars>`), with
 *   its reply window (last inbound time, sends since);
 * - channel_inbound: every received message once (unique per app and platform message id), the durable
 *   queue between the webhook's acknowledgement and the engine;
 * - channel_cursor: WeChat KF sync_msg cursors, written page by page;
 * - channel_outbox: every message or notice to send, with its state, attempts and error;
 * - channel_session: per platform conversation, the seq up to which its messages were queued out;
 * - channel_token: access tokens (and Douyin refresh tokens) shared by the nodes;
 * - channel_imr: keyword / menu / follow auto-replies.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('channel_app')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('platform_appid', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('token', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('aeskey', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('safe'))
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('xml'))
    .addColumn('extid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('channel_app_platform')
    .on('channel_app')
    .columns(['channel', 'platform_appid'])
    .unique()
    .execute();

  await db.schema
    .createTable('channel_account')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('extid', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('organ', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('channel_account_ext')
    .on('channel_account')
    .columns(['appid', 'extid'])
    .unique()
    .execute();
  await db.schema
    .createIndex('channel_account_list')
    .on('channel_account')
    .columns(['orgi', 'channel', 'createtime'])
    .execute();

  await db.schema
    .createTable('channel_user')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('accountid', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('extuserid', 'text', (c) => c.notNull())
    .addColumn('unionid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lastin', 'bigint')
    .addColumn('sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('convid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lastmsgid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('satis', 'text')
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('channel_user_ext')
    .on('channel_user')
    .columns(['accountid', 'extuserid'])
    .unique()
    .execute();
  await db.schema.createIndex('channel_user_union').on('channel_user').columns(['orgi', 'unionid']).execute();

  await db.schema
    .createTable('channel_inbound')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('msgkey', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('new'))
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('channel_inbound_key')
    .on('channel_inbound')
    .columns(['appid', 'msgkey'])
    .unique()
    .execute();
  await db.schema
    .createIndex('channel_inbound_status')
    .on('channel_inbound')
    .columns(['status', 'createtime'])
    .execute();

  await db.schema
    .createTable('channel_cursor')
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('cursor', 'text', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('channel_cursor_pk', ['appid', 'scope'])
    .execute();

  await db.schema
    .createTable('channel_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text')
    .addColumn('messageid', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', 'bigint', (c) => c.notNull())
    .addColumn('lease', 'bigint')
    .addColumn('error', 'text')
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('platform_msgid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('channel_outbox_due')
    .on('channel_outbox')
    .columns(['status', 'next_at'])
    .execute();
  await db.schema
    .createIndex('channel_outbox_service')
    .on('channel_outbox')
    .columns(['agentserviceid', 'status'])
    .execute();

  await db.schema
    .createTable('channel_session')
    .addColumn('agentserviceid', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('outseq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('channel_token')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .addColumn('refresh', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('refresh_expires', 'bigint')
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('channel_imr')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('accountid', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('keyword', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('contains', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reply', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('channel_imr_account')
    .on('channel_imr')
    .columns(['accountid', 'kind'])
    .execute();
}
