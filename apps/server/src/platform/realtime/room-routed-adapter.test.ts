import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { jsonParser } from './io.js';
import { createRoomRoutedAdapter, roomsTail, RoomRoutedAdapter } from './room-routed-adapter.js';

const REDIS = process.env.REDIS_URL;

describe('roomsTail', () => {
  it('names up to 16 rooms, and nothing when a room could break the channel', () => {
    expect(roomsTail(['service:1', 'agent:2'])).toBe('service:1\u001fagent:2');
    expect(roomsTail([])).toBe('');
    expect(roomsTail(['a#b'])).toBe('');
    expect(roomsTail(['a\u001fb', 'c'])).toBe('');
    expect(roomsTail(Array.from({ length: 17 }, (_, i) => `r${i}`))).toBe('');
  });
});

interface Node {
  io: Server;
  http: HttpServer;
  url: string;
  decodes: () => number;
  redis: Redis[];
}

async function startNode(redisUrl: string, key: string): Promise<Node> {
  const pub = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const sub = pub.duplicate();
  let decodes = 0;
  const parser = {
    encode: jsonParser.encode,
    decode: (raw: Buffer | string): unknown => {
      decodes++;
      return jsonParser.decode(raw);
    },
  };
  const http = createServer();
  const io = new Server(http, { serveClient: false });
  io.adapter(createRoomRoutedAdapter(pub, sub, { key, parser }));
  for (const nsp of ['/t', '/u'])
    io.of(nsp).on('connection', (s) => {
      const room = s.handshake.query.room;
      if (typeof room === 'string') void s.join(room);
    });
  (io.of('/t').adapter as RoomRoutedAdapter).pair = io.of('/u');
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  // The subscriptions must be live before the first publish.
  await new Promise((r) => setTimeout(r, 200));
  const port = (http.address() as AddressInfo).port;
  return { io, http, url: `http://127.0.0.1:${port}`, decodes: () => decodes, redis: [pub, sub] };
}

