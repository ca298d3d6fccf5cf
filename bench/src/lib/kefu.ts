import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Db } from '../../../apps/server/src/platform/db/database.js';
import { migrate } from '../../../apps/server/src/platform/db/migrate.js';
import { issueToken } from '../../../apps/server/src/platform/auth/tokens.js';
import { newId } from '../../../apps/server/src/platform/ids.js';
import { freePort, spawnNode, waitForPort, type Child, type Core } from './child.js';
import { buildServer, SERVER_ENTRY } from '../../../scripts/build-server.mjs';

export type Dialect = 'sqlite' | 'postgres';

let pgOverride: string | undefined;

/** PostgreSQL admin URL (a fresh database is created per run), or undefined → PostgreSQL runs are skipped. */
export const pgAdminUrl = (): string | undefined =>
  pgOverride || process.env.TEST_PG_URL || process.env.DATABASE_URL || undefined;

/** Runs `fn` with its PostgreSQL databases created on the server at `adminUrl` (e.g. a durable instance). */
export async function withPgAdmin<T>(adminUrl: string, fn: () => Promise<T>): Promise<T> {
  pgOverride = adminUrl;
  try {
    return await fn();
  } finally {
    pgOverride = undefined;
  }
}

export interface KefuDb {
  dialect: Dialect;
  dataDir: string;
  databaseUrl?: string;
  appid: string;
  /** Tokens of the seeded agents, in order. */
  tokens: string[];
  agentIds: string[];
  /** Opens the same database from the bench process (seeding, checks). */
  open(): Db;
  drop(): Promise<void>;
}

/**
 * A fresh kefu database, migrated, with one access point and `agents` agents that hold A01, a token each,
 * and an agent_status row already `ready` with `maxusers` seats (so no state-change storm at start).
 */
