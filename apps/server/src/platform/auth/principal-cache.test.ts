import { afterEach, describe, expect, it } from 'vitest';
import { seed } from '../../modules/seed/seed.service.js';
import { buildApp } from '../../app.js';
import { openDatabase, type Db } from '../db/database.js';
import { createTestDb, type TestDb } from '../../../test/harness.js';
import {
  call,
  createSeededApp,
  expectError,
  insertRole,
  login,
  userWithCodes,
  type SeededApp,
} from '../../../test/factories.js';
import { agentSocket, startLive, type LiveServer } from '../../../test/live.js';
import { PrincipalCache, principalCache } from './cache.js';
import type { Principal } from './principal.js';
import type { FastifyInstance } from 'fastify';

let t: SeededApp | undefined;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
  await t?.close();
  t = undefined;
});

const me = (app: FastifyInstance, token: string) => call(app, token, 'GET', '/api/agent');

describe('principal cache', () => {
  it('serves a token from the cache after the first request', async () => {
    t = await createSeededApp();
    const u = await userWithCodes(t, ['A01']);
    const cache = principalCache(t.db);
    const before = cache.size;
    expect((await me(t.app, u.token)).body.success).toBe(true);
    expect(cache.size).toBe(before + 1);
    expect((await me(t.app, u.token)).body.success).toBe(true);
    expect(cache.size).toBe(before + 1);
  });

  it('never stores a load that raced with an invalidation', () => {
    const c = new PrincipalCache(5_000);
    const p = { id: 'u1' } as Principal;
    const gen = c.generation();
    c.apply({ kind: 'user', id: 'u1' }); // a revocation lands while the load is in flight
    c.set('h1', p, Date.now() + 60_000, gen);
    expect(c.get('h1')).toBeUndefined();
    c.set('h1', p, Date.now() + 60_000, c.generation());
    expect(c.get('h1')).toBe(p);
    // Never past the token's own expiry, nor the TTL.
    c.set('h2', p, Date.now() - 1, c.generation());
    expect(c.get('h2')).toBeUndefined();
    expect(c.get('h1', Date.now() + 5_001)).toBeUndefined();
  });

  it('logout refuses the token on the very next request', async () => {
    t = await createSeededApp();
    const u = await userWithCodes(t, ['A01']);
    expect((await me(t.app, u.token)).body.success).toBe(true);
    expect((await call(t.app, u.token, 'DELETE', '/tokens')).body.success).toBe(true);
    expectError(await me(t.app, u.token), 'token_expired', 401);
  });

  it('a password change ends every cached session of the user', async () => {
    t = await createSeededApp();
    const u = await userWithCodes(t, ['A01']);
    const other = await login(t.app, u.username, u.password);
    expect((await me(t.app, u.token)).body.success).toBe(true);
    expect((await me(t.app, other)).body.success).toBe(true);
    const r = await call(t.app, u.token, 'POST', '/api/agent/my/updatePassword', {
      oldpassword: u.password,
      password: 'Another#Passw0rd',
    });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
    expectError(await me(t.app, u.token), 'token_expired', 401);
    expectError(await me(t.app, other), 'token_expired', 401);
  });

  it('disabling or deleting a user refuses their cached token at once', async () => {
    t = await createSeededApp();
    const a = await userWithCodes(t, ['A01']);
    const b = await userWithCodes(t, ['A01']);
    for (const u of [a, b]) expect((await me(t.app, u.token)).body.success).toBe(true);
    const dis = await call(t.app, t.adminToken, 'POST', '/api/user/update', {
      id: a.id,
      username: a.username,
      uname: a.username,
      disabled: true,
    });
    expect(dis.body, JSON.stringify(dis.body)).toMatchObject({ success: true });
    expectError(await me(t.app, a.token), 'token_expired', 401);
    const del = await call(t.app, t.adminToken, 'POST', '/api/user/delete', { id: b.id });
    expect(del.body, JSON.stringify(del.body)).toMatchObject({ success: true });
    expect((await me(t.app, b.token)).status).toBe(401);
  });

  it('role rights and role membership changes take effect on the next request', async () => {
    t = await createSeededApp();
    const u = await userWithCodes(t, ['A01']);
    const roles = (tok: string) => call(t!.app, tok, 'GET', '/api/role/list');
    expect((await roles(u.token)).status).toBe(403);
    // The role gains the right.
    const save = (codes: string[]) =>
      call(t!.app, t!.adminToken, 'POST', '/api/role/auth/save', { id: u.roleid, codes });
    expect((await save(['A01', 'A09_A02_A02'])).body.success).toBe(true);
    expect((await roles(u.token)).status).toBe(200);
    // ... and loses it.
    expect((await save(['A01'])).body.success).toBe(true);
    expect((await roles(u.token)).status).toBe(403);
    // Membership: the user is moved to a role that holds it.
    const granting = await insertRole(t.db, ['A01', 'A09_A02_A02']);
    const upd = await call(t.app, t.adminToken, 'POST', '/api/user/update', {
      id: u.id,
      username: u.username,
      uname: u.username,
      roles: [granting],
    });
    expect(upd.body, JSON.stringify(upd.body)).toMatchObject({ success: true });
    expect((await roles(u.token)).status).toBe(200);
    // A profile change reaches the principal too (the language lives in it).
    await call(t.app, u.token, 'POST', '/api/agent', { language: 'en' });
    expect((await me(t.app, u.token)).body.success).toBe(true);
    expect(principalCache(t.db).size).toBeGreaterThan(0);
  });

  it('agent sockets authenticate through the same cache and see a logout at once', async () => {
    t = await createSeededApp();
    const live: LiveServer = await startLive(t);
    cleanups.push(() => live.stop());
    const u = await userWithCodes(t, ['A01']);
    const handshake = (token: string) =>
      new Promise<string>((resolve) => {
        const s = agentSocket(live.url, token);
        s.on('connect', () => {
          s.disconnect();
          resolve('ok');
        });
        s.on('connect_error', (e) => {
          s.disconnect();
          resolve(e.message);
        });
      });
    expect(await handshake(u.token)).toBe('ok');
    expect((await call(live.app, u.token, 'DELETE', '/tokens')).body.success).toBe(true);
    expect(await handshake(u.token)).toBe('token_expired');
  });
});

