import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  GAP_GRACE_MS,
  REPLAY_PAGE_SIZE,
  RESTART_HINT,
  type Ack,
  type AssignedNotice,
  type MessageDto,
  type VisitorNewResult,
  type VisitorWelcome,
} from '@kefu/protocol';
import { messageDto } from './fixtures.js';

/** Just enough of a socket.io-client socket: handlers by event, and a scripted ack for each emit. */
class FakeSocket {
  handlers = new Map<string, (p: unknown) => void>();
  acks: Array<Ack<unknown>> = [];
  connected = true;
  active = true;
  ioHandlers = new Map<string, () => void>();
  delays = { min: 1000, max: 10_000 };
  io = {
    on: (event: string, fn: () => void) => this.ioHandlers.set(event, fn),
    opts: {} as { query?: Record<string, string> },
    reconnectionDelay: (v: number) => (this.delays.min = v),
    reconnectionDelayMax: (v: number) => (this.delays.max = v),
  };
  /** `replay` is answered like a server holding this many lines of s1 (0: never answered). */
  serverLines = 0;
  replays: Array<{ after: number; ps: number }> = [];
  on(event: string, fn: (p: unknown) => void): this {
    this.handlers.set(event, fn);
    return this;
  }
  timeout(): this {
    return this;
  }
  emitWithAck(event: string, p?: { after: number; ps: number }): Promise<Ack<unknown>> {
    if (event === 'replay' && this.serverLines && p) {
      this.replays.push({ after: p.after, ps: p.ps });
      const last = Math.min(this.serverLines, p.after + p.ps);
      const list: MessageDto[] = [];
      for (let seq = p.after + 1; seq <= last; seq++) list.push(messageDto(seq));
      const data = { agentserviceid: 's1', list, hasMore: last < this.serverLines };
      return Promise.resolve({ success: true, data, msg: 'ok', code: 200 });
    }
    if (event !== 'new') return new Promise(() => undefined);
    const next = this.acks.shift();
    return next ? Promise.resolve(next) : Promise.reject(new Error('no ack scripted'));
  }
  emit(): boolean {
    return true;
  }
  disconnect(): void {}
  fire(event: string, payload: unknown): void {
    this.handlers.get(event)?.(payload);
  }
}

let current: FakeSocket;
vi.mock('socket.io-client', () => ({ io: () => current }));
const { ChatClient } = await import('../src/chat/client.js');

const welcome: VisitorWelcome = {
  userid: 'u1',
  token: 't1',
  agentserviceid: null,
  status: 'none',
  agent: null,
  position: null,
  lastseq: 0,
  config: { welcome: 'Hi', name: 'Support', satisfaction: true },
};
const agent = { id: 'a1', nickname: 'Ann' };
const notice: AssignedNotice = { agentserviceid: 's1', agent, message: 'Ann is here', transfer: false };

function client(): { c: InstanceType<typeof ChatClient>; s: FakeSocket } {
  const s = (current = new FakeSocket());
  const c = new ChatClient('http://kf.example', 'app1', () => undefined);
  c.connect();
  s.fire('welcome', welcome);
  return { c, s };
}

/** The state a user sees, without the notices' timestamps. */
const seen = (c: InstanceType<typeof ChatClient>) => ({
  status: c.state.status,
  agent: c.state.agent,
  position: c.state.position,
  leavemsg: c.state.leavemsg,
  current: c.state.timeline.current,
  entries: c.state.timeline.entries.map((e) => ({ ...e, time: 0 })),
});

