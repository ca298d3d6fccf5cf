import type { FastifyInstance } from 'fastify';
import { Server, type Namespace } from 'socket.io';
import { Redis } from 'ioredis';
import {
  AGENT_NAMESPACE,
  VISITOR_NAMESPACE,
  type AgentClientToServerEvents,
  type AgentServerToClientEvents,
  type HealthCheckState,
  type MessageDto,
  RESTART_EVENT,
  RESTART_HINT,
  type ResyncNotice,
  type VisitorClientToServerEvents,
  type VisitorServerToClientEvents,
} from '@kefu/protocol';
import type { Principal } from '../auth/principal.js';
import { createRoomRoutedAdapter, RoomRoutedAdapter } from './room-routed-adapter.js';
import { coalesceWebSocketBatches } from './coalesced-writes.js';
import { closeRedis } from '../redis.js';
import { corsCheckOf } from '../http/cors.js';
import { watchDelivery, type DeliveryWatch } from './delivery-watch.js';

/** Longest pause between two attempts to reach Redis again after a connection loss. */
export const REDIS_RETRY_MAX_MS = 1_000;

export interface AgentSocketData {
  principal: Principal;
}
export interface VisitorSocketData {
  userid: string;
  orgi: string;
  appid: string;
  /** The visitor credential, echoed in welcome. */
  token: string;
  lastSeq?: number;
  /** The widget's language (texts sent to the visitor follow it). */
  lang?: string;
  /** The visitor was offline before this socket: its agents are told it is back. */
  cameBack?: boolean;
}

export type AgentNamespace = Namespace<
  AgentClientToServerEvents,
  AgentServerToClientEvents,
  Record<string, never>,
  AgentSocketData
>;
export type VisitorNamespace = Namespace<
  VisitorClientToServerEvents,
  VisitorServerToClientEvents,
  Record<string, never>,
  VisitorSocketData
>;

export interface Realtime {
  io: Server;
  agents: AgentNamespace;
  visitors: VisitorNamespace;
  /** Rooms span nodes (Redis adapter): who is in a room is only known by asking every node. */
  clustered: boolean;
  /**
   * A chat line to both sides: the agent rooms and the visitor's room, skipping the sending socket (it got
   * the line in its ack). Between nodes this is one publish instead of two (see broadcastWithPair).
   */
  emitMessage(dto: MessageDto, agentRooms: string[], visitorRoom: string, exceptSocket?: string): void;
  /** Redis for /health/ready: `off` without REDIS_URL, `down` while a connection is not ready. */
  redisState(): HealthCheckState;
}

/**
 * Whether a room emit (skipping `except`) can reach anyone. On one node the answer is local and exact,
 * and an emit nobody receives still costs its encoding, so hot paths skip it; with the Redis adapter
 * another node may hold members, so the emit always goes out.
 */
export function mayReach(
  rt: Realtime,
  nsp: AgentNamespace | VisitorNamespace,
  room: string,
  except?: string,
): boolean {
  if (rt.clustered) return true;
  const members = nsp.adapter.rooms.get(room);
  if (!members) return false;
  return members.size > (except !== undefined && members.has(except) ? 1 : 0);
}

/**
 * What the Redis adapter puts on the wire between nodes: JSON instead of its default msgpack (notepack, in
 * JavaScript), because V8's JSON is several times cheaper for the message objects every chat line carries
 * (the msgpack encode/decode was the largest single cost of a delivery across nodes). Sound because no
 * event here carries binary data: uploads go over HTTP. Every node of a cluster must use the same parser.
 */
export const jsonParser = {
  encode: (value: unknown): string => JSON.stringify(value),
  decode: (raw: Buffer | string): unknown => JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8')),
};

/** How long a shutdown waits for the sockets' last packets (the restart hint) to be written. */
const CLOSE_DRAIN_MS = 1_000;

