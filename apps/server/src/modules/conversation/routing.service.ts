import type { AgentUserDto, VisitorAgentInfo } from '@kefu/protocol';
import { toAgents, toVisitor, type Engine } from './engine.js';
import * as arepo from './agent-status.repository.js';
import * as srepo from './service.repository.js';
import { presentAgentUser, type AgentServiceRow, type AgentUserRow } from './presenter.js';
import { fillText, loadSessionConfig, type SessionConfig } from './session-config.js';
import { publishReport } from './report.js';

class SeatLost extends Error {}

export async function agentInfo(e: Engine, userid: string): Promise<VisitorAgentInfo> {
  const u = await e.db.kysely
    .selectFrom('users')
    .select(['nickname', 'uname'])
    .where('id', '=', userid)
    .executeTakeFirst();
  return { id: userid, nickname: u?.nickname || u?.uname || '' };
}

/** Orders candidates: last agent first (if enabled), then the distribution strategy. */
export function orderCandidates(
  list: arepo.AgentStatusRow[],
  cfg: Pick<SessionConfig, 'distribution' | 'lastagent'>,
  lastAgent: string | null,
): arepo.AgentStatusRow[] {
  const byIdle = (a: arepo.AgentStatusRow, b: arepo.AgentStatusRow) =>
    a.lastidle - b.lastidle || a.userid.localeCompare(b.userid);
  const sorted = [...list].sort((a, b) => {
    if (cfg.distribution === 'least-busy')
      return a.users / a.maxusers - b.users / b.maxusers || a.users - b.users || byIdle(a, b);
    return a.users - b.users || byIdle(a, b);
  });
  if (cfg.lastagent && lastAgent) {
    const i = sorted.findIndex((a) => a.userid === lastAgent);
    if (i > 0) sorted.unshift(...sorted.splice(i, 1));
  }
  return sorted;
}

/**
 * Gives the agent a seat for the queued conversation: the conditional seat UPDATE and the conversation's
 * inqueue → inservice UPDATE commit together, or neither does. The two conversation UPDATEs return their
 * rows, so the announcement needs no read-back.
 */
async function tryAssign(
  e: Engine,
  s: AgentServiceRow,
  agentno: string,
  cfg: SessionConfig,
): Promise<boolean> {
  const now = e.clock.now();
  const info = await agentInfo(e, agentno);
  let rows: Assigned;
  try {
    rows = await e.db.kysely.transaction().execute(async (trx) => {
      if (!(await arepo.reserveSeat(trx, agentno, now))) throw new SeatLost();
      const service = await trx
        .updateTable('agent_service')
        .set({
          status: 'inservice',
          agentno,
          agentusername: info.nickname,
          servicetime: now,
          waittime: now - s.createtime,
          queneindex: 0,
        })
        .where('id', '=', s.id)
        .where('status', '=', 'inqueue')
        .returningAll()
        .executeTakeFirst();
      if (!service) throw new SeatLost();
      const entry = await trx
        .updateTable('agent_user')
        .set({ agentno, status: 'inservice', servicetime: now, updatetime: now })
        .where('agentserviceid', '=', s.id)
        .returningAll()
        .executeTakeFirst();
      return { service, entry, info, cfg };
    });
  } catch (err) {
    if (err instanceof SeatLost) return false;
    throw err;
  }
  await announceAssigned(e, s.id, agentno, false, rows);
  return true;
}

/** What the assigning transaction already knows (saves the read-backs of announceAssigned). */
interface Assigned {
  service: AgentServiceRow;
  entry: AgentUserRow | undefined;
  info: VisitorAgentInfo;
  cfg: SessionConfig;
}

/** After commit: the agent gets `new`, the visitor `assigned`. */
export async function announceAssigned(
  e: Engine,
  serviceId: string,
  agentno: string,
  transfer: boolean,
  known?: Assigned,
): Promise<AgentUserDto | null> {
  const k = e.db.kysely;
  const s = known?.service ?? (await srepo.findService(k, serviceId));
  const au = known?.entry ?? (await srepo.agentUserOfService(k, serviceId));
  if (!s || !au) return null;
  const dto = presentAgentUser(au, s, e.clock.now());
  toAgents(e, [agentno], 'new', dto);
  const cfg = known?.cfg ?? (await loadSessionConfig(e.db, s.orgi));
  const agent = known?.info ?? (await agentInfo(e, agentno));
  const message = transfer
    ? cfg.enabletransmsg
      ? fillText(cfg.transmsg, { agent: agent.nickname })
      : ''
    : fillText(cfg.successmsg, { agent: agent.nickname });
  toVisitor(e, s.userid, 'assigned', { agentserviceid: s.id, agent, message, transfer });
  return dto;
}

