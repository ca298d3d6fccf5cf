import { hasPermission } from '@kefu/protocol';
import type { Db } from '../db/database.js';
import type { Principal } from './principal.js';

/**
 * Which records of a domain (contacts, conversation history) a user may see. The rule:
 * - usertype '0' or the superuser flag: the whole organisation;
 * - a holder of the domain's code (A05 contacts, A04 history): their own records plus those of their
 *   departments — the primary one, every one they are a member of, and all departments below those;
 * - anyone else: their own records only.
 */
export type DataScope =
  | { kind: 'all' }
  | { kind: 'organ'; userid: string; organs: readonly string[] }
  | { kind: 'own'; userid: string };

export async function dataScope(k: Db['kysely'], p: Principal, code: string): Promise<DataScope> {
  if (p.usertype === '0' || p.superuser) return { kind: 'all' };
  if (!hasPermission(p.usertype, p.auth, code)) return { kind: 'own', userid: p.id };
  const [members, organs] = await Promise.all([
    k.selectFrom('user_organ').select('organid').where('userid', '=', p.id).execute(),
    k.selectFrom('organ').select(['id', 'parentid']).where('orgi', '=', p.orgi).execute(),
  ]);
  const out = [...new Set([...(p.organ ? [p.organ] : []), ...members.map((m) => m.organid)])];
  for (let i = 0; i < out.length; i++) {
    for (const o of organs) if (o.parentid === out[i] && !out.includes(o.id)) out.push(o.id);
  }
  return { kind: 'organ', userid: p.id, organs: out };
}

/** Whether a record owned by `owner` and filed under department `organ` is within the scope. */
export function inScope(s: DataScope, row: { owner: string | null; organ: string | null }): boolean {
  if (s.kind === 'all') return true;
  if (row.owner === s.userid) return true;
  return s.kind === 'organ' && row.organ !== null && s.organs.includes(row.organ);
}
