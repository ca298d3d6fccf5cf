import type { Insertable } from 'kysely';
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
  limit = 500,
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
