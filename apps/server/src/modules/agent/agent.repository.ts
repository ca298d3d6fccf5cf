import type { Kysely, Selectable } from 'kysely';
import type { Database, OrganTable, UserTable } from '../../platform/db/schema.js';

export type UserRow = Selectable<UserTable>;
export type OrganRow = Selectable<OrganTable>;

export const findUser = (k: Kysely<Database>, id: string): Promise<UserRow | undefined> =>
  k.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findOrgan = (k: Kysely<Database>, orgi: string, id: string): Promise<OrganRow | undefined> =>
  k.selectFrom('organ').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

/** Skill groups the user belongs to (membership rows whose department takes chats). */
export async function skillIdsOf(k: Kysely<Database>, userid: string): Promise<string[]> {
  const rows = await k
    .selectFrom('user_organ')
    .innerJoin('organ', 'organ.id', 'user_organ.organid')
    .select('organ.id')
    .where('user_organ.userid', '=', userid)
    .where('organ.skill', '=', 1)
    .orderBy('organ.sortindex')
    .orderBy('organ.id')
    .execute();
  return rows.map((r) => r.id);
}

export async function updateUser(
  k: Kysely<Database>,
  id: string,
  set: Partial<
    Pick<
      UserRow,
      | 'uname'
      | 'nickname'
      | 'language'
      | 'warningtone'
      | 'messagetone'
      | 'warningpath'
      | 'messagepath'
      | 'password_hash'
    >
  >,
): Promise<void> {
  await k
    .updateTable('users')
    .set({ ...set, updatetime: Date.now() })
    .where('id', '=', id)
    .execute();
}

export const skillGroups = (k: Kysely<Database>, orgi: string) =>
  k
    .selectFrom('organ')
    .select(['id', 'name', 'parentid'])
    .where('orgi', '=', orgi)
    .where('skill', '=', 1)
    .orderBy('sortindex')
    .orderBy('createtime')
    .execute();

/** Enabled users, optionally only the members of one department (membership or primary department). */
export function enabledUsers(k: Kysely<Database>, orgi: string, organ?: string | null) {
  let q = k
    .selectFrom('users')
    .select(['id', 'username', 'uname', 'organ'])
    .where('orgi', '=', orgi)
    .where('disabled', '=', 0);
  if (organ) {
    q = q.where((eb) =>
      eb.or([
        eb('organ', '=', organ),
        eb('id', 'in', eb.selectFrom('user_organ').select('userid').where('organid', '=', organ)),
      ]),
    );
  }
  return q.orderBy('username').execute();
}
