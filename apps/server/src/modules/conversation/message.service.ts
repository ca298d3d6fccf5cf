import type { CallType, MessageDto, MessageType, MsgType, WithdrawNotice } from '@kefu/protocol';
import { WITHDRAW_WINDOW_MS } from '@kefu/protocol';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { serviceRoom, visitorRoom, agentRoom } from '../../platform/realtime/rooms.js';
import type { Db } from '../../platform/db/database.js';
import { affected, type Engine, type Kdb } from './engine.js';
import { GroupCommit } from './message-writer.js';
import * as mrepo from './message.repository.js';
import * as srepo from './service.repository.js';
import { presentMessage, type AgentServiceRow, type ChatMessageRow } from './presenter.js';

export interface NewMessage {
  service: AgentServiceRow;
  sender: string;
  username: string;
  touser: string;
  clientId: string;
  type: MessageType;
  msgtype: MsgType;
  calltype: CallType;
  message: string;
  attachmentid?: string | null;
}

export interface Stored {
  row: ChatMessageRow;
  created: boolean;
  tokenum: number;
}

const preview = (m: NewMessage): string =>
  m.msgtype === 'text' ? m.message.slice(0, 100) : `[${m.msgtype}]`;

/**
 * Stores a message exactly once: a known (sender, clientId) returns the stored row; otherwise the next
 * seq of the conversation and the insert commit together. Counters of the chat entry move in the same
 * transaction. Hot path: one UPDATE of the conversation (counters + next seq, RETURNING seq), the INSERT
 * and one UPDATE of the chat entry (RETURNING the unread count); no read-back. Messages arriving together
 * share one transaction (group commit, message-writer.ts), each in its own savepoint. A resend is
 * recognised by the unique (sender, client_id) index: its savepoint rolls back, so no seq is used up.
 * Resolves only after the commit.
 */
export async function storeMessage(e: Engine, m: NewMessage): Promise<Stored> {
  const k = e.db.kysely;
  let filename: string | null = null;
  let filesize: number | null = null;
  if (m.attachmentid) {
    const known = await mrepo.findByClientId(k, m.sender, m.clientId);
    if (known) return { row: known, created: false, tokenum: await tokenumOf(e, known.agentserviceid) };
    const media = await k.selectFrom('media').selectAll().where('id', '=', m.attachmentid).executeTakeFirst();
    if (!media || media.owner !== m.sender)
      throw badRequest('invalid_field', { attachmentid: 'invalid_field' });
    filename = media.filename;
    filesize = media.size;
  }
  const now = e.clock.now();
  const row: ChatMessageRow = {
    id: newId(),
    orgi: m.service.orgi,
    agentserviceid: m.service.id,
    seq: 0,
    sender: m.sender,
    client_id: m.clientId,
    username: m.username,
    touser: m.touser,
    usession: m.service.userid,
    type: m.type,
    msgtype: m.msgtype,
    calltype: m.calltype,
    message: m.message,
    attachmentid: m.attachmentid ?? null,
    filename,
    filesize,
    withdrawn: 0,
    withdrawn_at: null,
    readstatus: 0,
    createtime: now,
  };
  let tokenum: number;
  try {
    tokenum = await messageWriter(e.db).submit({ m, row, now });
  } catch (err) {
    if (mrepo.isUniqueViolation(err)) {
      const again = await mrepo.findByClientId(k, m.sender, m.clientId);
      if (again) return { row: again, created: false, tokenum: await tokenumOf(e, again.agentserviceid) };
    }
    throw err;
  }
  return { row, created: true, tokenum };
}

interface WriteJob {
  m: NewMessage;
  row: ChatMessageRow;
  now: number;
}

/** The seq, the insert and the chat entry's counters of one message (run by the group commit). */
async function writeMessage(trx: Kdb, j: WriteJob): Promise<number> {
  const seq = await bumpService(trx, j.m, j.now);
  await mrepo.insertMessage(trx, { ...j.row, seq });
  const tokenum = await bumpEntry(trx, j.m, j.now);
  j.row.seq = seq;
  return tokenum;
}

const writers = new WeakMap<Db, GroupCommit<WriteJob, number>>();

/** The node's message writer for a database: messages arriving together commit in one transaction. */
export function messageWriter(db: Db): GroupCommit<WriteJob, number> {
  let w = writers.get(db);
  if (!w) writers.set(db, (w = new GroupCommit(db, writeMessage, (j) => j.m.service.id)));
  return w;
}

/** Takes the next seq and moves the conversation's counters in one UPDATE (the row lock serialises writers). */
async function bumpService(trx: Kdb, m: NewMessage, now: number): Promise<number> {
  const q = trx.updateTable('agent_service').where('id', '=', m.service.id);
  const set =
    m.calltype === 'in'
      ? q.set((eb) => ({
          lastseq: eb('lastseq', '+', 1),
          lastmessage: now,
          userasks: eb('userasks', '+', 1),
          idle_warned: 0,
          idle_warntime: null,
          agent_warned: 0,
        }))
      : m.calltype === 'out' && m.type === 'message'
        ? q.set((eb) => ({
            lastseq: eb('lastseq', '+', 1),
            lastgetmessage: now,
            agentreplys: eb('agentreplys', '+', 1),
            firstreplytime: eb.fn.coalesce('firstreplytime', eb.val(now)),
          }))
        : q.set((eb) => ({ lastseq: eb('lastseq', '+', 1) }));
  const r = await set.returning('lastseq').executeTakeFirstOrThrow();
  return Number(r.lastseq);
}

