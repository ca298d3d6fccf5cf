import {
  sql,
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type Selectable,
  type Updateable,
} from 'kysely';
import type { Database, UserTable } from '../../platform/db/schema.js';
import { offsetOf, type Paging } from '../../platform/http/paging.js';

export type UserRow = Selectable<UserTable>;

export interface UserFilter {
  orgi: string;
  organ?: string | null;
  q?: string | null;
}

/** LIKE with the user's text taken literally (% and _ escaped), case-insensitive on both dialects. */
const likeArg = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function where(f: UserFilter) {
  return (eb: ExpressionBuilder<Database, 'users'>) => {
    const conds = [eb('users.orgi', '=', f.orgi)];
    if (f.organ) {
      conds.push(
        eb.or([
          eb('users.organ', '=', f.organ),
          eb(
            'users.id',
            'in',
            eb.selectFrom('user_organ').select('user_organ.userid').where('user_organ.organid', '=', f.organ),
          ),
        ]),
      );
    }
    if (f.q) {
      const arg = likeArg(f.q);
      const cols = ['username', 'uname', 'nickname', 'mobile', 'email'] as const;
      conds.push(
        eb.or(
          cols.map(
            (c) => sql<boolean>`lower(coalesce(${sql.ref(`users.${c}`)}, '')) like ${arg} escape '\\'`,
          ),
        ),
      );
    }
    return eb.and(conds);
  };
}

export async function pageUsers(
  k: Kysely<Database>,
  f: UserFilter,
  pg: Paging,
): Promise<{ rows: UserRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    k
      .selectFrom('users')
      .selectAll()
      .where(where(f))
      .orderBy('createtime')
      .orderBy('id')
      .limit(pg.ps)
      .offset(offsetOf(pg))
      .execute(),
    k
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(where(f))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export const findUser = (k: Kysely<Database>, orgi: string, id: string): Promise<UserRow | undefined> =>
  k.selectFrom('users').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

/** Across tenants: a login names only the user (self-registered companies are tenants of their own). */
export async function usernameTaken(
  k: Kysely<Database>,
  username: string,
  exceptId?: string,
): Promise<boolean> {
  let q = k.selectFrom('users').select('id').where('username', '=', username);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function mobileOrEmailTaken(
  k: Kysely<Database>,
  orgi: string,
  mobile: string | null,
  email: string | null,
  exceptId?: string,
): Promise<boolean> {
  if (!mobile && !email) return false;
  let q = k
    .selectFrom('users')
    .select('id')
    .where('orgi', '=', orgi)
    .where((eb) =>
      eb.or([...(mobile ? [eb('mobile', '=', mobile)] : []), ...(email ? [eb('email', '=', email)] : [])]),
    );
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Department memberships per user. */
export async function organsOf(
  k: Kysely<Database>,
  userIds: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!userIds.length) return out;
  const rows = await k
    .selectFrom('user_organ')
    .select(['userid', 'organid'])
    .where('userid', 'in', userIds)
    .execute();
  for (const r of rows) out.set(r.userid, [...(out.get(r.userid) ?? []), r.organid]);
  return out;
}

export async function rolesOf(
  k: Kysely<Database>,
  userIds: readonly string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const out = new Map<string, { id: string; name: string }[]>();
  if (!userIds.length) return out;
  const rows = await k
    .selectFrom('user_role')
    .innerJoin('role', 'role.id', 'user_role.roleid')
    .select(['user_role.userid', 'role.id', 'role.name'])
    .where('user_role.userid', 'in', userIds)
    .orderBy('role.name')
    .execute();
  for (const r of rows) out.set(r.userid, [...(out.get(r.userid) ?? []), { id: r.id, name: r.name }]);
  return out;
}

export async function organNames(k: Kysely<Database>, orgi: string): Promise<Map<string, string>> {
  const rows = await k.selectFrom('organ').select(['id', 'name']).where('orgi', '=', orgi).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Which of `ids` exist in the organisation's table. */
export async function existingIds(
  k: Kysely<Database>,
  table: 'organ' | 'role' | 'users',
  orgi: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await k
    .selectFrom(table)
    .select('id')
    .where('orgi', '=', orgi)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export const insertUser = (k: Kysely<Database>, row: Insertable<UserTable>) =>
  k.insertInto('users').values(row).execute();

export const updateUser = (k: Kysely<Database>, id: string, set: Updateable<UserTable>) =>
  k.updateTable('users').set(set).where('id', '=', id).execute();

export async function setOrgans(
  k: Kysely<Database>,
  orgi: string,
  userid: string,
  organs: readonly string[],
): Promise<void> {
  await k.deleteFrom('user_organ').where('userid', '=', userid).execute();
  if (organs.length)
    await k
      .insertInto('user_organ')
      .values(organs.map((organid) => ({ userid, organid, orgi })))
      .execute();
}

export async function setRoles(
  k: Kysely<Database>,
  orgi: string,
  userid: string,
  roles: readonly string[],
): Promise<void> {
  await k.deleteFrom('user_role').where('userid', '=', userid).execute();
  if (roles.length)
    await k
      .insertInto('user_role')
      .values(roles.map((roleid) => ({ userid, roleid, orgi })))
      .execute();
}

export async function deleteUser(k: Kysely<Database>, id: string): Promise<void> {
  await k.deleteFrom('user_role').where('userid', '=', id).execute();
  await k.deleteFrom('user_organ').where('userid', '=', id).execute();
  await k.deleteFrom('tokens').where('userid', '=', id).execute();
  await k.deleteFrom('users').where('id', '=', id).execute();
}

export const listRoleNames = (k: Kysely<Database>, orgi: string) =>
  k
    .selectFrom('role')
    .select(['id', 'name'])
    .where('orgi', '=', orgi)
    .orderBy('createtime')
    .orderBy('name')
    .execute();

/** Replaces a department's membership rows. */
export async function setOrganMembers(
  k: Kysely<Database>,
  orgi: string,
  organid: string,
  userids: readonly string[],
): Promise<void> {
  await k.deleteFrom('user_organ').where('organid', '=', organid).execute();
  if (userids.length)
    await k
      .insertInto('user_organ')
      .values(userids.map((userid) => ({ userid, organid, orgi })))
      .execute();
}

export async function primaryMembers(k: Kysely<Database>, orgi: string, organid: string): Promise<string[]> {
  const rows = await k
    .selectFrom('users')
    .select('id')
    .where('orgi', '=', orgi)
    .where('organ', '=', organid)
    .execute();
  return rows.map((r) => r.id);
}
