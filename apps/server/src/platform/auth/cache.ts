import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Db } from '../db/database.js';
import { closeRedis } from '../redis.js';
import type { Principal } from './principal.js';
import { hashToken } from './tokens.js';

/** How long a resolved principal is reused without asking the database. Revocations do not wait for it. */
export const PRINCIPAL_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;
/** Redis channel on which nodes tell each other to drop principals (payload: Invalidation as JSON). */
export const INVALIDATION_CHANNEL = 'kefu:auth:invalidate';

export type Invalidation =
  | { kind: 'token'; id: string } // a token hash
  | { kind: 'user'; id: string }
  | { kind: 'all' };

interface Entry {
  principal: Principal;
  userid: string;
  until: number;
}

/**
 * Principals by token hash, per database handle (so two apps in one process on separate handles behave as
 * two nodes). Every invalidation bumps a generation; a load that started before it may not store its
 * result, so a request racing with a revocation never puts a stale principal back for the TTL.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private gen = 0;
  /** Publishers to other nodes (one per app built on this handle with a Redis URL). */
  readonly publishers = new Set<(msg: Invalidation) => void>();
  /**
   * Told of every invalidation applied here, local or from another node (after the entries are dropped):
   * open agent sockets re-check their token with it (conversation/socket-revocation.ts).
   */
  readonly listeners = new Set<(msg: Invalidation) => void>();

  constructor(private readonly ttlMs = PRINCIPAL_TTL_MS) {}

  get size(): number {
    return this.entries.size;
  }

  generation(): number {
    return this.gen;
  }

  get(hash: string, now = Date.now()): Principal | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.until <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.principal;
  }

  /** Stores unless something was invalidated since `gen` was read (the load may have seen old rows). */
  set(hash: string, principal: Principal, tokenExpires: number, gen: number, now = Date.now()): void {
    if (gen !== this.gen) return;
    if (this.entries.size >= MAX_ENTRIES) {
      // Oldest first (insertion order); expired ones go first in practice.
      const drop = this.entries.size - MAX_ENTRIES + 1 + (MAX_ENTRIES >> 4);
      let i = 0;
      for (const k of this.entries.keys()) {
        if (i++ >= drop) break;
        this.entries.delete(k);
      }
    }
    this.entries.set(hash, {
      principal,
      userid: principal.id,
      until: Math.min(now + this.ttlMs, tokenExpires),
    });
  }

  /** Applies an invalidation on this node only. */
  apply(msg: Invalidation): void {
    this.gen++;
    if (msg.kind === 'all') this.entries.clear();
    else if (msg.kind === 'token') this.entries.delete(msg.id);
    else for (const [k, e] of this.entries) if (e.userid === msg.id) this.entries.delete(k);
    for (const listen of this.listeners) listen(msg);
  }

  /** Applies here and tells the other nodes. */
  invalidate(msg: Invalidation): void {
    this.apply(msg);
    for (const publish of this.publishers) publish(msg);
  }
}

const caches = new WeakMap<Db, PrincipalCache>();

export function principalCache(db: Db): PrincipalCache {
  let c = caches.get(db);
  if (!c) {
    c = new PrincipalCache();
    caches.set(db, c);
  }
  return c;
}

/*
 * Call these after the change is committed (a load that read the old rows before the commit is refused
 * by the generation check; one that starts after it reads the new rows).
 */
export const invalidateToken = (db: Db, token: string): void =>
  principalCache(db).invalidate({ kind: 'token', id: hashToken(token) });
export const invalidateUser = (db: Db, userid: string): void =>
  principalCache(db).invalidate({ kind: 'user', id: userid });
/** Role rights changed: whoever holds the role is affected; roles change rarely, so drop everything. */
export const invalidateAllPrincipals = (db: Db): void => principalCache(db).invalidate({ kind: 'all' });

function parse(raw: string): { from: string; msg: Invalidation } | undefined {
  try {
    const v = JSON.parse(raw) as { from?: unknown; msg?: { kind?: unknown; id?: unknown } };
    const m = v.msg;
    if (typeof v.from !== 'string' || !m) return undefined;
    if (m.kind === 'all') return { from: v.from, msg: { kind: 'all' } };
    if ((m.kind === 'token' || m.kind === 'user') && typeof m.id === 'string')
      return { from: v.from, msg: { kind: m.kind, id: m.id } };
  } catch {
    // ignore malformed messages
  }
  return undefined;
}

/**
 * Cross-node invalidation over Redis pub/sub: this node publishes its invalidations and drops what the
 * others publish. While the subscription is down nothing arrives, so on every (re)connect the whole
 * cache is dropped. `ready` settles once the subscription stands (or fails).
 */
export function connectInvalidations(
  db: Db,
  redisUrl: string,
): { ready: Promise<void>; close(): Promise<void> } {
  const cache = principalCache(db);
  const node = randomUUID();
  const pub = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
  const sub = pub.duplicate();
  sub.on('ready', () => cache.apply({ kind: 'all' }));
  sub.on('error', () => undefined);
  pub.on('error', () => undefined);
  const ready = sub.subscribe(INVALIDATION_CHANNEL).then(
    () => cache.apply({ kind: 'all' }),
    () => undefined,
  );
  sub.on('message', (channel: string, raw: string) => {
    if (channel !== INVALIDATION_CHANNEL) return;
    const m = parse(raw);
    if (m && m.from !== node) cache.apply(m.msg);
  });
  const publish = (msg: Invalidation) => {
    void pub.publish(INVALIDATION_CHANNEL, JSON.stringify({ from: node, msg })).catch(() => undefined);
  };
  cache.publishers.add(publish);
  return {
    ready,
    async close() {
      cache.publishers.delete(publish);
      await Promise.all([pub, sub].map(closeRedis));
    },
  };
}
