import type { EndBy } from '@kefu/protocol';
import { newId } from '../../platform/ids.js';
import { agentRoom, serviceRoom } from '../../platform/realtime/rooms.js';
import { affected, toAgents, toVisitor, type Engine } from './engine.js';
import * as arepo from './agent-status.repository.js';
import * as srepo from './service.repository.js';
import { presentAgentUser, type AgentServiceRow } from './presenter.js';
import { agentInfo, drainQueue } from './routing.service.js';
import { fillText, loadSessionConfig } from './session-config.js';
import { publishReport } from './report.js';
import { conversationEvent } from './changes.js';
import { seatFreed } from './seat-board.js';
import { localizedConfig } from '../texts/texts.service.js';
import { conversationChanged } from '../analysis/hooks.js';

/**
 * Ends a conversation once (conditional UPDATE): frees the agent's seat, tells the visitor (`end`) and
 * the agents (`end` to the owner when it ended the chat itself, else `over`; collaborators
 * `collaboration_over`), then drains the queue. Returns false when it had already ended.
 */
export async function endConversation(e: Engine, serviceId: string, endby: EndBy): Promise<boolean> {
  const k = e.db.kysely;
  const now = e.clock.now();
  let before: AgentServiceRow | undefined;
  await k.transaction().execute(async (trx) => {
    before = await srepo.findService(trx, serviceId);
    if (!before || before.status === 'end') {
      before = undefined;
      return;
    }
    const r = await trx
      .updateTable('agent_service')
      .set({ status: 'end', endtime: now, endby, leavemsg: before.status === 'inqueue' ? 1 : 0 })
      .where('id', '=', serviceId)
      .where('status', '=', before.status)
      .executeTakeFirst();
    if (affected(r) !== 1) {
      before = undefined;
      return;
    }
    await trx
      .updateTable('agent_user')
      .set({
        status: 'end',
        over: 1,
        updatetime: now,
        ...(endby === 'agent' || endby === 'blacklist' ? { visible: 0 } : {}),
      })
      .where('agentserviceid', '=', serviceId)
      .execute();
    await trx
      .updateTable('transfer_request')
      .set({ status: 'cancelled', decidedtime: now })
      .where('agentserviceid', '=', serviceId)
      .where('status', '=', 'pending')
      .execute();
    if (before.status === 'inservice' && before.agentno) await arepo.releaseSeat(trx, before.agentno, now);
  });
  const s = before;
  if (!s) return false;
  conversationChanged(e.db, s.orgi, s.id);
  if (s.status === 'inservice' && s.agentno) seatFreed(e.db, s.orgi, s.agentno, now);
  const cfg = await localizedConfig(k, await loadSessionConfig(e.db, s.orgi), s.orgi, s.language);
  const agentName = s.agentno ? (await agentInfo(e, s.agentno)).nickname : '';
  toVisitor(e, s.userid, 'end', {
    agentserviceid: s.id,
    endby,
    message: fillText(cfg.finessmsg, { agent: agentName }),
  });
  const after = await srepo.findService(k, s.id);
  const au = await srepo.agentUserOfService(k, s.id);
  if (after && au && s.agentno) {
    const over = { agentuserid: au.id, agentserviceid: s.id, userid: s.userid, endby };
    if (endby === 'agent' || endby === 'blacklist')
      toAgents(e, [s.agentno], 'end', presentAgentUser(au, after, now));
    else toAgents(e, [s.agentno], 'over', over);
    const collabs = await srepo.collaboratorsOf(k, s.id);
    e.rt.agents.to([serviceRoom(s.id), ...collabs.map((c) => `agent:${c}`)]).emit('collaboration_over', over);
  }
  conversationEvent(e, s.orgi, 'ended', s.id);
  await drainQueue(e, s.orgi);
  await publishReport(e, s.orgi, 'service', 'end', s.id);
  return true;
}

/** The agent closes an entry of a conversation that is already over: it leaves the list. */
export async function closeEntry(e: Engine, serviceId: string, agentno: string): Promise<void> {
  const k = e.db.kysely;
  const au = await srepo.agentUserOfService(k, serviceId);
  const s = await srepo.findService(k, serviceId);
  if (!au || !s) return;
  await srepo.updateAgentUser(k, au.id, { visible: 0, updatetime: e.clock.now() });
  toAgents(e, [agentno], 'end', presentAgentUser({ ...au, visible: 0 }, s, e.clock.now()));
}

export async function inviteSatisfaction(e: Engine, s: AgentServiceRow): Promise<void> {
  const now = e.clock.now();
  await srepo.updateService(e.db.kysely, s.id, { invite: 1, invitedate: now });
  const cfg = await localizedConfig(e.db.kysely, await loadSessionConfig(e.db, s.orgi), s.orgi, s.language);
  const agentName = s.agentno ? (await agentInfo(e, s.agentno)).nickname : '';
  toVisitor(e, s.userid, 'satisfaction', {
    agentserviceid: s.id,
    message: fillText(cfg.satisftext, { agent: agentName }),
  });
}

export async function inviteCollaborator(
  e: Engine,
  s: AgentServiceRow,
  inviter: string,
  colleague: string,
): Promise<void> {
  const k = e.db.kysely;
  await srepo.addCollaborator(k, {
    agentserviceid: s.id,
    userid: colleague,
    orgi: s.orgi,
    inviter,
    createtime: e.clock.now(),
  });
  const au = await srepo.agentUserOfService(k, s.id);
  if (au)
    toAgents(
      e,
      [colleague],
      'collaboration_new',
      presentAgentUser(au, s, e.clock.now(), { collabora: true }),
    );
}

/**
 * Tells agents who no longer collaborate on a chat (`collaboration_leave`) and takes their sockets out
 * of its service room. Call after the rows are gone (and the transaction committed).
 */
export function announceCollaborationLeft(
  e: Engine,
  s: { id: string },
  agentuserid: string,
  userids: readonly string[],
): void {
  if (userids.length === 0) return;
  for (const u of userids) e.rt.agents.in(agentRoom(u)).socketsLeave(serviceRoom(s.id));
  toAgents(e, userids, 'collaboration_leave', { agentuserid, agentserviceid: s.id });
}

/** Blacklists the visitor (controltime hours, 0 = forever) and ends the chat. */
export async function blacklist(
  e: Engine,
  s: AgentServiceRow,
  creater: string,
  controltime: number,
  description: string,
): Promise<void> {
  const k = e.db.kysely;
  const now = e.clock.now();
  const endtime = controltime > 0 ? now + controltime * 3_600_000 : null;
  const existing = await k
    .selectFrom('blacklist')
    .select('id')
    .where('orgi', '=', s.orgi)
    .where('userid', '=', s.userid)
    .executeTakeFirst();
  if (existing) {
    await k
      .updateTable('blacklist')
      .set({ agentserviceid: s.id, creater, description, controltime, endtime, createtime: now })
      .where('id', '=', existing.id)
      .execute();
  } else {
    await k
      .insertInto('blacklist')
      .values({
        id: newId(),
        orgi: s.orgi,
        userid: s.userid,
        agentserviceid: s.id,
        creater,
        description,
        controltime,
        endtime,
        createtime: now,
      })
      .execute();
  }
  await endConversation(e, s.id, 'blacklist');
}
