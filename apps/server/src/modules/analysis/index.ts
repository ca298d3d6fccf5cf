import type { ModuleRegistrar } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { listenStats } from './hooks.js';
import { Rollups } from './rollups.js';
import { analysisRoutes } from './analysis.routes.js';

const SWEEP_MS = 60_000;
const rollups = new WeakMap<Db, Rollups>();

/** This node's rollup maintenance for a database (tests and the bench wait on it with `idle()`). */
export const rollupsOf = (db: Db): Rollups | undefined => rollups.get(db);

/**
 * Statistics (/api/analyse, A06; docs/metrics.md): rollups kept by the hooks of hooks.ts, read by the
 * analysis calls. A sweep catches conversations that ended on a node that stopped before applying them.
 */
export const registerAnalysis: ModuleRegistrar = (app, ctx) => {
  const r = new Rollups(ctx.db);
  rollups.set(ctx.db, r);
  listenStats(ctx.db, r);
  analysisRoutes(app, ctx);
  let since = Date.now() - 3_600_000;
  const timer = setInterval(() => {
    const next = Date.now() - 5 * 60_000;
    void r
      .catchUp(since)
      .then(() => (since = next))
      .catch(r.onError);
  }, SWEEP_MS).unref();
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await r.idle();
    r.stop();
  });
};
