import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { io } from 'socket.io-client';
import { RESTART_HINT, SOCKET_RECONNECTION } from '@kefu/protocol';
import { ackWithin, connectAgentSocket, randomUuid, type LostReason } from './socket';
import { stopAllTimers } from './timers';

type Handler = (...args: unknown[]) => void;

/** The part of a socket.io client socket that connectAgentSocket uses. */
class FakeSocket {
  connected = false;
  active = true;
  handlers = new Map<string, Handler[]>();
  anyHandlers: Handler[] = [];
  emitted: { event: string; args: unknown[] }[] = [];
  connectCalls = 0;
  managerHandlers = new Map<string, Handler[]>();
  delays = { min: 1_000, max: 5_000 };
  io = {
    opts: { query: {} as Record<string, string> },
    on: (event: string, h: Handler) => {
      this.managerHandlers.set(event, [...(this.managerHandlers.get(event) ?? []), h]);
    },
    reconnectionDelay: (v: number) => (this.delays.min = v),
    reconnectionDelayMax: (v: number) => (this.delays.max = v),
  };
  constructor(
    readonly uri: string,
    readonly opts: Record<string, unknown>,
  ) {
    this.io.opts.query = opts.query as Record<string, string>;
  }
  on(event: string, h: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), h]);
    return this;
  }
  onAny(h: Handler) {
    this.anyHandlers.push(h);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push({ event, args });
    return this;
  }
  connect() {
    this.connectCalls++;
    return this;
  }
  removeAllListeners() {
    this.handlers.clear();
    return this;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    for (const h of this.handlers.get(event) ?? []) h(...args);
    for (const h of this.anyHandlers) h(event, ...args);
  }
}

function setup() {
  let sock: FakeSocket | undefined;
  const factory = ((uri: string, opts: Record<string, unknown>) => {
    sock = new FakeSocket(uri, opts);
    return sock;
  }) as unknown as typeof io;
  const lost: LostReason[] = [];
  const conn: boolean[] = [];
  const ping = vi.fn(() => Promise.resolve({ time: 1 }));
  const c = connectAgentSocket({
    token: 'tok',
    orgi: 'kefu',
    userid: 'u1',
    ping,
    lastSeqs: () => ({ s1: 7 }),
    onLost: (r) => lost.push(r),
    onConnection: (x) => conn.push(x),
    connect: factory,
  });
  if (!sock) throw new Error('no socket');
  return { c, s: sock, lost, conn, ping };
}

describe('agent socket', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    stopAllTimers();
    vi.useRealTimers();
  });

  it('connects to /im/agent over websocket with the spec query and reconnection constants', () => {
    const { s } = setup();
    expect(s.uri).toBe('/im/agent');
    expect(s.opts).toMatchObject({
      transports: ['websocket'],
      reconnectionDelay: 1_000,
      reconnectionDelayMax: 5_000,
      randomizationFactor: 0.5,
      timeout: 20_000,
    });
    const q = s.opts.query as Record<string, string>;
    expect(q).toMatchObject({ orgi: 'kefu', userid: 'u1', session: 'tok', admin: 'true' });
    expect(q.uuid).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(JSON.parse(q.lastSeqs)).toEqual({ s1: 7 });
  });

  it('a disconnect means notready and a reconnect attempt after 3 s', () => {
    const { s, lost, conn } = setup();
    s.connected = true;
    s.fire('connect');
    s.connected = false;
    s.fire('disconnect', 'io server disconnect');
    expect(lost).toEqual(['disconnect']);
    expect(conn).toEqual([true, false]);
    vi.advanceTimersByTime(2_999);
    expect(s.connectCalls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(s.connectCalls).toBe(1);
  });

  it('pings every 30 s and checks the heartbeat every 15 s; a missing reply means notready', () => {
    const { s, lost, ping } = setup();
    // The 30 s ping call never answers here, so only the socket heartbeat counts.
    ping.mockImplementation(() => new Promise(() => undefined));
    s.connected = true;
    s.fire('connect');
    vi.advanceTimersByTime(15_000);
    const pings = s.emitted.filter((e) => e.event === 'ping');
    expect(pings).toHaveLength(1);
    // Answer the first heartbeat: nothing happens at the next check.
    (pings[0].args[1] as (r: unknown) => void)({ success: true, data: { time: 1 }, msg: '', code: 200 });
    vi.advanceTimersByTime(15_000);
    expect(lost).toEqual([]);
    expect(ping).toHaveBeenCalledTimes(1);
    // No answer to the second one.
    vi.advanceTimersByTime(15_000);
    expect(lost).toEqual(['heartbeat']);
  });

  it("a server 'noagent' means notready", () => {
    const { s, lost } = setup();
    s.fire('noagent');
    s.fire('notice', { type: 'noagent', message: '' });
    expect(lost).toEqual(['noagent', 'noagent']);
  });

  it("a server's restart hint makes reconnection fast until connected again", () => {
    const { s } = setup();
    s.fire('restart', RESTART_HINT);
    expect(s.delays).toEqual({ min: RESTART_HINT.retryMs, max: RESTART_HINT.retryMaxMs });
    s.fire('connect');
    expect(s.delays).toEqual({
      min: SOCKET_RECONNECTION.reconnectionDelay,
      max: SOCKET_RECONNECTION.reconnectionDelayMax,
    });
  });

  it('stop ends the timers and the socket', () => {
    const { c, s, lost } = setup();
    s.connected = true;
    c.stop();
    vi.advanceTimersByTime(60_000);
    expect(s.emitted.filter((e) => e.event === 'ping')).toHaveLength(0);
    expect(lost).toEqual([]);
    expect(s.connected).toBe(false);
  });

  it('ackWithin reports null after the time limit, and the reply otherwise', () => {
    const seen: unknown[] = [];
    const late = ackWithin<number>(100, (r) => seen.push(r));
    vi.advanceTimersByTime(100);
    late({ success: true, data: 1, msg: '', code: 200 });
    const quick = ackWithin<number>(100, (r) => seen.push(r));
    quick({ success: true, data: 2, msg: '', code: 200 });
    expect(seen).toEqual([null, { success: true, data: 2, msg: '', code: 200 }]);
    expect(randomUuid(8)).toHaveLength(8);
  });
});
