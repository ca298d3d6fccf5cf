import { afterEach, describe, expect, it } from 'vitest';
import { insertUser } from '../../../test/harness.js';
import {
  call,
  count,
  createSeededApp,
  expectError,
  insertRole,
  login,
  type SeededApp,
} from '../../../test/factories.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { MemoryLoginLimiter } from './login-limiter.js';
import { loadSecurityConfig } from '../../platform/http/security-config.js';
import { errorText } from '@kefu/protocol';

/** The app as deployed behind a proxy on this host (KEFU_TRUST_PROXY=loopback). */
const behindProxy = (v = 'loopback') => ({ security: loadSecurityConfig({ KEFU_TRUST_PROXY: v }) });

const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

let t: SeededApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const lastLog = (s: SeededApp) =>
  s.db.kysely.selectFrom('login_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

describe('POST /tokens', () => {
  it('logs in with JSON, returns the session user and logs the attempt with browser and OS', async () => {
    t = await createSeededApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/tokens',
      payload: { username: 'admin', password: 'Admin#12345' },
      headers: { 'user-agent': CHROME_UA, 'x-forwarded-for': '203.0.113.9' },
    });
    const body = res.json();
    expect(res.statusCode).toBe(200);
    expect(body).toMatchObject({
      success: true,
      code: 200,
      data: { user: { username: 'admin', usertype: '0' } },
    });
    expect(body.data.token).toMatch(/^[0-9a-f]{64}$/);
    expect(body.data.user.sessionid).toBe(hashToken(body.data.token));
    expect(JSON.stringify(body)).not.toContain('argon2');
    const log = await lastLog(t);
    expect(log).toMatchObject({
      username: 'admin',
      ip: '127.0.0.1', // X-Forwarded-For is not believed by default (see 'client address' below)
      success: 1,
      reason: '',
      useragent: CHROME_UA,
    });
    expect(log.browser).toBe('Chrome 126');
    expect(log.os).toBe('Windows 10');
    const admin = await t.db.kysely
      .selectFrom('users')
      .select('lastlogin')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(admin.lastlogin).toBeGreaterThan(Date.now() - 60_000);
  });

  it('accepts a form-encoded body', async () => {
    t = await createSeededApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/tokens',
      payload: 'username=admin&password=Admin%2312345',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.json()).toMatchObject({ success: true });
  });

  it('refuses a wrong password, an unknown user and a disabled user, logging each', async () => {
    t = await createSeededApp();
    const before = await count(t.db, 'login_log');
    const wrong = await call(t.app, null, 'POST', '/tokens', { username: 'admin', password: 'nope' });
    expect(wrong.status).toBe(400);
    expectError(wrong, 'login_failed');
    expect(await lastLog(t)).toMatchObject({ success: 0, reason: 'password_wrong', username: 'admin' });

    // An unknown user gets the very same answer; only the login log tells them apart.
    const ghost = await call(t.app, null, 'POST', '/tokens', { username: 'ghost', password: 'x' });
    expect(ghost).toEqual(wrong);
    expect(ghost.body.msg).toBe(errorText('login_failed', 'zh'));
    expect(await lastLog(t)).toMatchObject({ success: 0, reason: 'user_not_found', userid: null });

    const u = await insertUser(t.db);
    await t.db.kysely.updateTable('users').set({ disabled: 1 }).where('id', '=', u.id).execute();
    // The disabled state is revealed only to someone who knows the password.
    expectError(
      await call(t.app, null, 'POST', '/tokens', { username: u.username, password: 'bad' }),
      'login_failed',
    );
    expectError(
      await call(t.app, null, 'POST', '/tokens', { username: u.username, password: u.password }),
      'user_disabled',
    );
    expect(await lastLog(t)).toMatchObject({ success: 0, reason: 'user_disabled', userid: u.id });
    expect(await count(t.db, 'login_log')).toBe(before + 4);
    expect(await count(t.db, 'tokens')).toBe(1); // only createSeededApp's own login
  });

  it('refuses (and logs as refused) a user whose roles grant nothing; usertype 0 needs no role', async () => {
    t = await createSeededApp();
    const u = await insertUser(t.db);
    const role = await insertRole(t.db, []);
    await t.db.kysely.insertInto('user_role').values({ userid: u.id, roleid: role, orgi: 'kefu' }).execute();
    const tokens = await count(t.db, 'tokens');
    const r = await call(t.app, null, 'POST', '/tokens', { username: u.username, password: u.password });
    expect(r.status).toBe(403);
    expectError(r, 'no_permission', 403);
    expect(r.body.msg).toBe(errorText('no_permission', 'zh'));
    expect(await lastLog(t)).toMatchObject({ success: 0, reason: 'no_permission', userid: u.id });
    expect(await count(t.db, 'tokens')).toBe(tokens);
    // Once a role gives it a code, the same user logs in.
    await t.db.kysely.insertInto('role_auth').values({ roleid: role, code: 'A01', orgi: 'kefu' }).execute();
    await login(t.app, u.username, u.password);
    expect(await lastLog(t)).toMatchObject({ success: 1, reason: '', userid: u.id });
    const root = await insertUser(t.db, { usertype: '0' });
    await login(t.app, root.username, root.password);
  });

  it('validates the body', async () => {
    t = await createSeededApp();
    const r = await call(t.app, null, 'POST', '/tokens', { username: 'admin' });
    expectError(r, 'required');
    expect(r.body.fields).toHaveProperty('password');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/tokens',
      payload: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, key: 'invalid_body', code: 400 });
  });

  it('rate-limits per IP and username, answering 429 even for the right password', async () => {
    t = await createSeededApp({ loginRateLimit: 3, ...behindProxy() });
    const from = (ip: string, password: string, username = 'admin') =>
      t!.app.inject({
        method: 'POST',
        url: '/tokens',
        payload: { username, password },
        headers: { 'x-forwarded-for': ip },
      });
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.1', 'wrong')).json().key).toBe('login_failed');
    const limited = await from('198.51.100.1', 'Admin#12345');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, code: 429, key: 'login_rate_limited' });
    expect(await lastLog(t)).toMatchObject({ success: 0, reason: 'login_rate_limited', ip: '198.51.100.1' });
    // Another address, or another username from the same address, is not affected.
    expect((await from('198.51.100.2', 'Admin#12345')).json().success).toBe(true);
    expect((await from('198.51.100.1', 'x', 'someone')).json().key).toBe('login_failed');
  });
});

