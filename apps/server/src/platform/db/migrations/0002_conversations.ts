import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Live conversations: agent presence and its log, website access points, visitors, conversations
 * (agent_service) and their chat entries (agent_user), messages (seq per conversation, idempotent
 * client ids), transfers, collaborators, tags, blacklist, session config, media.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer';

  await db.schema
    .createTable('agent_status')
    .addColumn('userid', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('notready'))
    .addColumn('users', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('maxusers', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('organ', 'text')
    .addColumn('lastping', 'bigint', (c) => c.notNull())
    .addColumn('lastidle', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('logintime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_status_orgi').on('agent_status').columns(['orgi', 'status']).execute();

  await db.schema
    .createTable('agent_state_log')
    .addColumn('id', serial, (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('agent_state_log_user')
    .on('agent_state_log')
    .columns(['userid', 'createtime'])
    .execute();

  await db.schema
    .createTable('access_point')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('organ', 'text')
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('visitor')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('browser', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('os', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('province', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('region', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('webim'))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('agent_service')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('webim'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('organ', 'text')
    .addColumn('requested_agent', 'text')
    .addColumn('agentno', 'text')
    .addColumn('agentusername', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('initiator', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('endby', 'text')
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('servicetime', 'bigint')
    .addColumn('endtime', 'bigint')
    .addColumn('waittime', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('queneindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ordertime', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lastseq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visitor_readseq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lastmessage', 'bigint')
    .addColumn('lastgetmessage', 'bigint')
    .addColumn('idle_warned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('idle_warntime', 'bigint')
    .addColumn('agent_warned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('firstreplytime', 'bigint')
    .addColumn('agentreplys', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('userasks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('trans', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('transmemo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('transtime', 'bigint')
    .addColumn('invite', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invitedate', 'bigint')
    .addColumn('satisfaction', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('satislevel', 'text')
    .addColumn('satiscomment', 'text')
    .addColumn('satistime', 'bigint')
    .addColumn('leavemsg', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('resion', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('traceid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ipaddr', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('osname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('browser', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('province', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('agent_service_user')
    .on('agent_service')
    .columns(['userid', 'status'])
    .execute();
  await db.schema
    .createIndex('agent_service_queue')
    .on('agent_service')
    .columns(['orgi', 'status', 'ordertime'])
    .execute();
  await db.schema
    .createIndex('agent_service_agent')
    .on('agent_service')
    .columns(['agentno', 'status'])
    .execute();

  await db.schema
    .createTable('agent_user')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text', (c) => c.notNull().unique())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('agentno', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('tokenum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('over', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('lastmsg', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lastmessage', 'bigint')
    .addColumn('lastgetmessage', 'bigint')
    .addColumn('agent_readseq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('langto', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('servicetime', 'bigint')
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_user_agent').on('agent_user').columns(['agentno', 'visible']).execute();
  await db.schema.createIndex('agent_user_userid').on('agent_user').columns(['userid']).execute();

  await db.schema
    .createTable('chat_message')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('touser', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('usession', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('msgtype', 'text', (c) => c.notNull())
    .addColumn('calltype', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('attachmentid', 'text')
    .addColumn('filename', 'text')
    .addColumn('filesize', 'bigint')
    .addColumn('withdrawn', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('withdrawn_at', 'bigint')
    .addColumn('readstatus', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chat_message_seq')
    .on('chat_message')
    .columns(['agentserviceid', 'seq'])
    .unique()
    .execute();
  await db.schema
    .createIndex('chat_message_client')
    .on('chat_message')
    .columns(['sender', 'client_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('transfer_request')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text', (c) => c.notNull())
    .addColumn('agentuserid', 'text', (c) => c.notNull())
    .addColumn('from_agent', 'text', (c) => c.notNull())
    .addColumn('to_agent', 'text', (c) => c.notNull())
    .addColumn('to_organ', 'text')
    .addColumn('memo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .addColumn('decidedtime', 'bigint')
    .execute();
  await db.schema
    .createIndex('transfer_request_pending')
    .on('transfer_request')
    .columns(['status', 'expires'])
    .execute();

  await db.schema
    .createTable('agent_collaborator')
    .addColumn('agentserviceid', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('inviter', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_collaborator_pk', ['agentserviceid', 'userid'])
    .execute();

  await db.schema
    .createTable('agent_service_tag')
    .addColumn('agentserviceid', 'text', (c) => c.notNull())
    .addColumn('tagid', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_service_tag_pk', ['agentserviceid', 'tagid'])
    .execute();

  await db.schema
    .createTable('blacklist')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text')
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('controltime', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('endtime', 'bigint')
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('blacklist_user')
    .on('blacklist')
    .columns(['orgi', 'userid'])
    .unique()
    .execute();

  await db.schema
    .createTable('session_config')
    .addColumn('orgi', 'text', (c) => c.primaryKey())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('owner_kind', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
}
