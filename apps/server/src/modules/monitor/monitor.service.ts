import type {
  MonitorAgentDto,
  MonitorChatDto,
  MonitorCounters,
  MonitorDesktopDto,
  MonitorService,
  MonitorSkillDto,
  MonitorTab,
  StaticAgentDto,
} from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { Engine } from '../conversation/engine.js';
import { loadSessionConfig } from '../conversation/session-config.js';
import * as repo from './monitor.repository.js';
import { byWaiting, presentAgent, presentChat } from './monitor.presenter.js';
import { requireAgentInScope, scopeOf, type Scope } from './monitor.scope.js';
import { loadRules, type Rules } from './supervision.repository.js';

/** The monitor's reads: the desktop (wallboard + chats), a tab's list, counters, per-agent figures. */

/** The reply-time limit (ms) of a chat's group: the group's reply alert, else the session's agenttimeout. */
export async function replyLimits(
  e: Engine,
  orgi: string,
): Promise<{ rules: Rules; of(organ: string | null): number }> {
  const [rules, cfg] = await Promise.all([loadRules(e.db.kysely, orgi), loadSessionConfig(e.db, orgi)]);
  return { rules, of: (organ) => (rules.of(organ).replyalert || cfg.agenttimeout) * 1000 };
}

/** Live chats of a scope, presented, longest waiting first. */
export async function scopeChats(e: Engine, scope: Scope): Promise<MonitorChatDto[]> {
  const k = e.db.kysely;
  const [rows, organs, limits] = await Promise.all([
    repo.liveChats(k, scope),
    repo.organsOf(k, scope.orgi),
    replyLimits(e, scope.orgi),
  ]);
  const names = new Map(organs.map((o) => [o.id, o.name]));
  const now = e.clock.now();
  return rows
    .map((r) => presentChat(r, now, limits.of(r.organ), (id) => (id ? (names.get(id) ?? '') : '')))
    .sort(byWaiting);
}

export function countersOf(chats: readonly MonitorChatDto[], leavemsgNum: number): MonitorCounters {
  let inqueneNum = 0;
  let serviceNum = 0;
  let timeoutNum = 0;
  let aiNum = 0;
  for (const c of chats) {
    if (c.status === 'inqueue') inqueneNum++;
    else serviceNum++;
    if (c.timeout) timeoutNum++;
    if (c.ai) aiNum++;
  }
  return { inqueneNum, leavemsgNum, timeoutNum, serviceNum, aiNum };
}

/** The list a tab shows, with the service filter ('ai' only AI chats, 'service' only the others). */
export function tabList(
  chats: readonly MonitorChatDto[],
  type: MonitorTab,
  service: MonitorService | undefined,
): MonitorChatDto[] {
  return chats.filter((c) => {
    if (service === 'ai' && !c.ai) return false;
    if (service === 'service' && c.ai) return false;
    if (type === 'queue') return c.status === 'inqueue';
    if (type === 'timeout') return c.timeout === 1;
    return true;
  });
}

export async function scopeAgentList(e: Engine, scope: Scope): Promise<MonitorAgentDto[]> {
  const k = e.db.kysely;
  const rows = await repo.scopeAgents(k, scope);
  const ids = rows.map((r) => r.userid);
  const [members, since] = await Promise.all([repo.memberships(k, ids), repo.stateTimes(k, ids)]);
  return rows.map((r) => presentAgent(r, members.get(r.userid) ?? [], since.get(r.userid)));
}

/** Skill groups of the scope (an organ scope: its own group) with their agents matched by organ. */
function skillsOf(
  organs: readonly repo.OrganRow[],
  scope: Scope,
  agents: readonly MonitorAgentDto[],
  chats: readonly MonitorChatDto[],
): MonitorSkillDto[] {
  const groups = organs.filter((o) => (scope.kind === 'organ' ? o.id === scope.organ : o.skill === 1));
  return groups.map((o) => ({
    id: o.id,
    name: o.name,
    parentid: o.parentid,
    agentList: agents.filter((a) => a.organs.includes(o.id)),
    serviceNum: chats.filter((c) => c.organ === o.id && c.status === 'inservice').length,
    inqueneNum: chats.filter((c) => c.organ === o.id && c.status === 'inqueue').length,
  }));
}

