import { CompiledQuery, type Insertable } from 'kysely';
import type { Dialect } from '../../platform/db/database.js';
import { numberedPlaceholders } from '../../platform/db/raw.js';
import type { ChatMessageTable } from '../../platform/db/schema-conversations.js';
import type { ChatMessageRow } from './presenter.js';
import type { Kdb } from './engine.js';

export const findByClientId = (k: Kdb, sender: string, clientId: string) =>
  k
    .selectFrom('chat_message')
    .selectAll()
    .where('sender', '=', sender)
    .where('client_id', '=', clientId)
    .executeTakeFirst();

export const findMessage = (k: Kdb, id: string) =>
  k.selectFrom('chat_message').selectAll().where('id', '=', id).executeTakeFirst();

/** Takes the next seq of a conversation; the row lock (PostgreSQL) / write lock (SQLite) serialises writers. */
export async function nextSeq(k: Kdb, agentserviceid: string): Promise<number> {
  const r = await k
    .updateTable('agent_service')
    .set((eb) => ({ lastseq: eb('lastseq', '+', 1) }))
    .where('id', '=', agentserviceid)
    .returning('lastseq')
    .executeTakeFirstOrThrow();
  return Number(r.lastseq);
}

export async function insertMessage(k: Kdb, row: Insertable<ChatMessageTable>): Promise<void> {
  await k.insertInto('chat_message').values(row).execute();
}

export const messagesAfter = (
  k: Kdb,
  agentserviceid: string,
  after: number,
  limit: number,
): Promise<ChatMessageRow[]> =>
  k
    .selectFrom('chat_message')
    .selectAll()
    .where('agentserviceid', '=', agentserviceid)
    .where('seq', '>', after)
    .orderBy('seq', 'asc')
    .limit(limit)
    .execute();

/** Newest page (or the page before seq `before`) of one conversation, returned ascending. */
export async function messagesBefore(
  k: Kdb,
  agentserviceid: string,
  before: number | undefined,
  limit: number,
): Promise<ChatMessageRow[]> {
  let q = k.selectFrom('chat_message').selectAll().where('agentserviceid', '=', agentserviceid);
  if (before !== undefined) q = q.where('seq', '<', before);
  const rows = await q.orderBy('seq', 'desc').limit(limit).execute();
  return rows.reverse();
}

/**
 * The agent may read the conversation (the same rule as talk.service `followed`: its org, and its own, a
 * monitor's (`?` = 1), one it collaborates on or one it transferred away). Parameters: id, orgi, agent,
 * monitor, agent, agent. Uncorrelated with the page, so evaluated once per query.
 */
const FOLLOWED =
  'exists (select 1 from agent_service s where s.id = ? and s.orgi = ? and (s.agentno = ? or ? = 1' +
  ' or exists (select 1 from agent_collaborator c where c.agentserviceid = s.id and c.userid = ?)' +
  ' or exists (select 1 from transfer_request t where t.agentserviceid = s.id and t.from_agent = ?)))';

const PAGE_SQL = {
  newest: `select * from chat_message where agentserviceid = ? and ${FOLLOWED} order by seq desc limit ?`,
  before: `select * from chat_message where agentserviceid = ? and seq < ? and ${FOLLOWED} order by seq desc limit ?`,
  after: `select * from chat_message where agentserviceid = ? and seq > ? and ${FOLLOWED} order by seq asc limit ?`,
};
const PG_PAGE_SQL = {
  newest: numberedPlaceholders(PAGE_SQL.newest),
  before: numberedPlaceholders(PAGE_SQL.before),
  after: numberedPlaceholders(PAGE_SQL.after),
};

export interface PageReader {
  id: string;
  orgi: string;
  monitor: boolean;
}

/**
 * One conversation's message page — newest, before seq `before` (both returned ascending) or after seq
 * `after` — read together with the access check in one fixed, precompiled statement. Empty when the
 * reader may not see the conversation (or it has no such messages): the caller then tells which.
 */
export async function followedPage(
  k: Kdb,
  dialect: Dialect,
  agentserviceid: string,
  reader: PageReader,
  at: { before?: number; after?: number },
  limit: number,
): Promise<ChatMessageRow[]> {
  const sql = dialect === 'postgres' ? PG_PAGE_SQL : PAGE_SQL;
  const check = [agentserviceid, reader.orgi, reader.id, reader.monitor ? 1 : 0, reader.id, reader.id];
  if (at.after !== undefined) {
    const q = CompiledQuery.raw(sql.after, [agentserviceid, at.after, ...check, limit]);
    return (await k.executeQuery<ChatMessageRow>(q)).rows;
  }
  const q =
    at.before !== undefined
      ? CompiledQuery.raw(sql.before, [agentserviceid, at.before, ...check, limit])
      : CompiledQuery.raw(sql.newest, [agentserviceid, ...check, limit]);
  return (await k.executeQuery<ChatMessageRow>(q)).rows.reverse();
}

export async function markWithdrawn(k: Kdb, id: string, now: number): Promise<boolean> {
  const r = await k
    .updateTable('chat_message')
    .set({ withdrawn: 1, withdrawn_at: now })
    .where('id', '=', id)
    .where('withdrawn', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function markRead(
  k: Kdb,
  agentserviceid: string,
  calltype: 'in' | 'out',
  upTo: number,
): Promise<void> {
  await k
    .updateTable('chat_message')
    .set({ readstatus: 1 })
    .where('agentserviceid', '=', agentserviceid)
    .where('calltype', '=', calltype)
    .where('seq', '<=', upTo)
    .where('readstatus', '=', 0)
    .execute();
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/i.test(e.message ?? '')
  );
}
