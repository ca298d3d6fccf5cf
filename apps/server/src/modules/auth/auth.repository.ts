import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, LoginLogTable } from '../../platform/db/schema.js';

/**
 * The user a login names, in any tenant: usernames are unique across tenants (registration and user saves
 * check it); should an older database hold a name twice, the default tenant's user is the one found.
 */
export const findUserForLogin = (k: Kysely<Database>, defaultOrgi: string, username: string) =>
  k
    .selectFrom('users')
    .select(['id', 'orgi', 'username', 'password_hash', 'disabled', 'usertype'])
    .where('username', '=', username)
    .orderBy(sql`case when orgi = ${defaultOrgi} then 0 else 1 end`)
    .orderBy('createtime')
    .limit(1)
    .executeTakeFirst();

/** Whether any role of the user grants at least one permission code. */
export async function holdsAnyCode(k: Kysely<Database>, userid: string): Promise<boolean> {
  const row = await k
    .selectFrom('user_role')
    .innerJoin('role_auth', 'role_auth.roleid', 'user_role.roleid')
    .select('role_auth.code')
    .where('user_role.userid', '=', userid)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

export const touchLastLogin = (k: Kysely<Database>, id: string, at: number) =>
  k.updateTable('users').set({ lastlogin: at }).where('id', '=', id).execute();

export const insertLoginLog = (k: Kysely<Database>, row: Insertable<LoginLogTable>) =>
  k.insertInto('login_log').values(row).execute();

export const findOrganization = (k: Kysely<Database>, id: string) =>
  k.selectFrom('organization').select(['title', 'favlogo']).where('id', '=', id).executeTakeFirst();
