import { describe, expect, it } from 'vitest';
import { call, expectError, insertRole, snapshot, userWithCodes, perTest } from '../../../test/factories.js';
import type { RoleDto } from './role.presenter.js';

const env = perTest();

describe('role permissions', () => {
  it('needs A09_A02_A02', async () => {
    const t = await env.seeded();
    const without = await userWithCodes(t, ['A09_A02_A01', 'A09_A03_A13']);
    const r = await call(t.app, without.token, 'GET', '/api/role/list');
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, code: 403 });
    const before = await snapshot(t.db);
    expect((await call(t.app, without.token, 'POST', '/api/role/save', { name: 'x' })).status).toBe(403);
    expect(
      (
        await call(t.app, without.token, 'POST', '/api/role/auth/save', {
          id: without.roleid,
          codes: ['A09_A02_A02'],
        })
      ).status,
    ).toBe(403);
    expect(await snapshot(t.db)).toBe(before);
    const withIt = await userWithCodes(t, ['A09_A02_A02']);
    expect((await call(t.app, withIt.token, 'GET', '/api/role/list')).body.success).toBe(true);
  });
});

describe('roles', () => {
  it('creates, lists with user counts, updates, sets codes and deletes', async () => {
    const t = await env.seeded();
    const list0 = (await call<RoleDto[]>(t.app, t.adminToken, 'GET', '/api/role/list')).body.data;
    expect(list0.map((r) => [r.name, r.usercount])).toEqual([
      ['管理员', 1],
      ['客服', 0],
    ]);
    const role = (
      await call<RoleDto>(t.app, t.adminToken, 'POST', '/api/role/save', {
        name: ' QA ',
        description: 'quality',
      })
    ).body.data;
    expect(role).toMatchObject({ name: 'QA', description: 'quality', usercount: 0 });
    const upd = await call<RoleDto>(t.app, t.adminToken, 'POST', '/api/role/update', {
      id: role.id,
      name: 'QA2',
    });
    expect(upd.body.data).toMatchObject({ name: 'QA2', description: 'quality' });

    // Form-encoded repeated fields set the codes.
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/role/auth/save',
      payload: `id=${role.id}&codes=A11&codes=A11_A01&codes=A11`,
      headers: { authorization: t.adminToken, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.json()).toMatchObject({ success: true, data: null });
    expect((await call(t.app, t.adminToken, 'GET', `/api/role/auth?id=${role.id}`)).body.data).toEqual([
      'A11',
      'A11_A01',
    ]);
    await call(t.app, t.adminToken, 'POST', '/api/role/auth/save', { id: role.id, codes: ['A04'] });
    expect((await call(t.app, t.adminToken, 'GET', `/api/role/auth?id=${role.id}`)).body.data).toEqual([
      'A04',
    ]);

    expect((await call(t.app, t.adminToken, 'POST', '/api/role/delete', { id: role.id })).body.success).toBe(
      true,
    );
    expect(
      await t.db.kysely.selectFrom('role_auth').selectAll().where('roleid', '=', role.id).execute(),
    ).toEqual([]);
  });

  it('refuses bad input and leaves the data unchanged', async () => {
    const t = await env.seeded();
    const agentRole = (
      await t.db.kysely.selectFrom('role').select('id').where('name', '=', '客服').executeTakeFirstOrThrow()
    ).id;
    const adminRole = (
      await t.db.kysely.selectFrom('role').select('id').where('name', '=', '管理员').executeTakeFirstOrThrow()
    ).id;
    const before = await snapshot(t.db);
    const cases: [string, Record<string, unknown>, string][] = [
      ['/api/role/save', { name: '客服' }, 'name_repeat'],
      ['/api/role/save', { name: '' }, 'required'],
      ['/api/role/save', { name: 'n'.repeat(51) }, 'too_long'],
      ['/api/role/save', { name: 'ok', description: 'd'.repeat(256) }, 'too_long'],
      ['/api/role/update', { id: agentRole, name: '管理员' }, 'name_repeat'],
      ['/api/role/auth/save', { id: agentRole, codes: ['A01', 'Z99'] }, 'invalid_field'],
      ['/api/role/delete', { id: adminRole }, 'role_has_users'],
    ];
    for (const [url, body, key] of cases)
      expectError(await call(t.app, t.adminToken, 'POST', url, body), key);
    expect(
      (await call(t.app, t.adminToken, 'POST', '/api/role/update', { id: 'nope', name: 'x' })).status,
    ).toBe(404);
    expect(await snapshot(t.db)).toBe(before);
  });

  it('a role manager only grants codes they hold', async () => {
    const t = await env.seeded();
    const u = await userWithCodes(t, ['A09_A02_A02', 'A01']);
    const other = await insertRole(t.db, []);
    const before = await snapshot(t.db);
    const save = (id: string, codes: string[]) =>
      call(t.app, u.token, 'POST', '/api/role/auth/save', { id, codes });
    expect((await save(u.roleid, ['A09_A02_A02', 'A01', 'A09'])).status).toBe(403);
    expect((await save(other, ['A06'])).status).toBe(403);
    expect(await snapshot(t.db)).toBe(before);
    expect((await save(other, ['A01'])).body.success).toBe(true);
  });

  it('nobody removes their own right to manage roles', async () => {
    const t = await env.seeded();
    const u = await userWithCodes(t, ['A09_A02_A02', 'A01']);
    const before = await snapshot(t.db);
    expectError(
      await call(t.app, u.token, 'POST', '/api/role/auth/save', { id: u.roleid, codes: ['A01'] }),
      'self_admin_removal',
    );
    expectError(
      await call(t.app, u.token, 'POST', '/api/role/delete', { id: u.roleid }),
      'self_admin_removal',
    );
    expect(await snapshot(t.db)).toBe(before);
    // With the right also coming from a second role, the first may lose it.
    const second = await insertRole(t.db, ['A09_A02_A02']);
    await t.db.kysely
      .insertInto('user_role')
      .values({ userid: u.id, roleid: second, orgi: 'kefu' })
      .execute();
    expect(
      (await call(t.app, u.token, 'POST', '/api/role/auth/save', { id: u.roleid, codes: ['A01'] })).body
        .success,
    ).toBe(true);
    // The all-powerful account keeps every right whatever its roles say.
    const adminRole = (
      await t.db.kysely.selectFrom('role').select('id').where('name', '=', '管理员').executeTakeFirstOrThrow()
    ).id;
    expect(
      (await call(t.app, t.adminToken, 'POST', '/api/role/auth/save', { id: adminRole, codes: [] })).body
        .success,
    ).toBe(true);
  });
});
