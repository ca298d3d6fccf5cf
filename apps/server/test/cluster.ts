import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Db } from '../src/platform/db/database.js';
import { migrate } from '../src/platform/db/migrate.js';
import { newId } from '../src/platform/ids.js';
import { buildServer, SERVER_ENTRY } from '../../../scripts/build-server.mjs';
import type { TestDb } from './harness.js';

const root = resolve(import.meta.dirname, '../../..');

async function waitUp(url: string): Promise<void> {
  const end = Date.now() + 40_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/tokens/info`)).status < 500) return;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`server ${url} did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface Cluster {
  urls: string[];
  /** The shared database, open in the test process (seeding, checks). */
  db: Db;
  tdb: TestDb;
  stop(): Promise<void>;
}

/**
 * `n` compiled server processes (as npm start runs them) sharing a fresh PostgreSQL database (`pgUrl`,
 * an admin URL) and Redis, each with its own data directory and port; `stop` ends them and drops it.
 */
export async function startCluster(pgUrl: string, redisUrl: string, n = 2, tag = 'multi'): Promise<Cluster> {
  const dbName = `t_${tag}_${newId().slice(0, 10)}`;
  const dirs = Array.from({ length: n }, (_, i) => mkdtempSync(join(tmpdir(), `kefu-${tag}${i}-`)));
  const base = 20_000 + Math.floor(Math.random() * 20_000);
  const urls = dirs.map((_, i) => `http://127.0.0.1:${base + i}`);
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const u = new URL(pgUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  await buildServer({ quiet: true });
  const db = openDatabase({ databaseUrl, dataDir: dirs[0]! });
  await migrate(db);
  const nodes: ChildProcess[] = dirs.map((dir, i) =>
    spawn(process.execPath, [SERVER_ENTRY], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(base + i),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        KEFU_DATA_DIR: dir,
        KEFU_ADMIN_PASSWORD: 'Admin#12345',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  await Promise.all(urls.map(waitUp));
  return {
    urls,
    db,
    tdb: { db, config: { databaseUrl } as TestDb['config'], drop: async () => undefined },
    async stop() {
      await Promise.all(
        nodes.map(
          (node) =>
            new Promise<void>((r) => {
              if (node.exitCode !== null) return r();
              node.once('exit', () => r());
              node.kill('SIGTERM');
            }),
        ),
      );
      await db.close();
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`);
      await c.end();
      dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
    },
  };
}

/**
 * One cluster for a describe block (started in beforeAll, stopped in afterAll), with the sockets to close
 * before it stops. Read its parts inside the tests.
 */
export function clusterPerSuite(
  pgUrl: string | undefined,
  redisUrl: string | undefined,
  n = 2,
  tag = 'multi',
): { readonly cluster: Cluster; readonly sockets: Array<{ disconnect(): unknown }> } {
  let cluster: Cluster | undefined;
  const sockets: Array<{ disconnect(): unknown }> = [];
  beforeAll(async () => {
    if (pgUrl && redisUrl) cluster = await startCluster(pgUrl, redisUrl, n, tag);
  }, 90_000);
  afterAll(async () => {
    sockets.splice(0).forEach((s) => s.disconnect());
    await cluster?.stop();
  }, 60_000);
  return {
    get cluster() {
      if (!cluster) throw new Error('no cluster (TEST_PG_URL and REDIS_URL unset?)');
      return cluster;
    },
    sockets,
  };
}
