import type { VisitorAgentInfo } from '@kefu/protocol';
import type { Engine } from './engine.js';
import * as arepo from './agent-status.repository.js';
import * as srepo from './service.repository.js';
import type { SessionConfig } from './session-config.js';
import { pickSeats } from './seat-board.js';
import type { Sql } from './hot-sql.js';
import { openRobotSession } from '../robot/binding.js';
import { policyChain, routingOf } from '../organ/skill-policy.js';

/** Candidates tried for a new conversation before it joins the queue instead. */
const PICK = 4;

export interface Admitted {
  service: srepo.StoredService;
  entry: srepo.StoredEntry;
  /** The agent who took it at once, or null: it was queued (or is the robot's). */
  agent: VisitorAgentInfo | null;
  /** The robot that serves it (ai = 1, in service without an agent). */
  robot?: string;
}

/**
 * Stores a new conversation. When nobody of the tenant is queued ahead of it, the same transaction takes
 * the best candidate's seat (the conditional seat UPDATE, as for the queue) and stores the conversation
 * in service right away: one commit and no queue round (read, UPDATEs, second commit) for the common case
 * of a free seat. Otherwise (or when every candidate's seat was just taken) it is stored queued and the
 * caller drains the queue, so FIFO order holds: a queued conversation is never overtaken. Across nodes the
 * seat UPDATE still decides who gets a seat; a conversation queued on another node but not yet committed
 * is one that arrived later.
 * `k` must be a unit that commits or rolls back as a whole (intake's job of a `batched` transaction): the
 * seat UPDATE and the two INSERTs rely on it and open no savepoint of their own, since every statement
 * run under one costs SQLite a copy of each page it first touches.
 */
export async function admit(
  e: Engine,
  k: Sql,
  service: srepo.StoredService,
  entry: srepo.StoredEntry,
  cfg: SessionConfig,
  robot?: string | null,
): Promise<Admitted> {
  const now = e.clock.now();
  if (robot) {
    // The robot serves it from the start: in service, no agent, no seat; the human queue is not involved.
    const s = await srepo.insertService(k, { ...service, status: 'inservice', servicetime: now });
    const au = await srepo.insertAgentUser(k, { ...entry, status: 'inservice', servicetime: now });
    await openRobotSession(k, s.id, s.orgi, robot, now);
    return { service: s, entry: au, agent: null, robot };
  }
  let agent: VisitorAgentInfo | null = null;
  if (!(await srepo.anyQueued(k, service.orgi))) {
    const picks = await pickSeats(
      e.db,
      k,
      {
        orgi: service.orgi,
        organ: service.organ ?? null,
        only: service.requested_agent ?? null,
        ...routingOf(cfg, await policyChain(k, cfg, service.orgi, service.organ ?? null), service.userid),
      },
      PICK,
    );
    for (const p of picks) {
      const taken = await arepo.takeSeat(k, p.agent.id, now);
      p.settle(taken);
      if (taken) {
        agent = p.agent;
        break;
      }
    }
  }
  // `service` and `entry` come queued; a seat taken above puts them in service instead.
  const s = await srepo.insertService(
    k,
    agent
      ? {
          ...service,
          agentno: agent.id,
          agentusername: agent.nickname,
          status: 'inservice',
          servicetime: now,
          waittime: 0,
          queneindex: 0,
        }
      : service,
  );
  const au = await srepo.insertAgentUser(
    k,
    agent ? { ...entry, agentno: agent.id, status: 'inservice', servicetime: now, updatetime: now } : entry,
  );
  return { service: s, entry: au, agent };
}
