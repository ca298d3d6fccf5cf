import { HEARTBEAT_TIMEOUT_MS, type StoredAgentState } from '@kefu/protocol';
import { notFound } from '../../platform/http/errors.js';
import { affected, toAgents, toOrgAgents, type Engine } from './engine.js';
import * as arepo from './agent-status.repository.js';
import { publishReport } from './report.js';
import { drainQueue } from './routing.service.js';
import { forgetSeats } from './seat-board.js';

export async function getAgentState(e: Engine, userid: string): Promise<StoredAgentState> {
  const row = await arepo.findStatus(e.db.kysely, userid);
  return (row?.status as StoredAgentState | undefined) ?? 'notready';
}

async function ensureRow(e: Engine, userid: string): Promise<arepo.AgentStatusRow> {
  const k = e.db.kysely;
  const existing = await arepo.findStatus(k, userid);
  if (existing) return existing;
  const user = await k
    .selectFrom('users')
    .select(['orgi', 'organ', 'maxusers'])
    .where('id', '=', userid)
    .executeTakeFirst();
  if (!user) throw notFound('user_not_found');
  const now = e.clock.now();
  await arepo.insertStatus(k, {
    userid,
    orgi: user.orgi,
    status: 'notready',
    users: await arepo.countInService(k, userid),
    maxusers: user.maxusers,
    organ: user.organ,
    lastping: now,
    lastidle: now,
    logintime: now,
    updatetime: now,
  });
  const row = await arepo.findStatus(k, userid);
  if (!row) throw notFound();
  return row;
}

/**
 * Moves an agent to a state: one conditional update (so two nodes never log the same change twice),
 * a state-log row, then workstatus to the agent, agentstatus + status to the tenant. Ready drains the queue.
 */
export async function setAgentState(
  e: Engine,
  userid: string,
  to: StoredAgentState,
  reason: string,
  onlyFrom?: (from: string) => boolean,
): Promise<StoredAgentState> {
  const k = e.db.kysely;
  const row = await ensureRow(e, userid);
  const now = e.clock.now();
  if (onlyFrom && !onlyFrom(row.status)) return row.status as StoredAgentState;
  if (to === 'ready') {
    const user = await k
      .selectFrom('users')
      .select(['organ', 'maxusers'])
      .where('id', '=', userid)
      .executeTakeFirst();
    const patch = {
      maxusers: user?.maxusers ?? row.maxusers,
      organ: user?.organ ?? row.organ,
      lastping: now,
      updatetime: now,
    };
    if (row.status === 'notready')
      Object.assign(patch, { users: await arepo.countInService(k, userid), logintime: now });
    await arepo.updateStatus(k, userid, patch);
  }
  if (row.status !== to) {
    const r = await k
      .updateTable('agent_status')
      .set({ status: to, updatetime: now, ...(to !== 'notready' ? { lastping: now } : {}) })
      .where('userid', '=', userid)
      .where('status', '=', row.status)
      .executeTakeFirst();
    if (affected(r) === 1) {
      await arepo.logState(k, {
        orgi: row.orgi,
        userid,
        from_status: row.status,
        to_status: to,
        reason,
        createtime: now,
      });
    }
  }
  forgetSeats(e.db, row.orgi);
  const after = (await arepo.findStatus(k, userid)) ?? row;
  toAgents(e, [userid], 'workstatus', { status: after.status as StoredAgentState, reason });
  toOrgAgents(e, row.orgi, 'agentstatus', {
    userid,
    status: after.status as StoredAgentState,
    users: after.users,
    maxusers: after.maxusers,
  });
  await publishReport(e, row.orgi, 'agent', to === 'notready' ? 'leave' : to, userid);
  if (after.status === 'ready') await drainQueue(e, row.orgi);
  return after.status as StoredAgentState;
}

export async function ping(e: Engine, userid: string): Promise<number> {
  const now = e.clock.now();
  await e.db.kysely.updateTable('agent_status').set({ lastping: now }).where('userid', '=', userid).execute();
  return now;
}

/** Agents without a ping for 2 × 30 s become notready; their chats stay with them. */
export async function heartbeatSweep(e: Engine): Promise<void> {
  const now = e.clock.now();
  for (const a of await arepo.staleAgents(e.db.kysely, now - HEARTBEAT_TIMEOUT_MS)) {
    await setAgentState(e, a.userid, 'notready', 'heartbeat', (from) => from !== 'notready');
  }
}
