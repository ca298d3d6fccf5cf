import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ack, AssignedNotice, VisitorNewResult, VisitorWelcome } from '@kefu/protocol';

/** Just enough of a socket.io-client socket: handlers by event, and a scripted ack for each emit. */
class FakeSocket {
  handlers = new Map<string, (p: unknown) => void>();
  acks: Array<Ack<unknown>> = [];
  connected = true;
  active = true;
  io = { on: () => undefined, opts: {} };
  on(event: string, fn: (p: unknown) => void): this {
    this.handlers.set(event, fn);
    return this;
  }
  timeout(): this {
    return this;
  }
  emitWithAck(event: string): Promise<Ack<unknown>> {
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
