import { describe, expect, it } from 'vitest';
import { TokenCache, redisTokens, type TokenSource } from '../tokens.js';
import { withToken } from '../adapters/adapter.js';
import { PlatformError } from '../platform-http.js';
import type { AdapterContext } from '../adapters/adapter.js';

function source(key = 'k'): TokenSource & { n: number } {
  const s = {
    key,
    n: 0,
    fetch: async () => {
      s.n++;
      await new Promise((r) => setTimeout(r, 20));
      return { token: `t${s.n}`, expiresIn: 7200 };
    },
  };
  return s;
}

describe('token cache', () => {
  it('N concurrent gets make one fetch', async () => {
    const c = new TokenCache(() => 0);
    const src = source();
    const got = await Promise.all(Array.from({ length: 20 }, () => c.get(src)));
    expect(new Set(got)).toEqual(new Set(['t1']));
    expect(src.n).toBe(1);
  });

  it('refreshes before expiry (the margin), not after every call', async () => {
    let now = 0;
    const c = new TokenCache(() => now, undefined, 300_000);
    const src = source();
    expect(await c.get(src)).toBe('t1');
    now = (7200 - 301) * 1000;
    expect(await c.get(src)).toBe('t1');
    now = (7200 - 299) * 1000;
    expect(await c.get(src)).toBe('t2');
    expect(src.n).toBe(2);
  });

  it('an invalid-token answer: exactly one refresh and one retry, then the error stands', async () => {
    const ctx = { tokens: new TokenCache(() => 0) } as unknown as AdapterContext;
    const src = source();
    const seen: string[] = [];
    await expect(
      withToken(ctx, src, async (t) => {
        seen.push(t);
        throw new PlatformError('token', '42001', 'expired');
      }),
    ).rejects.toThrow(PlatformError);
    expect(seen).toEqual(['t1', 't2']);
    expect(src.n).toBe(2);
    // A refreshed token that works: one retry, then success.
    const ok = await withToken(ctx, src, async (t) => {
      if (t === 't2') throw new PlatformError('token', '40014', 'invalid');
      return t;
    });
    expect(ok).toBe('t3');
  });

  it.skipIf(!process.env.REDIS_URL)('across nodes with Redis: one fetch for two caches', async () => {
    const key = `test:${Math.random()}`;
    const a = redisTokens(process.env.REDIS_URL!);
    const b = redisTokens(process.env.REDIS_URL!);
    try {
      const src = source(key);
      const ca = new TokenCache(() => Date.now(), a);
      const cb = new TokenCache(() => Date.now(), b);
      const got = await Promise.all([ca.get(src), cb.get(src), ca.get(src), cb.get(src)]);
      expect(new Set(got)).toEqual(new Set(['t1']));
      expect(src.n).toBe(1);
      // Node A finds it refused: both drop it, the next get fetches once.
      await ca.invalidate(key, 't1');
      await cb.invalidate(key, 't1');
      expect(await Promise.all([ca.get(src), cb.get(src)])).toEqual(['t2', 't2']);
      expect(src.n).toBe(2);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
