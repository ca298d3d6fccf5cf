import { monitorScope, SUPER_USERTYPE } from '@kefu/protocol';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Principal } from '../../platform/auth/principal.js';
import { forbidden, notFound } from '../../platform/http/errors.js';
import type { Kdb } from '../conversation/engine.js';

/**
 * What a supervisor may watch and act on (spec section 6): A03_A01, a superuser or the usertype '0'
 * account see every group of the tenant; otherwise A03_A02 limits the monitor to the user's own organ.
 * A03 without either sub-code sees nothing (the role tree checks a sub-code with its parent; a lone
 * parent grants the screen, not the data). Every monitor call and socket event resolves this first.
 */
export type Scope = { kind: 'all'; orgi: string } | { kind: 'organ'; orgi: string; organ: string };

export function scopeOf(p: Principal): Scope {
  const kind = p.usertype === SUPER_USERTYPE ? 'all' : monitorScope(p.auth, p.superuser);
  if (kind === 'all') return { kind, orgi: p.orgi };
  if (kind === 'organ' && p.organ) return { kind, orgi: p.orgi, organ: p.organ };
  throw forbidden('monitor_scope');
}

/** Room key of a scope: '' for the whole tenant, else the organ id. */
export const scopeKey = (s: Scope): string => (s.kind === 'all' ? '' : s.organ);

/** The agents of an organ: primary department or member of the group. */
export const organAgentsSql = (organ: string) =>
  sql<string>`(select id from users where organ = ${organ} union select userid from user_organ where organid = ${organ})`;

/** SQL condition "this agent_service row is in scope" (for the list reads). */
export function chatScopeSql(s: Scope, table = 'agent_service'): Expression<SqlBool> {
  if (s.kind === 'all') return sql<SqlBool>`${sql.ref(`${table}.orgi`)} = ${s.orgi}`;
  return sql<SqlBool>`(${sql.ref(`${table}.orgi`)} = ${s.orgi} and (${sql.ref(`${table}.organ`)} = ${s.organ}
    or ${sql.ref(`${table}.agentno`)} in ${organAgentsSql(s.organ)}))`;
}

/** The agent belongs to the organ (primary department or membership). */
export async function agentInOrgan(k: Kdb, userid: string, organ: string): Promise<boolean> {
  const r = await sql<{ n: number }>`select 1 as n from users where id = ${userid} and organ = ${organ}
    union select 1 as n from user_organ where userid = ${userid} and organid = ${organ}`.execute(k);
  return r.rows.length > 0;
}

/** A conversation (row already read) is in scope: its group is the organ, or an agent of it serves it. */
export async function chatInScope(
  k: Kdb,
  s: Scope,
  c: { orgi: string; organ: string | null; agentno: string | null },
): Promise<boolean> {
  if (c.orgi !== s.orgi) return false;
  if (s.kind === 'all') return true;
  if (c.organ === s.organ) return true;
  return !!c.agentno && agentInOrgan(k, c.agentno, s.organ);
}

/** An agent of the tenant in scope, or 404 (other tenant / unknown) / 403 monitor_scope. */
export async function requireAgentInScope(
  k: Kdb,
  s: Scope,
  userid: string,
): Promise<{ id: string; uname: string; nickname: string; organ: string | null }> {
  const u = await k
    .selectFrom('users')
    .select(['id', 'orgi', 'uname', 'nickname', 'organ'])
    .where('id', '=', userid)
    .executeTakeFirst();
  if (!u || u.orgi !== s.orgi) throw notFound('user_not_found');
  if (s.kind === 'organ' && !(await agentInOrgan(k, userid, s.organ))) throw forbidden('monitor_scope');
  return u;
}
