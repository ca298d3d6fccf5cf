import type { Distribution, SkillPolicyDto } from '@kefu/protocol';
import type { SessionConfig } from '../conversation/session-config.js';
import { runFixed, type Sql } from '../conversation/hot-sql.js';

type Policies = Pick<SessionConfig, 'skillpolicy'>;

/** Deep enough for any real department tree; a cycle written by hand in the database stops here too. */
const MAX_DEPTH = 16;

/**
 * The groups whose policy may apply to a chat routed to `organ`: the group, then its parent departments
 * upward (as cskefu's session config falls back to the parent organ's). Read only while some ancestor
 * could hold a policy the group itself does not set, so a tenant without group policies pays nothing.
 */
export async function policyChain(
  k: Sql,
  cfg: Policies,
  orgi: string,
  organ: string | null,
): Promise<string[]> {
  if (!organ) return [];
  const policies = cfg.skillpolicy ?? {};
  const chain = [organ];
  const sets = (key: 'distribution' | 'lastagent') => chain.some((o) => policies[o]?.[key] !== undefined);
  if (Object.keys(policies).length === 0) return chain;
  while (chain.length < MAX_DEPTH && !(sets('distribution') && sets('lastagent'))) {
    const { rows } = await runFixed<{ parentid: string | null }>(
      k,
      'SELECT parentid FROM organ WHERE orgi = ? AND id = ?',
      [orgi, chain[chain.length - 1]!],
    );
    const parent = rows[0]?.parentid;
    if (!parent || chain.includes(parent)) break;
    chain.push(parent);
  }
  return chain;
}

/**
 * How a chat routed to the first group of `chain` is assigned: the nearest group (itself, then its parents)
 * that sets each part of the policy (imAgent skill/save, kept in the session config so the engine reads it
 * with the config it already reads), else the tenant's assignment rules. `visitor` is the one whose last
 * agent is preferred when that is on.
 */
export function routingOf(
  cfg: Pick<SessionConfig, 'distribution' | 'lastagent' | 'skillpolicy'>,
  chain: readonly string[],
  visitor: string,
): { distribution: Distribution; lastAgentOf: string | null } {
  const nearest = <K extends 'distribution' | 'lastagent'>(key: K) => {
    for (const o of chain) {
      const v = cfg.skillpolicy?.[o]?.[key];
      if (v !== undefined) return v;
    }
    return undefined;
  };
  return {
    distribution: nearest('distribution') ?? cfg.distribution,
    lastAgentOf: (nearest('lastagent') ?? cfg.lastagent) ? visitor : null,
  };
}

export function presentPolicy(cfg: Policies, organid: string): SkillPolicyDto {
  const own = cfg.skillpolicy?.[organid];
  return {
    organid,
    distribution: own?.distribution ?? 'inherit',
    lastagent: own?.lastagent === undefined ? 'inherit' : own.lastagent ? 'on' : 'off',
  };
}
