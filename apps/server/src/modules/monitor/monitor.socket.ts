import { hasPermission, monitorWatchSchema, type MonitorWatchResult } from '@kefu/protocol';
import { forbidden } from '../../platform/http/errors.js';
import { parse } from '../../platform/http/validate.js';
import { monitorRoom } from '../../platform/realtime/rooms.js';
import type { Engine } from '../conversation/engine.js';
import { handler } from '../conversation/socket-ack.js';
import type { MonitorFeed } from './feed.js';
import { scopeOf, type Scope } from './monitor.scope.js';

/**
 * The `monitor` event of /im/agent: a supervisor's socket starts (watch: true) or stops the live feed.
 * It needs A03 and a scope (A03_A01 / superuser: the tenant's room; A03_A02: its department's room only),
 * so a supervisor never receives updates outside its scope.
 */
export function installMonitorSocket(e: Engine, feed: MonitorFeed): void {
  e.rt.agents.on('connection', (socket) => {
    const queue = { tail: Promise.resolve() as Promise<unknown> };
    let watching: Scope | null = null;
    const stop = () => {
      if (!watching) return;
      void socket.leave(monitorRoom(watching.orgi, watching.kind === 'organ' ? watching.organ : null));
      feed.unwatch(watching);
      watching = null;
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
          await socket.join(monitorRoom(scope.orgi, scope.kind === 'organ' ? scope.organ : null));
          feed.watch(scope);
          watching = scope;
          return { scope: scope.kind, organ: scope.kind === 'organ' ? scope.organ : null };
        },
        queue,
      ),
    );
    socket.on('disconnect', stop);
  });
}
