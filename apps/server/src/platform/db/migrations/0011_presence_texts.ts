import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Presence that survives a reload and spans nodes, and texts per visitor language.
 * - agent_status.offsince: when the agent's last socket (on any node) went away; null while one is
 *   connected. The agent keeps its state for a grace period after it (agentstate.service presenceSweep).
 * - visitor.online / offtime: whether the visitor's chat window is connected, and since when it is not
 *   (the agent's chat list marks offline visitors). visitor.language / agent_service.language: the
 *   visitor's language (the widget's `l`), which the texts sent to it are chosen by.
 * - online_visitor.lefttime: the loader said the visitor left the page (pagehide); online again on the
 *   next report.
 * - visitor_text: a visitor-facing text set in a language other than the base texts, per scope
 *   (prompt, satisfaction, or a widget section of one access point): `texts` is a JSON {key: text}.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('agent_status').addColumn('offsince', 'bigint').execute();
  await db.schema
    .alterTable('visitor')
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('visitor').addColumn('offtime', 'bigint').execute();
  await db.schema
    .alterTable('visitor')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('agent_service')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('online_visitor').addColumn('lefttime', 'bigint').execute();
  await db.schema
    .createTable('visitor_text')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('texts', 'text', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('visitor_text_pk', ['orgi', 'scope', 'lang'])
    .execute();
}
