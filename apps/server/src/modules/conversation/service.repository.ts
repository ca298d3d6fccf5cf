import type { Insertable } from 'kysely';
import type { AgentServiceTable, AgentUserTable } from '../../platform/db/schema-conversations.js';
import type { AgentServiceRow, AgentUserRow } from './presenter.js';
import type { Kdb } from './engine.js';

export const findService = (k: Kdb, id: string) =>
  k.selectFrom('agent_service').selectAll().where('id', '=', id).executeTakeFirst();

/** The visitor's open conversation (queued or in service), if any. */
export const openServiceOf = (k: Kdb, orgi: string, userid: string) =>
  k
    .selectFrom('agent_service')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('userid', '=', userid)
    .where('status', 'in', ['inqueue', 'inservice'])
    .orderBy('createtime', 'desc')
    .executeTakeFirst();

export const latestServiceOf = (k: Kdb, orgi: string, userid: string) =>
  k
    .selectFrom('agent_service')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('userid', '=', userid)
    .orderBy('createtime', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();

/** The agent who served this visitor most recently (last-agent preference). */
export async function lastAgentOf(k: Kdb, orgi: string, userid: string): Promise<string | null> {
  const r = await k
    .selectFrom('agent_service')
    .select('agentno')
    .where('orgi', '=', orgi)
    .where('userid', '=', userid)
    .where('agentno', 'is not', null)
    .orderBy('createtime', 'desc')
    .executeTakeFirst();
  return r?.agentno ?? null;
}

/** Inserts a conversation; ordertime = max + 1 gives the queue a strict FIFO order. */
export async function insertService(k: Kdb, row: Insertable<AgentServiceTable>): Promise<void> {
  const r = await k
    .selectFrom('agent_service')
    .select((eb) => eb.fn.max<number>('ordertime').as('m'))
    .executeTakeFirst();
  await k
    .insertInto('agent_service')
    .values({ ...row, ordertime: Number(r?.m ?? 0) + 1 })
    .execute();
}

export async function updateService(k: Kdb, id: string, patch: Partial<AgentServiceRow>): Promise<void> {
  await k.updateTable('agent_service').set(patch).where('id', '=', id).execute();
}

/** FIFO queue of a tenant. */
export const queued = (k: Kdb, orgi: string, limit = 200) =>
  k
    .selectFrom('agent_service')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('status', '=', 'inqueue')
    .orderBy('ordertime', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();

export const inServiceOfAgent = (k: Kdb, agentno: string) =>
  k
    .selectFrom('agent_service')
    .selectAll()
    .where('agentno', '=', agentno)
    .where('status', '=', 'inservice')
    .execute();

export const findAgentUser = (k: Kdb, id: string) =>
  k.selectFrom('agent_user').selectAll().where('id', '=', id).executeTakeFirst();

export const agentUserOfService = (k: Kdb, agentserviceid: string) =>
  k.selectFrom('agent_user').selectAll().where('agentserviceid', '=', agentserviceid).executeTakeFirst();

export async function insertAgentUser(k: Kdb, row: Insertable<AgentUserTable>): Promise<void> {
  await k.insertInto('agent_user').values(row).execute();
}

export async function updateAgentUser(k: Kdb, id: string, patch: Partial<AgentUserRow>): Promise<void> {
  await k.updateTable('agent_user').set(patch).where('id', '=', id).execute();
}

/** The agent's visible chat entries with their conversations. */
export async function visibleEntries(
  k: Kdb,
  agentno: string,
): Promise<Array<{ au: AgentUserRow; s: AgentServiceRow }>> {
  const aus = await k
    .selectFrom('agent_user')
    .selectAll()
    .where('agentno', '=', agentno)
    .where('visible', '=', 1)
    .where('status', '!=', 'inqueue')
    .execute();
  return withServices(k, aus);
}

export async function withServices(
  k: Kdb,
  aus: AgentUserRow[],
): Promise<Array<{ au: AgentUserRow; s: AgentServiceRow }>> {
  if (aus.length === 0) return [];
  const ss = await k
    .selectFrom('agent_service')
    .selectAll()
    .where(
      'id',
      'in',
      aus.map((a) => a.agentserviceid),
    )
    .execute();
  const byId = new Map(ss.map((s) => [s.id, s]));
  return aus.flatMap((au) => {
    const s = byId.get(au.agentserviceid);
    return s ? [{ au, s }] : [];
  });
}

export const collaboratorsOf = async (k: Kdb, agentserviceid: string): Promise<string[]> =>
  (
    await k
      .selectFrom('agent_collaborator')
      .select('userid')
      .where('agentserviceid', '=', agentserviceid)
      .execute()
  ).map((r) => r.userid);

export async function addCollaborator(
  k: Kdb,
  row: { agentserviceid: string; userid: string; orgi: string; inviter: string; createtime: number },
): Promise<void> {
  await k
    .insertInto('agent_collaborator')
    .values(row)
    .onConflict((oc) => oc.columns(['agentserviceid', 'userid']).doNothing())
    .execute();
}

/** Removes one collaborator; true when it was one. */
export async function removeCollaborator(k: Kdb, agentserviceid: string, userid: string): Promise<boolean> {
  const r = await k
    .deleteFrom('agent_collaborator')
    .where('agentserviceid', '=', agentserviceid)
    .where('userid', '=', userid)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Removes every collaborator of a conversation and returns who they were. */
export async function removeCollaborators(k: Kdb, agentserviceid: string): Promise<string[]> {
  const rows = await k
    .deleteFrom('agent_collaborator')
    .where('agentserviceid', '=', agentserviceid)
    .returning('userid')
    .execute();
  return rows.map((r) => r.userid);
}

export async function isBlacklisted(k: Kdb, orgi: string, userid: string, now: number): Promise<boolean> {
  const r = await k
    .selectFrom('blacklist')
    .select('endtime')
    .where('orgi', '=', orgi)
    .where('userid', '=', userid)
    .executeTakeFirst();
  return !!r && (r.endtime === null || r.endtime > now);
}
