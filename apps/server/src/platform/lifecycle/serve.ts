import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.js';
import { buildApp } from '../../app.js';
import { openDatabase, type Db } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { prettyStream } from '../log/pretty.js';
import { seed, type SeedResult } from '../../modules/seed/seed.service.js';
import { markDraining } from '../../modules/health/health.routes.js';

export interface Running {
  app: FastifyInstance;
  db: Db;
  seeded: SeedResult;
  /** Milliseconds from `startServer` to listening (the process's own start comes before). */
  startMs: number;
  /**
   * Graceful stop (SIGTERM, SIGINT): /health/ready turns 503, no new connections are accepted, messages
   * already accepted are committed, every socket is told the server will be back (`restart`) and closed,
   * then the database closes. Calling it again returns the same promise.
   */
  shutdown(reason: string): Promise<void>;
}

export interface StartOptions {
  /** Where log lines go; default stdout, formatted for people when it is a terminal (config.logFormat). */
  logStream?: NodeJS.WritableStream;
}

/**
 * What a server process does before serving: open the database, apply pending migrations, seed what a
 * first start needs, build the app and listen. Nothing here grows with the amount of stored data (the
 * migration check reads one small table, the seed a handful of rows), so a restart is as fast with a
 * million messages as with none (docs/benchmarks.md, R1).
 */
export async function startServer(config: AppConfig, opts: StartOptions = {}): Promise<Running> {
  const t0 = performance.now();
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY);
  // process.stdout rather than pino's own asynchronous writer: lines keep their order with console output
  // (the banner comes last), and at the default level there are few of them.
  const logStream = opts.logStream ?? (pretty ? prettyStream(process.stdout) : process.stdout);
  const db = openDatabase(config);
  let app: FastifyInstance | undefined;
  try {
    await migrate(db);
    const seeded = await seed(db, config);
    app = (await buildApp({ config, db, serveStatic: true, logger: true, logStream })).app;
    // Fastify logs one "Server listening" line per network interface (twice or more on 0.0.0.0); the
    // banner says where to go once, so those lines are held back.
    const level = app.log.level;
    app.log.level = 'warn';
    try {
      await app.listen({ port: config.port, host: config.host });
    } finally {
      app.log.level = level;
    }
    const startMs = performance.now() - t0;
    const served = app;
    app.log.info({ port: config.port, host: config.host, startMs: Math.round(startMs) }, 'server listening');
    let stopping: Promise<void> | undefined;
    const shutdown = (reason: string): Promise<void> =>
      (stopping ??= (async () => {
        served.log.info({ reason }, 'shutting down');
        markDraining(served);
        // No new connections from here on; open ones are closed by app.close() below.
        served.server.close();
        await served.close();
        await db.close();
        served.log.info('stopped');
      })());
    return { app: served, db, seeded, startMs, shutdown };
  } catch (err) {
    await app?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
}