function client(url: string, room: string, nsp = '/t'): Promise<Socket> {
  const s = connect(`${url}${nsp}`, { query: { room }, transports: ['websocket'], forceNew: true });
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

const nextEvent = (s: Socket, ev: string, ms = 2_000): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ${ev}`)), ms);
    s.once(ev, (v: unknown) => {
      clearTimeout(t);
      resolve(v);
    });
  });

describe.skipIf(!REDIS)('room-routed Redis adapter between two nodes', () => {
  const key = `t-routed-${process.pid}-${Date.now()}`;
  let a: Node;
  let b: Node;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    a = await startNode(REDIS!, key);
    b = await startNode(REDIS!, key);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    for (const n of [a, b]) {
      await new Promise<void>((r) => void n.io.close(() => r()));
      for (const r of n.redis) r.disconnect();
    }
  });

  it('delivers a several-room emit to the node holding one of them; others never handle it', async () => {
    const onB = await client(b.url, 'agent:x');
    sockets.push(onB);
    // `apply` selects local sockets: called by a node's own broadcast, and for each remote message it handles.
    const applyA = vi.spyOn(a.io.of('/t').adapter as unknown as { apply: () => void }, 'apply');
    const applyB = vi.spyOn(b.io.of('/t').adapter as unknown as { apply: () => void }, 'apply');
    const got = nextEvent(onB, 'message');
    const payload = { text: 'hi\nthere 你好 "q" \u2028', n: [1, null, { x: true }] };
    a.io.of('/t').to(['service:1', 'agent:x']).emit('message', payload);
    expect(await got).toEqual(payload);
    await new Promise((r) => setTimeout(r, 100));
    // B handled it once; A only ran its own broadcast (its copy from Redis was dropped by the prefix).
    expect(applyB).toHaveBeenCalledTimes(1);
    expect(applyA).toHaveBeenCalledTimes(1);

    // Rooms nobody holds: each node runs its own broadcast, neither handles the other's.
    b.io.of('/t').to(['service:2', 'agent:y']).emit('message', { text: 'nobody' });
    a.io.of('/t').to(['service:2', 'agent:y']).emit('message', { text: 'nobody' });
    await new Promise((r) => setTimeout(r, 150));
    expect(applyB).toHaveBeenCalledTimes(2);
    expect(applyA).toHaveBeenCalledTimes(2);
    // Nothing went through the JSON parser: the packet travelled as encoded by the sender.
    expect(a.decodes() + b.decodes()).toBe(0);
    applyA.mockRestore();
    applyB.mockRestore();
  });

  it('keeps except, single-room and namespace-wide emits working across nodes', async () => {
    const one = await client(b.url, 'visitor:v');
    const two = await client(b.url, 'visitor:v');
    const onA = await client(a.url, 'other');
    sockets.push(one, two, onA);
    const toTwo = nextEvent(two, 'm');
    let oneGot = false;
    one.once('m', () => (oneGot = true));
    a.io.of('/t').to('visitor:v').except(one.id!).emit('m', 1);
    expect(await toTwo).toBe(1);

    const all = [nextEvent(one, 'all'), nextEvent(two, 'all'), nextEvent(onA, 'all')];
    a.io.of('/t').emit('all', 2);
    expect(await Promise.all(all)).toEqual([2, 2, 2]);
    expect(oneGot).toBe(false);
  });

  it('a paired emit: one publish reaches both namespaces on every node, skipping the sender', async () => {
    const agentOnB = await client(b.url, 'agent:p');
    const sender = await client(a.url, 'visitor:p', '/u');
    const tabOnB = await client(b.url, 'visitor:p', '/u');
    const tabOnA = await client(a.url, 'visitor:p', '/u');
    sockets.push(agentOnB, sender, tabOnB, tabOnA);
    const adapter = a.io.of('/t').adapter as RoomRoutedAdapter;
    const publish = vi.spyOn(
      (adapter as unknown as { pubClient: { publish: () => unknown } }).pubClient,
      'publish',
    );
    let senderGot = false;
    sender.on('message', () => (senderGot = true));
    const line = { id: 'm1', message: 'x\ny', n: 1 };
    const got = [agentOnB, tabOnB, tabOnA].map((s) => nextEvent(s, 'message'));
    adapter.broadcastWithPair(
      'message',
      line,
      { rooms: ['service:p', 'agent:p'], except: [sender.id!] },
      {
        rooms: ['visitor:p'],
        except: [sender.id!],
      },
    );
    expect(await Promise.all(got)).toEqual([line, line, line]);
    expect(publish).toHaveBeenCalledTimes(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(senderGot).toBe(false);
    publish.mockRestore();

    // A node holding only the paired room still gets it; one holding neither drops it unhandled.
    agentOnB.disconnect();
    const applyB = vi.spyOn(b.io.of('/t').adapter as unknown as { apply: () => void }, 'apply');
    const onlyTab = nextEvent(tabOnB, 'message');
    adapter.broadcastWithPair(
      'message',
      { n: 2 },
      { rooms: ['agent:p'], except: [] },
      { rooms: ['visitor:p'], except: [sender.id!] },
    );
    expect(await onlyTab).toEqual({ n: 2 });
    tabOnB.disconnect();
    tabOnA.disconnect();
    await new Promise((r) => setTimeout(r, 100));
    applyB.mockClear();
    adapter.broadcastWithPair(
      'message',
      { n: 3 },
      { rooms: ['agent:p'], except: [] },
      { rooms: ['visitor:p'], except: [] },
    );
    await new Promise((r) => setTimeout(r, 150));
    expect(applyB).not.toHaveBeenCalled();
    applyB.mockRestore();
  });

  it('an emit while the publisher is disconnected is dropped quietly (no unhandled rejection)', async () => {
    const c = await startNode(REDIS!, `${key}-closed`);
    const rejections: unknown[] = [];
    const onRejection = (r: unknown) => rejections.push(r);
    process.on('unhandledRejection', onRejection);
    try {
      c.redis[0]!.disconnect();
      c.io.of('/t').to(['service:q', 'agent:q']).emit('message', 1);
      (c.io.of('/t').adapter as RoomRoutedAdapter).broadcastWithPair(
        'message',
        2,
        { rooms: ['agent:q'], except: [] },
        { rooms: ['visitor:q'], except: [] },
      );
      await new Promise((r) => setTimeout(r, 200));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      await new Promise<void>((r) => void c.io.close(() => r()));
      for (const r of c.redis) r.disconnect();
    }
  });

  it('still answers cluster requests (socketsJoin reaches the other node)', async () => {
    const s = await client(b.url, 'agent:z');
    sockets.push(s);
    a.io.of('/t').in('agent:z').socketsJoin('service:9');
    await new Promise((r) => setTimeout(r, 150));
    const got = nextEvent(s, 'message');
    a.io.of('/t').to(['service:9', 'agent:none']).emit('message', 'joined');
    expect(await got).toBe('joined');
  });
});
