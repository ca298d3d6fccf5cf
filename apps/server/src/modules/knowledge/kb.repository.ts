import { sql, type Selectable } from 'kysely';
import type { KbItemListQuery } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { KbItemTable, KbTypeTable } from '../../platform/db/schema-knowledge.js';
import { containsText } from '../../platform/db/like.js';
import { newId } from '../../platform/ids.js';

type Kdb = Db['kysely'];
export type KbTypeRow = Selectable<KbTypeTable>;
export type KbItemRow = Selectable<KbItemTable>;

// ------------------------------------------------------------------------------------------------ types

export const listTypes = (k: Kdb, orgi: string) =>
  k
    .selectFrom('kb_type')
    .selectAll()
    .where('orgi', '=', orgi)
    .orderBy('sortindex')
    .orderBy('createtime')
    .execute();

export async function itemCountsByType(k: Kdb, orgi: string): Promise<Map<string, number>> {
  const rows = await k
    .selectFrom('kb_item')
    .select(['typeid', (eb) => eb.fn.countAll<number>().as('n')])
    .where('orgi', '=', orgi)
    .groupBy('typeid')
    .execute();
  return new Map(rows.map((r) => [r.typeid, Number(r.n)]));
}

export async function nextTypeSort(k: Kdb, orgi: string): Promise<number> {
  const r = await k
    .selectFrom('kb_type')
    .select((eb) => eb.fn.max('sortindex').as('m'))
    .where('orgi', '=', orgi)
    .executeTakeFirst();
  return Number(r?.m ?? 0) + 1;
}

// ------------------------------------------------------------------------------------------------ items

/** Items in force at `now`: enabled and inside their validity window. */
export const activeAt = (now: number) =>
  sql<boolean>`i.enabled = 1 and (i.begintime is null or i.begintime <= ${now}) and (i.endtime is null or i.endtime >= ${now})`;

function filtered(k: Kdb, orgi: string, f: KbItemListQuery & { typeids?: string[] | null }, now: number) {
  let q = k.selectFrom('kb_item as i').where('i.orgi', '=', orgi);
  // An unknown type matches nothing (not the items without a type).
  if (f.typeids) q = f.typeids.length ? q.where('i.typeid', 'in', f.typeids) : q.where(sql<boolean>`1 = 0`);
  if (f.q) {
    const word = f.q;
    q = q.where((eb) =>
      eb.or([
        containsText('i.question', word),
        containsText('i.similar', word),
        containsText('i.answer', word),
      ]),
    );
  }
  if (f.topic) {
    const topic = f.topic;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('kb_item_topic as t')
          .select('t.itemid')
          .whereRef('t.itemid', '=', 'i.id')
          .where('t.topicid', '=', topic),
      ),
    );
  }
  if (f.state === 'active') q = q.where(activeAt(now));
  else if (f.state === 'enabled') q = q.where('i.enabled', '=', 1);
  else if (f.state === 'disabled') q = q.where('i.enabled', '=', 0);
  else if (f.state === 'expired') q = q.where('i.endtime', 'is not', null).where('i.endtime', '<', now);
  return q;
}

export type ItemFilter = KbItemListQuery & { typeids?: string[] | null };

export async function countItems(k: Kdb, orgi: string, f: ItemFilter, now: number): Promise<number> {
  const r = await filtered(k, orgi, f, now)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export const pageItems = (k: Kdb, orgi: string, f: ItemFilter, now: number, offset: number, limit: number) =>
  filtered(k, orgi, f, now)
    .selectAll('i')
    .orderBy('i.updatetime', 'desc')
    .orderBy('i.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();

/** Every matching item in batches of `size` (keyset on updatetime, id), for exports. */
export async function* iterateItems(
  k: Kdb,
  orgi: string,
  f: ItemFilter,
  now: number,
  size = 500,
): AsyncIterable<KbItemRow[]> {
  let after: { updatetime: number; id: string } | null = null;
  for (;;) {
    let q = filtered(k, orgi, f, now).selectAll('i');
    if (after) {
      const a: { updatetime: number; id: string } = after;
      q = q.where((eb) =>
        eb.or([
          eb('i.updatetime', '<', a.updatetime),
          eb.and([eb('i.updatetime', '=', a.updatetime), eb('i.id', '<', a.id)]),
        ]),
      );
    }
    const rows = await q.orderBy('i.updatetime', 'desc').orderBy('i.id', 'desc').limit(size).execute();
    if (rows.length) yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = { updatetime: Number(last.updatetime), id: last.id };
  }
}

export const findItem = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('kb_item').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export const itemsByIds = (k: Kdb, orgi: string, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([] as KbItemRow[])
    : k.selectFrom('kb_item').selectAll().where('orgi', '=', orgi).where('id', 'in', ids).execute();

export const itemByQuestion = (k: Kdb, orgi: string, question: string) =>
  k
    .selectFrom('kb_item')
    .select(['id'])
    .where('orgi', '=', orgi)
    .where('question', '=', question)
    .executeTakeFirst();

// ------------------------------------------------------------------------------------- topic relations

export async function topicsOf(
  k: Kdb,
  itemids: readonly string[],
): Promise<Array<{ itemid: string; id: string; name: string }>> {
  if (itemids.length === 0) return [];
  return k
    .selectFrom('kb_item_topic as r')
    .innerJoin('service_topic as t', 't.id', 'r.topicid')
    .select(['r.itemid', 't.id', 't.name'])
    .where('r.itemid', 'in', itemids)
    .orderBy('t.sortindex')
    .execute();
}

export async function setTopics(k: Kdb, orgi: string, itemid: string, topicids: readonly string[]) {
  await k.deleteFrom('kb_item_topic').where('itemid', '=', itemid).execute();
  if (topicids.length)
    await k
      .insertInto('kb_item_topic')
      .values(topicids.map((topicid) => ({ itemid, topicid, orgi })))
      .execute();
}

export const knownTopicIds = async (k: Kdb, orgi: string, ids: readonly string[]): Promise<Set<string>> =>
  new Set(
    ids.length
      ? (
          await k
            .selectFrom('service_topic')
            .select('id')
            .where('orgi', '=', orgi)
            .where('id', 'in', ids)
            .execute()
        ).map((r) => r.id)
      : [],
  );

// ------------------------------------------------------------------------------------ question index

export interface QuestionEntry {
  question: string;
  tokens: string;
  kind: number;
}

/** Replaces the indexed questions of an item (the FTS rows follow by trigger / GIN). */
export async function replaceQuestions(
  k: Kdb,
  orgi: string,
  itemid: string,
  entries: readonly QuestionEntry[],
): Promise<void> {
  await k.deleteFrom('kb_question').where('itemid', '=', itemid).execute();
  if (entries.length)
    await k
      .insertInto('kb_question')
      .values(entries.map((e) => ({ id: newId(), orgi, itemid, ...e })))
      .execute();
}

export async function deleteItems(k: Kdb, orgi: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  await k.deleteFrom('kb_question').where('itemid', 'in', ids).execute();
  await k.deleteFrom('kb_item_topic').where('itemid', 'in', ids).execute();
  const r = await k.deleteFrom('kb_item').where('orgi', '=', orgi).where('id', 'in', ids).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Every indexed question of the tenant (term frequencies and item vocabularies of the scorer). */
export const allQuestionTokens = (k: Kdb, orgi: string) =>
  k.selectFrom('kb_question').select(['itemid', 'question', 'tokens']).where('orgi', '=', orgi).execute();
