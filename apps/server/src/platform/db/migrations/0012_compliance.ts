import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Compliance and the remaining setup (issue 14): sensitive words and their hits, per-tenant settings with
 * a version (caches on every node follow it), the append-only audit log, business systems and CRM links,
 * the tenant API secret and webhook deliveries, quick files, per-user settings, two-factor secrets, login
 * session details, message translations, third-party identities and short-lived login tickets.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const s = db.schema;
  const id = (t: ReturnType<typeof s.createTable>) =>
    t.addColumn('id', 'text', (c) => c.primaryKey()).addColumn('orgi', 'text', (c) => c.notNull());

  await id(s.createTable('sensitive_word'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('norm', 'text', (c) => c.notNull())
    .addColumn('pinyin', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('sensitive_word_norm')
    .on('sensitive_word')
    .columns(['orgi', 'kind', 'norm'])
    .unique()
    .execute();
  await s
    .createIndex('sensitive_word_list')
    .on('sensitive_word')
    .columns(['orgi', 'kind', 'createtime'])
    .execute();

  await id(s.createTable('sensitive_hit'))
    .addColumn('agentserviceid', 'text', (c) => c.notNull())
    .addColumn('messageid', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('words', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('sensitive_hit_time').on('sensitive_hit').columns(['orgi', 'createtime']).execute();
  await s.createIndex('sensitive_hit_service').on('sensitive_hit').columns(['agentserviceid']).execute();

  await s
    .createTable('org_setting')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_setting_pk', ['orgi', 'name'])
    .execute();

  await id(s.createTable('audit_log'))
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('useragent', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('audit_log_time').on('audit_log').columns(['orgi', 'createtime']).execute();
  await s.createIndex('audit_log_user').on('audit_log').columns(['orgi', 'userid', 'createtime']).execute();
  await s.createIndex('audit_log_action').on('audit_log').columns(['orgi', 'action', 'createtime']).execute();
  // Nothing in the product edits or deletes audit records; the database refuses it too.
  if (dialect === 'postgres') {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_no_change before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
    await sql`create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }

  await id(s.createTable('business_system'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('ticketurl', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('opentype', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sortindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('business_system_name')
    .on('business_system')
    .columns(['orgi', 'name'])
    .unique()
    .execute();

  await id(s.createTable('crm_link'))
    .addColumn('businessid', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('contactid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('crmid', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('crm_link_visitor')
    .on('crm_link')
    .columns(['orgi', 'businessid', 'userid'])
    .unique()
    .execute();

  await s
    .createTable('api_secret')
    .addColumn('orgi', 'text', (c) => c.primaryKey())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('signkey', 'text', (c) => c.notNull())
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();

  await id(s.createTable('webhook_delivery'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('nextattempt', 'bigint', (c) => c.notNull())
    .addColumn('lastcode', 'integer')
    .addColumn('lasterror', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('webhook_delivery_due')
    .on('webhook_delivery')
    .columns(['status', 'nextattempt'])
    .execute();
  await s
    .createIndex('webhook_delivery_time')
    .on('webhook_delivery')
    .columns(['orgi', 'createtime'])
    .execute();

  await id(s.createTable('quick_file'))
    .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mediaid', 'text', (c) => c.notNull())
    .addColumn('filesize', 'bigint', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('sortindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('quick_file_owner').on('quick_file').columns(['orgi', 'owner', 'sortindex']).execute();

  await s
    .createTable('user_setting')
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_setting_pk', ['userid', 'name'])
    .execute();

  await s
    .createTable('user_totp')
    .addColumn('userid', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recovery', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('laststep', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();

  await s
    .createTable('session_meta')
    .addColumn('tokenid', 'text', (c) => c.primaryKey())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('useragent', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('session_meta_user').on('session_meta').columns(['userid']).execute();

  await s
    .createTable('message_translation')
    .addColumn('messageid', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('message_translation_service')
    .on('message_translation')
    .columns(['agentserviceid'])
    .execute();

  await s
    .createTable('user_identity')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_identity_pk', ['provider', 'subject'])
    .execute();
  await s.createIndex('user_identity_user').on('user_identity').columns(['userid']).execute();

  await s
    .createTable('auth_ticket')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('auth_ticket_expires').on('auth_ticket').columns(['expires']).execute();
}
