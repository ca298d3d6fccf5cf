import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startServer, type RunningServer } from './server';

export interface Cluster {
  nodes: RunningServer[];
  databaseUrl: string;
  stop(): Promise<void>;
}

async function adminQuery(pgUrl: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/**
 * `count` real server processes sharing a fresh PostgreSQL database (created on the `pgUrl` server,
 * dropped on stop), one Redis and one data directory (uploads written through one node are served by
 * any). Started one after the other: the first migrates and seeds.
 */
export async function startCluster(pgUrl: string, redisUrl: string, count = 2): Promise<Cluster> {
  const dbName = `e2e_${randomBytes(6).toString('hex')}`;
  await adminQuery(pgUrl, `create database ${dbName}`);
  const u = new URL(pgUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  const dataDir = mkdtempSync(join(tmpdir(), 'kefu-e2e-cluster-'));
  const nodes: RunningServer[] = [];
  const stop = async () => {
    for (const n of nodes) await n.stop().catch(() => undefined);
    await adminQuery(pgUrl, `drop database if exists ${dbName} with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++) {
      nodes.push(
        await startServer({ DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, KEFU_DATA_DIR: dataDir }),
      );
    }
    // The nodes really run on this database (a DATABASE_URL that went unread would fall back to SQLite).
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      const r = await c.query<{ n: string }>("select count(*) as n from users where username = 'admin'");
      if (Number(r.rows[0]?.n) !== 1) throw new Error(`${dbName} holds no seeded admin`);
    } finally {
      await c.end();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { nodes, databaseUrl, stop };
}
