import type { Socket } from 'socket.io-client';
import { CatchUp, type MessageDto, type ReplayPage } from '@kefu/protocol';
import { call, ok } from './live.js';

/**
 * One side of a conversation as the console and the widget keep it, for socket tests: messages by id
 * (what the user sees: each once, in seq order), caught up with the clients' own CatchUp from
 * packages/protocol — a hole is fetched through `replay`, and `resync` replays from the resume position.
 */
export interface TrackedSide {
  readonly sync: CatchUp;
  /** Messages held, in seq order. */
  messages(): MessageDto[];
  /** Message deliveries over the wire (events and replay pages), duplicates included. */
  readonly wire: { events: number; replayed: number; resyncs: number; lost: number };
  /** The next `n` message events are lost on the way (as across a Redis outage). */
  lose(n: number): void;
  /** This side's own acknowledged messages, in the order sent. */
  sent(): MessageDto[];
  /** Sends a message and keeps the acknowledged copy, as the clients do with their acks. */
  send(payload: Record<string, unknown>): Promise<MessageDto>;
}

export function trackSide(sock: Socket, agentserviceid: string): TrackedSide {
  const byId = new Map<string, MessageDto>();
  const own: MessageDto[] = [];
  const wire = { events: 0, replayed: 0, resyncs: 0, lost: 0 };
  const merge = (m: MessageDto) => {
    if (m.agentserviceid === agentserviceid && !byId.has(m.id)) byId.set(m.id, m);
  };
  const sync = new CatchUp({
    holding: () => ({ seqs: [...byId.values()].map((m) => m.seq) }),
    fetch: async (sid, after, ps) =>
      ok(await call<ReplayPage>(sock, 'replay', { agentserviceid: sid, after, ps })),
    deliver: (page) => {
      wire.replayed += page.list.length;
      page.list.forEach(merge);
    },
  });
  let losing = 0;
  sock.on('message', (m: MessageDto) => {
    if (losing > 0) {
      losing--;
      wire.lost++;
      return;
    }
    wire.events++;
    merge(m);
    sync.noticed(agentserviceid);
  });
  sock.on('resync', () => {
    wire.resyncs++;
    void sync.catchUp(agentserviceid);
  });
  return {
    sync,
    wire,
    messages: () => [...byId.values()].sort((a, b) => a.seq - b.seq),
    lose: (n) => (losing = n),
    sent: () => own.slice(),
    async send(payload) {
      const m = ok(await call<MessageDto>(sock, 'message', payload));
      own.push(m);
      merge(m);
      sync.noticed(agentserviceid);
      return m;
    },
  };
}
