import { AGENT_PRESENCE_GRACE_MS, HEARTBEAT_TIMEOUT_MS, type StoredAgentState } from '@kefu/protocol';
import { notFound } from '../../platform/http/errors.js';
import { agentRoom } from '../../platform/realtime/rooms.js';
import { affected, toAgents, toOrgAgents, type Engine } from './engine.js';
import * as arepo from './agent-status.repository.js';
import { publishReport } from './report.js';
import { drainQueue } from './routing.service.js';
import { forgetSeats } from './seat-board.js';
import { agentStateLogged } from '../analysis/hooks.js';

export async function getAgentState(e: Engine, userid: string): Promise<StoredAgentState> {
  const row = await arepo.findStatus(e.db.kysely, userid);
  return (row?.status as StoredAgentState | undefined) ?? 'notready';
}

export async function ensureRow(e: Engine, userid: string): Promise<arepo.AgentStatusRow> {
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
    offsince: null,
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
      agentStateLogged(e.db, { orgi: row.orgi, userid, to_status: to, reason, createtime: now });
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

/**
 * Agents without a ping for 2 × 30 s become notready, and so do agents without any socket for the
 * presence grace; their chats stay with them.
 */
export async function heartbeatSweep(e: Engine): Promise<void> {
  const now = e.clock.now();
  for (const a of await arepo.staleAgents(e.db.kysely, now - HEARTBEAT_TIMEOUT_MS)) {
    await setAgentState(e, a.userid, 'notready', 'heartbeat', (from) => from !== 'notready');
  }
  await presenceSweep(e, now);
}

/** Whether the agent has a socket on any node (asks the other nodes through the adapter). */
async function hasSocket(e: Engine, userid: string): Promise<boolean> {
  return (await e.rt.agents.in(agentRoom(userid)).fetchSockets()).length > 0;
}

/**
 * A socket of the agent connected: the state it chose holds, whatever a reload or a dropped tab did
 * before. Counts as a heartbeat too.
 */
export async function agentSocketArrived(e: Engine, userid: string): Promise<void> {
  await arepo.markPresent(e.db.kysely, userid, e.clock.now());
}

/**
 * A socket of the agent went away. If it was the last one on every node, the grace starts: the state
 * is kept (a reload or a reconnect comes back well within it) and presenceSweep ends it. The time is
 * in the shared agent_status row, so any node's sweep can end it, even if this node is gone by then.
 */
export async function agentSocketGone(e: Engine, userid: string): Promise<void> {
  if (await hasSocket(e, userid)) return;
  await arepo.markGone(e.db.kysely, userid, e.clock.now());
}

/** Agents whose last socket went away more than the grace ago become notready (reason disconnect). */
export async function presenceSweep(e: Engine, now = e.clock.now()): Promise<void> {
  for (const { userid } of await arepo.goneAgents(e.db.kysely, now - AGENT_PRESENCE_GRACE_MS)) {
    // A socket that connected on a node while this one marked the agent gone: the mark was stale.
    if (await hasSocket(e, userid)) {
      await arepo.markPresent(e.db.kysely, userid, now);
      continue;
    }
    await setAgentState(e, userid, 'notready', 'disconnect', (from) => from !== 'notready');
  }
}
