import { hasPermission, monitorWatchSchema, type MonitorWatchResult } from '@kefu/protocol';
import { principalCache, type Invalidation } from '../../platform/auth/cache.js';
import { authenticate } from '../../platform/auth/guard.js';
import type { Principal } from '../../platform/auth/principal.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { forbidden } from '../../platform/http/errors.js';
import { parse } from '../../platform/http/validate.js';
import { monitorRoom } from '../../platform/realtime/rooms.js';
import type { Engine } from '../conversation/engine.js';
import { handler } from '../conversation/socket-ack.js';
import type { MonitorFeed } from './feed.js';
import { scopeOf, scopeKey, type Scope } from './monitor.scope.js';

/** A watching socket: its principal now, and how to stop its feed. */
interface Watching {
  principal(): Principal;
  scope: Scope;
  stop(): void;
}

/** The scope a principal may watch now, or null (no A03, or no scope). */
function allowedScope(p: Principal): Scope | null {
  if (!hasPermission(p.usertype, p.auth, 'A03')) return null;
  try {
    return scopeOf(p);
  } catch {
    return null;
  }
}

/**
 * The `monitor` event of /im/agent: a supervisor's socket starts (watch: true) or stops the live feed.
 * It needs A03 and a scope (A03_A01 / superuser: the tenant's room; A03_A02: its department's room only),
 * so a supervisor never receives updates outside its scope. When the user's rights or department change
 * (any invalidation of its principal, on any node), a watching socket whose scope is no longer the one it
 * watches stops receiving the feed at once; it may ask again.
 */
export function installMonitorSocket(e: Engine, feed: MonitorFeed): () => void {
  const watching = new Set<Watching>();
  e.rt.agents.on('connection', (socket) => {
    const queue = { tail: Promise.resolve() as Promise<unknown> };
    let current: Watching | null = null;
    const stop = () => {
      if (!current) return;
      const w = current;
      current = null;
      watching.delete(w);
      void socket.leave(monitorRoom(w.scope.orgi, scopeKey(w.scope) || null));
      feed.unwatch(w.scope);
    };
    socket.on(
      'monitor',
      handler(
        () => socket.data.principal.language,
        async (payload: unknown): Promise<MonitorWatchResult | null> => {
          // The current principal: a change of rights (socket-revocation.ts) applies to the next event.
          const p = socket.data.principal;
          const { watch } = parse(monitorWatchSchema, payload);
          if (!watch) {
            stop();
            return null;
          }
          if (!hasPermission(p.usertype, p.auth, 'A03')) throw forbidden();
          const scope = scopeOf(p);
          stop();
          await socket.join(monitorRoom(scope.orgi, scopeKey(scope) || null));
          feed.watch(scope);
          current = { principal: () => socket.data.principal, scope, stop };
          watching.add(current);
          return { scope: scope.kind, organ: scope.kind === 'organ' ? scope.organ : null };
        },
        queue,
      ),
    );
    socket.on('disconnect', stop);
  });

  const cache = principalCache(e.db);
  const recheck = async (msg: Invalidation) => {
    for (const w of [...watching]) {
      const p = w.principal();
      const concerned =
        msg.kind === 'all' || (msg.kind === 'user' ? p.id === msg.id : hashToken(p.token) === msg.id);
      if (!concerned) continue;
      // Resolved afresh (the invalidation dropped the cached principal): revoked → no scope at all.
      const now = await authenticate(e.db, p.token).catch(() => null);
      const scope = now ? allowedScope(now) : null;
      if (!scope || scope.orgi !== w.scope.orgi || scopeKey(scope) !== scopeKey(w.scope)) w.stop();
    }
  };
  let tail: Promise<void> = Promise.resolve();
  const listen = (msg: Invalidation) => {
    if (e.closing.value || watching.size === 0) return;
    tail = tail.then(() => recheck(msg)).catch((err: unknown) => console.error('monitor rights', err));
  };
  cache.listeners.add(listen);
  return () => cache.listeners.delete(listen);
}