export async function desktop(
  e: Engine,
  p: Principal,
  q: { type: MonitorTab; service?: MonitorService },
): Promise<MonitorDesktopDto> {
  const scope = scopeOf(p);
  const k = e.db.kysely;
  const [chats, agents, organs, leavemsgNum, limits] = await Promise.all([
    scopeChats(e, scope),
    scopeAgentList(e, scope),
    repo.organsOf(k, scope.orgi),
    repo.openLeaveMessages(k, scope),
    replyLimits(e, scope.orgi),
  ]);
  return {
    scope: scope.kind,
    organ: scope.kind === 'organ' ? scope.organ : null,
    skillList: skillsOf(organs, scope, agents, chats),
    agentList: agents,
    agentServiceList: tabList(chats, q.type, q.service),
    ...countersOf(chats, leavemsgNum),
    replylimit: limits.of(scope.kind === 'organ' ? scope.organ : null) / 1000,
    now: e.clock.now(),
  };
}

/** GET current/index: the tab's list only (`businessList`), with fresh counters. */
export async function currentIndex(
  e: Engine,
  p: Principal,
  q: { type: MonitorTab; service?: MonitorService },
): Promise<{ businessList: MonitorChatDto[] } & MonitorCounters> {
  const scope = scopeOf(p);
  const [chats, leavemsgNum] = await Promise.all([
    scopeChats(e, scope),
    repo.openLeaveMessages(e.db.kysely, scope),
  ]);
  return { businessList: tabList(chats, q.type, q.service), ...countersOf(chats, leavemsgNum) };
}

/** Chats in scope waiting for a reply longer than their group's limit. */
export async function overdue(
  e: Engine,
  scope: Scope,
  known?: Awaited<ReturnType<typeof replyLimits>>,
): Promise<repo.Waiting[]> {
  const limits = known ?? (await replyLimits(e, scope.orgi));
  const now = e.clock.now();
  const shortest = Math.min(limits.of(null), ...limits.rules.list.map((r) => limits.of(r.organ || null)));
  const rows = await repo.waitingBefore(e.db.kysely, scope, 'reply', now - shortest);
  return rows.filter((r) => now - r.since > limits.of(r.organ));
}

/** Counters of a scope by counting queries (the live feed's refresh: no rows read but the overdue ones). */
export async function scopeCounters(e: Engine, scope: Scope): Promise<MonitorCounters> {
  const k = e.db.kysely;
  const [counts, late, leavemsgNum] = await Promise.all([
    repo.chatCounts(k, scope),
    overdue(e, scope),
    repo.openLeaveMessages(k, scope),
  ]);
  return {
    inqueneNum: counts.inqueue,
    leavemsgNum,
    timeoutNum: late.length,
    serviceNum: counts.service,
    aiNum: counts.ai,
  };
}

/** GET timeoutAgentserviceSize: chats in scope whose visitor waits for a reply over the limit. */
export async function timeoutSize(e: Engine, p: Principal): Promise<number> {
  return (await overdue(e, scopeOf(p))).length;
}

/** Local midnight of the server's clock. */
function startOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** GET staticagent: live figures per agent in scope (or of one agent). */
export async function staticAgent(
  e: Engine,
  p: Principal,
  q: { userid?: string },
): Promise<{ list: StaticAgentDto[] }> {
  const scope = scopeOf(p);
  const k = e.db.kysely;
  if (q.userid) await requireAgentInScope(k, scope, q.userid);
  const agents = (await scopeAgentList(e, scope)).filter((a) => !q.userid || a.userid === q.userid);
  const now = e.clock.now();
  const figures = await repo.dayFigures(
    k,
    scope.orgi,
    agents.map((a) => a.userid),
    startOfDay(now),
  );
  return {
    list: agents.map((a) => {
      const f = figures.get(a.userid);
      return {
        ...a,
        stateduration: Math.max(0, now - a.statetime),
        servedToday: f?.served ?? 0,
        firstreply: f?.firstreply ?? null,
        avgreply: f?.avgreply ?? null,
      };
    }),
  };
}
