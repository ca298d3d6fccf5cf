import type { AgentUserDto, AssignedNotice, VisitorAgentInfo } from '@kefu/protocol';
import { toAgents, toVisitor, toVisitorOthers, type Engine } from './engine.js';
import * as arepo from './agent-status.repository.js';
import * as srepo from './service.repository.js';
import { presenceOf } from './presence.service.js';
import { localizedConfig } from '../texts/texts.service.js';
import {
  presentAgentUser,
  type AgentServiceRow,
  type AgentUserRow,
  type PresentedEntry,
} from './presenter.js';
import { fillText, loadSessionConfig, type SessionConfig } from './session-config.js';
import { publishReport } from './report.js';
import { recordPlacement } from './placements.js';
import { runFixed } from './hot-sql.js';
import { pickSeats, type SeatPick } from './seat-board.js';
import { agentChanged, chatChanged, conversationEvent } from './changes.js';
import { policyChain, routingOf } from '../organ/skill-policy.js';

class SeatLost extends Error {
  constructor(readonly why: Exclude<Attempt, 'assigned'>) {
    super(why);
  }
}

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

/** Why an attempt failed: the agent's seat went to someone else, or the conversation did. */
type Attempt = 'assigned' | 'seat-lost' | 'service-gone';

/**
 * Gives the agent a seat for the queued conversation: the conditional seat UPDATE and the conversation's
 * inqueue → inservice UPDATE commit together, or neither does. The two conversation UPDATEs return their
 * rows, so the announcement needs no read-back.
 */
async function tryAssign(
  e: Engine,
  s: srepo.QueueHead,
  pick: SeatPick,
  cfg: SessionConfig,
): Promise<Attempt> {
  const now = e.clock.now();
  const { agent } = pick;
  const agentno = agent.id;
  let rows: Assigned;
  try {
    rows = await e.db.kysely.transaction().execute(async (trx) => {
      const taken = await arepo.takeSeat(trx, agentno, now);
      pick.settle(taken);
      if (!taken) throw new SeatLost('seat-lost');
      const service = (
        await runFixed<AgentServiceRow>(trx, SERVE, [agentno, agent.nickname, now, now - s.createtime, s.id])
      ).rows[0];
      if (!service) throw new SeatLost('service-gone');
      const entry = (await runFixed<AgentUserRow>(trx, SERVE_ENTRY, [agentno, now, now, s.id])).rows[0];
      return { service, entry, info: agent, cfg };
    });
  } catch (err) {
    if (err instanceof SeatLost) return err.why;
    throw err;
  }
  chatChanged(e, s.orgi, s.id);
  agentChanged(e, s.orgi, agentno);
  const message = assignedText(await localizedConfig(e.db.kysely, cfg, s.orgi, s.language), agent, false);
  const asker = recordPlacement(e, { service: rows.service, agent, message });
  await announceAssigned(e, s.id, agentno, false, { ...rows, message }, asker);
  return 'assigned';
}

const SERVE = `update agent_service set status = 'inservice', agentno = ?, agentusername = ?,
  servicetime = ?, waittime = ?, queneindex = 0 where id = ? and status = 'inqueue' returning *`;
const SERVE_ENTRY = `update agent_user set agentno = ?, status = 'inservice', servicetime = ?, updatetime = ?
  where agentserviceid = ? returning *`;

/** What the assigning transaction already knows (saves the read-backs of announceAssigned). */
interface Assigned {
  service: srepo.StoredService;
  entry: PresentedEntry | undefined;
  info: VisitorAgentInfo;
  cfg: SessionConfig;
  /** The visitor's notice text, when the caller already built it. */
  message?: string;
  /** The visitor is known to be connected (it is asking right now): no presence read. */
  visitorOnline?: boolean;
}

export interface Announced {
  dto: AgentUserDto;
  notice: AssignedNotice;
}

/** The visitor's `assigned` text: the greeting, or after a transfer the transfer text (if enabled). */
export function assignedText(cfg: SessionConfig, agent: VisitorAgentInfo, transfer: boolean): string {
  if (!transfer) return fillText(cfg.successmsg, { agent: agent.nickname });
  return cfg.enabletransmsg ? fillText(cfg.transmsg, { agent: agent.nickname }) : '';
}

/**
 * After commit: the agent gets `new`, the visitor `assigned`. `asker` is the socket whose `new` this
 * assignment answers: its ack carries the notice (VisitorNewResult.message), so `assigned` goes only to
 * the visitor's other sockets, and not at all when there are none.
 */
