import { afterEach, describe, expect, it, vi } from 'vitest';
import { insertUser } from '../../../test/harness.js';
import {
  call,
  count,
  createSeededApp,
  expectError,
  login,
  snapshot,
  userWithCodes,
  type SeededApp,
} from '../../../test/factories.js';
import * as userRepo from './user.repository.js';
import type { UserDto } from './user.presenter.js';

let t: SeededApp | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.close();
  t = undefined;
});

const USER_KEYS = [
  'id',
  'username',
  'uname',
  'nickname',
  'email',
  'mobile',
  'usertype',
  'organ',
  'organname',
  'organs',
  'roles',
  'maxusers',
  'disabled',
  'createtime',
  'lastlogin',
].sort();

async function fixtures(s: SeededApp) {
  const organ = (await s.db.kysely.selectFrom('organ').select('id').executeTakeFirstOrThrow()).id;
  const agentRole = (
    await s.db.kysely.selectFrom('role').select('id').where('name', '=', '客服').executeTakeFirstOrThrow()
  ).id;
  return { organ, agentRole };
}

const saveUser = (s: SeededApp, body: Record<string, unknown>, token = s.adminToken) =>
  call<UserDto>(s.app, token, 'POST', '/api/user/save', body);

describe('users', () => {
  it('creates a user with departments and roles; the user can log in', async () => {
    t = await createSeededApp();
    const { organ, agentRole } = await fixtures(t);
    const r = await saveUser(t, {
      username: 'li.lei',
      password: 'Passw0rd1',
      uname: ' 李雷 ',
      email: 'li@example.com',
      mobile: '13800138000',
      organs: [organ],
      roles: [agentRole],
      maxusers: '5',
    });
    expect(r.body.success).toBe(true);
    const u = r.body.data;
    expect(Object.keys(u).sort()).toEqual(USER_KEYS);
    expect(u).toMatchObject({
      username: 'li.lei',
      uname: '李雷',
      usertype: '1',
      organ,
      organname: '客服部',
      organs: [organ],
      roles: [{ id: agentRole, name: '客服' }],
      maxusers: 5,
      disabled: false,
      lastlogin: null,
    });
    expect(JSON.stringify(r.body)).not.toContain('argon2');
    const token = await login(t.app, 'li.lei', 'Passw0rd1');
    const me = await call<{ auth: Record<string, true> }>(t.app, token, 'GET', '/api/agent');
    expect(Object.keys(me.body.data.auth).sort()).toEqual(['A01', 'A02', 'A04', 'A05', 'A09_A07_A01']);
    const detail = await call<UserDto>(t.app, t.adminToken, 'GET', `/api/user/detail?id=${u.id}`);
    expect(detail.body.data).toEqual({ ...u, lastlogin: expect.any(Number) });
    expect((await call(t.app, t.adminToken, 'GET', '/api/user/detail?id=nope')).status).toBe(404);
    expect((await call(t.app, t.adminToken, 'GET', '/api/user/listRole')).body.data).toEqual([
      { id: expect.any(String), name: '管理员' },
      { id: agentRole, name: '客服' },
    ]);
  });

  it('pages, searches literally and filters by department', async () => {
    t = await createSeededApp();
    const { organ } = await fixtures(t);
    for (const name of ['alice', 'bob', 'carol_x', 'carolyx']) await insertUser(t.db, { username: name });
    await insertUser(t.db, { username: 'dave', organ });
    type P = { list: UserDto[]; total: number; page: number; size: number };
    const p1 = (await call<P>(t.app, t.adminToken, 'GET', '/api/user/page?ps=2')).body.data;
    expect(p1).toMatchObject({ total: 6, page: 1, size: 2 });
    expect(p1.list).toHaveLength(2);
    const p3 = (await call<P>(t.app, t.adminToken, 'GET', '/api/user/page?ps=2&p=3')).body.data;
    expect(p3.list.map((u) => u.username)).toEqual(['carolyx', 'dave']);
    const q = (await call<P>(t.app, t.adminToken, 'GET', '/api/user/page?q=CAROL_')).body.data;
    expect(q.list.map((u) => u.username)).toEqual(['carol_x']);
    const inOrgan = (await call<P>(t.app, t.adminToken, 'GET', `/api/user/page?organ=${organ}`)).body.data;
    expect(inOrgan.list.map((u) => u.username).sort()).toEqual(['admin', 'dave']);
    expectError(await call(t.app, t.adminToken, 'GET', '/api/user/page?p=0'), 'invalid_field');
  });

  it('A09_A03_A13 alone may manage users; no department code is 403', async () => {
    t = await createSeededApp();
    const a13 = await userWithCodes(t, ['A09_A03_A13']);
    expect((await call(t.app, a13.token, 'GET', '/api/user/page')).body.success).toBe(true);
    const none = await userWithCodes(t, ['A09_A02_A02']);
    expect((await call(t.app, none.token, 'GET', '/api/user/page')).status).toBe(403);
  });

  it('refuses bad input and leaves the data unchanged', async () => {
    t = await createSeededApp();
    const { organ, agentRole } = await fixtures(t);
    const taken = await saveUser(t, {
      username: 'taken',
      password: 'Passw0rd1',
      uname: 'T',
      email: 't@x.cn',
      mobile: '13900000000',
      roles: [agentRole],
    });
    const ok = { username: 'fresh', password: 'Passw0rd1', uname: 'F', roles: [agentRole] };
    const before = await snapshot(t.db);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, username: 'taken' }, 'username_repeat'],
      [{ ...ok, mobile: '13900000000' }, 'mobile_email_exists'],
      [{ ...ok, email: 't@x.cn' }, 'mobile_email_exists'],
      [{ ...ok, mobile: '12345' }, 'phone_format'],
      [{ ...ok, email: 'a@b.cn, nope' }, 'email_format'],
      [{ ...ok, uname: 'u'.repeat(51) }, 'too_long'],
      [{ ...ok, username: 'a'.repeat(33) }, 'too_long'],
      [{ ...ok, username: 'with space' }, 'invalid_field'],
      [{ ...ok, password: 'abcdefgh' }, 'password_weak'],
      [{ ...ok, uname: '  ' }, 'required'],
      [{ username: 'fresh', uname: 'F' }, 'required'],
      [{ ...ok, roles: ['missing'] }, 'invalid_field'],
      [{ ...ok, organs: [organ, 'missing'] }, 'invalid_field'],
      [{ ...ok, usertype: '2' }, 'invalid_field'],
      // A user gets its permissions from its roles: none, and it could not log in.
      [{ ...ok, roles: [] }, 'role_required'],
      [{ username: 'fresh', password: 'Passw0rd1', uname: 'F' }, 'role_required'],
    ];
    for (const [body, key] of cases) expectError(await saveUser(t, body), key);
    const upd = (body: Record<string, unknown>) =>
      call(t!.app, t!.adminToken, 'POST', '/api/user/update', body);
    expectError(await upd({ id: taken.body.data.id, username: 'admin', uname: 'T' }), 'username_repeat');
    expectError(
      await upd({ id: taken.body.data.id, username: 'taken', uname: 'T', password: 'weakweak' }),
      'password_weak',
    );
    expectError(
      await upd({ id: taken.body.data.id, username: 'taken', uname: 'T', roles: [] }),
      'role_required',
    );
    expect(await snapshot(t.db)).toBe(before);
  });

  it('two concurrent saves of one username: one wins, the other gets username_repeat', async () => {
    t = await createSeededApp();
    const { agentRole } = await fixtures(t);
    const body = { username: 'twin', password: 'Passw0rd1', uname: 'Twin', roles: [agentRole] };
    const results = await Promise.all([saveUser(t, body), saveUser(t, body)]);
    expect(results.filter((r) => r.body.success)).toHaveLength(1);
    expectError(
      results.find((r) => !r.body.success)!,
      'username_repeat',
    );
  });

  it('a failure part-way through a save stores nothing', async () => {
    t = await createSeededApp();
    const { organ, agentRole } = await fixtures(t);
    const before = await snapshot(t.db);
    vi.spyOn(userRepo, 'setRoles').mockRejectedValueOnce(new Error('disk full'));
    const r = await saveUser(t, {
      username: 'half',
      password: 'Passw0rd1',
      uname: 'H',
      organs: [organ],
      roles: [agentRole],
    });
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ success: false, key: 'server_error' });
    expect(await snapshot(t.db)).toBe(before);
  });

  it('updates: blank password keeps it, a new one ends the sessions, blanks clear contact fields', async () => {
    t = await createSeededApp();
    const { organ, agentRole } = await fixtures(t);
    const created = (
      await saveUser(t, {
        username: 'amy',
        password: 'Passw0rd1',
        uname: 'Amy',
        email: 'a@x.cn',
        mobile: '13700000000',
        roles: [agentRole],
      })
    ).body.data;
    const amy = await login(t.app, 'amy', 'Passw0rd1');
    const base = { id: created.id, username: 'amy', uname: 'Amy 2' };
    const r1 = await call<UserDto>(t.app, t.adminToken, 'POST', '/api/user/update', {
      ...base,
      password: '',
      email: '',
      organ,
    });
    expect(r1.body.data).toMatchObject({
      uname: 'Amy 2',
      email: '',
      mobile: '13700000000',
      organ,
      organs: [organ],
    });
    expect((await call(t.app, amy, 'GET', '/api/agent')).status).toBe(200);
    await login(t.app, 'amy', 'Passw0rd1');
    await call(t.app, t.adminToken, 'POST', '/api/user/update', {
      ...base,
      password: 'NewPassw0rd',
      organs: [],
    });
    expect((await call(t.app, amy, 'GET', '/api/agent')).status).toBe(401);
    const after = (await call<UserDto>(t.app, t.adminToken, 'GET', `/api/user/detail?id=${created.id}`)).body
      .data;
    expect(after).toMatchObject({ organ: null, organs: [] });
    await login(t.app, 'amy', 'NewPassw0rd');
  });

  it('deletes a user and their links; nobody deletes themselves', async () => {
    t = await createSeededApp();
    const { organ, agentRole } = await fixtures(t);
    const u = (
      await saveUser(t, {
        username: 'gone',
        password: 'Passw0rd1',
        uname: 'G',
        organs: [organ],
        roles: [agentRole],
      })
    ).body.data;
    const links = await count(t.db, 'user_role');
    expect((await call(t.app, t.adminToken, 'GET', `/api/user/delete?id=${u.id}`)).body.success).toBe(true);
    expect(await count(t.db, 'user_role')).toBe(links - 1);
    expect(
      await t.db.kysely.selectFrom('user_organ').selectAll().where('userid', '=', u.id).execute(),
    ).toEqual([]);
    const admin = (
      await t.db.kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    const before = await snapshot(t.db);
    expectError(await call(t.app, t.adminToken, 'POST', '/api/user/delete', { id: admin }), 'self_delete');
    expect(await snapshot(t.db)).toBe(before);
  });
});

