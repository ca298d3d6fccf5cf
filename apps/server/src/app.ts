import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import cors from '@fastify/cors';
import type { AppConfig } from './config.js';
import type { Db } from './platform/db/database.js';
import type { AppContext, ModuleRegistrar } from './platform/context.js';
import { installEnvelope } from './platform/http/envelope.js';
import { installAuth } from './platform/auth/guard.js';
import { installStatic } from './platform/http/static.js';
import { installRouteCatalog } from './platform/http/route.js';
import { installSecurityHeaders } from './platform/http/security-headers.js';
import { MODULES } from './modules/index.js';
import type { Scheduler } from './platform/jobs/scheduler.js';

export interface BuildOptions {
  config: AppConfig;
  db: Db;
  /** Serve the built console/visitor bundles (off in route tests). */
  serveStatic?: boolean;
  logger?: boolean;
  modules?: readonly ModuleRegistrar[];
  scheduler?: Scheduler;
}

export async function buildApp(opts: BuildOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    logger: opts.logger ? { level: opts.config.logLevel } : false,
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    // Validation errors and 404s are shaped by our envelope, not Fastify's defaults.
    return503OnClosing: true,
  });
  const ctx: AppContext = { config: opts.config, db: opts.db, scheduler: opts.scheduler };
  installEnvelope(app);
  // Before any route: every route is recorded for /api/openapi.json.
  installRouteCatalog(app);
  await app.register(formbody);
  await app.register(cors, { origin: true, credentials: true });
  // helmet's header set (CSP etc.), computed once: see security-headers.ts.
  installSecurityHeaders(app);
  installAuth(app, opts.db, opts.config.redisUrl);
  for (const register of opts.modules ?? MODULES) await register(app, ctx);
  if (opts.serveStatic) await installStatic(app);
  return { app, ctx };
}
