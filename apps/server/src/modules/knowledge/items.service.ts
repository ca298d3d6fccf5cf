import type { KbItemDto, KbItemInput, KbTopicRef, Page } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { Db } from '../../platform/db/database.js';
import { rethrowUnique } from '../../platform/db/unique.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { offsetOf, pageOf, type Paging } from '../../platform/http/paging.js';
import type { Change } from '../../platform/settings/org-settings.js';
import * as repo from './kb.repository.js';
import { announce, bumpIndex, parseSimilar, questionEntries } from './kb.index.js';
import { presentItem } from './kb.presenter.js';
import { withSubtypes } from './types.service.js';

type Kdb = Db['kysely'];
const questionRepeat = () => badRequest('kb_question_repeat', { question: 'kb_question_repeat' });

/** Type names, topics and creator names of a list of items, then the DTOs. */
export async function present(k: Kdb, orgi: string, rows: readonly repo.KbItemRow[], now: number) {
  const ids = rows.map((r) => r.id);
  const [types, topics, users] = await Promise.all([
    repo.listTypes(k, orgi),
    repo.topicsOf(k, ids),
    rows.length
      ? k
          .selectFrom('users')
          .select(['id', 'uname'])
          .where('id', 'in', [...new Set(rows.map((r) => r.creater || '-'))])
          .execute()
      : Promise.resolve([]),
  ]);
  const typeName = new Map(types.map((t) => [t.id, t.name]));
  const userName = new Map(users.map((u) => [u.id, u.uname]));
  const byItem = new Map<string, KbTopicRef[]>();
  for (const t of topics) byItem.set(t.itemid, [...(byItem.get(t.itemid) ?? []), { id: t.id, name: t.name }]);
  return rows.map((r) =>
    presentItem(
      r,
      {
        typename: typeName.get(r.typeid) ?? '',
        topics: byItem.get(r.id) ?? [],
        creater: userName.get(r.creater) ?? '',
      },
      now,
    ),
  );
}

/** The list filter with its type widened to the subtypes. */
export async function resolveFilter(k: Kdb, orgi: string, f: repo.ItemFilter): Promise<repo.ItemFilter> {
  return f.typeid ? { ...f, typeids: await withSubtypes(k, orgi, [f.typeid]) } : f;
}

export async function page(db: Db, p: Principal, f: repo.ItemFilter, pg: Paging): Promise<Page<KbItemDto>> {
  const k = db.kysely;
  const now = Date.now();
  const filter = await resolveFilter(k, p.orgi, f);
  const [total, rows] = await Promise.all([
    repo.countItems(k, p.orgi, filter, now),
    repo.pageItems(k, p.orgi, filter, now, offsetOf(pg), pg.ps),
  ]);
  return pageOf(await present(k, p.orgi, rows, now), total, pg);
}

export async function detail(db: Db, p: Principal, id: string): Promise<KbItemDto> {
  const row = await repo.findItem(db.kysely, p.orgi, id);
  if (!row) throw notFound();
  return (await present(db.kysely, p.orgi, [row], Date.now()))[0]!;
}

/**
 * Checks and stores one item (new, or `current` updated) with its indexed questions inside the caller's
 * transaction; the caller bumps the index version once (bumpIndex) and announces it after the commit.
 * Refusals carry the field they are about.
 */
