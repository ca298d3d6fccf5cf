import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { hash } from '@node-rs/argon2';
import { loadConfig, type AppConfig } from '../src/config.js';
import { openDatabase, type Db } from '../src/platform/db/database.js';
import { migrate } from '../src/platform/db/migrate.js';
import { buildApp } from '../src/app.js';
import type { AppContext } from '../src/platform/context.js';
import { newId } from '../src/platform/ids.js';
import type { KefuTemplate } from './global-setup.js';

/**
 * One fresh database per call. With TEST_PG_URL set (postgres://…/postgres-ish admin URL) a throwaway
 * PostgreSQL database is created and dropped; otherwise a SQLite file in a temp dir.
 * The same test files run under both: `npm test` runs the server suite twice.
 * Each starts as a copy of the template migrated once per run by test/global-setup.ts (`migrate` then
 * finds nothing to apply); without one (a config lacking the global setup) it is migrated from empty.
 */
export const dialectUnderTest = (): 'postgres' | 'sqlite' =>
  process.env.TEST_PG_URL ? 'postgres' : 'sqlite';

export interface TestDb {
  db: Db;
  config: AppConfig;
  drop(): Promise<void>;
}

export async function createTestDb(overrides: Partial<AppConfig> = {}): Promise<TestDb> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kefu-test-'));
  const adminUrl = process.env.TEST_PG_URL;
  let databaseUrl: string | undefined;
  let dbName: string | undefined;
  const template = inject('kefuTemplate') as KefuTemplate | undefined;
  if (adminUrl) {
    dbName = `t_${newId().slice(0, 16)}`;
    await createPgDatabase(adminUrl, dbName, template?.dialect === 'postgres' ? template.source : undefined);
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  } else if (template?.dialect === 'sqlite') {
    copyFileSync(template.source, join(dataDir, 'kefu.sqlite'));
  }
  const config: AppConfig = {
    ...loadConfig({}),
    dataDir,
    databaseUrl,
    redisUrl: undefined,
    adminPassword: 'Admin#12345',
    ...overrides,
  };
  const db = openDatabase(config);
  await migrate(db);
  return {
    db,
    config,
    async drop() {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (adminUrl && dbName) {
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`drop database if exists ${dbName} with (force)`);
        await client.end();
      }
    },
  };
}

let pgVersion: number | undefined;

/** `create database`, as a copy of `template` when given (FILE_COPY from PostgreSQL 15: the fastest here). */
export async function createPgDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    if (!template) {
      await client.query(`create database ${name}`);
      return;
    }
    pgVersion ??= Number((await client.query('show server_version_num')).rows[0].server_version_num);
    await client.query(
      `create database ${name} template ${template}${pgVersion >= 150000 ? ' strategy file_copy' : ''}`,
    );
  } finally {
    await client.end();
  }
}

export interface TestApp extends TestDb {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const tdb = await createTestDb(overrides);
  const { app, ctx } = await buildApp({ config: tdb.config, db: tdb.db });
  await app.ready();
  return {
    ...tdb,
    app,
    ctx,
    async close() {
      await app.close();
      await tdb.drop();
    },
  };
}

export interface UserFactoryInput {
  username?: string;
  password?: string;
  usertype?: string;
  organ?: string | null;
  maxusers?: number;
  orgi?: string;
}

/** Inserts a user directly (bypassing the API) for tests that need agents quickly. */
export async function insertUser(
  db: Db,
  input: UserFactoryInput = {},
): Promise<{ id: string; username: string; password: string }> {
  const id = newId();
  const username = input.username ?? `u_${id.slice(0, 8)}`;
  const password = input.password ?? 'Passw0rd!';
  const now = Date.now();
  await db.kysely
    .insertInto('users')
    .values({
      id,
      orgi: input.orgi ?? 'kefu',
      username,
      password_hash: await hash(password),
      uname: username,
      nickname: username,
      email: null,
      mobile: null,
      usertype: input.usertype ?? '1',
      superuser: 0,
      organ: input.organ ?? null,
      maxusers: input.maxusers ?? 10,
      disabled: 0,
      language: 'zh',
      warningtone: 1,
      messagetone: 1,
      warningpath: 'new.mp3',
      messagepath: 'message.mp3',
      createtime: now,
      updatetime: now,
      lastlogin: null,
    })
    .execute();
  return { id, username, password };
}