/**
 * Tries every candidate for one queued conversation; returns the agent who took it. `tenantReady` (the
 * tenant's ready agents with room, already read by the drain) serves a conversation without a skill group
 * or requested agent, saving a read.
 */
export async function allot(
  e: Engine,
  s: AgentServiceRow,
  cfg: SessionConfig,
  tenantReady?: arepo.AgentStatusRow[],
): Promise<string | null> {
  const k = e.db.kysely;
  const candidates =
    tenantReady && !s.organ && !s.requested_agent
      ? tenantReady
      : await arepo.readyCandidates(k, s.orgi, s.organ, s.requested_agent);
  if (candidates.length === 0) return null;
  const last = cfg.lastagent ? await srepo.lastAgentOf(k, s.orgi, s.userid) : null;
  for (const c of orderCandidates(candidates, cfg, last)) {
    if (await tryAssign(e, s, c.userid, cfg)) return c.userid;
  }
  return null;
}

interface DrainState {
  running: Promise<void> | null;
  again: Promise<void> | null;
}
const drains = new WeakMap<Engine, Map<string, DrainState>>();

/**
 * Serves the queue in FIFO order while seats are free, then tells every waiting visitor its place.
 * Per tenant and node at most one drain runs; callers arriving meanwhile share one follow-up drain that
 * starts when it ends (and so sees their rows). A burst of new chats costs one queue pass per wave
 * instead of one per chat racing every other. Seats stay safe across nodes through reserveSeat.
 */
export function drainQueue(e: Engine, orgi: string): Promise<void> {
  let byOrg = drains.get(e);
  if (!byOrg) drains.set(e, (byOrg = new Map()));
  let st = byOrg.get(orgi);
  if (!st) byOrg.set(orgi, (st = { running: null, again: null }));
  const state = st;
  if (!state.running) {
    state.running = drainOnce(e, orgi).finally(() => {
      state.running = null;
    });
    return state.running;
  }
  if (!state.again) {
    state.again = state.running
      .catch(() => undefined)
      .then(() => {
        state.again = null;
        return drainQueue(e, orgi);
      });
  }
  return state.again;
}

async function drainOnce(e: Engine, orgi: string): Promise<void> {
  const cfg = await loadSessionConfig(e.db, orgi);
  let assigned = 0;
  for (const s of await srepo.queued(e.db.kysely, orgi)) {
    const ready = await arepo.readyCandidates(e.db.kysely, orgi, null, null);
    if (ready.length === 0) break;
    if (await allot(e, s, cfg, ready)) assigned++;
  }
  await pushPositions(e, orgi, cfg);
  if (assigned > 0) await publishReport(e, orgi, 'acd', 'success', '');
}

/** Position = 1 + queued conversations ahead in the same skill group (or with no group). */
export async function pushPositions(e: Engine, orgi: string, cfg?: SessionConfig): Promise<void> {
  const k = e.db.kysely;
  const config = cfg ?? (await loadSessionConfig(e.db, orgi));
  const ahead = new Map<string, number>();
  const readyByOrgan = new Map<string, number>();
  for (const s of await srepo.queued(k, orgi)) {
    const key = s.organ ?? '';
    const n = ahead.get(key) ?? 0;
    ahead.set(key, n + 1);
    const position = n + 1;
    if (s.queneindex === position) continue;
    await srepo.updateService(k, s.id, { queneindex: position });
    if (!readyByOrgan.has(key)) readyByOrgan.set(key, await arepo.countReady(k, orgi, s.organ));
    const message = fillText(config.agentbusymsg, { num: n });
    toVisitor(e, s.userid, 'queue', { agentserviceid: s.id, position, ahead: n, message });
    if (readyByOrgan.get(key) === 0 && s.queneindex === 0) {
      toVisitor(e, s.userid, 'leavemsg', { reason: 'noagent', message: config.noagentmsg });
    }
  }
}