export async function announceAssigned(
  e: Engine,
  serviceId: string,
  agentno: string,
  transfer: boolean,
  known?: Assigned,
  asker?: string,
): Promise<Announced | null> {
  const k = e.db.kysely;
  const s = known?.service ?? (await srepo.findService(k, serviceId));
  const au = known?.entry ?? (await srepo.agentUserOfService(k, serviceId));
  if (!s || !au) return null;
  conversationEvent(e, s.orgi, 'assigned', s.id);
  // A queued or transferred chat may be one whose visitor has left: the agent sees it as such at once.
  const presence = known?.visitorOnline
    ? { online: true, offtime: null }
    : (await presenceOf(k, [s.userid])).get(s.userid);
  const dto = { ...presentAgentUser(au, s, e.clock.now()), ...presence };
  toAgents(e, [agentno], 'new', dto);
  const agent = known?.info ?? (await agentInfo(e, agentno));
  const message =
    known?.message ??
    assignedText(
      await localizedConfig(k, known?.cfg ?? (await loadSessionConfig(e.db, s.orgi)), s.orgi, s.language),
      agent,
      transfer,
    );
  const notice: AssignedNotice = { agentserviceid: s.id, agent, message, transfer };
  toVisitorOthers(e, s.userid, asker, 'assigned', notice);
  return { dto, notice };
}

/** Candidates read per attempt: the first almost always takes the chat; the rest absorb lost races. */
const PICK = 4;
/** Re-reads after a whole batch lost its seats to other nodes; each loss means a seat was filled. */
const MAX_ROUNDS = 8;

/**
 * Tries the best candidates for one queued conversation (skill group, requested agent, last agent and
 * distribution applied by the candidate query). 'seat-lost' here means no candidate with room is left.
 */
export async function allot(e: Engine, s: srepo.QueueHead, cfg: SessionConfig): Promise<Attempt> {
  const req = {
    orgi: s.orgi,
    organ: s.organ,
    only: s.requested_agent,
    ...routingOf(cfg, await policyChain(e.db.kysely, cfg, s.orgi, s.organ), s.userid),
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const picks = await pickSeats(e.db, e.db.kysely, req, PICK);
    for (const p of picks) {
      const r = await tryAssign(e, s, p, cfg);
      if (r !== 'seat-lost') return r;
    }
    if (picks.length < PICK) return 'seat-lost';
  }
  return 'seat-lost';
}

interface DrainState {
  running: Promise<void> | null;
  again: Promise<void> | null;
}
/** Queued conversations one drain pass serves at most (the rest wait for the next pass). */
const QUEUE_READ = 200;
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
  const queue = await srepo.queueHeads(e.db.kysely, orgi, QUEUE_READ);
  let assigned = 0;
  // Groups (skill group / requested agent) found without a free seat in this pass.
  const full = new Set<string>();
  for (const s of queue) {
    const group = s.requested_agent || s.organ ? `${s.requested_agent ?? ''}|${s.organ ?? ''}` : '';
    if (full.has(group)) continue;
    const r = await allot(e, s, cfg);
    if (r === 'assigned') assigned++;
    else if (r === 'seat-lost') {
      if (group === '') break;
      full.add(group);
    }
  }
  // Everything read got a seat: the queue is as empty as this pass saw it, so no position moved. Chats
  // queued since are placed by the drain their own request runs after this one.
  if (assigned < queue.length || queue.length === QUEUE_READ) await pushPositions(e, orgi, cfg);
  if (assigned > 0) await publishReport(e, orgi, 'acd', 'success', '');
}

/** Position = 1 + queued conversations ahead in the same skill group (or with no group). */
export async function pushPositions(e: Engine, orgi: string, cfg?: SessionConfig): Promise<void> {
  const k = e.db.kysely;
  const config = cfg ?? (await loadSessionConfig(e.db, orgi));
  const ahead = new Map<string, number>();
  const readyByOrgan = new Map<string, number>();
  const texts = new Map<string, SessionConfig>();
  for (const s of await srepo.queueHeads(k, orgi, QUEUE_READ)) {
    const key = s.organ ?? '';
    const n = ahead.get(key) ?? 0;
    ahead.set(key, n + 1);
    const position = n + 1;
    if (s.queneindex === position) continue;
    await srepo.updateService(k, s.id, { queneindex: position });
    if (!readyByOrgan.has(key)) readyByOrgan.set(key, await arepo.countReady(k, orgi, s.organ));
    let local = texts.get(s.language);
    if (!local) texts.set(s.language, (local = await localizedConfig(k, config, orgi, s.language)));
    const message = fillText(local.agentbusymsg, { num: n });
    toVisitor(e, s.userid, 'queue', { agentserviceid: s.id, position, ahead: n, message });
    if (readyByOrgan.get(key) === 0 && s.queneindex === 0) {
      toVisitor(e, s.userid, 'leavemsg', { reason: 'noagent', message: local.noagentmsg });
    }
  }
}