describe('client address (KEFU_TRUST_PROXY)', () => {
  const attempt = (ip: string) =>
    t!.app.inject({
      method: 'POST',
      url: '/tokens',
      payload: { username: 'admin', password: 'nope' },
      headers: { 'x-forwarded-for': ip },
    });

  it('X-Forwarded-For is ignored by default: a client cannot pick its IP to dodge the rate limit', async () => {
    t = await createSeededApp({ loginRateLimit: 3 }); // its own admin login is the first attempt
    for (const ip of ['198.51.100.1', '198.51.100.2']) expect((await attempt(ip)).statusCode).toBe(400);
    const third = await attempt('198.51.100.3');
    expect(third.statusCode).toBe(429);
    expect(await lastLog(t)).toMatchObject({ ip: '127.0.0.1', reason: 'login_rate_limited' });
  });

  it('is believed from the configured proxies only, by address list or hop count', async () => {
    t = await createSeededApp(behindProxy('127.0.0.1/32, 10.0.0.0/8'));
    await attempt('203.0.113.7');
    expect(await lastLog(t)).toMatchObject({ ip: '203.0.113.7' });
    // The client's own entry, left of the proxy's, is taken; anything it forged further left is not.
    await attempt('1.2.3.4, 203.0.113.8');
    expect(await lastLog(t)).toMatchObject({ ip: '203.0.113.8' });
    await t.close();
    t = await createSeededApp(behindProxy('2'));
    await attempt('1.2.3.4, 203.0.113.9, 10.0.0.1');
    expect(await lastLog(t)).toMatchObject({ ip: '203.0.113.9' });
    await t.close();
    t = await createSeededApp(behindProxy('192.0.2.1')); // a proxy that is not this peer
    await attempt('203.0.113.7');
    expect(await lastLog(t)).toMatchObject({ ip: '127.0.0.1' });
    expect(() => loadSecurityConfig({ KEFU_TRUST_PROXY: 'yes please' })).toThrow(/KEFU_TRUST_PROXY/);
    expect(() => loadSecurityConfig({ KEFU_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/KEFU_TRUST_PROXY/);
  });
});

describe('token lifecycle', () => {
  it('DELETE /tokens revokes the token', async () => {
    t = await createSeededApp();
    const token = await login(t.app, 'admin', 'Admin#12345');
    expect((await call(t.app, token, 'GET', '/api/agent')).status).toBe(200);
    const out = await call(t.app, token, 'DELETE', '/tokens');
    expect(out.body).toMatchObject({ success: true, data: null });
    const after = await call(t.app, token, 'GET', '/api/agent');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ success: false, code: 401 });
    // Other sessions survive.
    expect((await call(t.app, t.adminToken, 'GET', '/api/agent')).status).toBe(200);
  });

  it('an expired token gets the 401 envelope', async () => {
    t = await createSeededApp();
    await t.db.kysely
      .updateTable('tokens')
      .set({ expires: Date.now() - 1000 })
      .where('id', '=', hashToken(t.adminToken))
      .execute();
    const r = await call(t.app, t.adminToken, 'GET', '/api/agent');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, code: 401, key: 'token_expired' });
  });

  it('no token or a made-up token is 401 not_logged_in; a token in the URL counts only on /res/*', async () => {
    t = await createSeededApp();
    expect((await call(t.app, null, 'GET', '/api/agent')).body).toMatchObject({
      code: 401,
      key: 'not_logged_in',
    });
    expect((await call(t.app, 'f'.repeat(64), 'GET', '/api/agent')).body).toMatchObject({
      code: 401,
      key: 'not_logged_in',
    });
    // A URL ends up in logs, history and Referer headers: /api ignores ?authorization= (media.test: /res).
    expect((await call(t.app, null, 'GET', `/api/agent?authorization=${t.adminToken}`)).body).toMatchObject({
      code: 401,
      key: 'not_logged_in',
    });
    const exp = await call(t.app, null, 'GET', `/api/analyse/exLoginLogs?authorization=${t.adminToken}`);
    expect(exp.status).toBe(401);
    expect((await call(t.app, `Bearer ${t.adminToken}`, 'GET', '/api/agent')).body.success).toBe(true);
  });
});

