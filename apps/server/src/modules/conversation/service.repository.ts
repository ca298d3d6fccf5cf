import { insertText } from '../../platform/db/raw.js';
import { runFixed, type Sql } from './hot-sql.js';
import type { AgentServiceRow, AgentUserRow } from './presenter.js';
import type { Kdb } from './engine.js';

export const findService = (k: Kdb, id: string) =>
  k.selectFrom('agent_service').selectAll().where('id', '=', id).executeTakeFirst();

/*
 * A visitor's conversations are found by userid alone (index agent_service_user) and the tenant is checked
 * on the row: with orgi in the WHERE, SQLite (no statistics) walks the tenant's queue index instead, which
 * costs one step per conversation the tenant ever had. A visitor id belongs to one tenant, so the answer is
 * the same.
 */
const ofTenant = <R extends { orgi: string }>(orgi: string, r: R | undefined): R | undefined =>
  r && r.orgi === orgi ? r : undefined;

/** The visitor's open conversation (queued or in service), if any. */
export const openServiceOf = async (k: Sql, orgi: string, userid: string) =>
  ofTenant(orgi, (await runFixed<AgentServiceRow>(k, OPEN_SERVICE, [userid])).rows[0]);
const OPEN_SERVICE = `select * from agent_service where userid = ?
  and status in ('inqueue', 'inservice') order by createtime desc limit 1`;

export const latestServiceOf = async (k: Kdb, orgi: string, userid: string) =>
  ofTenant(
    orgi,
    await k
      .selectFrom('agent_service')
      .selectAll()
      .where('userid', '=', userid)
      .orderBy('createtime', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst(),
  );

/** The agent who served this visitor most recently (last-agent preference). */
export async function lastAgentOf(k: Sql, orgi: string, userid: string): Promise<string | null> {
  const r = await runFixed<{ agentno: string; orgi: string }>(k, LAST_AGENT, [userid]);
  return ofTenant(orgi, r.rows[0])?.agentno ?? null;
}
const LAST_AGENT = `select agentno, orgi from agent_service where userid = ? and agentno is not null
  order by createtime desc limit 1`;

/*
 * A new chat's two rows are written with fixed statements and not read back (`returning *`): turning the
 * 50-column row into an object cost as much as the INSERT itself, and building the statement from the
 * row's keys cost a few µs more. Every column listed is written explicitly (the types require them all),
 * so the row answered is exactly the one stored; the rest keep their defaults and are never read from
 * the answer.
 */
const SERVICE_COLUMNS = [
  'id',
  'orgi',
  'userid',
  'username',
  'appid',
  'channel',
  'status',
  'organ',
  'requested_agent',
  'agentno',
  'agentusername',
  'createtime',
  'servicetime',
  'waittime',
  'queneindex',
  'lastseq',
  'name',
  'phone',
  'email',
  'resion',
  'title',
  'url',
  'traceid',
  'ipaddr',
  'osname',
  'browser',
  'source',
  'country',
  'province',
  'city',
  'language',
] as const satisfies ReadonlyArray<keyof AgentServiceRow>;
/** A new conversation as written (and answered) by insertService. */
export type StoredService = Pick<AgentServiceRow, (typeof SERVICE_COLUMNS)[number]>;

/**
 * ordertime = 1 + the tenant's last queued one gives the queue a strict FIFO order (only queued rows are
 * ever compared). Read through the queue index in the same statement, not as a max over every
 * conversation ever stored.
 */
const INSERT_SERVICE = insertText('agent_service', SERVICE_COLUMNS, {
  ordertime:
    "(select coalesce(max(ordertime), 0) + 1 from agent_service where orgi = ? and status = 'inqueue')",
});

/** Inserts a conversation; answers the row it wrote. */
export async function insertService(k: Sql, row: StoredService): Promise<StoredService> {
  const params: unknown[] = SERVICE_COLUMNS.map((c) => row[c]);
  params.push(row.orgi);
  await runFixed(k, INSERT_SERVICE, params);
  return row;
}

const ENTRY_COLUMNS = [
  'id',
  'orgi',
  'agentserviceid',
  'userid',
  'username',
  'agentno',
  'status',
  'tokenum',
  'over',
  'visible',
  'lastmsg',
  'lastmessage',
  'lastgetmessage',
  'langto',
  'createtime',
  'servicetime',
  'updatetime',
] as const satisfies ReadonlyArray<keyof AgentUserRow>;
/** A new chat entry as written (and answered) by insertAgentUser. */
export type StoredEntry = Pick<AgentUserRow, (typeof ENTRY_COLUMNS)[number]>;
const INSERT_ENTRY = insertText('agent_user', ENTRY_COLUMNS);

/** Inserts a chat entry; answers the row it wrote. */
export async function insertAgentUser(k: Sql, row: StoredEntry): Promise<StoredEntry> {
  await runFixed(
    k,
    INSERT_ENTRY,
    ENTRY_COLUMNS.map((c) => row[c]),
  );
  return row;
}

/** Whether any conversation of the tenant waits in the queue. */
export async function anyQueued(k: Sql, orgi: string): Promise<boolean> {
  return (await runFixed(k, ANY_QUEUED, [orgi])).rows.length > 0;
}
const ANY_QUEUED = "select id from agent_service where orgi = ? and status = 'inqueue' limit 1";

export async function updateService(k: Kdb, id: string, patch: Partial<AgentServiceRow>): Promise<void> {
  await k.updateTable('agent_service').set(patch).where('id', '=', id).execute();
}

/** What routing needs of a queued conversation (a whole row costs several times more to read). */
export type QueueHead = Pick<
  AgentServiceRow,
  'id' | 'orgi' | 'userid' | 'organ' | 'requested_agent' | 'createtime' | 'queneindex' | 'language'
>;

/** FIFO queue of a tenant, routing's columns only. */
export const queueHeads = async (k: Sql, orgi: string, limit: number): Promise<QueueHead[]> =>
  (await runFixed<QueueHead>(k, QUEUE_HEADS, [orgi, limit])).rows;
// `createtime` here is when it joined the queue (a robot chat joins it at its handoff): its wait counts from then.
const QUEUE_HEADS = `select id, orgi, userid, organ, requested_agent, coalesce(queuetime, createtime) as createtime,
  queneindex, language
  from agent_service where orgi = ? and status = 'inqueue' order by ordertime asc, id asc limit ?`;

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
