import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { QuickReplyTable, QuickTypeTable } from '../../platform/db/schema-quickreply.js';

type Kdb = Db['kysely'];
export type QuickTypeRow = Selectable<QuickTypeTable>;
export type QuickReplyRow = Selectable<QuickReplyTable>;

/** Public rows (owner '') and the caller's personal rows. */
const visibleOwners = (userid: string) => ['', userid];

export const listTypes = (k: Kdb, orgi: string, userid: string, type?: string) => {
  let q = k
    .selectFrom('quick_type')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('owner', 'in', visibleOwners(userid));
  if (type) q = q.where('type', '=', type);
  return q.orderBy('sortindex').orderBy('createtime').orderBy('id').execute();
};

export const findType = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('quick_type').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export async function typeNameTaken(
  k: Kdb,
  t: { orgi: string; owner: string; parentid: string; name: string },
  exceptId?: string,
): Promise<boolean> {
  let q = k
    .selectFrom('quick_type')
    .select('id')
    .where('orgi', '=', t.orgi)
    .where('owner', '=', t.owner)
    .where('parentid', '=', t.parentid)
    .where('name', '=', t.name);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** The type and every type below it (same owner). */
export async function subtreeIds(k: Kdb, orgi: string, owner: string, rootId: string): Promise<string[]> {
  const all = await k
    .selectFrom('quick_type')
    .select(['id', 'parentid'])
    .where('orgi', '=', orgi)
    .where('owner', '=', owner)
    .execute();
  const out = [rootId];
  for (let i = 0; i < out.length; i++) {
    for (const t of all) if (t.parentid === out[i] && !out.includes(t.id)) out.push(t.id);
  }
  return out;
}

export { nextSortIndex as nextIndex } from '../../platform/db/rows.js';

export interface ReplyFilter {
  type?: string;
  cate?: string | null;
  q?: string;
}

const likeArg = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const listReplies = (k: Kdb, orgi: string, userid: string, f: ReplyFilter, limit = 1000) => {
  let q = k
    .selectFrom('quick_reply')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('owner', 'in', visibleOwners(userid));
  if (f.type) q = q.where('type', '=', f.type);
  if (f.cate) q = q.where('cate', '=', f.cate);
  if (f.q) {
    const arg = likeArg(f.q);
    q = q.where((eb) =>
      eb.or([
        sql<boolean>`lower(${sql.ref('title')}) like ${arg} escape '\\'`,
        sql<boolean>`lower(${sql.ref('content')}) like ${arg} escape '\\'`,
      ]),
    );
  }
  return q.orderBy('sortindex').orderBy('createtime').orderBy('id').limit(limit).execute();
};

export const findReply = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('quick_reply').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export const findReplies = (k: Kdb, orgi: string, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([] as QuickReplyRow[])
    : k.selectFrom('quick_reply').selectAll().where('orgi', '=', orgi).where('id', 'in', ids).execute();

export async function replyTitleTaken(
  k: Kdb,
  r: { orgi: string; owner: string; cate: string; title: string },
  exceptId?: string,
): Promise<boolean> {
  let q = k
    .selectFrom('quick_reply')
    .select('id')
    .where('orgi', '=', r.orgi)
    .where('owner', '=', r.owner)
    .where('cate', '=', r.cate)
    .where('title', '=', r.title);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}
