import { hasPermission, type MessageDto, type WhisperDto } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { agentRoom, serviceRoom } from '../../platform/realtime/rooms.js';
import type { Engine } from '../conversation/engine.js';
import * as srepo from '../conversation/service.repository.js';
import { presentMessage, type AgentServiceRow } from '../conversation/presenter.js';
import { deliverLive, storeMessage } from '../conversation/message.service.js';
import { inviteCollaborator } from '../conversation/lifecycle.service.js';
import { audit } from './audit.js';
import { presentWhisper } from './monitor.presenter.js';
import { chatInScope, scopeOf } from './monitor.scope.js';
import { chatInReach } from './supervise.service.js';
import { findWhisper, insertWhisper, whispersOf } from './supervision.repository.js';
import { isUniqueViolation } from '../conversation/message.repository.js';
import { refuseBlocked, reportHits, scanMessage } from '../sensitive/message-screen.js';

/** A supervisor's lines in a chat: whispers (agents only), barge-in (to the visitor), and joining. */

function open(s: AgentServiceRow): void {
  if (s.status !== 'inservice') throw badRequest('conversation_ended');
}

/** The agent rooms that follow a conversation: joined supervisors, the owner, collaborators. Never the visitor. */
async function agentRoomsOnly(e: Engine, s: AgentServiceRow): Promise<string[]> {
  const rooms = [serviceRoom(s.id), ...(await srepo.collaboratorsOf(e.db.kysely, s.id)).map(agentRoom)];
  if (s.agentno) rooms.push(agentRoom(s.agentno));
  return rooms;
}

/**
 * POST whisper: a line only the agents of the chat see. Stored apart from the conversation's messages
 * (chat_whisper: no seq, so nothing the visitor can replay or detect as a gap) and emitted on the agent
 * namespace only. Idempotent per (sender, clientId).
 */
export async function whisper(
  e: Engine,
  p: Principal,
  b: { agentserviceid: string; clientId: string; message: string },
): Promise<WhisperDto> {
  const { s } = await chatInReach(e, p, b);
  open(s);
  const k = e.db.kysely;
  const known = await findWhisper(k, p.id, b.clientId);
  if (known) return presentWhisper(known, s.userid);
  let row;
  try {
    row = await insertWhisper(k, {
      orgi: s.orgi,
      agentserviceid: s.id,
      afterseq: s.lastseq,
      sender: p.id,
      username: p.uname,
      client_id: b.clientId,
      message: b.message,
      createtime: e.clock.now(),
    });
  } catch (err) {
    const again = isUniqueViolation(err) ? await findWhisper(k, p.id, b.clientId) : undefined;
    if (!again) throw err;
    return presentWhisper(again, s.userid);
  }
  const dto = presentWhisper(row, s.userid);
  e.rt.agents.to(await agentRoomsOnly(e, s)).emit('message', dto);
  await audit(e, p, 'whisper', {
    agentserviceid: s.id,
    target: s.agentno,
    organ: s.organ,
    detail: b.message,
  });
  return dto;
}

/**
 * POST barge: the supervisor speaks to the visitor as themself. It joins the chat as a collaborator
 * (so it follows it from /dialogue too) and the line is an ordinary stored agent message.
 */
export async function barge(
  e: Engine,
  p: Principal,
  b: { agentserviceid: string; clientId: string; message: string },
): Promise<MessageDto> {
  const { s } = await chatInReach(e, p, b);
  open(s);
  // The visitor reads it: the agents' sensitive-word list applies as to any agent line.
  const scanned = scanMessage(e, s.orgi, 'agent', 'text', b.message);
  const hits = scanned instanceof Promise ? await scanned : scanned;
  if (hits?.action === 'block') await refuseBlocked(e, s, 'agent', hits);
  const k = e.db.kysely;
  const joined = s.agentno === p.id || (await srepo.collaboratorsOf(k, s.id)).includes(p.id);
  if (!joined) await inviteCollaborator(e, s, p.id, p.id);
  const stored = await storeMessage(e, {
    service: s,
    sender: p.id,
    username: p.uname,
    touser: s.userid,
    clientId: b.clientId,
    type: 'message',
    msgtype: 'text',
    calltype: 'out',
    message: hits ? hits.text : b.message,
    guard: { kind: 'agent', agent: p.id },
  });
  const dto = presentMessage(stored.row, stored.tokenum, s.agentno !== p.id);
  if (stored.live) deliverLive(e, s, stored.live, dto);
  if (hits && stored.created) await reportHits(e, s, stored.row.id, 'agent', hits);
  if (stored.created)
    await audit(e, p, 'barge', {
      agentserviceid: s.id,
      target: s.agentno,
      organ: s.organ,
      detail: b.message,
    });
  return dto;
}

/**
 * GET whispers: a chat's whispers, for the transcript. Supervisors in scope, and the chat's own agents
 * (owner, collaborator) from the dialogue screen.
 */
export async function whispersFor(e: Engine, p: Principal, agentserviceid: string): Promise<WhisperDto[]> {
  const k = e.db.kysely;
  const s = await srepo.findService(k, agentserviceid);
  if (!s || s.orgi !== p.orgi) throw notFound('conversation_not_found');
  const own = s.agentno === p.id || (await srepo.collaboratorsOf(k, s.id)).includes(p.id);
  if (!own) {
    if (!hasPermission(p.usertype, p.auth, 'A03')) throw forbidden('not_conversation_owner');
    if (!(await chatInScope(k, scopeOf(p), s))) throw forbidden('monitor_scope');
  }
  return (await whispersOf(k, s.id)).map((w) => presentWhisper(w, s.userid));
}
