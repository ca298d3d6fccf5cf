import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { watchDelivery } from './delivery-watch.js';

/** The part of an ioredis connection the watch uses: events, status and a PING answered on demand. */
class FakeConn extends EventEmitter {
  status = 'connecting';
  pings: Array<() => void> = [];
  ping(): Promise<string> {
    return new Promise((resolve) => this.pings.push(() => resolve('PONG')));
  }
  up(): void {
    this.status = 'ready';
    this.emit('ready');
  }
  lost(): void {
    this.status = 'reconnecting';
    this.emit('error', new Error('connect ECONNREFUSED'));
    this.emit('close');
  }
}

function setup() {
  const pub = new FakeConn();
  const sub = new FakeConn();
  const logs: Array<[string, string]> = [];
  const log = {
    error: (_o: object, m: string) => logs.push(['error', m]),
    warn: (_o: object, m: string) => logs.push(['warn', m]),
    debug: (_o: object, m: string) => logs.push(['debug', m]),
  };
  const restored: number[] = [];
  const watch = watchDelivery(pub as unknown as Redis, sub as unknown as Redis, log, (ms) => {
    restored.push(ms);
    return 3;
  });
  const pong = async () => {
    sub.pings.splice(0).forEach((f) => f());
    await Promise.resolve();
    await Promise.resolve();
  };
  return { pub, sub, logs, restored, watch, pong, levels: () => logs.map((l) => l[0]) };
}

describe('watchDelivery', () => {
  it('is quiet on a normal start and up once the subscriber answers a PING', async () => {
    const w = setup();
    w.pub.up();
    w.sub.up();
    expect(w.watch.up).toBe(false);
    await w.pong();
    expect(w.watch.up).toBe(true);
    expect(w.logs).toEqual([]);
    expect(w.restored).toEqual([]);
  });

  it('logs one error per outage, recovers only when both connections are back and re-subscribed', async () => {
    const w = setup();
    w.pub.up();
    w.sub.up();
    await w.pong();
    w.pub.lost();
    w.sub.lost();
    for (let i = 0; i < 5; i++) w.sub.lost(); // every failed reconnect attempt
    expect(w.levels().filter((l) => l === 'error')).toHaveLength(1);
    expect(w.logs[0]![1]).toMatch(/cross-node delivery down/);
    expect(w.watch.up).toBe(false);
    w.pub.up();
    w.sub.up();
    // re-subscriptions written but not yet confirmed: not restored
    expect(w.restored).toEqual([]);
    await w.pong();
    expect(w.restored).toHaveLength(1);
    expect(w.watch.up).toBe(true);
    expect(w.logs.at(-1)).toEqual(['warn', 'cross-node delivery restored; local sockets told to resync']);
    // the next outage is reported again
    w.sub.lost();
    expect(w.levels().filter((l) => l === 'error')).toHaveLength(2);
    w.sub.up();
    await w.pong();
    expect(w.restored).toHaveLength(2);
  });

  it('a start while Redis is away is an outage too; closing at shutdown is not', async () => {
    const w = setup();
    w.pub.lost();
    w.sub.lost();
    expect(w.levels()).toEqual(['error', 'debug', 'debug', 'debug']);
    w.pub.up();
    w.sub.up();
    await w.pong();
    expect(w.restored).toHaveLength(1);
    w.watch.stop();
    w.pub.lost();
    w.sub.lost();
    expect(w.levels().filter((l) => l === 'error')).toHaveLength(1);
  });
});
