import type { AgentUserDto, NoticeDto } from '@kefu/protocol';
import { sql, type UpdateObject } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { affected, toAgents, type Engine, type Kdb } from '../conversation/engine.js';
import * as arepo from '../conversation/agent-status.repository.js';
import * as srepo from '../conversation/service.repository.js';
import { ensureRow } from '../conversation/agentstate.service.js';
import { presentAgentUser, type AgentServiceRow } from '../conversation/presenter.js';
import { agentInfo, announceAssigned, drainQueue } from '../conversation/routing.service.js';
import { forgetSeats } from '../conversation/seat-board.js';
import { publishReport } from '../conversation/report.js';
import { agentChanged } from '../conversation/changes.js';

/**
 * Moving a live conversation by a supervisor's (or the ring-no-answer sweep's) decision, without the
 * target's consent: transfer, takeover, AI → human to an agent, reroute. One transaction takes the target's
 * seat, rewrites owner and status (only if the conversation is still as it was read), releases the
 * previous agent's seat and cancels a pending transfer; then the previous agent gets `end` (and a notice),
 * the target `new`, the visitor `assigned` unless `quiet`.
 */
export interface MoveOptions {
  /** Routing rules (ready, with room) or a forced move (takeover: any state, still within maxusers). */
  requireReady: boolean;
  memo: string;
  /** Extra columns of the conversation (the AI flags). */
  patch?: { ai?: number; foragent?: number };
  /** Told to the previous agent with its `end`. */
  notice?: Omit<NoticeDto, 'agentserviceid' | 'userid'>;
  /** The visitor is not told (ring-no-answer: it was greeted once already). */
  quiet?: boolean;
}

const sameOwner = (agentno: string | null) =>
  agentno === null ? sql<boolean>`agentno is null` : sql<boolean>`agentno = ${agentno}`;

export async function moveChat(
  e: Engine,
  s: AgentServiceRow,
  to: string,
  o: MoveOptions,
): Promise<AgentUserDto> {
  if (s.status === 'end') throw badRequest('conversation_ended');
  const k = e.db.kysely;
  const now = e.clock.now();
  const target = await ensureRow(e, to);
  const info = await agentInfo(e, to);
  const served = s.status === 'inservice' && s.agentno !== null;
  // An AppError thrown inside rolls the transaction back and reaches the caller as it is.
  await k.transaction().execute(async (trx) => {
    if (!(await arepo.reserveSeat(trx, to, now, o.requireReady)))
      throw badRequest(o.requireReady && target.status !== 'ready' ? 'agent_not_ready' : 'agent_full');
    const since = sql<number>`coalesce(servicetime, ${now})`;
    await rehome(
      trx,
      s,
      {
        agentno: to,
        agentusername: info.nickname,
        status: 'inservice',
        servicetime: since,
        queneindex: 0,
        ...(s.status === 'inqueue' ? { waittime: now - s.createtime } : {}),
        ...(served ? { trans: 1, transtime: now, transmemo: o.memo } : {}),
        ...o.patch,
      },
      { agentno: to, status: 'inservice', servicetime: since },
      now,
    );
    // The new owner follows the chat as owner now, not as a collaborator.
    await srepo.removeCollaborator(trx, s.id, to);
  });
  forgetSeats(e.db, s.orgi);
  if (served && s.agentno) await told(e, s, s.agentno, now, o.notice);
  const dto = o.quiet ? await quietAssign(e, s.id, to) : (await announceAssigned(e, s.id, to, served))?.dto;
  agentChanged(e, s.orgi, to);
  if (s.agentno) agentChanged(e, s.orgi, s.agentno);
  if (served) await drainQueue(e, s.orgi);
  await publishReport(e, s.orgi, 'service', 'transfer', s.id);
  if (!dto) throw notFound('conversation_not_found');
  return dto;
}

/**
 * The robot gets the chat back (human → AI): the agent's seat is freed and it gets `end`; the
 * conversation stays in service with no agent until the robot (or a human) takes it.
 */
