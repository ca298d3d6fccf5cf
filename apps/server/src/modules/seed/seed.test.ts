import { existsSync, readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_CODES, IDENTITY_API } from '@kefu/protocol';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { call, count, login } from '../../../test/factories.js';
import { adminPasswordFile, seed, startupBanner, AGENT_ROLE_CODES } from './seed.service.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function codesOf(app: TestApp, roleName: string): Promise<string[]> {
  const rows = await app.db.kysely
    .selectFrom('role_auth')
    .innerJoin('role', 'role.id', 'role_auth.roleid')
    .select('role_auth.code')
    .where('role.name', '=', roleName)
    .execute();
  return rows.map((r) => r.code).sort();
}

describe('seed', () => {
  it('generates the admin password once, prints it once, keeps it in a 0600 file', async () => {
    t = await createTestApp({ adminPassword: undefined });
    const first = await seed(t.db, t.config);
    expect(first.adminCreated).toBe(true);
    const pw = first.generatedPassword as string;
    expect(pw).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(pw).toMatch(/\d/);
    expect(pw).not.toBe('Admin#12345');
    const file = adminPasswordFile(t.config);
    expect(readFileSync(file, 'utf8').trim()).toBe(pw);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const banner = startupBanner(t.config, first);
    expect(banner).toContain(pw);
    expect(banner).toContain(`http://localhost:${t.config.port}/`);
    expect(banner).toContain(`http://localhost:${t.config.port}/im/demo.html`);

    const before = await Promise.all(
      ['organization', 'organ', 'role', 'role_auth', 'users', 'user_role', 'user_organ'].map((x) =>
        count(t!.db, x as 'organ'),
      ),
    );
    const second = await seed(t.db, t.config);
    expect(second).toEqual({ adminCreated: false });
    expect(startupBanner(t.config, second)).not.toContain(pw);
    const after = await Promise.all(
      ['organization', 'organ', 'role', 'role_auth', 'users', 'user_role', 'user_organ'].map((x) =>
        count(t!.db, x as 'organ'),
      ),
    );
    expect(after).toEqual(before);

    // The generated password works, and stops being kept once the admin changes it.
    const token = await login(t.app, 'admin', pw);
    const r = await call(t.app, token, 'POST', '/api/agent/my/updatePassword', {
      oldpassword: pw,
      password: 'NewPassw0rd',
    });
    expect(r.body.success).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('creates organisation, skill group, roles and admin; uses the configured password', async () => {
    t = await createTestApp({ adminPassword: 'Configured1pw' });
    const res = await seed(t.db, t.config);
    expect(res).toEqual({ adminCreated: true, generatedPassword: undefined });
    expect(existsSync(adminPasswordFile(t.config))).toBe(false);
    expect(startupBanner(t.config, res)).not.toContain('Configured1pw');
    const org = await t.db.kysely.selectFrom('organization').selectAll().executeTakeFirstOrThrow();
    expect(org).toMatchObject({ id: t.config.orgi, title: '在线客服', favlogo: '' });
    const organ = await t.db.kysely.selectFrom('organ').selectAll().executeTakeFirstOrThrow();
    expect(organ).toMatchObject({ name: '客服部', skill: 1, orgi: 'kefu' });
    const demo = await t.db.kysely.selectFrom('access_point').selectAll().executeTakeFirstOrThrow();
    expect(demo).toMatchObject({ id: 'demo', orgi: 'kefu', organ: organ.id });
    expect(await codesOf(t, '管理员')).toEqual([...ALL_PERMISSION_CODES].sort());
    expect(await codesOf(t, '客服')).toEqual([...AGENT_ROLE_CODES].sort());
    const admin = await t.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(admin).toMatchObject({ usertype: '0', organ: organ.id, disabled: 0 });
    expect(admin.password_hash.startsWith('$argon2id$')).toBe(true);
    await login(t.app, 'admin', 'Configured1pw');
  });

  it('never overwrites an edited stock role or an existing admin', async () => {
    t = await createTestApp();
    await seed(t.db, t.config);
    await t.db.kysely.deleteFrom('role_auth').where('code', '=', 'A05').execute();
    await seed(t.db, t.config);
    expect(await codesOf(t, '客服')).not.toContain('A05');
  });

  it('KEFU_LANGUAGE=en names the stock rows in English; a restart in Chinese finds them, no second set', async () => {
    t = await createTestApp({ language: 'en' });
    await seed(t.db, t.config);
    const names = async (table: 'organ' | 'role') =>
      (await t!.db.kysely.selectFrom(table).select('name').orderBy('name').execute()).map((r) => r.name);
    expect(await names('organ')).toEqual(['Customer service']);
    expect(await names('role')).toEqual(['Administrators', 'Agents']);
    expect(await codesOf(t, 'Agents')).toEqual([...AGENT_ROLE_CODES].sort());
    const demo = await t.db.kysely.selectFrom('access_point').select('name').executeTakeFirstOrThrow();
    expect(demo.name).toBe('Demo website');
    await seed(t.db, { ...t.config, language: 'zh' });
    expect(await names('organ')).toEqual(['Customer service']);
    expect(await names('role')).toEqual(['Administrators', 'Agents']);
  });

  it('a company registering in English gets its department and roles named in English', async () => {
    t = await createTestApp({ selfRegister: true });
    await seed(t.db, t.config);
    const r = await call<{ orgi: string }>(t.app, null, 'POST', IDENTITY_API.register, {
      company: 'Acme Ltd',
      username: 'acme_admin',
      password: 'Str0ng#Passw0rd',
      language: 'en',
    });
    expect(r.body.success, JSON.stringify(r.body)).toBe(true);
    const orgi = r.body.data.orgi;
    const roles = await t.db.kysely.selectFrom('role').select('name').where('orgi', '=', orgi).execute();
    expect(roles.map((x) => x.name).sort()).toEqual(['Administrators', 'Agents']);
    const organ = await t.db.kysely.selectFrom('organ').select('name').where('orgi', '=', orgi).execute();
    expect(organ.map((x) => x.name)).toEqual(['Customer service']);
    const bad = await call(t.app, null, 'POST', IDENTITY_API.register, {
      company: 'Other Ltd',
      username: 'other_admin',
      password: 'Str0ng#Passw0rd',
      language: 'fr',
    });
    expect(bad.body).toMatchObject({ success: false });
  });
});