describe('self-protection and privilege', () => {
  it('the all-powerful account cannot demote or disable itself', async () => {
    t = await createSeededApp();
    const admin = await t.db.kysely
      .selectFrom('users')
      .select(['id'])
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    const before = await snapshot(t.db);
    const base = { id: admin.id, username: 'admin', uname: 'admin' };
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/user/update', { ...base, usertype: '1' }),
      'self_admin_removal',
    );
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/user/update', { ...base, disabled: true }),
      'self_admin_removal',
    );
    expect(await snapshot(t.db)).toBe(before);
  });

  it('a role manager cannot drop the roles that let them manage roles', async () => {
    t = await createSeededApp();
    const { agentRole } = await fixtures(t);
    // Holding the agent role's codes too, so gaining that role is not itself refused.
    const u = await userWithCodes(t, [
      'A09_A02_A01',
      'A09_A02_A02',
      'A01',
      'A02',
      'A04',
      'A05',
      'A09_A07_A01',
    ]);
    const before = await snapshot(t.db);
    const body = { id: u.id, username: u.username, uname: 'me', roles: [agentRole] };
    expectError(await call(t.app, u.token, 'POST', '/api/user/update', body), 'self_admin_removal');
    expect(await snapshot(t.db)).toBe(before);
    // Keeping the role is fine.
    expect(
      (await call(t.app, u.token, 'POST', '/api/user/update', { ...body, roles: [u.roleid, agentRole] })).body
        .success,
    ).toBe(true);
  });

  it('only the all-powerful account creates, edits or deletes another one', async () => {
    t = await createSeededApp();
    const manager = await userWithCodes(t, ['A09_A02_A01']);
    const admin = (
      await t.db.kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    const before = await snapshot(t.db);
    expect(
      (
        await saveUser(
          t,
          { username: 'boss2', password: 'Passw0rd1', uname: 'B', usertype: '0' },
          manager.token,
        )
      ).status,
    ).toBe(403);
    expect((await call(t.app, manager.token, 'POST', '/api/user/delete', { id: admin })).status).toBe(403);
    expect(
      (
        await call(t.app, manager.token, 'POST', '/api/user/update', {
          id: admin,
          username: 'admin',
          uname: 'x',
          password: 'Hijack123',
        })
      ).status,
    ).toBe(403);
    expect(await snapshot(t.db)).toBe(before);
  });
});

