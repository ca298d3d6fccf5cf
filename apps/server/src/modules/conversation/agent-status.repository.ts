import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { AgentStatusTable } from '../../platform/db/schema-conversations.js';
import type { Kdb } from './engine.js';
import { runFixed, type Sql } from './hot-sql.js';

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

/** reserveSeat for routing (the agent must be ready): the agent's counts after it, or undefined. */
export async function takeSeat(
  k: Sql,
  userid: string,
  now: number,
): Promise<{ users: number; maxusers: number } | undefined> {
  return (await runFixed<{ users: number; maxusers: number }>(k, TAKE_SEAT, [now, userid])).rows[0];
}
const TAKE_SEAT = `update agent_status set users = users + 1, updatetime = ?
  where userid = ? and users < maxusers and status = 'ready' returning users, maxusers`;

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

/** Agents with a socket (or never one) whose heartbeat stopped; those without a socket wait for their grace. */
export const staleAgents = (k: Kdb, cutoff: number) =>
  k
    .selectFrom('agent_status')
    .selectAll()
    .where('status', '!=', 'notready')
    .where('lastping', '<', cutoff)
    .where('offsince', 'is', null)
    .execute();

/** Agents not notready whose last socket went away before `cutoff`. */
export const goneAgents = (k: Kdb, cutoff: number) =>
  k
    .selectFrom('agent_status')
    .select('userid')
    .where('status', '!=', 'notready')
    .where('offsince', '<=', cutoff)
    .execute();

/** The agent has a socket again (or still): no grace running. */
export const markPresent = (k: Kdb, userid: string, now: number) =>
  k.updateTable('agent_status').set({ offsince: null, lastping: now }).where('userid', '=', userid).execute();

/** The agent's last socket went away at `now` (kept if an earlier time is already set). */
export const markGone = (k: Kdb, userid: string, now: number) =>
  k
    .updateTable('agent_status')
    .set({ offsince: now })
    .where('userid', '=', userid)
    .where('offsince', 'is', null)
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
