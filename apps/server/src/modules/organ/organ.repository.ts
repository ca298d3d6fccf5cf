import type { Kysely, Selectable } from 'kysely';
import type { Database, OrganTable } from '../../platform/db/schema.js';

export type OrganRow = Selectable<OrganTable>;

export const listOrgans = (k: Kysely<Database>, orgi: string): Promise<OrganRow[]> =>
  k
    .selectFrom('organ')
    .selectAll()
    .where('orgi', '=', orgi)
    .orderBy('sortindex')
    .orderBy('createtime')
    .execute();

export const findOrgan = (k: Kysely<Database>, orgi: string, id: string): Promise<OrganRow | undefined> =>
  k.selectFrom('organ').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export async function nameTaken(
  k: Kysely<Database>,
  orgi: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let q = k.selectFrom('organ').select('id').where('orgi', '=', orgi).where('name', '=', name);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Members per department: membership rows plus primary departments (both count, once per user). */
export async function membersByOrgan(k: Kysely<Database>, orgi: string): Promise<Map<string, Set<string>>> {
  const [links, primaries] = await Promise.all([
    k.selectFrom('user_organ').select(['userid', 'organid']).where('orgi', '=', orgi).execute(),
    k
      .selectFrom('users')
      .select(['id', 'organ'])
      .where('orgi', '=', orgi)
      .where('organ', 'is not', null)
      .execute(),
  ]);
  const out = new Map<string, Set<string>>();
  const add = (organ: string, user: string) => {
    let set = out.get(organ);
    if (!set) out.set(organ, (set = new Set()));
    set.add(user);
  };
  for (const l of links) add(l.organid, l.userid);
  for (const u of primaries) if (u.organ) add(u.organ, u.id);
  return out;
}

export async function hasUsers(k: Kysely<Database>, id: string): Promise<boolean> {
  const link = await k.selectFrom('user_organ').select('userid').where('organid', '=', id).executeTakeFirst();
  if (link) return true;
  return (await k.selectFrom('users').select('id').where('organ', '=', id).executeTakeFirst()) !== undefined;
}

export const hasChildren = async (k: Kysely<Database>, orgi: string, id: string): Promise<boolean> =>
  (await k
    .selectFrom('organ')
    .select('id')
    .where('orgi', '=', orgi)
    .where('parentid', '=', id)
    .executeTakeFirst()) !== undefined;

export async function nextSortindex(k: Kysely<Database>, orgi: string): Promise<number> {
  const row = await k
    .selectFrom('organ')
    .select((eb) => eb.fn.max('sortindex').as('m'))
    .where('orgi', '=', orgi)
    .executeTakeFirst();
  return Number(row?.m ?? 0) + 1;
}

export const insertOrgan = (k: Kysely<Database>, row: OrganRow) =>
  k.insertInto('organ').values(row).execute();

export const updateOrgan = (
  k: Kysely<Database>,
  id: string,
  set: Pick<OrganRow, 'name' | 'parentid' | 'skill' | 'updatetime'>,
) => k.updateTable('organ').set(set).where('id', '=', id).execute();

export const deleteOrgan = (k: Kysely<Database>, id: string) =>
  k.deleteFrom('organ').where('id', '=', id).execute();
