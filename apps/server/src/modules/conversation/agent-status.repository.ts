import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Distribution } from '@kefu/protocol';
import type { Database } from '../../platform/db/schema.js';
import type { AgentStatusTable } from '../../platform/db/schema-conversations.js';
import type { Kdb } from './engine.js';

export type AgentStatusRow = Selectable<AgentStatusTable>;

export const findStatus = (k: Kdb, userid: string) =>
  k.selectFrom('agent_status').selectAll().where('userid', '=', userid).executeTakeFirst();

export async function insertStatus(k: Kdb, row: AgentStatusRow): Promise<void> {
  await k
    .insertInto('agent_status')
    .values(row)
    .onConflict((oc) => oc.column('userid').doNothing())
    .execute();
}

export async function updateStatus(
  k: Kdb,
  userid: string,
  patch: Partial<Omit<AgentStatusRow, 'userid'>>,
): Promise<void> {
  await k.updateTable('agent_status').set(patch).where('userid', '=', userid).execute();
}

/** Chats an agent holds in service (the truth behind agent_status.users). */
export async function countInService(k: Kdb, userid: string): Promise<number> {
  const r = await k
    .selectFrom('agent_service')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('agentno', '=', userid)
    .where('status', '=', 'inservice')
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The atomic seat reservation: one conditional UPDATE; true when a seat was taken. */
export async function reserveSeat(
  k: Kdb,
  userid: string,
  now: number,
  requireReady = true,
): Promise<boolean> {
  const ready = requireReady ? sql` and status = 'ready'` : sql``;
  const r = await sql`update agent_status set users = users + 1, updatetime = ${now}
    where userid = ${userid} and users < maxusers${ready}`.execute(k);
  return Number(r.numAffectedRows ?? 0n) === 1;
}

export async function releaseSeat(k: Kdb, userid: string, now: number): Promise<void> {
  await k
    .updateTable('agent_status')
    .set((eb) => ({ users: eb('users', '-', 1), updatetime: now }))
    .where('userid', '=', userid)
    .where('users', '>', 0)
    .execute();
  await k
    .updateTable('agent_status')
    .set({ lastidle: now })
    .where('userid', '=', userid)
    .where('users', '=', 0)
    .execute();
}

/** Ready agents with room, optionally limited to one skill group (primary organ or membership). */
export async function readyCandidates(
  k: Kdb,
  orgi: string,
  organ: string | null,
  only: string | null,
): Promise<AgentStatusRow[]> {
  let q = k
    .selectFrom('agent_status')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('status', '=', 'ready')
    .whereRef('users', '<', 'maxusers');
  if (only) q = q.where('userid', '=', only);
  if (organ) q = q.where((eb) => inOrgan(eb, organ));
  return q.execute();
}

export interface CandidateOrder {
  distribution: Distribution;
  /** The visitor whose last agent goes first (last-agent preference), or null. */
  lastAgentOf: string | null;
  limit: number;
}

/** A candidate with the display name the assignment announces. */
export type Candidate = AgentStatusRow & { nickname: string };

/**
 * The best few candidates in routing order, ordered and cut by the database: reading every ready agent
 * of a large tenant (and sorting it here) for each new chat cost more than the rest of the assignment.
 * The order is orderCandidates' (last agent first, then the distribution), so a seat lost to a race only
 * moves on to the next of these. The last agent is looked up in the same statement.
 */
export async function pickCandidates(
  k: Kdb,
  orgi: string,
  organ: string | null,
  only: string | null,
  order: CandidateOrder,
): Promise<Candidate[]> {
  // The last agent by userid alone (see service.repository): only this tenant's agents are candidates.
  const first = order.lastAgentOf
    ? sql`case when userid = (select agentno from agent_service where userid = ${order.lastAgentOf}
        and agentno is not null order by createtime desc limit 1) then 0 else 1 end`
    : sql`0`;
  const load = order.distribution === 'least-busy' ? sql`users * 1.0 / maxusers` : sql`0`;
  const filters = [sql`orgi = ${orgi}`, sql`status = 'ready'`, sql`users < maxusers`];
  if (only) filters.push(sql`userid = ${only}`);
  if (organ)
    filters.push(sql`(organ = ${organ} or exists (select 1 from user_organ
      where user_organ.userid = agent_status.userid and user_organ.organid = ${organ}))`);
  // Ordered and cut on agent_status alone; the names are joined to the few rows picked.
  const r =
    await sql<Candidate>`select best.*, coalesce(nullif(users.nickname, ''), users.uname, '') as nickname
    from (select agent_status.*, ${first} as pick_first, ${load} as pick_load from agent_status
      where ${sql.join(filters, sql` and `)}
      order by pick_first, pick_load, users, lastidle, userid limit ${order.limit}) best
    left join users on users.id = best.userid
    order by best.pick_first, best.pick_load, best.users, best.lastidle, best.userid`.execute(k);
  return r.rows;
}

/** Agents of the tenant (or group) who are ready at all, full or not. */
export async function countReady(k: Kdb, orgi: string, organ: string | null): Promise<number> {
  let q = k
    .selectFrom('agent_status')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('orgi', '=', orgi)
    .where('status', '=', 'ready');
  if (organ) q = q.where((eb) => inOrgan(eb, organ));
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

export const staleAgents = (k: Kdb, cutoff: number) =>
  k
    .selectFrom('agent_status')
    .selectAll()
    .where('status', '!=', 'notready')
    .where('lastping', '<', cutoff)
    .execute();

export const orgStatuses = (k: Kdb, orgi: string) =>
  k.selectFrom('agent_status').selectAll().where('orgi', '=', orgi).execute();

export async function logState(
  k: Kdb,
  row: {
    orgi: string;
    userid: string;
    from_status: string;
    to_status: string;
    reason: string;
    createtime: number;
  },
): Promise<void> {
  await k.insertInto('agent_state_log').values(row).execute();
}

/** The agent's primary organ is the group, or the agent is a member of it. */
function inOrgan(eb: ExpressionBuilder<Database, 'agent_status'>, organ: string) {
  return eb.or([
    eb('agent_status.organ', '=', organ),
    eb.exists(
      eb
        .selectFrom('user_organ')
        .select('user_organ.userid')
        .whereRef('user_organ.userid', '=', 'agent_status.userid')
        .where('user_organ.organid', '=', organ),
    ),
  ]);
}