describe('no escalation through user management', () => {
  it('a user manager cannot hand out roles with codes they do not hold', async () => {
    t = await createSeededApp();
    const { agentRole } = await fixtures(t);
    const adminRole = (
      await t.db.kysely.selectFrom('role').select('id').where('name', '=', '管理员').executeTakeFirstOrThrow()
    ).id;
    const m = await userWithCodes(t, ['A09_A02_A01', 'A01', 'A02', 'A04', 'A05', 'A09_A07_A01']);
    const before = await snapshot(t.db);
    const body = { username: 'newbie', password: 'Passw0rd1', uname: 'N' };
    expect((await saveUser(t, { ...body, roles: [adminRole] }, m.token)).status).toBe(403);
    const self = { id: m.id, username: m.username, uname: 'me', roles: [m.roleid, adminRole] };
    expect((await call(t.app, m.token, 'POST', '/api/user/update', self)).status).toBe(403);
    expect(await snapshot(t.db)).toBe(before);
    // Roles made only of codes the manager holds may be given.
    expect((await saveUser(t, { ...body, roles: [agentRole] }, m.token)).body.success).toBe(true);
  });
});

describe('skill group members', () => {
  it('replaces the members and keeps primary departments consistent', async () => {
    t = await createSeededApp();
    const { organ } = await fixtures(t);
    const a = await insertUser(t.db);
    const b = await insertUser(t.db);
    const admin = (
      await t.db.kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    const r = await call(t.app, t.adminToken, 'POST', '/api/imAgent/skill/agent/save', {
      organid: organ,
      userids: [a.id, b.id],
    });
    expect(r.body).toMatchObject({ success: true, data: null });
    const users = await call<{ username: string }[]>(
      t.app,
      t.adminToken,
      'GET',
      `/api/common/userList?organ=${organ}`,
    );
    expect(users.body.data.map((u) => u.username).sort()).toEqual([a.username, b.username].sort());
    const row = (id: string) =>
      t!.db.kysely.selectFrom('users').select('organ').where('id', '=', id).executeTakeFirstOrThrow();
    expect((await row(a.id)).organ).toBe(organ);
    expect((await row(admin)).organ).toBeNull();

    const before = await snapshot(t.db);
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/imAgent/skill/agent/save', {
        organid: organ,
        userids: [a.id, 'ghost'],
      }),
      'invalid_field',
    );
    expect(
      (
        await call(t.app, t.adminToken, 'POST', '/api/imAgent/skill/agent/save', {
          organid: 'nope',
          userids: [],
        })
      ).status,
    ).toBe(404);
    expect(await snapshot(t.db)).toBe(before);
  });
});
