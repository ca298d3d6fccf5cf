import type { Distribution, SkillPolicyDto } from '@kefu/protocol';
import type { SessionConfig } from '../conversation/session-config.js';

/**
 * How a chat routed to `organ` is assigned: the skill group's own policy (imAgent skill/save, kept in the
 * session config so the engine reads it with the config it already reads, in the same statement) laid
 * over the tenant's assignment rules. `visitor` is the one whose last agent is preferred when that is on.
 */
export function routingOf(
  cfg: Pick<SessionConfig, 'distribution' | 'lastagent' | 'skillpolicy'>,
  organ: string | null,
  visitor: string,
): { distribution: Distribution; lastAgentOf: string | null } {
  const own = organ ? cfg.skillpolicy?.[organ] : undefined;
  return {
    distribution: own?.distribution ?? cfg.distribution,
    lastAgentOf: (own?.lastagent ?? cfg.lastagent) ? visitor : null,
  };
}

export function presentPolicy(cfg: Pick<SessionConfig, 'skillpolicy'>, organid: string): SkillPolicyDto {
  const own = cfg.skillpolicy?.[organid];
  return {
    organid,
    distribution: own?.distribution ?? 'inherit',
    lastagent: own?.lastagent === undefined ? 'inherit' : own.lastagent ? 'on' : 'off',
  };
}