/** Closes every connection once its queued packets are written (at most `ms`), then the rest at once. */
async function closeConnections(io: Server, ms: number): Promise<void> {
  const engine = io.engine as typeof io.engine & {
    clients: Record<string, { close(discard?: boolean): void }>;
  };
  for (const c of Object.values(engine.clients)) c.close(false);
  const end = Date.now() + ms;
  while (io.engine.clientsCount > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  io.engine.close();
}

/**
 * socket.io on Fastify's HTTP server. With a Redis URL the Redis adapter carries room emits between
 * nodes. Connections are closed before Fastify closes, so app.close() never waits on websockets.
 */
export function createRealtime(app: FastifyInstance, redisUrl: string | undefined): Realtime {
  if (!coalesceWebSocketBatches())
    app.log.warn('engine.io WebSocket transport not found: frames are written one by one');
  const io = new Server(app.server, {
    // Polling from another origin: the same allow-list as the HTTP routes (platform/http/cors.ts).
    cors: { origin: corsCheckOf(app) },
    serveClient: false,
    pingInterval: 25_000,
    pingTimeout: 20_000,
  });
  let redis: Redis[] = [];
  let watch: DeliveryWatch | undefined;
  if (redisUrl) {
    // No auto-pipelining: measured in B3 it cost ≈ 10 µs more CPU per message (pipeline objects, promises
    // and their garbage) than the one write per publish it saves.
    const pub = new Redis(redisUrl, {
      lazyConnect: false,
      maxRetriesPerRequest: null,
      // Reconnect attempts at most 1 s apart (ioredis' default grows to 2 s): delivery comes back sooner.
      retryStrategy: (times) => Math.min(times * 100, REDIS_RETRY_MAX_MS),
    });
    const sub = pub.duplicate();
    redis = [pub, sub];
    // The watch also listens to 'error', so a Redis blip is never an unhandled 'error' event.
    watch = watchDelivery(pub, sub, app.log, () => {
      const notice: ResyncNotice = { reason: 'delivery_restored' };
      const [agents, visitors] = [io.of(AGENT_NAMESPACE), io.of(VISITOR_NAMESPACE)];
      (agents as AgentNamespace).local.emit('resync', notice);
      (visitors as VisitorNamespace).local.emit('resync', notice);
      return agents.sockets.size + visitors.sockets.size;
    });
    io.adapter(createRoomRoutedAdapter(pub, sub, { requestsTimeout: 3_000, parser: jsonParser }));
  }
  app.addHook('preClose', async () => {
    watch?.stop();
    // Shutting down: this node's sockets hear that the server will be back, then their connections close
    // without a socket.io DISCONNECT, so the clients' own reconnection runs (fast, as the hint says).
    (io.of(AGENT_NAMESPACE) as AgentNamespace).local.emit(RESTART_EVENT, RESTART_HINT);
    (io.of(VISITOR_NAMESPACE) as VisitorNamespace).local.emit(RESTART_EVENT, RESTART_HINT);
    await closeConnections(io, CLOSE_DRAIN_MS);
    await Promise.all(redis.map(closeRedis));
  });
  const agents = io.of(AGENT_NAMESPACE) as AgentNamespace;
  const visitors = io.of(VISITOR_NAMESPACE) as VisitorNamespace;
  const paired = agents.adapter instanceof RoomRoutedAdapter ? agents.adapter : null;
  if (paired) paired.pair = visitors;
  const rt: Realtime = {
    io,
    agents,
    visitors,
    clustered: redis.length > 0,
    redisState: () => (redis.length === 0 ? 'off' : redis.every((r) => r.status === 'ready') ? 'ok' : 'down'),
    emitMessage(dto, agentRooms, visitorRoom, exceptSocket) {
      const except = exceptSocket ? [exceptSocket] : [];
      if (paired && agentRooms.length > 0) {
        paired.broadcastWithPair(
          'message',
          dto,
          { rooms: agentRooms, except },
          { rooms: [visitorRoom], except },
        );
        return;
      }
      // Usually the visitor's only socket sent the message (and got it in the ack).
      agents.to(agentRooms).except(except).emit('message', dto);
      if (mayReach(rt, visitors, visitorRoom, exceptSocket))
        visitors.to(visitorRoom).except(except).emit('message', dto);
    },
  };
  return rt;
}
