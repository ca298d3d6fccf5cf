import type { Kysely } from 'kysely';
import type { AuthMap } from '@kefu/protocol';
import type { Database } from '../db/schema.js';

/** The authenticated user attached to each /api request and agent socket. */
export interface Principal {
  id: string;
  orgi: string;
  username: string;
  uname: string;
  usertype: string;
  superuser: boolean;
  organ: string | null;
  language: string;
  auth: AuthMap;
  token: string;
}

export async function loadPrincipal(
  db: Kysely<Database>,
  userid: string,
  token: string,
): Promise<Principal | null> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userid).executeTakeFirst();
  if (!user || user.disabled) return null;
  const codes = await db
    .selectFrom('user_role')
    .innerJoin('role_auth', 'role_auth.roleid', 'user_role.roleid')
    .select('role_auth.code')
    .where('user_role.userid', '=', userid)
    .execute();
  const auth: AuthMap = {};
  for (const { code } of codes) auth[code] = true;
  return {
    id: user.id,
    orgi: user.orgi,
    username: user.username,
    uname: user.uname,
    usertype: user.usertype,
    superuser: user.superuser === 1,
    organ: user.organ,
    language: user.language,
    auth,
    token,
  };
}
