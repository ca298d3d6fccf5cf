import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Monitor and supervision (issue 13):
 * - agent_service.ai / foragent: the conversation is handled by the AI robot; foragent = 1 once it was
 *   handed to a human (spec "AI service", reference AgentService.aiservice / foragent);
 * - chat_whisper: a supervisor's line that only the agents of the chat see. Kept out of chat_message so it
 *   takes no seq of the conversation: the visitor's seq numbers stay gap-free and a whisper can never be
 *   replayed to the visitor side;
 * - monitor_audit: who did what to which conversation (join, whisper, barge-in, takeover, transfer, end,
 *   forced state, AI switch, ring-no-answer);
 * - monitor_rule: per skill group ('' = the tenant default) ring-no-answer and alert thresholds;
 * - agent_ring: consecutive ring-no-answer misses per agent.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('agent_service')
    .addColumn('ai', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('agent_service')
    .addColumn('foragent', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('chat_whisper')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text', (c) => c.notNull())
    .addColumn('afterseq', 'integer', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chat_whisper_service')
    .on('chat_whisper')
    .columns(['agentserviceid', 'createtime'])
    .execute();
  await db.schema
    .createIndex('chat_whisper_client')
    .on('chat_whisper')
    .columns(['sender', 'client_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('monitor_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text')
    .addColumn('target', 'text')
    .addColumn('organ', 'text')
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('monitor_audit_time')
    .on('monitor_audit')
    .columns(['orgi', 'createtime'])
    .execute();
  await db.schema
    .createIndex('monitor_audit_service')
    .on('monitor_audit')
    .columns(['agentserviceid', 'createtime'])
    .execute();

  await db.schema
    .createTable('monitor_rule')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('organ', 'text', (c) => c.notNull())
    .addColumn('ringtimeout', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ringmisses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('replyalert', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('queuealert', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('busyalert', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('monitor_rule_pk', ['orgi', 'organ'])
    .execute();

  await db.schema
    .createTable('agent_ring')
    .addColumn('userid', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('misses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lastmiss', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
