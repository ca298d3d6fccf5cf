import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessageDto, VisitorWelcome } from '@kefu/protocol';
import {
  clearOutbox,
  loadOutbox,
  OUTBOX_MAX,
  OUTBOX_TTL_MS,
  saveOutbox,
  type SavedOutgoing,
} from '../src/lib/outbox.js';
import * as tl from '../src/lib/timeline.js';
import { messageDto } from './fixtures.js';

/** A stand-in for the socket.io connection: records emits, lets the test fire server events. */
class FakeSocket {
  connected = false;
  active = true;
  handlers = new Map<string, ((p: unknown) => void)[]>();
  sent: { clientId: string; message: string }[] = [];
  /** What the server answers to `message` (the stored row). */
  answer: (p: { clientId: string; message: string }) => MessageDto = () => {
    throw new Error('no answer');
  };
  io = { on: () => undefined, opts: { query: {} } };
  on(ev: string, fn: (p: unknown) => void) {
    this.handlers.set(ev, [...(this.handlers.get(ev) ?? []), fn]);
    return this;
  }
  fire(ev: string, p?: unknown) {
    for (const fn of this.handlers.get(ev) ?? []) fn(p);
  }
  timeout() {
    return {
      emitWithAck: async (ev: string, p: { clientId: string; message: string }) => {
        if (ev !== 'message') return { success: true, data: {} };
        this.sent.push(p);
        return { success: true, data: this.answer(p) };
      },
    };
  }
  emit() {
    return this;
  }
  connect() {
    return this;
  }
  disconnect() {
    return this;
  }
}
const sockets: FakeSocket[] = [];
vi.mock('socket.io-client', () => ({
  io: () => {
    const s = new FakeSocket();
    sockets.push(s);
    return s;
  },
}));
const { ChatClient } = await import('../src/chat/client.js');

const NOW = 1_700_000_000_000;
const USER = 'U'.repeat(32);
const entry = (i: number, over: Partial<SavedOutgoing> = {}): SavedOutgoing => ({
  clientId: `c${i}`,
  message: `text ${i}`,
  createtime: NOW - 1000 + i,
  agentserviceid: 's1',
  ...over,
});

const dto = (seq: number, clientId: string, message: string): MessageDto =>
  messageDto(seq, {
    usession: USER,
    clientId,
    calltype: 'in',
    userid: USER,
    username: 'Visitor',
    touser: 'agent',
    message,
    createtime: NOW + seq,
  });

const welcome = (over: Partial<VisitorWelcome> = {}): VisitorWelcome => ({
  userid: USER,
  token: 'tok',
  agentserviceid: 's1',
  status: 'inservice',
  agent: { id: 'a', nickname: 'Agent' } as VisitorWelcome['agent'],
  position: null,
  lastseq: 0,
  config: { welcome: '', name: '', satisfaction: true },
  ...over,
});

describe('durable outbox storage', () => {
  beforeEach(() => localStorage.clear());

  it('persists, restores and clears per access point and visitor id', () => {
    saveOutbox('demo', USER, [entry(1), entry(2, { agentserviceid: null })], NOW);
    expect(loadOutbox('demo', USER, NOW)).toEqual([entry(1), entry(2, { agentserviceid: null })]);
    expect(loadOutbox('demo', 'V'.repeat(32), NOW)).toEqual([]);
    expect(loadOutbox('other', USER, NOW)).toEqual([]);
    clearOutbox('demo', USER);
    expect(loadOutbox('demo', USER, NOW)).toEqual([]);
    saveOutbox('demo', USER, [entry(1)], NOW);
    saveOutbox('demo', USER, [], NOW);
    expect(localStorage.getItem(`kefu:outbox:demo:${USER}`)).toBeNull();
  });

  it(`keeps the newest ${OUTBOX_MAX} messages younger than 7 days`, () => {
    const many = Array.from({ length: OUTBOX_MAX + 10 }, (_, i) => entry(i));
    saveOutbox('demo', USER, many, NOW);
    const kept = loadOutbox('demo', USER, NOW);
    expect(kept).toHaveLength(OUTBOX_MAX);
    expect(kept[0].clientId).toBe('c10');
    expect(kept.at(-1)?.clientId).toBe(`c${OUTBOX_MAX + 9}`);

    const old = entry(1, { createtime: NOW - OUTBOX_TTL_MS - 1 });
    saveOutbox('demo', USER, [old, entry(2)], NOW);
    expect(loadOutbox('demo', USER, NOW).map((o) => o.clientId)).toEqual(['c2']);
    // Expiry also applies to what was stored earlier.
    expect(loadOutbox('demo', USER, NOW + OUTBOX_TTL_MS + 5000)).toEqual([]);
  });

  it('ignores corrupt or malformed data and duplicate clientIds', () => {
    localStorage.setItem(`kefu:outbox:demo:${USER}`, '{bad json');
    expect(loadOutbox('demo', USER, NOW)).toEqual([]);
    localStorage.setItem(
      `kefu:outbox:demo:${USER}`,
      JSON.stringify([entry(1), { clientId: 5 }, null, entry(1), entry(3, { message: 7 as never })]),
    );
    expect(loadOutbox('demo', USER, NOW)).toEqual([entry(1)]);
  });

  it('keeps restored entries only for the open conversation', () => {
    let x = tl.emptyTimeline();
    for (const [i, s] of [
      [1, 's1'],
      [2, 's0'],
      [3, null],
    ] as const)
      x = tl.addOutgoing(x, {
        ...entry(i, { agentserviceid: s }),
        msgtype: 'text',
        attachmentid: null,
        filename: null,
        filesize: null,
      });
    expect(tl.keepOutboxOf(x, 's1').outbox.map((o) => o.clientId)).toEqual(['c1', 'c3']);
    expect(tl.keepOutboxOf(x, undefined).outbox).toEqual([]);
  });
});

