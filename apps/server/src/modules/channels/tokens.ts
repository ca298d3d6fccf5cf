import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { closeRedis } from '../../platform/redis.js';

/** A platform token as fetched: the value and its lifetime in seconds. */
export interface FetchedToken {
  token: string;
  expiresIn: number;
}

export interface TokenSource {
  /** One cache entry per (platform, app id, secret hash). */
  key: string;
  fetch(): Promise<FetchedToken>;
}

/** Where nodes share tokens (Redis when configured): one node fetches, the others read its result. */
export interface SharedTokens {
  get(key: string): Promise<{ token: string; expires: number } | null>;
  set(key: string, token: string, expires: number): Promise<void>;
  /** Removes the entry only if it still holds `token` (a fresher one stays). */
  drop(key: string, token: string): Promise<void>;
  /** A short lock so only one node fetches; false: another node is fetching. */
  lock(key: string, ms: number): Promise<boolean>;
  unlock(key: string): Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  token: string;
  expires: number;
}

/**
 * Access tokens of the platforms: one fetch however many sends ask at once (single flight), refreshed a
 * margin before expiry (the platforms rotate early and a token may die a little before its time), dropped
 * on an invalid-token answer. With `shared`, a token fetched by one node serves every node.
 */
export class TokenCache {
  private entries = new Map<string, Entry>();
  private inflight = new Map<string, Promise<string>>();
  /** Fetches made, per key (tests and the bench read it). */
  readonly fetches = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly shared?: SharedTokens,
    private readonly marginMs = 300_000,
  ) {}

  private fresh(e: Entry | null | undefined): e is Entry {
    return !!e && this.now() < e.expires - this.marginMs;
  }

  async get(src: TokenSource): Promise<string> {
    const e = this.entries.get(src.key);
    if (this.fresh(e)) return e.token;
    let p = this.inflight.get(src.key);
    if (!p) {
      p = this.load(src).finally(() => this.inflight.delete(src.key));
      this.inflight.set(src.key, p);
    }
    return p;
  }

  private refusedTokens = new Map<string, string>();

  /** The token last refused for `key`: a source that stores tokens itself must not hand it out again. */
  refused(key: string): string | undefined {
    return this.refusedTokens.get(key);
  }

  /** The token was refused by the platform: forget it (unless a fresher one replaced it already). */
  async invalidate(key: string, token: string): Promise<void> {
    this.refusedTokens.set(key, token);
    if (this.entries.get(key)?.token === token) this.entries.delete(key);
    await this.shared?.drop(key, token);
  }

  private async load(src: TokenSource): Promise<string> {
    const shared = this.shared;
    if (shared) {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const s = await shared.get(src.key);
        if (this.fresh(s)) return this.keep(src.key, s);
        if (await shared.lock(src.key, 10_000)) {
          try {
            // Another node may have stored one between our read and the lock.
            const again = await shared.get(src.key);
            if (this.fresh(again)) return this.keep(src.key, again);
            const e = await this.fetchNow(src);
            await shared.set(src.key, e.token, e.expires);
            return this.keep(src.key, e);
          } finally {
            await shared.unlock(src.key);
          }
        }
        if (Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return this.keep(src.key, await this.fetchNow(src));
  }

  private async fetchNow(src: TokenSource): Promise<Entry> {
    this.fetches.set(src.key, (this.fetches.get(src.key) ?? 0) + 1);
    const t = await src.fetch();
    return { token: t.token, expires: this.now() + t.expiresIn * 1000 };
  }

  private keep(key: string, e: Entry): string {
    this.entries.set(key, e);
    return e.token;
  }
}

const DROP_IF_SAME = `if redis.call('hget', KEYS[1], 'token') == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/** Tokens in Redis hashes `kefu:chtok:<key>` (token, expires) with a lock key beside each. */
export function redisTokens(url: string): SharedTokens {
  const r = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  r.on('error', () => undefined);
  const k = (key: string) => `kefu:chtok:${key}`;
  return {
    async get(key) {
      const h = await r.hgetall(k(key));
      return h.token && h.expires ? { token: h.token, expires: Number(h.expires) } : null;
    },
    async set(key, token, expires) {
      await r.hset(k(key), { token, expires: String(expires) });
      await r.pexpireat(k(key), expires);
    },
    async drop(key, token) {
      await r.eval(DROP_IF_SAME, 1, k(key), token);
    },
    async lock(key, ms) {
      return (await r.set(`${k(key)}:lock`, '1', 'PX', ms, 'NX')) === 'OK';
    },
    async unlock(key) {
      await r.del(`${k(key)}:lock`);
    },
    close: () => closeRedis(r),
  };
}

/** The cache key of an app's token: one per platform, app id and secret (a new secret, a new token). */
export const tokenKey = (platform: string, appid: string, secret: string): string =>
  `${platform}:${appid}:${createHash('sha256').update(secret).digest('hex').slice(0, 12)}`;
