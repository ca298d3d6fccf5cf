import { TRANSFER_PROMPT_DEFAULT_MS, type AgentUserDto, type TransferResultDto } from '@kefu/protocol';
import { badRequest, conflict, forbidden, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { affected, toAgents, type Engine } from './engine.js';
import * as arepo from './agent-status.repository.js';
import * as srepo from './service.repository.js';
import { presentAgentUser } from './presenter.js';
import { announceAssigned, drainQueue, orderCandidates } from './routing.service.js';
import { loadSessionConfig } from './session-config.js';
import { forgetSeats } from './seat-board.js';
import { publishReport } from './report.js';
import { announceCollaborationLeft } from './lifecycle.service.js';

class Gone extends Error {}

async function ownedEntry(e: Engine, agentuserid: string, me: string) {
  const k = e.db.kysely;
  const au = await srepo.findAgentUser(k, agentuserid);
  const s = au ? await srepo.findService(k, au.agentserviceid) : undefined;
  if (!au || !s) throw notFound('conversation_not_found');
  if (s.status !== 'inservice') throw badRequest('conversation_ended');
  if (s.agentno !== me) throw forbidden('not_conversation_owner');
  return { au, s };
}

/** Asks a colleague (or a ready agent of a group) to take the chat; it answers within transtiptimeout. */
export async function requestTransfer(
  e: Engine,
  me: string,
  q: { agentuserid: string; organ?: string; agentno?: string; memo: string },
): Promise<{ id: string; timeout: number; to: string }> {
  const k = e.db.kysely;
  const { au, s } = await ownedEntry(e, q.agentuserid, me);
  const pending = await k
    .selectFrom('transfer_request')
    .select('id')
    .where('agentserviceid', '=', s.id)
    .where('status', '=', 'pending')
    .where('expires', '>', e.clock.now())
    .executeTakeFirst();
  if (pending) throw conflict('transfer_pending');
  const cfg = await loadSessionConfig(e.db, s.orgi);
  let to: string | undefined;
  if (q.agentno) {
    const st = await arepo.findStatus(k, q.agentno);
    if (q.agentno !== me && st && st.orgi === s.orgi && st.status === 'ready') to = q.agentno;
  } else {
    const list = (await arepo.readyCandidates(k, s.orgi, q.organ ?? null, null)).filter(
      (a) => a.userid !== me,
    );
    to = orderCandidates(list, { ...cfg, lastagent: false }, null)[0]?.userid;
  }
  if (!to) throw badRequest('transfer_target_invalid');
  const now = e.clock.now();
  const timeout = cfg.transtiptimeout > 0 ? cfg.transtiptimeout * 1000 : TRANSFER_PROMPT_DEFAULT_MS;
  const id = newId();
  await k
    .insertInto('transfer_request')
    .values({
      id,
      orgi: s.orgi,
      agentserviceid: s.id,
      agentuserid: au.id,
      from_agent: me,
      to_agent: to,
      to_organ: q.organ ?? null,
      memo: q.memo,
      status: 'pending',
      createtime: now,
      expires: now + timeout,
    })
    .execute();
  const from = await k.selectFrom('users').select(['id', 'uname']).where('id', '=', me).executeTakeFirst();
  toAgents(e, [to], 'trans', {
    id,
    agentuserid: au.id,
    agentserviceid: s.id,
    userid: s.userid,
    username: s.username,
    from: { id: me, uname: from?.uname ?? '' },
    memo: q.memo,
    timeout,
    createtime: now,
  });
  e.clock.after(timeout, () => expireTransfer(e, id));
  return { id, timeout, to };
}

const pendingFor = (e: Engine, agentuserid: string, me: string) =>
  e.db.kysely
    .selectFrom('transfer_request')
    .selectAll()
    .where('agentuserid', '=', agentuserid)
    .where('to_agent', '=', me)
    .where('status', '=', 'pending')
    .orderBy('createtime', 'desc')
    .executeTakeFirst();

function result(
  r: { id: string; agentuserid: string; agentserviceid: string; to_agent: string },
  res: TransferResultDto['result'],
): TransferResultDto {
  return {
    id: r.id,
    agentuserid: r.agentuserid,
    agentserviceid: r.agentserviceid,
    result: res,
    to: r.to_agent,
  };
}

/**
 * The target takes the chat: seat reserved on the target, released on the source, in one transaction.
 * Invitations belong to the former owner's chat: every collaborator is removed and told
 * (`collaboration_leave`), except the new owner, who gets the normal `new`.
 */
export async function acceptTransfer(e: Engine, me: string, agentuserid: string): Promise<AgentUserDto> {
  const k = e.db.kysely;
  const req = await pendingFor(e, agentuserid, me);
  if (!req) throw notFound('transfer_not_found');
  if (req.expires <= e.clock.now()) {
    await expireTransfer(e, req.id);
    throw notFound('transfer_not_found');
  }
  const now = e.clock.now();
  const me_ = await k
    .selectFrom('users')
    .select(['nickname', 'uname'])
    .where('id', '=', me)
    .executeTakeFirst();
  let collabs: string[];
  try {
    collabs = await k.transaction().execute(async (trx) => {
      const r1 = await trx
        .updateTable('transfer_request')
        .set({ status: 'accepted', decidedtime: now })
        .where('id', '=', req.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (affected(r1) !== 1) throw new Gone();
      if (!(await arepo.reserveSeat(trx, me, now, false))) throw new Gone();
      const r2 = await trx
        .updateTable('agent_service')
        .set({
          agentno: me,
          agentusername: me_?.nickname || me_?.uname || '',
          trans: 1,
          transmemo: req.memo,
          transtime: now,
        })
        .where('id', '=', req.agentserviceid)
        .where('status', '=', 'inservice')
        .where('agentno', '=', req.from_agent)
        .executeTakeFirst();
      if (affected(r2) !== 1) throw new Gone();
      await trx
        .updateTable('agent_user')
        .set({ agentno: me, updatetime: now })
        .where('id', '=', req.agentuserid)
        .execute();
      await arepo.releaseSeat(trx, req.from_agent, now);
      return srepo.removeCollaborators(trx, req.agentserviceid);
    });
  } catch (err) {
    if (err instanceof Gone) throw badRequest('transfer_not_found');
    throw err;
  }
  const s = await srepo.findService(k, req.agentserviceid);
  const au = await srepo.findAgentUser(k, req.agentuserid);
  if (s && au) {
    toAgents(e, [req.from_agent], 'end', presentAgentUser({ ...au, agentno: req.from_agent }, s, now));
    toAgents(e, [req.from_agent], 'exchange', result(req, 'accepted'));
  }
  announceCollaborationLeft(
    e,
    { id: req.agentserviceid },
    req.agentuserid,
    collabs.filter((c) => c !== me),
  );
  const dto = (await announceAssigned(e, req.agentserviceid, me, true))?.dto;
  if (s) {
    forgetSeats(e.db, s.orgi);
    await drainQueue(e, s.orgi);
    await publishReport(e, s.orgi, 'service', 'transfer', s.id);
  }
  if (!dto) throw notFound('conversation_not_found');
  return dto;
}

export async function refuseTransfer(e: Engine, me: string, agentuserid: string): Promise<void> {
  const req = await pendingFor(e, agentuserid, me);
  if (!req) throw notFound('transfer_not_found');
  const r = await e.db.kysely
    .updateTable('transfer_request')
    .set({ status: 'refused', decidedtime: e.clock.now() })
    .where('id', '=', req.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (affected(r) === 1) toAgents(e, [req.from_agent], 'exchange', result(req, 'refused'));
}

/** No answer in time: the chat stays where it was; both agents are told. */
export async function expireTransfer(e: Engine, id: string): Promise<void> {
  const k = e.db.kysely;
  const r = await k
    .updateTable('transfer_request')
    .set({ status: 'timeout', decidedtime: e.clock.now() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (affected(r) !== 1) return;
  const req = await k.selectFrom('transfer_request').selectAll().where('id', '=', id).executeTakeFirst();
  if (req) toAgents(e, [req.from_agent, req.to_agent], 'exchange', result(req, 'timeout'));
}

/** Safety net for transfers whose timer died with its node. */
export async function transferSweep(e: Engine): Promise<void> {
  const rows = await e.db.kysely
    .selectFrom('transfer_request')
    .select('id')
    .where('status', '=', 'pending')
    .where('expires', '<', e.clock.now())
    .execute();
  for (const r of rows) await expireTransfer(e, r.id);
}
