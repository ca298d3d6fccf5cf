import { describe, expect, it } from 'vitest';
import { ALL_PERMISSION_CODES } from '@kefu/protocol';
import { insertUser } from '../../../test/harness.js';
import { call, expectError, login, snapshot, userWithCodes, perTest } from '../../../test/factories.js';
import { hashToken } from '../../platform/auth/tokens.js';

const env = perTest();

const USER_KEYS = [
  'id',
  'orgi',
  'username',
  'uname',
  'nickname',
  'usertype',
  'superuser',
  'organ',
  'organname',
  'skill',
  'language',
  'warningtone',
  'warningpath',
  'messagetone',
  'messagepath',
  'on_state',
  'sessionid',
].sort();

describe('GET /api/agent', () => {
  it('returns the session user, organ, auth map and origin', async () => {
    const t = await env.seeded();
    const r = await call<Record<string, unknown>>(t.app, t.adminToken, 'GET', '/api/agent', undefined, {
      host: 'kefu.example:8443',
    });
    expect(r.body.success).toBe(true);
    const d = r.body.data as {
      user: Record<string, unknown>;
      organ: { id: string; name: string; skill: boolean };
      auth: Record<string, true>;
      superuser: boolean;
      schema: string;
      hostname: string;
      port: number;
    };
    expect(Object.keys(d).sort()).toEqual([
      'auth',
      'hostname',
      'organ',
      'port',
      'schema',
      'superuser',
      'user',
    ]);
    expect(Object.keys(d.user).sort()).toEqual(USER_KEYS);
    expect(d.user).toMatchObject({
      username: 'admin',
      orgi: 'kefu',
      usertype: '0',
      superuser: true,
      organname: '客服部',
      on_state: 'notready',
      warningtone: 1,
      messagetone: 1,
      sessionid: hashToken(t.adminToken),
    });
    expect(d.organ).toEqual({ id: d.user.organ, name: '客服部', skill: true });
    expect(d.user.skill).toEqual([d.organ.id]);
    expect(Object.keys(d.auth).sort()).toEqual([...ALL_PERMISSION_CODES].sort());
    expect(d).toMatchObject({ superuser: true, schema: 'http', hostname: 'kefu.example', port: 8443 });
  });

  it("a plain user's auth map holds exactly their roles' codes", async () => {
    const t = await env.seeded();
    const u = await userWithCodes(t, ['A01', 'A04']);
    const r = await call<{
      auth: Record<string, true>;
      organ: unknown;
      user: { skill: string[]; usertype: string };
    }>(t.app, u.token, 'GET', '/api/agent');
    expect(r.body.data.auth).toEqual({ A01: true, A04: true });
    expect(r.body.data.organ).toBeNull();
    expect(r.body.data.user).toMatchObject({ usertype: '1', skill: [] });
  });
});

describe('POST /api/agent and sound', () => {
  it('updates the profile and returns the user', async () => {
    const t = await env.seeded();
    const r = await call<{ uname: string; language: string }>(t.app, t.adminToken, 'POST', '/api/agent', {
      uname: ' Boss ',
      language: 'en',
    });
    expect(r.body.data).toMatchObject({ uname: 'Boss', language: 'en' });
    const before = await snapshot(t.db);
    expectError(await call(t.app, t.adminToken, 'POST', '/api/agent', { language: 'xx' }), 'invalid_field');
    expectError(await call(t.app, t.adminToken, 'POST', '/api/agent', { uname: 'x'.repeat(51) }), 'too_long');
    expect(await snapshot(t.db)).toBe(before);
  });

  it('stores sound switches', async () => {
    const t = await env.seeded();
    const r = await call(t.app, t.adminToken, 'POST', '/api/agent/my/sound', {
      warningtone: 0,
      messagetone: '1',
      messagepath: 'ding.mp3',
    });
    expect(r.body).toMatchObject({ success: true, data: null });
    const u = await t.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(u).toMatchObject({
      warningtone: 0,
      messagetone: 1,
      messagepath: 'ding.mp3',
      warningpath: 'new.mp3',
    });
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/agent/my/sound', { warningtone: 2, messagetone: 0 }),
      'invalid_field',
    );
  });
});

