import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Quality inspection with appeals (issue 17):
 * - quality_type: scorecards (base, pass mark, current version); quality_label: their items;
 *   quality_card_version: every version of a card frozen as JSON (inspections point at one);
 * - quality_skill: the card of a skill group;
 * - quality_inspection: one inspector's inspection of one conversation (allotted → done → sent), with the
 *   card version, final score and pass; quality_item: its item scores, cited messages and comments;
 * - quality_finding: automatic findings on ended conversations (kept apart from scores); quality_conv: per
 *   ended conversation the automatic points and rules found, and whether it is excluded from inspection;
 * - quality_appeal (+ _item, _message): appeals, contested items (unique per inspection and item) and
 *   their thread; quality_event: who changed what and when.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('quality_type')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('base', 'integer', (c) => c.notNull())
    .addColumn('passmark', 'integer', (c) => c.notNull())
    .addColumn('isdefault', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('quality_type_orgi').on('quality_type').columns(['orgi', 'sort']).execute();

  await db.schema
    .createTable('quality_label')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('typeid', 'text', (c) => c.notNull())
    .addColumn('groupname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('fatal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('quality_label_type').on('quality_label').columns(['typeid', 'sort']).execute();

  await db.schema
    .createTable('quality_card_version')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('typeid', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('card', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('quality_card_version_type')
    .on('quality_card_version')
    .columns(['typeid', 'version'])
    .unique()
    .execute();

  await db.schema
    .createTable('quality_skill')
    .addColumn('organ', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('typeid', 'text', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('quality_inspection')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text', (c) => c.notNull())
    .addColumn('agentno', 'text', (c) => c.notNull())
    .addColumn('organ', 'text')
    .addColumn('inspector', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('typeid', 'text', (c) => c.notNull())
    .addColumn('versionid', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('score', 'integer')
    .addColumn('pass', 'integer')
    .addColumn('fatal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('autopoints', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('convtime', 'bigint', (c) => c.notNull())
    .addColumn('allottime', 'bigint', (c) => c.notNull())
    .addColumn('allotby', 'text', (c) => c.notNull())
    .addColumn('scoretime', 'bigint')
    .addColumn('sendtime', 'bigint')
    .addColumn('appealuntil', 'bigint')
    .addColumn('appeal', 'text')
    .addColumn('seen', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reminded', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('quality_inspection_conv')
    .on('quality_inspection')
    .columns(['agentserviceid', 'inspector'])
    .unique()
    .execute();
  await db.schema
    .createIndex('quality_inspection_inspector')
    .on('quality_inspection')
    .columns(['orgi', 'inspector', 'allottime'])
    .execute();
  await db.schema
    .createIndex('quality_inspection_allot')
    .on('quality_inspection')
    .columns(['orgi', 'allottime'])
    .execute();
  await db.schema
    .createIndex('quality_inspection_agent')
    .on('quality_inspection')
    .columns(['orgi', 'agentno', 'sendtime'])
    .execute();
  // The list's common filters (bench B13): an agent's results, an inspector's range, failures by score.
  await db.schema
    .createIndex('quality_inspection_agent_allot')
    .on('quality_inspection')
    .columns(['orgi', 'agentno', 'allottime'])
    .execute();
  await db.schema
    .createIndex('quality_inspection_inspector_conv')
    .on('quality_inspection')
    .columns(['orgi', 'inspector', 'convtime'])
    .execute();
  await db.schema
    .createIndex('quality_inspection_fatal_score')
    .on('quality_inspection')
    .columns(['orgi', 'fatal', 'score'])
    .execute();
  await db.schema
    .createIndex('quality_inspection_scored')
    .on('quality_inspection')
    .columns(['orgi', 'scoretime'])
    .execute();

  await db.schema
    .createTable('quality_item')
    .addColumn('inspectionid', 'text', (c) => c.notNull())
    .addColumn('labelid', 'text', (c) => c.notNull())
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('messageids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('quality_item_pk', ['inspectionid', 'labelid'])
    .execute();

  await db.schema
    .createTable('quality_finding')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('agentserviceid', 'text', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('messageids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('quality_finding_conv')
    .on('quality_finding')
    .columns(['agentserviceid'])
    .execute();

  await db.schema
    .createTable('quality_conv')
    .addColumn('agentserviceid', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('autopoints', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('scanned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('excluded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('quality_appeal')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('inspectionid', 'text', (c) => c.notNull())
    .addColumn('agentno', 'text', (c) => c.notNull())
    .addColumn('inspector', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('scorebefore', 'integer', (c) => c.notNull())
    .addColumn('scoreafter', 'integer')
    .addColumn('resolver', 'text')
    .addColumn('resolvecomment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .addColumn('submittime', 'bigint')
    .addColumn('reviewtime', 'bigint')
    .addColumn('resolvetime', 'bigint')
    .execute();
  await db.schema
    .createIndex('quality_appeal_inspection')
    .on('quality_appeal')
    .columns(['inspectionid'])
    .execute();
  await db.schema
    .createIndex('quality_appeal_state')
    .on('quality_appeal')
    .columns(['orgi', 'state', 'createtime'])
    .execute();

  await db.schema
    .createTable('quality_appeal_item')
    .addColumn('appealid', 'text', (c) => c.notNull())
    .addColumn('inspectionid', 'text', (c) => c.notNull())
    .addColumn('labelid', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('oldscore', 'integer', (c) => c.notNull())
    .addColumn('newscore', 'integer')
    .execute();
  // A second appeal on the same item of the same inspection is refused by the database too.
  await db.schema
    .createIndex('quality_appeal_item_once')
    .on('quality_appeal_item')
    .columns(['inspectionid', 'labelid'])
    .unique()
    .execute();
  await db.schema
    .createIndex('quality_appeal_item_appeal')
    .on('quality_appeal_item')
    .columns(['appealid'])
    .execute();

  await db.schema
    .createTable('quality_appeal_message')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('appealid', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('quality_appeal_message_appeal')
    .on('quality_appeal_message')
    .columns(['appealid', 'createtime'])
    .execute();

  await db.schema
    .createTable('quality_event')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('inspectionid', 'text', (c) => c.notNull())
    .addColumn('appealid', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('createtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('quality_event_inspection')
    .on('quality_event')
    .columns(['inspectionid', 'createtime'])
    .execute();
}