/** The chat entry's preview and unread count; returns the unread count after this message. */
async function bumpEntry(trx: Kdb, m: NewMessage, now: number): Promise<number> {
  const last = preview(m);
  const q = trx.updateTable('agent_user').where('agentserviceid', '=', m.service.id);
  const set =
    m.calltype === 'in'
      ? q.set((eb) => ({ tokenum: eb('tokenum', '+', 1), lastmessage: now, lastmsg: last, updatetime: now }))
      : m.calltype === 'out' && m.type === 'message'
        ? q.set({ lastgetmessage: now, lastmsg: last, updatetime: now })
        : q.set({ lastmsg: last, updatetime: now });
  const r = await set.returning('tokenum').executeTakeFirst();
  return Number(r?.tokenum ?? 0);
}

async function tokenumOf(e: Engine, agentserviceid: string): Promise<number> {
  return (await srepo.agentUserOfService(e.db.kysely, agentserviceid))?.tokenum ?? 0;
}

/** Agent rooms that follow a conversation: the owner, collaborators, supervisors who joined it. */
export async function agentRoomsOf(e: Engine, s: AgentServiceRow): Promise<string[]> {
  const rooms = [serviceRoom(s.id), ...(await srepo.collaboratorsOf(e.db.kysely, s.id)).map(agentRoom)];
  if (s.agentno) rooms.push(agentRoom(s.agentno));
  return rooms;
}

/** Delivers a committed message to both sides; the sending socket (which got the ack) is skipped. */
export async function deliver(
  e: Engine,
  s: AgentServiceRow,
  dto: MessageDto,
  exceptSocket?: string,
): Promise<void> {
  const rooms = await agentRoomsOf(e, s);
  if (exceptSocket) {
    e.rt.agents.to(rooms).except(exceptSocket).emit('message', dto);
    e.rt.visitors.to(visitorRoom(s.userid)).except(exceptSocket).emit('message', dto);
  } else {
    e.rt.agents.to(rooms).emit('message', dto);
    e.rt.visitors.to(visitorRoom(s.userid)).emit('message', dto);
  }
}

/** A system line (timers, notices) stored and sent to both sides. */
export async function systemMessage(e: Engine, s: AgentServiceRow, text: string, tag: string): Promise<void> {
  const stored = await storeMessage(e, {
    service: s,
    sender: 'system',
    username: 'system',
    touser: s.userid,
    clientId: `${tag}:${s.id}:${newId().slice(0, 8)}`,
    type: 'system',
    msgtype: 'text',
    calltype: 'system',
    message: text,
  });
  await deliver(e, s, presentMessage(stored.row, stored.tokenum));
}

export async function missedMessages(
  e: Engine,
  agentserviceid: string,
  after: number,
): Promise<MessageDto[]> {
  return (await mrepo.messagesAfter(e.db.kysely, agentserviceid, after)).map((r) => presentMessage(r));
}

export async function withdraw(e: Engine, actorId: string, messageId: string): Promise<WithdrawNotice> {
  const k = e.db.kysely;
  const m = await mrepo.findMessage(k, messageId);
  if (!m) throw notFound();
  if (m.sender !== actorId) throw forbidden('withdraw_not_sender');
  if (e.clock.now() - m.createtime > WITHDRAW_WINDOW_MS) throw badRequest('withdraw_expired');
  const notice: WithdrawNotice = {
    id: m.id,
    agentserviceid: m.agentserviceid,
    seq: m.seq,
    usession: m.usession,
  };
  if (!(await mrepo.markWithdrawn(k, m.id, e.clock.now()))) return notice;
  const s = await srepo.findService(k, m.agentserviceid);
  if (s) {
    e.rt.visitors.to(visitorRoom(s.userid)).emit('withdraw', notice);
    e.rt.agents.to(await agentRoomsOf(e, s)).emit('notice', {
      type: 'withdraw',
      agentserviceid: s.id,
      userid: s.userid,
      message: '',
      id: m.id,
      seq: m.seq,
    });
  }
  return notice;
}

/** The visitor read up to seq: agent messages marked read, the agents told. */
export async function visitorRead(e: Engine, s: AgentServiceRow, seq: number): Promise<void> {
  const k = e.db.kysely;
  const upTo = Math.min(seq, s.lastseq);
  const r = await k
    .updateTable('agent_service')
    .set({ visitor_readseq: upTo })
    .where('id', '=', s.id)
    .where('visitor_readseq', '<', upTo)
    .executeTakeFirst();
  if (affected(r) === 0) return;
  await mrepo.markRead(k, s.id, 'out', upTo);
  e.rt.agents
    .to(await agentRoomsOf(e, s))
    .emit('read', { agentserviceid: s.id, userid: s.userid, seq: upTo });
}

/** The agent read the chat: unread count to 0, visitor messages marked read, the visitor told. */
export async function agentRead(e: Engine, s: AgentServiceRow): Promise<void> {
  const k = e.db.kysely;
  await k
    .updateTable('agent_user')
    .set({ tokenum: 0, agent_readseq: s.lastseq })
    .where('agentserviceid', '=', s.id)
    .execute();
  await mrepo.markRead(k, s.id, 'in', s.lastseq);
  e.rt.visitors
    .to(visitorRoom(s.userid))
    .emit('read', { agentserviceid: s.id, userid: s.agentno ?? '', seq: s.lastseq });
}
