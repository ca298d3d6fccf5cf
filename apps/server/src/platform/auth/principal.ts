import type { Kysely } from 'kysely';
import type { AuthMap } from '@kefu/protocol';
import type { Database } from '../db/schema.js';

/** The authenticated user attached to each /api request and agent socket. */
export interface Principal {
  id: string;
  orgi: string;
  username: string;
  uname: string;
  /** Read with the token so a user's own lines are named by the one display rule (userDisplayName). */
  nickname?: string;
  usertype: string;
  superuser: boolean;
  organ: string | null;
  language: string;
  auth: AuthMap;
  token: string;
}

export type PrincipalLoad =
  | { ok: true; principal: Principal; expires: number }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'user' };

/**
 * The token and its user in one query (a join on the token hash), then the user's role codes. `user`
 * means the token is valid but its user is gone or disabled.
 */
export async function loadPrincipalByToken(
  db: Kysely<Database>,
  tokenHash: string,
  token: string,
): Promise<PrincipalLoad> {
  const row = await db
    .selectFrom('tokens')
    .leftJoin('users', 'users.id', 'tokens.userid')
    .select([
      'tokens.userid',
      'tokens.revoked',
      'tokens.expires',
      'users.id',
      'users.orgi',
      'users.username',
      'users.uname',
      'users.nickname',
      'users.usertype',
      'users.superuser',
      'users.organ',
      'users.language',
      'users.disabled',
    ])
    .where('tokens.id', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revoked) return { ok: false, reason: 'revoked' };
  if (row.expires < Date.now()) return { ok: false, reason: 'expired' };
  if (!row.id || row.disabled) return { ok: false, reason: 'user' };
  const codes = await db
    .selectFrom('user_role')
    .innerJoin('role_auth', 'role_auth.roleid', 'user_role.roleid')
    .select('role_auth.code')
    .where('user_role.userid', '=', row.id)
    .execute();
  const auth: AuthMap = {};
  for (const { code } of codes) auth[code] = true;
  return {
    ok: true,
    expires: row.expires,
    principal: {
      id: row.id,
      orgi: row.orgi ?? '',
      username: row.username ?? '',
      uname: row.uname ?? '',
      nickname: row.nickname ?? '',
      usertype: row.usertype ?? '',
      superuser: row.superuser === 1,
      organ: row.organ ?? null,
      language: row.language ?? '',
      auth,
      token,
    },
  };
}
