import type { Selectable } from 'kysely';
import type { AgentStatusTable } from '../../platform/db/schema-conversations.js';
import { affected, type Kdb } from './engine.js';

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
  let q = k
    .updateTable('agent_status')
    .set((eb) => ({ users: eb('users', '+', 1), updatetime: now }))
    .where('userid', '=', userid)
    .whereRef('users', '<', 'maxusers');
  if (requireReady) q = q.where('status', '=', 'ready');
  return affected(await q.executeTakeFirst()) === 1;
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
  if (organ) {
    q = q.where((eb) =>
      eb.or([
        eb('organ', '=', organ),
        eb.exists(
          eb
            .selectFrom('user_organ')
            .select('user_organ.userid')
            .whereRef('user_organ.userid', '=', 'agent_status.userid')
            .where('user_organ.organid', '=', organ),
        ),
      ]),
    );
  }
  return q.execute();
}

/** Agents of the tenant (or group) who are ready at all, full or not. */
export async function countReady(k: Kdb, orgi: string, organ: string | null): Promise<number> {
  let q = k
    .selectFrom('agent_status')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('orgi', '=', orgi)
    .where('status', '=', 'ready');
  if (organ) {
    q = q.where((eb) =>
      eb.or([
        eb('organ', '=', organ),
        eb.exists(
          eb
            .selectFrom('user_organ')
            .select('user_organ.userid')
            .whereRef('user_organ.userid', '=', 'agent_status.userid')
            .where('user_organ.organid', '=', organ),
        ),
      ]),
    );
  }
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
