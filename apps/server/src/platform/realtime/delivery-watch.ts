import type { Redis } from 'ioredis';

/** The log calls the watch makes (Fastify's logger fits). */
export interface WatchLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface DeliveryWatch {
  /** Cross-node delivery works: both connections are up and the subscriber has its patterns back. */
  readonly up: boolean;
  /** Shutting down: closing the connections is not an outage. */
  stop(): void;
}

/**
 * Watches the Redis adapter's two connections. While either is down, emits of other nodes do not reach
 * this node's sockets (and this node's wait in ioredis' offline queue): that is logged once at error level.
 * When both are back — the subscriber's patterns re-subscribed, confirmed by a PING answered after them —
 * `restored` runs (the node tells its sockets to replay what they missed) and the recovery is logged.
 *
 * ioredis re-subscribes on reconnect by itself, but an emit published before its PSUBSCRIBE reached Redis
 * is gone for this node: only the replay from the database brings it back.
 */
export function watchDelivery(
  pub: Redis,
  sub: Redis,
  log: WatchLog,
  /** Runs when delivery is back; answers how many local sockets it told to resync (for the log). */
  restored: (downMs: number) => number,
): DeliveryWatch {
  const ready = { pub: pub.status === 'ready', sub: false };
  let downSince = 0;
  let stopped = false;

  const down = (which: 'pub' | 'sub', err?: Error) => {
    ready[which] = false;
    if (stopped) return;
    if (downSince) {
      log.debug({ err, redis: which }, 'redis still unreachable');
      return;
    }
    downSince = Date.now();
    log.error(
      { err, redis: which },
      'cross-node delivery down: Redis connection lost; sockets on this node miss what other nodes emit until it returns',
    );
  };
  const check = () => {
    if (stopped || !downSince || !ready.pub || !ready.sub) return;
    const downMs = Date.now() - downSince;
    downSince = 0;
    const told = restored(downMs);
    log.warn({ downMs, resynced: told }, 'cross-node delivery restored; local sockets told to resync');
  };
  const subReady = () => {
    // 'ready' is emitted after ioredis has written the re-subscriptions; a PING answered after them means
    // Redis has applied them, so from here on nothing published is missed.
    sub.ping().then(
      () => {
        ready.sub = true;
        check();
      },
      () => undefined,
    );
  };

  pub.on('error', (err: Error) => down('pub', err));
  sub.on('error', (err: Error) => down('sub', err));
  pub.on('close', () => down('pub'));
  sub.on('close', () => down('sub'));
  pub.on('ready', () => {
    ready.pub = true;
    check();
  });
  sub.on('ready', subReady);
  if (sub.status === 'ready') subReady();

  return {
    get up() {
      return !downSince && ready.pub && ready.sub;
    },
    stop() {
      stopped = true;
    },
  };
}
