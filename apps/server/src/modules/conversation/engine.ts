import {
  isPlatformUser,
  type AgentServerToClientEvents,
  type MessageDto,
  type VisitorServerToClientEvents,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Scheduler } from '../../platform/jobs/scheduler.js';
import { mayReach, type Realtime } from '../../platform/realtime/io.js';
import { agentRoom, orgRoom, visitorRoom } from '../../platform/realtime/rooms.js';

/** What every conversation service works with. */
export interface Engine {
  db: Db;
  rt: Realtime;
  clock: Scheduler;
  /** Set when the app starts closing: socket clean-up stops touching the database. */
  closing: { value: boolean };
  /** A socket client's address: its peer, or X-Forwarded-For from a proxy KEFU_TRUST_PROXY trusts. */
  clientAddress(peer: string, forwardedFor: string | string[] | undefined): string;
  /** Set by modules/channels: visitors who live on a messaging platform get their notices and lines there. */
  platform?: PlatformSink;
}

/**
 * Where the engine's output for a messaging-platform user goes instead of a socket (the user's id says
 * which users those are, see isPlatformUser): the channel turns notices into texts and sends lines out.
 * Both calls return at once; the sink queues durably.
 */
export interface PlatformSink {
  notice<E extends keyof VisitorServerToClientEvents>(
    userid: string,
    event: E,
    payload: Parameters<VisitorServerToClientEvents[E]>[0],
  ): void;
  message(dto: MessageDto): void;
}

export type Kdb = Db['kysely'];

/**
 * Typed emits to rooms. Call only after the transaction that produced the data has committed.
 * With the Redis adapter the emit reaches sockets on every node.
 */
export function toAgents<E extends keyof AgentServerToClientEvents>(
  e: Engine,
  userids: readonly string[],
  event: E,
  ...args: Parameters<AgentServerToClientEvents[E]>
): void {
  const rooms = [...new Set(userids)].map(agentRoom);
  if (rooms.length === 0) return;
  e.rt.agents.to(rooms).emit(event, ...args);
}

export function toOrgAgents<E extends keyof AgentServerToClientEvents>(
  e: Engine,
  orgi: string,
  event: E,
  ...args: Parameters<AgentServerToClientEvents[E]>
): void {
  e.rt.agents.to(orgRoom(orgi)).emit(event, ...args);
}

export function toVisitor<E extends keyof VisitorServerToClientEvents>(
  e: Engine,
  userid: string,
  event: E,
  ...args: Parameters<VisitorServerToClientEvents[E]>
): void {
  if (e.platform && isPlatformUser(userid)) return e.platform.notice(userid, event, args[0]);
  e.rt.visitors.to(visitorRoom(userid)).emit(event, ...args);
}

/**
 * toVisitor for the visitor's sockets other than `except` (the socket already answered in its ack).
 * Skipped when nobody else can receive it (on one node that is known exactly; see mayReach): the emit
 * would still cost its encoding and the room walk.
 */
export function toVisitorOthers<E extends keyof VisitorServerToClientEvents>(
  e: Engine,
  userid: string,
  except: string | undefined,
  event: E,
  ...args: Parameters<VisitorServerToClientEvents[E]>
): void {
  if (e.platform && isPlatformUser(userid)) return e.platform.notice(userid, event, args[0]);
  const room = visitorRoom(userid);
  if (!mayReach(e.rt, e.rt.visitors, room, except)) return;
  const to = e.rt.visitors.to(room);
  (except === undefined ? to : to.except(except)).emit(event, ...args);
}

export const affected = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }): number =>
  Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0n);
