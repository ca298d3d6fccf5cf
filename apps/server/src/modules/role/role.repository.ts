import type { Kysely, Selectable } from 'kysely';
import type { Database, RoleTable } from '../../platform/db/schema.js';

export type RoleRow = Selectable<RoleTable>;

export const listRoles = (k: Kysely<Database>, orgi: string): Promise<RoleRow[]> =>
  k.selectFrom('role').selectAll().where('orgi', '=', orgi).orderBy('createtime').orderBy('name').execute();

export async function userCounts(k: Kysely<Database>, orgi: string): Promise<Map<string, number>> {
  const rows = await k
    .selectFrom('user_role')
    .select(['roleid', (eb) => eb.fn.countAll<number>().as('n')])
    .where('orgi', '=', orgi)
    .groupBy('roleid')
    .execute();
  return new Map(rows.map((r) => [r.roleid, Number(r.n)]));
}

export const findRole = (k: Kysely<Database>, orgi: string, id: string): Promise<RoleRow | undefined> =>
  k.selectFrom('role').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export async function nameTaken(
  k: Kysely<Database>,
  orgi: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let q = k.selectFrom('role').select('id').where('orgi', '=', orgi).where('name', '=', name);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export const insertRole = (k: Kysely<Database>, row: RoleRow) => k.insertInto('role').values(row).execute();

export const updateRole = (
  k: Kysely<Database>,
  id: string,
  set: Pick<RoleRow, 'name' | 'description' | 'updatetime'>,
) => k.updateTable('role').set(set).where('id', '=', id).execute();

export async function deleteRole(k: Kysely<Database>, id: string): Promise<void> {
  await k.deleteFrom('role_auth').where('roleid', '=', id).execute();
  await k.deleteFrom('user_role').where('roleid', '=', id).execute();
  await k.deleteFrom('role').where('id', '=', id).execute();
}

export const hasUsers = async (k: Kysely<Database>, id: string): Promise<boolean> =>
  (await k.selectFrom('user_role').select('userid').where('roleid', '=', id).executeTakeFirst()) !==
  undefined;

export async function roleCodes(k: Kysely<Database>, roleid: string): Promise<string[]> {
  const rows = await k
    .selectFrom('role_auth')
    .select('code')
    .where('roleid', '=', roleid)
    .orderBy('code')
    .execute();
  return rows.map((r) => r.code);
}

export async function setRoleCodes(
  k: Kysely<Database>,
  orgi: string,
  roleid: string,
  codes: readonly string[],
): Promise<void> {
  await k.deleteFrom('role_auth').where('roleid', '=', roleid).execute();
  if (codes.length)
    await k
      .insertInto('role_auth')
      .values(codes.map((code) => ({ roleid, code, orgi })))
      .execute();
}

export async function rolesOfUser(k: Kysely<Database>, userid: string): Promise<string[]> {
  const rows = await k.selectFrom('user_role').select('roleid').where('userid', '=', userid).execute();
  return rows.map((r) => r.roleid);
}

export async function codesOfRoles(k: Kysely<Database>, roleIds: readonly string[]): Promise<string[]> {
  if (!roleIds.length) return [];
  const rows = await k
    .selectFrom('role_auth')
    .select('code')
    .distinct()
    .where('roleid', 'in', roleIds)
    .execute();
  return rows.map((r) => r.code);
}

export const usertypeOf = async (k: Kysely<Database>, userid: string): Promise<string | undefined> =>
  (await k.selectFrom('users').select('usertype').where('id', '=', userid).executeTakeFirst())?.usertype;
