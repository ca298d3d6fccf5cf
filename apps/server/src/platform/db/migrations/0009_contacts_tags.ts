import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Contacts (with their identities and tags), tags, service topics, and the service summary of a
 * conversation (topic + memo on agent_service). The conversation↔tag relation is 0002's
 * agent_service_tag; it gets the (tagid) index that "conversations with this tag" needs.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('contact')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('company', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('gender', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('region', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('birthday', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('memo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('owner', 'text')
    .addColumn('organ', 'text')
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('searchkey', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  // The list is newest first, whole organisation or one department (the A05 data scope) or one owner.
  await db.schema.createIndex('contact_list').on('contact').columns(['orgi', 'createtime', 'id']).execute();
  await db.schema
    .createIndex('contact_organ')
    .on('contact')
    .columns(['orgi', 'organ', 'createtime'])
    .execute();
  await db.schema.createIndex('contact_owner').on('contact').columns(['owner', 'createtime']).execute();

  await db.schema
    .createTable('contact_identity')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('contactid', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_identity_pk', ['orgi', 'kind', 'value'])
    .execute();
  await db.schema
    .createIndex('contact_identity_contact')
    .on('contact_identity')
    .columns(['contactid', 'kind'])
    .execute();

  await db.schema
    .createTable('contact_tag')
    .addColumn('contactid', 'text', (c) => c.notNull())
    .addColumn('tagid', 'text', (c) => c.notNull())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_tag_pk', ['contactid', 'tagid'])
    .execute();
  await db.schema.createIndex('contact_tag_tag').on('contact_tag').columns(['tagid', 'contactid']).execute();

  await db.schema
    .createTable('tag')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('tagtype', 'text', (c) => c.notNull())
    .addColumn('sortindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tag_name').on('tag').columns(['orgi', 'tagtype', 'name']).unique().execute();

  await db.schema
    .createTable('service_topic')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parentid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sortindex', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creater', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('service_topic_name')
    .on('service_topic')
    .columns(['orgi', 'parentid', 'name'])
    .unique()
    .execute();

  await db.schema.alterTable('agent_service').addColumn('topicid', 'text').execute();
  await db.schema
    .alterTable('agent_service')
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('agent_service').addColumn('summarytime', 'bigint').execute();
  await db.schema.createIndex('agent_service_topic').on('agent_service').columns(['topicid']).execute();
  await db.schema
    .createIndex('agent_service_tag_tag')
    .on('agent_service_tag')
    .columns(['tagid', 'agentserviceid'])
    .execute();
}