export async function prepareKefuDb(dialect: Dialect, agents: number, maxusers: number): Promise<KefuDb> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kefu-bench-'));
  let databaseUrl: string | undefined;
  let dbName: string | undefined;
  const admin = pgAdminUrl();
  if (dialect === 'postgres') {
    if (!admin) throw new Error('no PostgreSQL URL');
    dbName = `bench_${newId().slice(0, 12)}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`create database ${dbName}`);
    await c.end();
    const u = new URL(admin);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const open = () => openDatabase({ dataDir, databaseUrl });
  const db = open();
  await migrate(db);
  const k = db.kysely;
  const now = Date.now();
  const appid = newId().slice(0, 12);
  const tokens: string[] = [];
  const agentIds: string[] = [];
  await k.transaction().execute(async (trx) => {
    await trx
      .insertInto('access_point')
      .values({
        id: appid,
        orgi: 'kefu',
        name: 'bench',
        domain: '127.0.0.1',
        organ: null,
        createtime: now,
        updatetime: now,
      })
      .execute();
    const users = await insertBenchUsers(trx, {
      prefix: 'agent',
      role: 'bench-agents',
      codes: ['A01'],
      count: agents,
      maxusers,
      now,
    });
    for (const [i, u] of users.entries()) {
      agentIds.push(u.id);
      tokens.push(u.token);
      await trx
        .insertInto('agent_status')
        .values({
          userid: u.id,
          orgi: 'kefu',
          status: 'ready',
          users: 0,
          maxusers,
          organ: null,
          lastping: now + 3_600_000,
          lastidle: now + i,
          logintime: now,
          updatetime: now,
        })
        .execute();
    }
  });
  await db.close();
  return {
    dialect,
    dataDir,
    databaseUrl,
    appid,
    tokens,
    agentIds,
    open,
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      if (admin && dbName) {
        const c = new pg.Client({ connectionString: admin });
        await c.connect();
        await c.query(`drop database if exists ${dbName} with (force)`);
        await c.end();
      }
    },
  };
}

/**
 * `count` users named `<prefix>0…` in one role holding `codes`, each with a token (inside the caller's
 * transaction): the seeded agents, and the supervisors of B9.
 */
export async function insertBenchUsers(
  trx: Db['kysely'],
  o: { prefix: string; role: string; codes: readonly string[]; count: number; maxusers: number; now: number },
): Promise<Array<{ id: string; token: string }>> {
  const roleid = newId();
  await trx
    .insertInto('role')
    .values({ id: roleid, orgi: 'kefu', name: o.role, description: '', createtime: o.now, updatetime: o.now })
    .execute();
  await trx
    .insertInto('role_auth')
    .values(o.codes.map((code) => ({ roleid, code, orgi: 'kefu' })))
    .execute();
  const out: Array<{ id: string; token: string }> = [];
  for (let i = 0; i < o.count; i++) {
    const id = newId();
    await trx
      .insertInto('users')
      .values({
        id,
        orgi: 'kefu',
        username: `${o.prefix}${i}`,
        password_hash: 'x',
        uname: `${o.prefix}${i}`,
        nickname: `${o.prefix} ${i}`,
        email: null,
        mobile: null,
        usertype: '1',
        superuser: 0,
        organ: null,
        maxusers: o.maxusers,
        disabled: 0,
        language: 'zh',
        warningtone: 1,
        messagetone: 1,
        warningpath: 'new.mp3',
        messagepath: 'message.mp3',
        createtime: o.now,
        updatetime: o.now,
        lastlogin: null,
      })
      .execute();
    await trx.insertInto('user_role').values({ userid: id, roleid, orgi: 'kefu' }).execute();
    out.push({ id, token: await issueToken(trx, id, 'kefu', 3_600_000) });
  }
  return out;
}

export interface Server {
  child: Child;
  port: number;
  url: string;
  stop(): Promise<void>;
}

const SERVER_FLAGS = ['--expose-gc', '--import', './bench/src/servers/probe.ts'];

/**
 * The compiled server (apps/server/dist/main.mjs, what npm start runs; built when stale) as a child process
 * on its own port. The probe preload is TypeScript, so these children still load tsx.
 */
export async function startKefu(
  kdb: KefuDb,
  opts: { core?: Core; redisUrl?: string; env?: Record<string, string> } = {},
): Promise<Server> {
  await buildServer({ quiet: true });
  const port = await freePort();
  const child = spawnNode(SERVER_ENTRY, {
    core: opts.core ?? 0,
    // BENCH_CPU_PROF=<dir>: V8 CPU profiles of kefu under load, for finding hot paths.
    flags: process.env.BENCH_CPU_PROF
      ? [...SERVER_FLAGS, '--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : SERVER_FLAGS,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      KEFU_DATA_DIR: kdb.dataDir,
      KEFU_ADMIN_PASSWORD: 'Bench#Admin123',
      DATABASE_URL: kdb.databaseUrl ?? '',
      REDIS_URL: opts.redisUrl ?? '',
      // Per-request info logs off for both sides: the baseline logs nothing either.
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...opts.env,
    },
  });
  await waitForPort(port, child);
  return { child, port, url: `http://127.0.0.1:${port}`, stop: () => child.stop() };
}

/** The bare socket.io baseline (servers/relay.ts). */
export async function startBaseline(opts: { core?: Core; redisUrl?: string } = {}): Promise<Server> {
  const port = await freePort();
  const child = spawnNode('bench/src/servers/relay.ts', {
    core: opts.core ?? 0,
    flags: SERVER_FLAGS,
    env: { PORT: String(port), REDIS_URL: opts.redisUrl ?? '', NODE_ENV: 'production' },
  });
  await waitForPort(port, child);
  return { child, port, url: `http://127.0.0.1:${port}`, stop: () => child.stop() };
}

export interface Mem {
  rss: number;
  heapUsed: number;
  cpu: { user: number; system: number };
}
export const probeMem = (s: Server): Promise<Mem> => s.child.call<Mem>({ cmd: 'mem' });
