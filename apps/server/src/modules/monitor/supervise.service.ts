import type { AgentUserDto, StoredAgentState } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import type { Engine } from '../conversation/engine.js';
import * as arepo from '../conversation/agent-status.repository.js';
import * as srepo from '../conversation/service.repository.js';
import type { AgentServiceRow } from '../conversation/presenter.js';
import { setAgentState } from '../conversation/agentstate.service.js';
import { endConversation } from '../conversation/lifecycle.service.js';
import { orderCandidates } from '../conversation/routing.service.js';
import { loadSessionConfig } from '../conversation/session-config.js';
import { audit } from './audit.js';
import { chatInScope, requireAgentInScope, scopeOf, type Scope } from './monitor.scope.js';
import { moveChat, queueForHuman, releaseToRobot } from './move.service.js';
import { markHandoff, robotFor, robotResumes } from '../robot/flow.service.js';

/** Supervisor actions on conversations and agents; each is checked against the scope and audited. */

/** A conversation named by id or chat-entry id, of the tenant (404) and in the scope (403). */
export async function chatInReach(
  e: Engine,
  p: Principal,
  q: { agentserviceid?: string; agentuserid?: string },
): Promise<{ scope: Scope; s: AgentServiceRow }> {
  const scope = scopeOf(p);
  const k = e.db.kysely;
  let sid = q.agentserviceid;
  if (!sid && q.agentuserid) sid = (await srepo.findAgentUser(k, q.agentuserid))?.agentserviceid;
  const s = sid ? await srepo.findService(k, sid) : undefined;
  if (!s || s.orgi !== p.orgi) throw notFound('conversation_not_found');
  if (!(await chatInScope(k, scope, s))) throw forbidden('monitor_scope');
  return { scope, s };
}

const live = (s: AgentServiceRow) => {
  if (s.status === 'end') throw badRequest('conversation_ended');
};

/** GET end: the supervisor ends a conversation (endby system; the agent sees it over). */
export async function endChat(
  e: Engine,
  p: Principal,
  q: { agentserviceid?: string; agentuserid?: string },
): Promise<void> {
  const { s } = await chatInReach(e, p, q);
  live(s);
  if (!(await endConversation(e, s.id, 'system'))) throw badRequest('conversation_ended');
  await audit(e, p, 'end', { agentserviceid: s.id, target: s.agentno, organ: s.organ });
}

/** GET endAgent: force an agent's state (default notready: signed out of routing). */
export async function endAgent(
  e: Engine,
  p: Principal,
  q: { userid: string; status: StoredAgentState },
): Promise<{ status: StoredAgentState }> {
  const scope = scopeOf(p);
  const u = await requireAgentInScope(e.db.kysely, scope, q.userid);
  const status = await setAgentState(e, u.id, q.status, 'supervisor');
  await audit(e, p, 'endAgent', { target: u.id, organ: u.organ, detail: status });
  return { status };
}

/** The best ready agent with room of a group (not `except`), by the tenant's distribution. */
async function pickInGroup(e: Engine, orgi: string, organ: string, except: string | null): Promise<string> {
  const cfg = await loadSessionConfig(e.db, orgi);
  const list = (await arepo.readyCandidates(e.db.kysely, orgi, organ, null)).filter(
    (a) => a.userid !== except,
  );
  const to = orderCandidates(list, { ...cfg, lastagent: false }, null)[0]?.userid;
  if (!to) throw badRequest('transfer_target_invalid');
  return to;
}

/** A target group of the scope: an organ-limited supervisor moves chats within its own group only. */
function groupInScope(scope: Scope, organ: string): void {
  if (scope.kind === 'organ' && organ !== scope.organ) throw forbidden('monitor_scope');
}

