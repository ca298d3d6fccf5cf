import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { closeRedis } from '../../platform/redis.js';

/**
 * Counts login attempts per key (IP + username) in a sliding window. The interface is async so a
 * Redis-backed limiter can replace the in-memory one when several server processes share traffic.
 */
export interface LoginLimiter {
  /** Records one attempt; false when the key has already used its allowance in the window. */
  hit(key: string): Promise<boolean>;
}

export class MemoryLoginLimiter implements LoginLimiter {
  private readonly attempts = new Map<string, number[]>();
  private hits = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string): Promise<boolean> {
    const t = this.now();
    const recent = (this.attempts.get(key) ?? []).filter((at) => t - at < this.windowMs);
    const allowed = recent.length < this.limit;
    // Refused attempts are not recorded: a locked-out key unlocks one window after its last allowed try.
    if (allowed) recent.push(t);
    this.attempts.set(key, recent);
    if (++this.hits % 1000 === 0) this.sweep(t);
    return allowed;
  }

  /** Drops idle keys so a spray of usernames cannot grow the map without bound. */
  private sweep(t: number): void {
    for (const [key, times] of this.attempts) {
      if (times.every((at) => t - at >= this.windowMs)) this.attempts.delete(key);
    }
  }
}

/**
 * One sliding window per key in a Redis sorted set (`kefu:rl:<name>:<key>`), checked and recorded in one
 * script so concurrent nodes never both take the last slot. Time is Redis's own clock, so nodes whose
 * clocks differ still agree. Refused attempts are not recorded (as in the memory limiter).
 */
const WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local win = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - win)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], win)
return 1`;

export interface SharedLoginLimiter extends LoginLimiter {
  close(): Promise<void>;
}

/**
 * The limit shared by every node on one Redis (REDIS_URL). While Redis cannot answer, each node falls back
 * to its own memory window of the same size: the limit then holds per node, as without Redis.
 */
export function redisLoginLimiter(
  url: string,
  name: string,
  limit: number,
  windowMs = 60_000,
): SharedLoginLimiter {
  const r = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  r.on('error', () => undefined);
  const local = new MemoryLoginLimiter(limit, windowMs);
  return {
    async hit(key) {
      // Before the first connection the command waits in ioredis' queue; a lost connection goes local at once.
      if (r.status !== 'ready' && r.status !== 'connecting' && r.status !== 'connect') return local.hit(key);
      try {
        const ok = await r.eval(WINDOW_SCRIPT, 1, `kefu:rl:${name}:${key}`, windowMs, limit, randomUUID());
        return ok === 1;
      } catch {
        return local.hit(key);
      }
    },
    close: () => closeRedis(r),
  };
}