export async function releaseToRobot(
  e: Engine,
  s: AgentServiceRow,
  notice: MoveOptions['notice'],
): Promise<void> {
  if (s.status === 'end') throw badRequest('conversation_ended');
  const now = e.clock.now();
  await e.db.kysely
    .transaction()
    .execute((trx) =>
      rehome(
        trx,
        s,
        { ai: 1, agentno: null, agentusername: '', status: 'inservice', queneindex: 0 },
        { agentno: null, status: 'inservice' },
        now,
      ),
    );
  forgetSeats(e.db, s.orgi);
  if (s.status === 'inservice' && s.agentno) {
    await told(e, s, s.agentno, now, notice);
    agentChanged(e, s.orgi, s.agentno);
    await drainQueue(e, s.orgi);
  }
  await publishReport(e, s.orgi, 'service', 'aiChange', s.id);
}

/** An AI chat joins the human queue (its FIFO place is the end), then the queue is served. */
export async function queueForHuman(e: Engine, s: AgentServiceRow): Promise<void> {
  const now = e.clock.now();
  const last = sql<number>`(select coalesce(max(q.ordertime), 0) + 1 from agent_service q
    where q.orgi = ${s.orgi} and q.status = 'inqueue')`;
  await e.db.kysely
    .transaction()
    .execute((trx) =>
      rehome(
        trx,
        s,
        { ai: 0, foragent: 1, status: 'inqueue', agentno: null, agentusername: '', ordertime: last },
        { agentno: null, status: 'inqueue' },
        now,
      ),
    );
  await drainQueue(e, s.orgi);
  await publishReport(e, s.orgi, 'service', 'aiChange', s.id);
}

/**
 * The conversation's new owner and status, only if it is still as it was read (else conversation_changed);
 * its chat entry follows; the former agent's seat is released and a pending transfer cancelled.
 */
async function rehome(
  trx: Kdb,
  s: AgentServiceRow,
  service: UpdateObject<Database, 'agent_service'>,
  entry: UpdateObject<Database, 'agent_user'>,
  now: number,
): Promise<void> {
  const r = await trx
    .updateTable('agent_service')
    .set(service)
    .where('id', '=', s.id)
    .where('status', '=', s.status)
    .where(sameOwner(s.agentno))
    .executeTakeFirst();
  if (affected(r) !== 1) throw conflict('conversation_changed');
  await trx
    .updateTable('agent_user')
    .set({ ...entry, updatetime: now })
    .where('agentserviceid', '=', s.id)
    .execute();
  if (s.status === 'inservice' && s.agentno) await arepo.releaseSeat(trx, s.agentno, now);
  await cancelPendingTransfers(trx, s.id, now);
}

async function cancelPendingTransfers(trx: Kdb, agentserviceid: string, now: number): Promise<void> {
  await trx
    .updateTable('transfer_request')
    .set({ status: 'cancelled', decidedtime: now })
    .where('agentserviceid', '=', agentserviceid)
    .where('status', '=', 'pending')
    .execute();
}

/** The previous agent: the entry leaves its list (`end`), with a notice saying why. */
async function told(
  e: Engine,
  s: AgentServiceRow,
  agentno: string,
  now: number,
  notice: MoveOptions['notice'],
): Promise<void> {
  const k = e.db.kysely;
  const [after, au] = await Promise.all([srepo.findService(k, s.id), srepo.agentUserOfService(k, s.id)]);
  if (after && au) toAgents(e, [agentno], 'end', presentAgentUser({ ...au, agentno }, after, now));
  if (notice) toAgents(e, [agentno], 'notice', { ...notice, agentserviceid: s.id, userid: s.userid });
}

/** The target gets `new`; the visitor hears nothing. */
async function quietAssign(e: Engine, id: string, to: string): Promise<AgentUserDto | undefined> {
  const k = e.db.kysely;
  const [s, au] = await Promise.all([srepo.findService(k, id), srepo.agentUserOfService(k, id)]);
  if (!s || !au) return undefined;
  const dto = presentAgentUser(au, s, e.clock.now());
  toAgents(e, [to], 'new', dto);
  return dto;
}
