import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import type { AppConfig } from './config.js';
import type { Db } from './platform/db/database.js';
import type { AppContext, ModuleRegistrar } from './platform/context.js';
import { installEnvelope } from './platform/http/envelope.js';
import { installAuth } from './platform/auth/guard.js';
import { installStatic } from './platform/http/static.js';
import { installRouteCatalog } from './platform/http/route.js';
import { installSecurityHeaders } from './platform/http/security-headers.js';
import { installCors, originCheck } from './platform/http/cors.js';
import { installMediaOrigin } from './platform/http/media-origin.js';
import { loggerOptions } from './platform/http/logging.js';
import { RequestLog } from './platform/http/request-log.js';
import { proxyTrust } from './platform/http/security-config.js';
import { accessPointOrigins } from './modules/access/origins.js';
import { MODULES } from './modules/index.js';
import type { Scheduler } from './platform/jobs/scheduler.js';

export interface BuildOptions {
  config: AppConfig;
  db: Db;
  /** Serve the built console/visitor bundles (off in route tests). */
  serveStatic?: boolean;
  logger?: boolean;
  /** Where log lines go (default stdout); tests capture them. */
  logStream?: NodeJS.WritableStream;
  modules?: readonly ModuleRegistrar[];
  scheduler?: Scheduler;
}

export async function buildApp(opts: BuildOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    logger: opts.logger ? loggerOptions(opts.config.logLevel, opts.logStream) : false,
    bodyLimit: 1024 * 1024,
    // No proxy is believed unless KEFU_TRUST_PROXY names it: X-Forwarded-For would choose the client's IP.
    trustProxy: proxyTrust(opts.config.security.trustProxy),
    // Validation errors and 404s are shaped by our envelope, not Fastify's defaults.
    return503OnClosing: true,
    // Requests are logged once, at debug (request-log.ts).
    logController: new RequestLog(),
  });
  const ctx: AppContext = { config: opts.config, db: opts.db, scheduler: opts.scheduler };
  installEnvelope(app);
  // Before any route: every route is recorded for /api/openapi.json.
  installRouteCatalog(app);
  await app.register(formbody);
  const sec = opts.config.security;
  await installCors(app, originCheck(sec.corsOrigins, accessPointOrigins(opts.db)));
  // helmet's header set (CSP etc.), computed once: see security-headers.ts.
  installSecurityHeaders(app, sec);
  if (sec.mediaOrigin) installMediaOrigin(app, sec.mediaOrigin);
  installAuth(app, opts.db, opts.config.redisUrl);
  for (const register of opts.modules ?? MODULES) await register(app, ctx);
  if (opts.serveStatic) await installStatic(app);
  return { app, ctx };
}
