import type { Insertable, Kysely } from 'kysely';
import type { Database, LoginLogTable } from '../../platform/db/schema.js';

export const findUserForLogin = (k: Kysely<Database>, orgi: string, username: string) =>
  k
    .selectFrom('users')
    .select(['id', 'orgi', 'username', 'password_hash', 'disabled'])
    .where('orgi', '=', orgi)
    .where('username', '=', username)
    .executeTakeFirst();

export const touchLastLogin = (k: Kysely<Database>, id: string, at: number) =>
  k.updateTable('users').set({ lastlogin: at }).where('id', '=', id).execute();

export const insertLoginLog = (k: Kysely<Database>, row: Insertable<LoginLogTable>) =>
  k.insertInto('login_log').values(row).execute();

export const findOrganization = (k: Kysely<Database>, id: string) =>
  k.selectFrom('organization').select(['title', 'favlogo']).where('id', '=', id).executeTakeFirst();
