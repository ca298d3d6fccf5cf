import { io, type Socket } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  AGENT_PING_INTERVAL_MS,
  HEARTBEAT_CHECK_INTERVAL_MS,
  RECONNECT_AFTER_DISCONNECT_MS,
  RESTART_EVENT,
  SOCKET_RECONNECTION,
  restartFollower,
  UUID_LENGTH,
  type Ack,
  type AckFn,
  type AgentClientToServerEvents,
  type AgentHandshakeQuery,
  type AgentServerToClientEvents,
} from '@kefu/protocol';
import { registerInterval, registerStopper } from './timers';

export type AgentSocket = Socket<AgentServerToClientEvents, AgentClientToServerEvents>;

/** Why the agent dropped to notready on the client side. */
export type LostReason = 'disconnect' | 'heartbeat' | 'noagent' | 'connect_error';

export interface AgentSocketOptions {
  token: string;
  orgi: string;
  userid: string;
  /** GET /api/agent/ping every 30 s; a rejection counts as a missing heartbeat reply. */
  ping: () => Promise<unknown>;
  /**
   * Resume position per conversation (the highest seq below which every message is held, not the highest
   * seen), sent as `lastSeqs` so a reconnect replays exactly what is missing.
   */
  lastSeqs?: () => Record<string, number>;
  /** Connection state for the banner. */
  onConnection?: (connected: boolean) => void;
  /** The agent is to be shown notready (spec section 4: disconnect, missing heartbeat, 'noagent'). */
  onLost?: (reason: LostReason) => void;
  /** A refused connect (expired token…): err.message is the error key. */
  onRefused?: (key: string) => void;
  /** For tests: the socket.io factory. */
  connect?: typeof io;
}

export interface AgentConnection {
  socket: AgentSocket;
  stop: () => void;
}

/** An ack callback that reports null when no reply came within `ms`. */
export function ackWithin<T>(ms: number, onDone: (res: Ack<T> | null) => void): AckFn<T> {
  let done = false;
  const timer = setTimeout(() => {
    if (done) return;
    done = true;
    onDone(null);
  }, ms);
  return (res) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    onDone(res);
  };
}

export function randomUuid(len = UUID_LENGTH): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(len);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => chars[b % chars.length]).join('');
}

function handshake(o: AgentSocketOptions): AgentHandshakeQuery & Record<string, string> {
  const q: AgentHandshakeQuery & Record<string, string> = {
    orgi: o.orgi,
    userid: o.userid,
    uuid: randomUuid(),
    session: o.token,
    admin: 'true',
  };
  const seqs = o.lastSeqs?.();
  if (seqs && Object.keys(seqs).length) q.lastSeqs = JSON.stringify(seqs);
  return q;
}

/**
 * The agent's realtime connection to /im/agent (spec sections 4, 7, 9): websocket only, the spec's
 * reconnection constants, a ping every 30 s, a heartbeat check every 15 s, and notready on disconnect,
 * on a missing heartbeat reply and on a server 'noagent'. Timers are registered so logout stops them.
 */
export function connectAgentSocket(o: AgentSocketOptions): AgentConnection {
  const socket: AgentSocket = (o.connect ?? io)(AGENT_NAMESPACE, {
    transports: ['websocket'],
    query: handshake(o),
    reconnection: true,
    reconnectionDelay: SOCKET_RECONNECTION.reconnectionDelay,
    reconnectionDelayMax: SOCKET_RECONNECTION.reconnectionDelayMax,
    randomizationFactor: SOCKET_RECONNECTION.randomizationFactor,
    timeout: SOCKET_RECONNECTION.timeout,
  });
  let stopped = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  /** A heartbeat reply (socket ack or ping call) arrived since the last check. */
  let replied = true;

  // Each (re)connect sends a fresh uuid and what was last seen, so missed messages are replayed.
  socket.io.on('reconnect_attempt', () => {
    socket.io.opts.query = handshake(o);
  });

  // A server shutting down says it will be back: retry every few hundred ms until it is (restart.ts).
  const restart = restartFollower(socket.io, SOCKET_RECONNECTION);
  socket.on(RESTART_EVENT, restart.hint);
  socket.on('connect', () => {
    restart.connected();
    replied = true;
    o.onConnection?.(true);
  });
  socket.on('disconnect', (reason) => {
    o.onConnection?.(false);
    if (stopped) return;
    o.onLost?.('disconnect');
    clearTimeout(reconnectTimer);
    // socket.io retries by itself unless the server closed the socket; either way try again in 3 s.
    reconnectTimer = setTimeout(() => {
      if (!stopped && !socket.connected) {
        if (reason === 'io server disconnect' || !socket.active) socket.io.opts.query = handshake(o);
        socket.connect();
      }
    }, RECONNECT_AFTER_DISCONNECT_MS);
  });
  socket.on('connect_error', (err: Error & { data?: { code?: number } }) => {
    o.onConnection?.(false);
    if (err.data?.code === 401 || err.message === 'not_logged_in' || err.message === 'token_expired') {
      o.onRefused?.(err.message);
      return;
    }
    o.onLost?.('connect_error');
  });
  socket.onAny((event: string) => {
    if (event === 'noagent') o.onLost?.('noagent');
  });
  socket.on('notice', (n) => {
    if (n.type === 'noagent') o.onLost?.('noagent');
  });

  const ping = () => {
    o.ping().then(
      () => {
        replied = true;
      },
      () => undefined,
    );
  };
  const stopPing = registerInterval(ping, AGENT_PING_INTERVAL_MS);
  const stopCheck = registerInterval(() => {
    if (!socket.connected) return;
    if (!replied) {
      o.onLost?.('heartbeat');
    }
    replied = false;
    socket.emit(
      'ping',
      {},
      ackWithin<{ time: number }>(HEARTBEAT_CHECK_INTERVAL_MS - 1_000, (res) => {
        if (res?.success) replied = true;
      }),
    );
  }, HEARTBEAT_CHECK_INTERVAL_MS);

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(reconnectTimer);
    stopPing();
    stopCheck();
    socket.removeAllListeners();
    socket.disconnect();
  };
  const unregister = registerStopper(stop);
  return {
    socket,
    stop: () => {
      unregister();
      stop();
    },
  };
}