/** GET transfer: the supervisor moves a chat to an agent (ready, with room) or a group's best agent. */
export async function transfer(
  e: Engine,
  p: Principal,
  q: { agentserviceid?: string; agentuserid?: string; agentno?: string; organ?: string; memo: string },
): Promise<AgentUserDto> {
  const { scope, s } = await chatInReach(e, p, q);
  live(s);
  let to: string;
  if (q.agentno) {
    to = (await requireAgentInScope(e.db.kysely, scope, q.agentno)).id;
    if (to === s.agentno) throw badRequest('transfer_target_invalid');
  } else {
    groupInScope(scope, q.organ ?? '');
    to = await pickInGroup(e, s.orgi, q.organ ?? '', s.agentno);
  }
  const dto = await moveChat(e, s, to, {
    requireReady: true,
    memo: q.memo,
    patch: s.ai ? { ai: 0, foragent: 1 } : undefined,
    notice: { type: 'transfer', message: q.memo },
  });
  if (s.ai) await markHandoff(e, s, 'supervisor');
  await audit(e, p, 'transfer', { agentserviceid: s.id, target: to, organ: s.organ, detail: q.memo });
  return dto;
}

/** GET takeover: the chat moves to the supervisor; its agent is told. */
export async function takeover(
  e: Engine,
  p: Principal,
  q: { agentserviceid?: string; agentuserid?: string },
): Promise<AgentUserDto> {
  const { s } = await chatInReach(e, p, q);
  live(s);
  if (s.agentno === p.id) throw badRequest('takeover_own');
  const dto = await moveChat(e, s, p.id, {
    requireReady: false,
    memo: 'takeover',
    patch: s.ai ? { ai: 0, foragent: 1 } : undefined,
    notice: { type: 'takeover', message: p.uname },
  });
  if (s.ai) await markHandoff(e, s, 'supervisor');
  await audit(e, p, 'takeover', { agentserviceid: s.id, target: s.agentno, organ: s.organ });
  return dto;
}

/**
 * GET aiChange. To a human (default): the AI chat goes to the named agent, to the best agent of a group,
 * or into the human queue. Back to the robot (ai=true): the agent lets the chat go. The robot itself (its
 * answers, and AI chats opened by the widget) belongs to the robot issue.
 */
export async function aiChange(
  e: Engine,
  p: Principal,
  q: { agentserviceid?: string; agentuserid?: string; ai: boolean; agentno?: string; organ?: string },
): Promise<{ agentserviceid: string; ai: 0 | 1; status: string; agentno: string | null }> {
  const { scope, s } = await chatInReach(e, p, q);
  live(s);
  if (q.ai) {
    if (s.ai) throw badRequest('already_ai');
    // Only to a robot that will answer (the chat's own, or its access point's): never a silent chat.
    const robot = await robotFor(e.db.kysely, s);
    if (!robot) throw badRequest('robot_none');
    await releaseToRobot(e, s, { type: 'ai', message: p.uname });
    await robotResumes(e, s.id, robot);
    await audit(e, p, 'humanToAi', { agentserviceid: s.id, target: s.agentno, organ: s.organ });
  } else {
    if (!s.ai) throw badRequest('not_ai_conversation');
    let to: string | null = null;
    if (q.agentno) to = (await requireAgentInScope(e.db.kysely, scope, q.agentno)).id;
    else if (q.organ) {
      groupInScope(scope, q.organ);
      to = await pickInGroup(e, s.orgi, q.organ, null);
    }
    if (to) {
      await moveChat(e, s, to, { requireReady: true, memo: 'ai', patch: { ai: 0, foragent: 1 } });
      await markHandoff(e, s, 'supervisor');
    } else {
      await markHandoff(e, s, 'supervisor');
      await queueForHuman(e, s);
    }
    await audit(e, p, 'aiToHuman', { agentserviceid: s.id, target: to, organ: s.organ });
  }
  const after = await srepo.findService(e.db.kysely, s.id);
  return {
    agentserviceid: s.id,
    ai: after?.ai ? 1 : 0,
    status: after?.status ?? s.status,
    agentno: after?.agentno ?? null,
  };
}