describe('public info and unknown routes', () => {
  it('GET /tokens/info comes from the organisation', async () => {
    t = await createSeededApp();
    expect((await call(t.app, null, 'GET', '/tokens/info')).body).toMatchObject({
      success: true,
      data: { title: '在线客服', favlogo: '' },
    });
    await t.db.kysely.updateTable('organization').set({ title: 'Acme', favlogo: '/f.ico' }).execute();
    expect((await call(t.app, null, 'GET', '/tokens/info')).body.data).toEqual({
      title: 'Acme',
      favlogo: '/f.ico',
    });
  });

  it('an /api route without a handler answers the 404 envelope', async () => {
    t = await createSeededApp();
    for (const method of ['GET', 'POST'] as const) {
      const r = await call(
        t.app,
        t.adminToken,
        method,
        '/api/no/such/thing',
        method === 'POST' ? { a: 1 } : undefined,
      );
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ success: false, code: 404, key: 'not_found' });
    }
  });

  it('malformed JSON on an /api route is invalid_body', async () => {
    t = await createSeededApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/organ/save',
      payload: '{"name": "x",,}',
      headers: { authorization: t.adminToken, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, key: 'invalid_body' });
  });
});

describe('MemoryLoginLimiter', () => {
  it('is a sliding window per key', async () => {
    let now = 0;
    const l = new MemoryLoginLimiter(2, 60_000, () => now);
    expect(await l.hit('a')).toBe(true);
    now = 30_000;
    expect(await l.hit('a')).toBe(true);
    expect(await l.hit('a')).toBe(false);
    expect(await l.hit('b')).toBe(true);
    now = 60_001; // the first attempt left the window
    expect(await l.hit('a')).toBe(true);
    expect(await l.hit('a')).toBe(false);
  });
});
