import type {
  MonitorAgentDto,
  MonitorChatDto,
  MonitorCounters,
  MonitorDesktopDto,
  MonitorService,
  MonitorTab,
  MonitorUpdateDto,
} from '@kefu/protocol';

/** The monitor's live picture: the desktop snapshot with every `monitor_update` applied. */
export interface MonitorView {
  scope: MonitorDesktopDto['scope'];
  organ: string | null;
  /** The reply-time limit of the scope, ms (message patches recompute the timeout flag with it). */
  replyLimitMs: number;
  chats: ReadonlyMap<string, MonitorChatDto>;
  agents: ReadonlyMap<string, MonitorAgentDto>;
  groups: ReadonlyArray<{ id: string; name: string; parentid: string | null }>;
  counters: MonitorCounters;
}

export const emptyCounters: MonitorCounters = {
  inqueneNum: 0,
  leavemsgNum: 0,
  timeoutNum: 0,
  serviceNum: 0,
  aiNum: 0,
};

export function fromDesktop(d: MonitorDesktopDto): MonitorView {
  return {
    scope: d.scope,
    organ: d.organ,
    replyLimitMs: d.replylimit * 1000,
    chats: new Map(d.agentServiceList.map((c) => [c.agentserviceid, c])),
    agents: new Map(d.agentList.map((a) => [a.userid, a])),
    groups: d.skillList.map((g) => ({ id: g.id, name: g.name, parentid: g.parentid })),
    counters: {
      inqueneNum: d.inqueneNum,
      leavemsgNum: d.leavemsgNum,
      timeoutNum: d.timeoutNum,
      serviceNum: d.serviceNum,
      aiNum: d.aiNum,
    },
  };
}

/**
 * One coalesced update: changed chats replace theirs (a chat that ended or left the scope goes), message
 * patches move the last line and reply times, agents replace theirs, counters replace all. Maps are copied
 * only when the update touches them, so React sees a change exactly where there is one.
 */
export function applyUpdate(v: MonitorView, u: MonitorUpdateDto): MonitorView {
  let chats = v.chats;
  if (u.chats.length || u.removed.length || u.messages.length) {
    const next = new Map(v.chats);
    for (const c of u.chats) next.set(c.agentserviceid, c);
    for (const id of u.removed) next.delete(id);
    for (const p of u.messages) {
      const c = next.get(p.agentserviceid);
      if (!c) continue;
      next.set(p.agentserviceid, {
        ...c,
        lastmsg: p.lastmsg,
        lastmessage: p.lastmessage ?? c.lastmessage,
        lastgetmessage: p.lastgetmessage ?? c.lastgetmessage,
      });
    }
    chats = next;
  }
  let agents = v.agents;
  if (u.agents.length) {
    const next = new Map(v.agents);
    for (const a of u.agents) next.set(a.userid, a);
    agents = next;
  }
  return { ...v, chats, agents, counters: u.counters ?? v.counters };
}

/** Waiting for an agent reply, recomputed at `now` (the server's flag is as of its last update). */
export function withWaiting(c: MonitorChatDto, now: number, limitMs: number): MonitorChatDto {
  if (c.status !== 'inservice' || c.ai || c.lastmessage === null)
    return c.waitreply ? { ...c, waitreply: 0, timeout: 0 } : c;
  const answered = c.lastgetmessage !== null && c.lastgetmessage >= c.lastmessage;
  const waitreply = answered ? 0 : Math.max(0, now - c.lastmessage);
  const timeout = limitMs > 0 && waitreply > limitMs ? 1 : 0;
  return waitreply === c.waitreply && timeout === c.timeout ? c : { ...c, waitreply, timeout };
}

/** Queue wait, also recomputed at `now` for queued chats. */
export const queueWait = (c: MonitorChatDto, now: number): number =>
  c.status === 'inqueue' ? Math.max(0, now - c.createtime) : c.waitingtime;

/** The list of a tab, filtered by service ('ai' / 'service'), longest waiting first (spec: by waitingtime). */
export function chatList(
  v: MonitorView,
  tab: MonitorTab,
  service: MonitorService | undefined,
  now: number,
): MonitorChatDto[] {
  const out: MonitorChatDto[] = [];
  for (const raw of v.chats.values()) {
    if (service === 'ai' && !raw.ai) continue;
    if (service === 'service' && raw.ai) continue;
    const c = withWaiting(raw, now, v.replyLimitMs);
    if (tab === 'queue' && c.status !== 'inqueue') continue;
    if (tab === 'timeout' && !c.timeout) continue;
    out.push(c);
  }
  return out.sort(
    (a, b) =>
      b.waitreply - a.waitreply || queueWait(b, now) - queueWait(a, now) || a.createtime - b.createtime,
  );
}

/** Counts the header shows between two server counter refreshes (timeouts tick with the clock). */
export function liveTimeouts(v: MonitorView, now: number): number {
  let n = 0;
  for (const c of v.chats.values()) if (withWaiting(c, now, v.replyLimitMs).timeout) n++;
  return n;
}

export interface Group {
  id: string;
  name: string;
  agents: MonitorAgentDto[];
  serving: number;
  queued: number;
}

/** The wallboard: each skill group of the scope with its agents (by primary organ or membership). */
export function wallboard(v: MonitorView, otherName: string): Group[] {
  const groups: Group[] = v.groups.map((g) => ({
    id: g.id,
    name: g.name,
    agents: [],
    serving: 0,
    queued: 0,
  }));
  const byId = new Map(groups.map((g) => [g.id, g]));
  const other: Group = { id: '', name: otherName, agents: [], serving: 0, queued: 0 };
  for (const a of v.agents.values()) {
    const mine = a.organs.map((o) => byId.get(o)).filter((g): g is Group => !!g);
    if (mine.length === 0) other.agents.push(a);
    for (const g of mine) g.agents.push(a);
  }
  for (const c of v.chats.values()) {
    const g = c.organ ? byId.get(c.organ) : undefined;
    if (!g) continue;
    if (c.status === 'inqueue') g.queued++;
    else g.serving++;
  }
  const order = (a: MonitorAgentDto, b: MonitorAgentDto) => a.uname.localeCompare(b.uname);
  for (const g of [...groups, other]) g.agents.sort(order);
  return other.agents.length ? [...groups, other] : groups;
}
