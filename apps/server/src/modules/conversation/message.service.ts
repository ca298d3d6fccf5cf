import type { CallType, MessageDto, MessageType, MsgType, WithdrawNotice } from '@kefu/protocol';
import { WITHDRAW_WINDOW_MS, isPlatformUser } from '@kefu/protocol';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { newId, newTimeId } from '../../platform/ids.js';
import { serviceRoom, visitorRoom, agentRoom } from '../../platform/realtime/rooms.js';
import { insertText, numberedPlaceholders, rawRows } from '../../platform/db/raw.js';
import { tokensOf } from '../../platform/search/tokens.js';
import type { Db, Dialect } from '../../platform/db/database.js';
import { affected, type Engine, type Kdb } from './engine.js';
import { GroupCommit } from './message-writer.js';
import {
  collaboratorsSql,
  COLUMN_TYPES,
  MESSAGE_COLUMNS,
  postgresBatchWriter,
  sqliteBatchWriter,
} from './message-batch.js';
import { kindOf, preview, type Kind, type Live, type WriteJob, type Written } from './message-plan.js';

export type { Live } from './message-plan.js';
import * as mrepo from './message.repository.js';
import * as srepo from './service.repository.js';
import { messageSeen } from './changes.js';
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
  /**
   * Checked inside the conversation UPDATE (so against the committed state, whichever node changed it):
   * `visitor` — the conversation is still open (queued or in service); `agent` — it is in service and
   * this agent owns it or collaborates on it. When the check fails nothing is written and storeMessage
   * throws StaleConversation: the caller's cached conversation is out of date.
   */
  guard?: { kind: 'visitor' } | { kind: 'agent'; agent: string };
}

export interface Stored {
  row: ChatMessageRow;
  created: boolean;
  tokenum: number;
  /** Set when this call wrote the message. */
  live?: Live;
}

/** The guarded write found the conversation ended, transferred away or gone: nothing was stored. */
export class StaleConversation extends Error {
  constructor() {
    super('stale conversation');
  }
}

/**
 * Stores a message exactly once: a known (sender, clientId) returns the stored row; otherwise the next
 * seq of the conversation and the insert commit together, with the conversation's and the chat entry's
 * counters. Messages arriving together share one transaction (group commit, message-writer.ts) written
 * set-wise (message-batch.ts: one INSERT per message, one UPDATE per conversation and entry); a resend is
 * recognised by the unique (sender, client_id) index and refuses only itself, without using up a seq.
 * Resolves only after the commit; `queued` is called once the message has its place in the writer's
 * queue (from then on its order relative to later sends is fixed).
 */
export async function storeMessage(e: Engine, m: NewMessage, queued?: () => void): Promise<Stored> {
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
    id: newTimeId(now),
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
    // Indexed for the history search inside the same commit (FTS5 trigger / GIN): ≈ 4 µs of jieba.
    tokens: tokensOf(m.msgtype === 'text' ? m.message : (filename ?? '')),
  };
  let w: Written;
  try {
    const pending = messageWriter(e.db).submit({ m, row, now });
    queued?.();
    w = await pending;
  } catch (err) {
    if (mrepo.isUniqueViolation(err)) {
      const again = await mrepo.findByClientId(k, m.sender, m.clientId);
      if (again) return { row: again, created: false, tokenum: await tokenumOf(e, again.agentserviceid) };
    }
    throw err;
  }
  if (!w) throw new StaleConversation();
  return { row, created: true, tokenum: w.tokenum, live: w.live };
}

type GuardKind = 'none' | 'visitor' | 'agent';

const serviceSet: Record<Kind, string> = {
  in: ', lastmessage = ?, userasks = userasks + 1, idle_warned = 0, idle_warntime = null, agent_warned = 0',
  reply: ', lastgetmessage = ?, agentreplys = agentreplys + 1, firstreplytime = coalesce(firstreplytime, ?)',
  other: '',
};
const entrySet: Record<Kind, string> = {
  in: 'tokenum = tokenum + 1, lastmessage = ?, lastmsg = ?, updatetime = ?',
  reply: 'lastgetmessage = ?, lastmsg = ?, updatetime = ?',
  other: 'lastmsg = ?, updatetime = ?',
};
const guardSql: Record<GuardKind, string> = {
  none: '',
  visitor: " and status in ('inqueue', 'inservice')",
  agent:
    " and status = 'inservice' and (agentno = ? or exists (select 1 from agent_collaborator c " +
    'where c.agentserviceid = agent_service.id and c.userid = ?))',
};

/**
 * The hot statements as fixed SQL, built once per shape (no query building per message; SQLite reuses the
 * prepared statement by its text, see database.ts). SQLite: the conversation UPDATE, the INSERT, the entry
 * UPDATE. PostgreSQL: the same three as one statement (data-modifying CTEs), one round trip per message.
 */
