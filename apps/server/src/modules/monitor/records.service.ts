import type { MessageDto, MonitorAuditDto, MonitorRuleDto, Page } from '@kefu/protocol';
import type { z } from 'zod';
import type { monitorRuleSaveBody, monitorTranscriptQuery } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, forbidden } from '../../platform/http/errors.js';
import type { Engine } from '../conversation/engine.js';
import { messages } from '../conversation/talk.service.js';
import { audit } from './audit.js';
import { presentAudit } from './monitor.presenter.js';
import { scopeOf } from './monitor.scope.js';
import { chatInReach } from './supervise.service.js';
import { auditPage, loadRules, saveRule } from './supervision.repository.js';

/** The monitor's records: a chat's transcript, the audit trail, the ring and alert rules. */

/** GET chatMessage: a chat's messages (the talk page call) once the chat is in the supervisor's scope. */
export async function transcript(
  e: Engine,
  p: Principal,
  q: z.infer<typeof monitorTranscriptQuery>,
): Promise<{ list: MessageDto[]; hasMore: boolean; agentserviceid: string }> {
  await chatInReach(e, p, q);
  return messages(e, p, q);
}

export async function auditList(
  e: Engine,
  p: Principal,
  q: { agentserviceid?: string; p: number; ps: number },
): Promise<Page<MonitorAuditDto>> {
  const scope = scopeOf(p);
  if (q.agentserviceid) await chatInReach(e, p, { agentserviceid: q.agentserviceid });
  const r = await auditPage(e.db.kysely, scope, q);
  return { list: r.list.map(presentAudit), total: r.total, page: q.p, size: q.ps };
}

/** GET rules: the tenant default and each group's own (an organ scope: its group's effective rule). */
export async function rules(e: Engine, p: Principal): Promise<{ list: MonitorRuleDto[] }> {
  const scope = scopeOf(p);
  const r = await loadRules(e.db.kysely, scope.orgi);
  return { list: scope.kind === 'all' ? r.list : [r.of(scope.organ)] };
}

/** POST rules/save: the fields sent over the group's effective rule. The default needs the tenant scope. */
export async function saveRules(
  e: Engine,
  p: Principal,
  b: z.infer<typeof monitorRuleSaveBody>,
): Promise<MonitorRuleDto> {
  const scope = scopeOf(p);
  const k = e.db.kysely;
  if (scope.kind === 'organ' && b.organ !== scope.organ) throw forbidden('monitor_scope');
  if (b.organ) {
    const organ = await k.selectFrom('organ').select('orgi').where('id', '=', b.organ).executeTakeFirst();
    if (!organ || organ.orgi !== p.orgi) throw badRequest('invalid_field', { organ: 'invalid_field' });
  }
  const { updatetime: _ignored, ...current } = (await loadRules(k, p.orgi)).of(b.organ || null);
  const next = { ...current, ...definedOnly(b), organ: b.organ };
  await saveRule(k, p.orgi, next, e.clock.now());
  await audit(e, p, 'rules', { organ: b.organ || null, detail: JSON.stringify(next) });
  return (await loadRules(k, p.orgi)).of(b.organ || null);
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
