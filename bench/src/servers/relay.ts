/**
 * Baseline server: bare socket.io with the same namespaces as kefu and nothing else.
 * - /im/user `message` → `to(room).emit('message', payload)` on both namespaces + ack (the §1 relay).
 * - /im/user `new` → in-memory round-robin pick of an agent with room + `emit('new')` to it (B5 baseline).
 * - idle connections hold nothing but the socket (B4 baseline).
 * With REDIS_URL the Redis adapter carries room emits between nodes (B3 baseline).
 */
import { createServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';

type Ack = (res: { success: boolean; data?: unknown }) => void;

const port = Number(process.env.PORT);
const http = createServer();
const io = new Server(http, { serveClient: false, pingInterval: 25_000, pingTimeout: 20_000 });
const redis: Redis[] = [];
if (process.env.REDIS_URL) {
  const pub = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: null });
  const sub = pub.duplicate();
  redis.push(pub, sub);
  io.adapter(createAdapter(pub, sub, { key: 'bench-baseline' }));
}
const visitors = io.of('/im/user');
const agents = io.of('/im/agent');

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

interface Seat {
  id: string;
  users: number;
  max: number;
}
const seats: Seat[] = [];
let cursor = 0;

function pick(): Seat | undefined {
  for (let i = 0; i < seats.length; i++) {
    const s = seats[(cursor + i) % seats.length];
    if (s.users < s.max) {
      cursor = (cursor + i + 1) % seats.length;
      return s;
    }
  }
  return undefined;
}

visitors.on('connection', (socket: Socket) => {
  const room = str(socket.handshake.query.room);
  const userid = str(socket.handshake.query.userid);
  if (room) void socket.join(room);
  socket.on('message', (payload: unknown, ack?: Ack) => {
    // Same fan-out as kefu's deliver(): the agent side and the visitor's other tabs, not the sender.
    agents.to(room).emit('message', payload);
    socket.to(room).emit('message', payload);
    if (typeof ack === 'function') ack({ success: true });
  });
  socket.on('new', (_payload: unknown, ack?: Ack) => {
    const seat = pick();
    if (!seat) {
      if (typeof ack === 'function') ack({ success: true, data: { status: 'inqueue' } });
      return;
    }
    seat.users++;
    agents.to(`a:${seat.id}`).emit('new', { userid, agentno: seat.id, status: 'inservice' });
    if (typeof ack === 'function') ack({ success: true, data: { status: 'inservice', agent: seat.id } });
  });
});

agents.on('connection', (socket: Socket) => {
  const room = str(socket.handshake.query.room);
  const agent = str(socket.handshake.query.agent);
  if (room) void socket.join(room);
  if (agent) {
    void socket.join(`a:${agent}`);
    seats.push({ id: agent, users: 0, max: Number(socket.handshake.query.max ?? 1) });
  }
});

http.listen(port, '127.0.0.1');
process.once('SIGTERM', () => {
  void io.close();
  for (const r of redis) r.disconnect();
  process.exit(0);
});
