import { describe, expect, it } from 'vitest';
import { insertUser } from '../../../test/harness.js';
import {
  call,
  expectError,
  snapshot,
  userWithCodes,
  type SeededApp,
  perTest,
} from '../../../test/factories.js';
import { uniqueViolationColumns } from '../../platform/db/unique.js';
import type { OrganDto } from './organ.presenter.js';

const env = perTest();

const save = (s: SeededApp, body: Record<string, unknown>, token = s.adminToken) =>
  call<OrganDto>(s.app, token, 'POST', '/api/organ/save', body);

describe('department permissions', () => {
  it('either A09_A02_A01 or A09_A03_A13 suffices; neither is 403', async () => {
    const t = await env.seeded();
    const a13 = await userWithCodes(t, ['A09_A03_A13']);
    const a01 = await userWithCodes(t, ['A09_A02_A01']);
    const none = await userWithCodes(t, ['A01', 'A09_A02_A02']);
    expect((await call(t.app, a13.token, 'GET', '/api/organ/list')).body.success).toBe(true);
    expect((await save(t, { name: 'By A13' }, a13.token)).body.success).toBe(true);
    expect((await call(t.app, a01.token, 'GET', '/api/organ/list')).body.success).toBe(true);
    const before = await snapshot(t.db);
    const denied = await call(t.app, none.token, 'GET', '/api/organ/list');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ success: false, code: 403, key: 'forbidden' });
    expect((await save(t, { name: 'Nope' }, none.token)).status).toBe(403);
    expect(await snapshot(t.db)).toBe(before);
  });
});

describe('department tree', () => {
  it('creates, lists with user counts, updates and deletes', async () => {
    const t = await env.seeded();
    const sales = (await save(t, { name: ' Sales ', skill: true })).body.data;
    expect(sales).toMatchObject({ name: 'Sales', parentid: null, skill: true, usercount: 0 });
    const east = (await save(t, { name: 'East', parentid: sales.id })).body.data;
    expect(east).toMatchObject({ parentid: sales.id, skill: false });
    await insertUser(t.db, { organ: east.id });
    const list = (await call<OrganDto[]>(t.app, t.adminToken, 'GET', '/api/organ/list')).body.data;
    expect(list.map((o) => o.name)).toEqual(['客服部', 'Sales', 'East']);
    expect(list.find((o) => o.name === '客服部')?.usercount).toBe(1);
    expect(list.find((o) => o.id === east.id)).toMatchObject({ usercount: 1, sortindex: expect.any(Number) });

    const upd = await call<OrganDto>(t.app, t.adminToken, 'POST', '/api/organ/update', {
      id: sales.id,
      name: 'Sales 2',
      skill: '0',
    });
    expect(upd.body.data).toMatchObject({ id: sales.id, name: 'Sales 2', skill: false, parentid: null });
    const created = (await save(t, { name: 'Temp' })).body.data;
    const del = await call(t.app, t.adminToken, 'GET', `/api/organ/delete?id=${created.id}`);
    expect(del.body).toMatchObject({ success: true, data: null });
    expect((await call<OrganDto[]>(t.app, t.adminToken, 'GET', '/api/organ/list')).body.data).toHaveLength(3);
  });

  it('refuses bad input and leaves the data unchanged', async () => {
    const t = await env.seeded();
    const root = (await save(t, { name: 'Root' })).body.data;
    const child = (await save(t, { name: 'Child', parentid: root.id })).body.data;
    const grand = (await save(t, { name: 'Grand', parentid: child.id })).body.data;
    await insertUser(t.db, { organ: grand.id });
    const before = await snapshot(t.db);
    const cases: [string, Record<string, unknown>, string][] = [
      ['/api/organ/save', { name: 'Root' }, 'name_repeat'],
      ['/api/organ/save', { name: '   ' }, 'required'],
      ['/api/organ/save', {}, 'required'],
      ['/api/organ/save', { name: 'x'.repeat(51) }, 'too_long'],
      ['/api/organ/save', { name: 'Orphan', parentid: 'missing' }, 'organ_parent_invalid'],
      ['/api/organ/save', { name: 'Flag', skill: 'maybe' }, 'invalid_field'],
      ['/api/organ/update', { id: root.id, name: 'Child' }, 'name_repeat'],
      ['/api/organ/update', { id: root.id, name: 'Root', parentid: root.id }, 'category_parent_self'],
      ['/api/organ/update', { id: root.id, name: 'Root', parentid: grand.id }, 'category_parent_self'],
      ['/api/organ/delete', { id: root.id }, 'organ_has_children'],
      ['/api/organ/delete', { id: grand.id }, 'organ_has_users'],
    ];
    for (const [url, body, key] of cases)
      expectError(await call(t.app, t.adminToken, 'POST', url, body), key);
    const missing = await call(t.app, t.adminToken, 'POST', '/api/organ/update', { id: 'nope', name: 'N' });
    expect(missing.status).toBe(404);
    expect(await snapshot(t.db)).toBe(before);
  });

  it('two concurrent saves of one name: one wins, the other gets name_repeat (index-backed)', async () => {
    const t = await env.seeded();
    const results = await Promise.all([
      save(t, { name: 'Race' }),
      save(t, { name: 'Race' }),
      save(t, { name: 'Race' }),
    ]);
    expect(results.filter((r) => r.body.success)).toHaveLength(1);
    for (const r of results.filter((x) => !x.body.success)) expectError(r, 'name_repeat');
  });

  it('recognises a unique violation of the dialect under test', async () => {
    const t = await env.seeded();
    const row = await t.db.kysely.selectFrom('organ').selectAll().executeTakeFirstOrThrow();
    const err = await t.db.kysely
      .insertInto('organ')
      .values({ ...row, id: 'other' })
      .execute()
      .catch((e: unknown) => e);
    expect(uniqueViolationColumns(err)).toEqual(['orgi', 'name']);
    expect(uniqueViolationColumns(new Error('boom'))).toBeNull();
  });
});