describe('ChatClient new chat', () => {
  beforeEach(() => localStorage.clear());

  it('applies an assignment carried by the ack of its own `new` exactly as the `assigned` event', async () => {
    const viaAck = client();
    const inService: VisitorNewResult = {
      agentserviceid: 's1',
      status: 'inservice',
      position: null,
      agent,
      message: 'Ann is here',
    };
    viaAck.s.acks.push({ success: true, data: inService, msg: 'ok', code: 0 });
    await viaAck.c.start({});

    const viaEvent = client();
    const queued: VisitorNewResult = { agentserviceid: 's1', status: 'inqueue', position: 1, agent: null };
    viaEvent.s.acks.push({ success: true, data: queued, msg: 'ok', code: 0 });
    await viaEvent.c.start({});
    viaEvent.s.fire('assigned', notice);

    expect(seen(viaAck.c)).toEqual(seen(viaEvent.c));
    expect(seen(viaAck.c).entries.map((e) => ('text' in e ? e.text : ''))).toContain('Ann is here');
    expect(viaAck.c.state.status).toBe('inservice');
    expect(viaAck.c.state.agent).toEqual(agent);
  });

  it('an ack without the notice (queued) only sets the state; the later `assigned` tells the rest', async () => {
    const { c, s } = client();
    s.acks.push({
      success: true,
      data: { agentserviceid: 's1', status: 'inqueue', position: 2, agent: null },
      msg: 'ok',
      code: 0,
    });
    await c.start({});
    expect(seen(c)).toMatchObject({ status: 'inqueue', position: 2, agent: null, current: 's1' });
    expect(c.state.timeline.entries.some((e) => e.key.startsWith('n:assigned:'))).toBe(false);
  });
});

describe('ChatClient catch-up', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.useRealTimers());

  /** A client in service in conversation s1. */
  function serving() {
    const s = (current = new FakeSocket());
    const c = new ChatClient('http://kf.example', 'app1', () => undefined);
    c.connect();
    s.fire('welcome', { ...welcome, agentserviceid: 's1', status: 'inservice', agent });
    return { c, s, seqs: () => c.state.timeline.entries.flatMap((e) => (e.kind === 'msg' ? [e.m.seq] : [])) };
  }

  it('reconnects from the highest seq below which it holds every line, not the highest seen', () => {
    const { s } = serving();
    s.fire('message', messageDto(1));
    s.fire('message', messageDto(2));
    // its own line 5 came back; the agent's 3 and 4 were lost on the way
    s.fire('message', messageDto(5, { calltype: 'in', userid: 'u1' }));
    s.ioHandlers.get('reconnect_attempt')?.();
    expect(s.io.opts.query).toMatchObject({ lastSeq: '2' });
  });

  it('fetches a hole that stays open past the grace time', async () => {
    vi.useFakeTimers();
    const { s, seqs } = serving();
    s.serverLines = 6;
    s.fire('message', messageDto(1));
    s.fire('message', messageDto(6));
    await vi.advanceTimersByTimeAsync(GAP_GRACE_MS - 10);
    expect(s.replays).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    expect(s.replays).toEqual([{ after: 1, ps: 4 }]);
    expect(seqs()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it(`answers \`resync\` by paging 1,500 missed lines by ${REPLAY_PAGE_SIZE}`, async () => {
    const { s, seqs } = serving();
    s.serverLines = 1_501;
    s.fire('message', messageDto(1));
    s.fire('resync', { reason: 'delivery_restored' });
    await vi.waitFor(() => expect(seqs().length).toBe(1_501));
    expect(s.replays).toEqual([
      { after: 1, ps: 500 },
      { after: 501, ps: 500 },
      { after: 1001, ps: 500 },
    ]);
    expect(seqs()).toEqual(Array.from({ length: 1_501 }, (_, i) => i + 1));
  });
});

describe('ChatClient reconnection', () => {
  beforeEach(() => localStorage.clear());

  it("follows a server's restart hint: fast retries until connected, then its own back-off", () => {
    const { s } = client();
    s.fire('restart', RESTART_HINT);
    expect(s.delays).toEqual({ min: RESTART_HINT.retryMs, max: RESTART_HINT.retryMaxMs });
    s.fire('connect', undefined);
    expect(s.delays).toEqual({ min: 1000, max: 10_000 });
  });
});
