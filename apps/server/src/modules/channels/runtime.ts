import type { FastifyBaseLogger } from 'fastify';
import type { PlatformChannel } from '@kefu/protocol';
import type { Engine } from '../conversation/engine.js';
import type { AdapterContext, ApiBases, ChannelAdapter } from './adapters/adapter.js';
import { TokenCache, redisTokens } from './tokens.js';
import { wechatKf } from './adapters/wechat-kf.js';
import { wechatMp } from './adapters/wechat-mp.js';
import { douyin, type StoredToken } from './adapters/douyin.js';
import { bcp } from './adapters/bcp.js';

/** Adapters by channel; the ones not yet registered refuse their pushes as unknown. */
export const ADAPTERS: Partial<Record<PlatformChannel, ChannelAdapter>> = {
  wechat: wechatKf,
  weixin: wechatMp('weixin'),
  weapp: wechatMp('weapp'),
  douyin,
  bcp,
};

/** Everything the channel services share on one node. */
export interface ChannelRuntime extends AdapterContext {
  e: Engine;
  dataDir: string;
  log: FastifyBaseLogger;
  /** Runs the outbox soon (coalesced). */
  kickOutbox(): void;
  /** Processes received items soon, one user (lane) at a time in arrival order. */
  kickInbound(items: ReadonlyArray<{ id: string; lane: string }>): void;
  /** Tokens kept in the database (Douyin's user token and its refresh token). */
  loadToken(key: string): Promise<StoredToken | null>;
  saveToken(key: string, t: StoredToken): Promise<void>;
  /** Resolves once received items and the outbox pass in progress are done. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function createRuntimeBase(
  e: Engine,
  opts: { bases: ApiBases; redisUrl?: string; dataDir: string; log: FastifyBaseLogger },
): Omit<ChannelRuntime, 'kickOutbox' | 'kickInbound' | 'idle'> {
  const shared = opts.redisUrl ? redisTokens(opts.redisUrl) : undefined;
  return {
    e,
    tokens: new TokenCache(() => e.clock.now(), shared),
    bases: opts.bases,
    now: () => e.clock.now(),
    dataDir: opts.dataDir,
    log: opts.log,
    async loadToken(key) {
      const r = await e.db.kysely
        .selectFrom('channel_token')
        .selectAll()
        .where('key', '=', key)
        .executeTakeFirst();
      return r
        ? {
            token: r.token,
            expires: Number(r.expires),
            refresh: r.refresh,
            refreshExpires: r.refresh_expires === null ? null : Number(r.refresh_expires),
          }
        : null;
    },
    async saveToken(key, t) {
      const row = {
        token: t.token,
        expires: t.expires,
        refresh: t.refresh,
        refresh_expires: t.refreshExpires,
        updatetime: e.clock.now(),
      };
      await e.db.kysely
        .insertInto('channel_token')
        .values({ key, ...row })
        .onConflict((oc) => oc.column('key').doUpdateSet(row))
        .execute();
    },
    close: async () => shared?.close(),
  };
}
