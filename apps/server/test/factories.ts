import { afterEach, expect } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { ErrEnvelope } from '@kefu/protocol';
import type { AppConfig } from '../src/config.js';
import type { Db } from '../src/platform/db/database.js';
import type { Database } from '../src/platform/db/schema.js';
import { newId } from '../src/platform/ids.js';
import { seed, type SeedResult } from '../src/modules/seed/seed.service.js';
import { createTestApp, insertUser, type TestApp, type UserFactoryInput } from './harness.js';
import { startLive, type LiveServer } from './live.js';

/** Factories for the organisation-admin tests: a seeded app, logged-in users with chosen codes, row counts. */
export interface SeededApp extends TestApp {
  seeded: SeedResult;
  adminToken: string;
}

export const ADMIN_PASSWORD = 'Admin#12345';

export async function createSeededApp(overrides: Partial<AppConfig> = {}): Promise<SeededApp> {
  const t = await createTestApp(overrides);
  const seeded = await seed(t.db, t.config);
  const adminToken = await login(t.app, 'admin', t.config.adminPassword ?? ADMIN_PASSWORD);
  return { ...t, seeded, adminToken };
}

/** What a test file opens per test through `perTest()`; all of it is closed after each test. */
export interface PerTest {
  /** The app the running test opened with `seeded()` (for helpers defined outside the test). */
  readonly t: SeededApp;
  /** A seeded app with the admin logged in. */
  seeded(overrides?: Partial<AppConfig>): Promise<SeededApp>;
  /** A live server (HTTP + socket.io); its database is dropped afterwards. */
  live(...args: Parameters<typeof startLive>): Promise<LiveServer>;
  /** Sockets to disconnect after the test. */
  readonly sockets: Array<{ disconnect(): unknown }>;
}

/** Registers the afterEach that disconnects the sockets, closes the app and stops the live server. */
export function perTest(): PerTest {
  let t: SeededApp | undefined;
  let srv: LiveServer | undefined;
  const sockets: Array<{ disconnect(): unknown }> = [];
  afterEach(async () => {
    sockets.splice(0).forEach((s) => s.disconnect());
    await t?.close();
    t = undefined;
    await srv?.stop();
    await srv?.tdb.drop();
    srv = undefined;
  });
  return {
    get t() {
      if (!t) throw new Error('no app opened in this test');
      return t;
    },
    seeded: async (overrides) => (t = await createSeededApp(overrides)),
    live: async (...args) => (srv = await startLive(...args)),
    sockets,
  };
}

export interface Res<T = unknown> {
  status: number;
  body: { success: boolean; data: T; msg: string; code: number } & Partial<ErrEnvelope>;
}

export async function call<T = unknown>(
  app: FastifyInstance,
  token: string | null,
  method: InjectOptions['method'],
  url: string,
  payload?: InjectOptions['payload'],
  headers: Record<string, string> = {},
): Promise<Res<T>> {
  const res = await app.inject({
    method,
    url,
    payload,
    headers: { ...(token ? { authorization: token } : {}), ...headers },
  });
  return { status: res.statusCode, body: res.json() };
}

export async function login(app: FastifyInstance, username: string, password: string): Promise<string> {
  const r = await call<{ token: string }>(app, null, 'POST', '/tokens', { username, password });
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true, code: 200 });
  return r.body.data.token;
}

/** A role holding exactly `codes`, stored directly. */
export async function insertRole(
  db: Db,
  codes: readonly string[],
  name = `r_${newId().slice(0, 8)}`,
): Promise<string> {
  const id = newId();
  const now = Date.now();
  await db.kysely
    .insertInto('role')
    .values({ id, orgi: 'kefu', name, description: '', createtime: now, updatetime: now })
    .execute();
  if (codes.length) {
    await db.kysely
      .insertInto('role_auth')
      .values(codes.map((code) => ({ roleid: id, code, orgi: 'kefu' })))
      .execute();
  }
  return id;
}

/** A usertype '1' user whose only role holds `codes`, logged in. */
export async function userWithCodes(
  t: TestApp,
  codes: readonly string[],
  input: UserFactoryInput = {},
): Promise<{ id: string; username: string; password: string; token: string; roleid: string }> {
  const u = await insertUser(t.db, input);
  const roleid = await insertRole(t.db, codes);
  await t.db.kysely.insertInto('user_role').values({ userid: u.id, roleid, orgi: 'kefu' }).execute();
  return { ...u, roleid, token: await login(t.app, u.username, u.password) };
}

type Table = keyof Database;

export async function count(db: Db, table: Table): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Row counts of the admin tables plus a fingerprint of their contents, to prove "nothing changed". */
export async function snapshot(db: Db): Promise<string> {
  const tables: Table[] = ['organ', 'users', 'user_organ', 'role', 'user_role', 'role_auth'];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await db.kysely.selectFrom(table).selectAll().execute();
    const lines = rows.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort();
    parts.push(`${table}:${rows.length}:${lines.join('|')}`);
  }
  return parts.join('\n');
}

export function expectError(r: Res, key: string, code = 400): void {
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: false, key, code });
}
