import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import {
  HEALTH_LIVE_PATH,
  HEALTH_READY_PATH,
  type HealthCheckState,
  type HealthLive,
  type HealthReport,
} from '@kefu/protocol';
import type { ModuleRegistrar } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { engineOf } from '../conversation/index.js';

/** A database that does not answer this fast is as good as down for a load balancer. */
const DB_PROBE_TIMEOUT_MS = 2_000;

const draining = new WeakSet<object>();

/** Shutdown has begun: /health/ready answers 503 from now on (load balancers stop sending new users). */
export function markDraining(app: FastifyInstance): void {
  draining.add(app);
}

async function databaseState(db: Db): Promise<HealthCheckState> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'down'>((res) => {
    timer = setTimeout(() => res('down'), DB_PROBE_TIMEOUT_MS);
  });
  const probe = sql`select 1`.execute(db.kysely).then(
    () => 'ok' as const,
    () => 'down' as const,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** GET /health/live and /health/ready (docs/operations.md): public, outside /api, no envelope. */
export const registerHealth: ModuleRegistrar = (app, ctx) => {
  app.get(HEALTH_LIVE_PATH, async (_req, reply): Promise<HealthLive> => {
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get(HEALTH_READY_PATH, async (_req, reply): Promise<HealthReport> => {
    const database = await databaseState(ctx.db);
    const redis = engineOf(app)?.rt.redisState() ?? (ctx.config.redisUrl ? 'down' : 'off');
    const status = draining.has(app)
      ? 'draining'
      : database === 'ok' && redis !== 'down'
        ? 'ok'
        : 'unavailable';
    void reply.header('cache-control', 'no-store').code(status === 'ok' ? 200 : 503);
    return { status, database, redis };
  });
};