const PG = process.env.TEST_PG_URL;
const REDIS = process.env.REDIS_URL;

describe.skipIf(!PG || !REDIS)('principal cache across two nodes (PostgreSQL + Redis)', () => {
  it('a revocation or role change on one node reaches the other within ~100 ms', async () => {
    const tdb: TestDb = await createTestDb();
    cleanups.push(() => tdb.drop());
    const config = { ...tdb.config, redisUrl: REDIS };
    await seed(tdb.db, config);
    // Two nodes: separate database handles (so separate caches), one database, one Redis.
    const dbB: Db = openDatabase(config);
    cleanups.push(() => dbB.close());
    const a = (await buildApp({ config, db: tdb.db })).app;
    const b = (await buildApp({ config, db: dbB })).app;
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    await Promise.all([a.ready(), b.ready()]);
    const adminToken = await login(a, 'admin', config.adminPassword ?? 'Admin#12345');
    const ts = { app: a, db: tdb.db } as unknown as SeededApp;
    const u = await userWithCodes(ts, ['A01']);
    const second = await login(a, u.username, u.password);

    const within = async (app: FastifyInstance, tok: string, path: string, status: number) => {
      const start = Date.now();
      for (;;) {
        const r = await call(app, tok, 'GET', path);
        if (r.status === status) return Date.now() - start;
        if (Date.now() - start > 100) return Infinity;
        await new Promise((r) => setTimeout(r, 2));
      }
    };

    // Both nodes have the principals cached.
    for (const app of [a, b]) {
      expect((await me(app, u.token)).status).toBe(200);
      expect((await me(app, second)).status).toBe(200);
      expect((await call(app, u.token, 'GET', '/api/role/list')).status).toBe(403);
    }
    // Role change on A → B grants at once.
    const save = await call(a, adminToken, 'POST', '/api/role/auth/save', {
      id: u.roleid,
      codes: ['A01', 'A09_A02_A02'],
    });
    expect(save.body.success).toBe(true);
    expect(await within(b, u.token, '/api/role/list', 200)).toBeLessThanOrEqual(100);
    // Logout on B → A refuses.
    expect((await me(a, u.token)).status).toBe(200);
    expect((await call(b, u.token, 'DELETE', '/tokens')).body.success).toBe(true);
    expect(await within(a, u.token, '/api/agent', 401)).toBeLessThanOrEqual(100);
    // Disable on A → B refuses the user's other session.
    expect((await me(b, second)).status).toBe(200);
    const dis = await call(a, adminToken, 'POST', '/api/user/update', {
      id: u.id,
      username: u.username,
      uname: u.username,
      disabled: true,
    });
    expect(dis.body, JSON.stringify(dis.body)).toMatchObject({ success: true });
    expect(await within(b, second, '/api/agent', 401)).toBeLessThanOrEqual(100);
  });
});