describe('password change', () => {
  it('checks the old password and strength, then revokes every token of the user', async () => {
    const t = await env.seeded();
    const u = await userWithCodes(t, ['A01']);
    const a = await login(t.app, u.username, u.password);
    const b = await login(t.app, u.username, u.password);
    const hashOf = () =>
      t.db.kysely
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', u.id)
        .executeTakeFirstOrThrow();
    const before = await hashOf();
    expectError(
      await call(t.app, a, 'POST', '/api/agent/my/updatePassword', {
        oldpassword: 'bad',
        password: 'Better123',
      }),
      'password_wrong',
    );
    expectError(
      await call(t.app, a, 'POST', '/api/agent/my/updatePassword', {
        oldpassword: u.password,
        password: 'short1',
      }),
      'password_weak',
    );
    expectError(
      await call(t.app, a, 'POST', '/api/agent/my/updatePassword', {
        oldpassword: u.password,
        password: 'lettersonly',
      }),
      'password_weak',
    );
    expect(await hashOf()).toEqual(before);
    expect((await call(t.app, b, 'GET', '/api/agent')).status).toBe(200);

    // Never through a URL (it ends up in logs): the GET answers a clear error and changes nothing.
    const viaUrl = await call(
      t.app,
      a,
      'GET',
      `/api/agent/my/updatePassword?oldpassword=${encodeURIComponent(u.password)}&password=Better123`,
    );
    expect(viaUrl.status).toBe(405);
    expectError(viaUrl, 'post_only', 405);
    // Nor from the query of a POST.
    expectError(
      await call(
        t.app,
        a,
        'POST',
        `/api/agent/my/updatePassword?oldpassword=${encodeURIComponent(u.password)}&password=Better123`,
        {},
      ),
      'required',
    );
    expect(await hashOf()).toEqual(before);
    const ok = await call(t.app, a, 'POST', '/api/agent/my/updatePassword', {
      oldpassword: u.password,
      password: 'Better123',
    });
    expect(ok.body).toMatchObject({ success: true, data: null });
    for (const token of [a, b]) expect((await call(t.app, token, 'GET', '/api/agent')).status).toBe(401);
    expectError(
      await call(t.app, null, 'POST', '/tokens', { username: u.username, password: u.password }),
      'login_failed',
    );
    await login(t.app, u.username, 'Better123');
    // The admin's session is someone else's and stays valid.
    expect((await call(t.app, t.adminToken, 'GET', '/api/agent')).status).toBe(200);
  });
});

describe('common lists', () => {
  it('skillList lists skill groups; userList filters by department', async () => {
    const t = await env.seeded();
    const skills = await call<{ id: string; name: string; parentid: string | null }[]>(
      t.app,
      t.adminToken,
      'GET',
      '/api/common/skillList',
    );
    expect(skills.body.data).toEqual([{ id: expect.any(String), name: '客服部', parentid: null }]);
    const organ = skills.body.data[0].id;
    await insertUser(t.db, { username: 'inside', organ });
    await insertUser(t.db, { username: 'outside' });
    const all = await call<{ username: string }[]>(t.app, t.adminToken, 'GET', '/api/common/userList');
    expect(all.body.data.map((u) => u.username).sort()).toEqual(['admin', 'inside', 'outside']);
    const inOrgan = await call<{ id: string; username: string; uname: string; organ: string }[]>(
      t.app,
      t.adminToken,
      'GET',
      `/api/common/userList?organ=${organ}`,
    );
    expect(inOrgan.body.data.map((u) => u.username).sort()).toEqual(['admin', 'inside']);
    expect(Object.keys(inOrgan.body.data[0]).sort()).toEqual(['id', 'organ', 'uname', 'username']);
  });
});