function buildSql(dialect: Dialect, kind: Kind, guard: GuardKind): string[] {
  const collabs = collaboratorsSql(dialect, 'agent_service.id');
  const service =
    `update agent_service set lastseq = lastseq + 1${serviceSet[kind]} where id = ?${guardSql[guard]}` +
    ` returning lastseq, agentno, ${collabs} as collabs`;
  const entry = `update agent_user set ${entrySet[kind]} where agentserviceid = ?`;
  if (dialect === 'sqlite') {
    return [service, insertText('chat_message', MESSAGE_COLUMNS), `${entry} returning tokenum`];
  }
  const values = MESSAGE_COLUMNS.map((c) =>
    c === 'seq'
      ? 's.lastseq'
      : c === 'touser' && guard === 'visitor'
        ? "coalesce(s.agentno, '')"
        : `?::${COLUMN_TYPES[c]}`,
  );
  return [
    numberedPlaceholders(
      `with s as (${service}), ` +
        `i as (insert into chat_message (${MESSAGE_COLUMNS.join(', ')}) select ${values.join(', ')} from s), ` +
        `u as (${entry} and exists (select 1 from s) returning tokenum) ` +
        'select s.lastseq, s.agentno, s.collabs, (select tokenum from u) as tokenum from s',
    ),
  ];
}

const sqlCache = new Map<string, string[]>();
function hotSql(dialect: Dialect, kind: Kind, guard: GuardKind): string[] {
  const key = `${dialect}:${kind}:${guard}`;
  let q = sqlCache.get(key);
  if (!q) sqlCache.set(key, (q = buildSql(dialect, kind, guard)));
  return q;
}

interface ServiceOut {
  lastseq: number;
  agentno: string | null;
  collabs: string | null;
  tokenum?: number | null;
}

/**
 * The seq, the insert and the chat entry's counters of one message (run by the group commit). A guarded
 * message whose check fails writes nothing and yields null.
 */
async function writeMessage(dialect: Dialect, trx: Kdb, j: WriteJob): Promise<Written> {
  const { m, now } = j;
  const sid = m.service.id;
  const kind = kindOf(m);
  const guard: GuardKind = m.guard?.kind ?? 'none';
  const sp: unknown[] = kind === 'in' ? [now, sid] : kind === 'reply' ? [now, now, sid] : [sid];
  if (m.guard?.kind === 'agent') sp.push(m.guard.agent, m.guard.agent);
  const last = preview(m);
  const ep: unknown[] = kind === 'other' ? [last, now, sid] : [now, last, now, sid];
  const q = hotSql(dialect, kind, guard);
  let svc: ServiceOut | undefined;
  let tokenum: number | null | undefined;
  if (dialect === 'postgres') {
    const ip = MESSAGE_COLUMNS.filter((c) => c !== 'seq' && !(c === 'touser' && guard === 'visitor')).map(
      (c) => j.row[c],
    );
    [svc] = await rawRows<ServiceOut>(trx, q[0]!, [...sp, ...ip, ...ep]);
    tokenum = svc?.tokenum;
  } else {
    [svc] = await rawRows<ServiceOut>(trx, q[0]!, sp);
    if (svc) {
      const row = { ...j.row, seq: Number(svc.lastseq) };
      if (guard === 'visitor') row.touser = svc.agentno ?? '';
      await rawRows(
        trx,
        q[1]!,
        MESSAGE_COLUMNS.map((c) => row[c]),
      );
      tokenum = (await rawRows<{ tokenum: number }>(trx, q[2]!, ep))[0]?.tokenum;
    }
  }
  if (!svc) {
    if (m.guard) return null;
    throw new Error(`conversation ${sid} not found`);
  }
  j.row.seq = Number(svc.lastseq);
  if (guard === 'visitor') j.row.touser = svc.agentno ?? '';
  return {
    tokenum: Number(tokenum ?? 0),
    live: { agentno: svc.agentno, collaborators: svc.collabs ? svc.collabs.split(',') : [] },
  };
}

const writers = new WeakMap<Db, GroupCommit<WriteJob, Written>>();

/** The node's message writer for a database: messages arriving together commit in one transaction. */
export function messageWriter(db: Db): GroupCommit<WriteJob, Written> {
  let w = writers.get(db);
  if (!w)
    writers.set(
      db,
      (w = new GroupCommit(
        db,
        (trx, j) => writeMessage(db.dialect, trx, j),
        (j) => j.m.service.id,
        256,
        db.dialect === 'sqlite' ? sqliteBatchWriter(db) : postgresBatchWriter(db),
        // SQLite writes synchronously (one at a time anyway); PostgreSQL overlaps a batch's round trip.
        db.dialect === 'sqlite' ? 1 : 2,
      )),
    );
  return w;
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
  emitMessage(e, s, await agentRoomsOf(e, s), dto, exceptSocket);
}

/** deliver() with the followers the storing write read (no extra query). */
export function deliverLive(
  e: Engine,
  s: Pick<AgentServiceRow, 'id' | 'userid'>,
  live: Live,
  dto: MessageDto,
  exceptSocket?: string,
): void {
  const rooms = [serviceRoom(s.id), ...live.collaborators.map(agentRoom)];
  if (live.agentno) rooms.push(agentRoom(live.agentno));
  emitMessage(e, s, rooms, dto, exceptSocket);
}

function emitMessage(
  e: Engine,
  s: Pick<AgentServiceRow, 'userid'>,
  rooms: string[],
  dto: MessageDto,
  exceptSocket?: string,
): void {
  e.rt.emitMessage(dto, rooms, visitorRoom(s.userid), exceptSocket);
  if (e.platform && isPlatformUser(s.userid)) e.platform.message(dto);
  messageSeen(e, dto);
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