describe('ChatClient with a durable outbox', () => {
  beforeEach(() => {
    localStorage.clear();
    sockets.length = 0;
    localStorage.setItem('kefu:visitor:demo', JSON.stringify({ userid: USER, token: 'tok' }));
  });

  it('stores a message sent offline and removes it on ack', async () => {
    const c = new ChatClient('', 'demo', () => undefined);
    c.connect();
    const s = sockets[0];
    s.connected = true;
    s.fire('connect');
    s.answer = (p) => dto(1, p.clientId, p.message);
    s.fire('welcome', welcome());
    s.connected = false;
    s.fire('disconnect');
    c.send('text', 'offline hello');
    const stored = loadOutbox('demo', USER);
    expect(stored).toMatchObject([{ message: 'offline hello', agentserviceid: 's1' }]);
    expect(s.sent).toEqual([]);

    s.connected = true;
    s.fire('connect');
    s.fire('welcome', welcome());
    await vi.waitFor(() => expect(c.state.timeline.outbox).toEqual([]));
    expect(s.sent.map((p) => p.clientId)).toEqual([stored[0].clientId]);
    expect(loadOutbox('demo', USER)).toEqual([]);
  });

  it('after a reload resends with the same clientId; a message the server already had appears once', async () => {
    // c1 reached the server before the reload (its ack was lost), c2 did not.
    saveOutbox('demo', USER, [entry(1, { createtime: Date.now() }), entry(2, { createtime: Date.now() })]);
    const c = new ChatClient('', 'demo', () => undefined);
    expect(c.state.timeline.outbox.map((o) => [o.clientId, o.state])).toEqual([
      ['c1', 'pending'],
      ['c2', 'pending'],
    ]);
    c.connect();
    const s = sockets[0];
    const storedC1 = dto(4, 'c1', 'text 1');
    // The server's store is idempotent per clientId: a resend answers with the row stored before.
    s.answer = (p) => (p.clientId === 'c1' ? storedC1 : dto(5, p.clientId, p.message));
    s.connected = true;
    s.fire('connect');
    s.fire('welcome', welcome());
    // Catch-up from seq 0 brings c1 as well, before or after its ack: merged by id / seq.
    s.fire('message', storedC1);
    await vi.waitFor(() => expect(c.state.timeline.outbox).toEqual([]));
    const mine = c.state.timeline.entries.flatMap((e) => (e.kind === 'msg' ? [e.m.clientId] : []));
    expect(mine).toEqual(['c1', 'c2']);
    expect(s.sent.filter((p) => p.clientId === 'c2')).toHaveLength(1);
    expect(s.sent.every((p) => p.clientId === 'c1' || p.clientId === 'c2')).toBe(true);
    expect(loadOutbox('demo', USER)).toEqual([]);
  });

  it('drops restored messages of a conversation that is no longer open', () => {
    saveOutbox('demo', USER, [entry(1, { createtime: Date.now(), agentserviceid: 'old' })]);
    const idle = vi.fn();
    const c = new ChatClient('', 'demo', idle);
    c.connect();
    const s = sockets[0];
    s.connected = true;
    s.fire('connect');
    s.fire('welcome', welcome({ status: 'end' }));
    expect(idle).toHaveBeenCalled();
    expect(c.state.timeline.outbox).toEqual([]);
    expect(s.sent).toEqual([]);
    expect(loadOutbox('demo', USER)).toEqual([]);
  });
});