export async function storeIn(
  k: Kdb,
  orgi: string,
  userid: string,
  input: KbItemInput,
  current: repo.KbItemRow | null,
  now: number,
): Promise<repo.KbItemRow> {
  if (input.typeid && !(await repo.listTypes(k, orgi)).some((t) => t.id === input.typeid))
    throw badRequest('invalid_field', { typeid: 'invalid_field' });
  const topics = [...new Set(input.topics ?? [])];
  if (topics.length) {
    const known = await repo.knownTopicIds(k, orgi, topics);
    if (topics.some((t) => !known.has(t))) throw badRequest('invalid_field', { topics: 'invalid_field' });
  }
  const same = await repo.itemByQuestion(k, orgi, input.question);
  if (same && same.id !== current?.id) throw questionRepeat();
  const similar = (input.similar ?? (current ? parseSimilar(current.similar) : [])).filter(
    (s) => s !== input.question,
  );
  const row: repo.KbItemRow = {
    id: current?.id ?? newId(),
    orgi,
    typeid: input.typeid ?? (input.typeid === null ? '' : (current?.typeid ?? '')),
    question: input.question,
    similar: JSON.stringify(similar),
    answer: input.answer,
    enabled: input.enabled === undefined ? (current?.enabled ?? 1) : input.enabled ? 1 : 0,
    begintime: input.begintime === undefined ? (current?.begintime ?? null) : input.begintime,
    endtime: input.endtime === undefined ? (current?.endtime ?? null) : input.endtime,
    hits: current?.hits ?? 0,
    creater: current?.creater ?? userid,
    createtime: current?.createtime ?? now,
    updatetime: now,
  };
  if (row.begintime !== null && row.endtime !== null && Number(row.begintime) > Number(row.endtime))
    throw badRequest('range_invalid', { endtime: 'range_invalid' });
  if (current) {
    const { id, orgi: _o, hits: _h, creater: _c, createtime: _t, ...set } = row;
    await k.updateTable('kb_item').set(set).where('id', '=', id).execute();
  } else await k.insertInto('kb_item').values(row).execute();
  if (input.topics !== undefined) await repo.setTopics(k, orgi, row.id, topics);
  // Incremental index: the item's questions are rewritten with it (FTS rows by trigger / GIN).
  await repo.replaceQuestions(k, orgi, row.id, questionEntries({ question: row.question, similar }));
  return row;
}

/** Save or update one item; its questions are indexed in the same transaction (incremental index). */
async function write(db: Db, p: Principal, input: KbItemInput, id: string | null): Promise<KbItemDto> {
  const now = Date.now();
  const { row, change } = await db.kysely
    .transaction()
    .execute(async (k) => {
      const current = id ? await repo.findItem(k, p.orgi, id) : null;
      if (id && !current) throw notFound();
      const stored = await storeIn(k, p.orgi, p.id, input, current ?? null, now);
      return { row: stored, change: await bumpIndex(k, db, p.orgi) };
    })
    .catch(rethrowUnique(questionRepeat));
  announce(db, change);
  return (await present(db.kysely, p.orgi, [row], now))[0]!;
}

export const save = (db: Db, p: Principal, input: KbItemInput) => write(db, p, input, null);
export const update = (db: Db, p: Principal, id: string, input: KbItemInput) => write(db, p, input, id);

async function changing<T>(db: Db, orgi: string, fn: (k: Kdb) => Promise<T>): Promise<T> {
  let change: Change | undefined;
  const out = await db.kysely.transaction().execute(async (k) => {
    const r = await fn(k);
    change = await bumpIndex(k, db, orgi);
    return r;
  });
  if (change) announce(db, change);
  return out;
}

/** Deletes items (all of them or none: an id of another tenant or unknown is a 404). */
export async function remove(db: Db, p: Principal, ids: readonly string[]): Promise<{ deleted: number }> {
  const unique = [...new Set(ids)];
  return changing(db, p.orgi, async (k) => {
    if ((await repo.itemsByIds(k, p.orgi, unique)).length !== unique.length) throw notFound();
    return { deleted: await repo.deleteItems(k, p.orgi, unique) };
  });
}

export async function setEnabled(
  db: Db,
  p: Principal,
  ids: readonly string[],
  enabled: boolean,
): Promise<{ updated: number }> {
  const unique = [...new Set(ids)];
  return changing(db, p.orgi, async (k) => {
    if ((await repo.itemsByIds(k, p.orgi, unique)).length !== unique.length) throw notFound();
    if (unique.length === 0) return { updated: 0 };
    const r = await k
      .updateTable('kb_item')
      .set({ enabled: enabled ? 1 : 0, updatetime: Date.now() })
      .where('orgi', '=', p.orgi)
      .where('id', 'in', unique)
      .executeTakeFirst();
    return { updated: Number(r.numUpdatedRows) };
  });
}

/** The topics of an item (GET) or their replacement (POST). */
export async function topics(
  db: Db,
  p: Principal,
  id: string,
  set?: readonly string[],
): Promise<KbTopicRef[]> {
  const k = db.kysely;
  if (!(await repo.findItem(k, p.orgi, id))) throw notFound();
  if (set) {
    const unique = [...new Set(set)];
    const known = await repo.knownTopicIds(k, p.orgi, unique);
    if (unique.some((t) => !known.has(t))) throw badRequest('invalid_field', { topics: 'invalid_field' });
    await k.transaction().execute((trx) => repo.setTopics(trx, p.orgi, id, unique));
  }
  return (await repo.topicsOf(k, [id])).map(({ id: tid, name }) => ({ id: tid, name }));
}
