import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AuditLogDto, ExportJobDto, Page } from '@kefu/protocol';
import { call, count, expectError, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import ExcelJS from 'exceljs';
import { exportRunner } from '../export/export.service.js';
import { actionOf, auditable, redact } from './audit.policy.js';

const env = perTest();

const records = async (t: SeededApp, query = '') =>
  (await call<Page<AuditLogDto>>(t.app, t.adminToken, 'GET', `/api/records/list?ps=100${query}`)).body.data;

describe('audit policy', () => {
  it('records changes guarded by setup, monitor or quality codes, exports and password changes', () => {
    expect(auditable('POST', '/api/role/save', 'A09_A02_A02')).toBe(true);
    expect(auditable('GET', '/api/black/delete', 'A09_A03_A10')).toBe(true);
    expect(auditable('GET', '/api/black/list', 'A09_A03_A10')).toBe(false);
    expect(auditable('GET', '/api/monitor/transfer', ['A03_A01', 'A03_A02'])).toBe(true);
    expect(auditable('GET', '/api/analyse/exLoginLogs', 'A06_A02_A08')).toBe(true);
    expect(auditable('GET', '/api/contacts/expids', 'A05')).toBe(true);
    expect(auditable('GET', '/api/records/export', 'A09_A06_A01')).toBe(true);
    expect(auditable('GET', '/api/export/job', ['A01', 'A04'])).toBe(false);
    expect(auditable('GET', '/api/export/download', ['A01', 'A04'])).toBe(false);
    expect(auditable('GET', '/api/agent/history/excelList', ['A01', 'A04'])).toBe(false);
    expect(auditable('POST', '/api/agent/my/updatePassword', undefined)).toBe(true);
    expect(auditable('POST', '/api/talk/tagrelation', 'A01')).toBe(false);
    expect(auditable('POST', '/api/agent/my/sound', undefined)).toBe(false);
    expect(actionOf('/api/sensitive/agent/save')).toBe('sensitive.agent.save');
  });

  it('secrets never reach the log', () => {
    expect(
      JSON.parse(
        redact({ username: 'a', password: 'p', nested: { secret: 's', token: 't', code: '123456' } })!,
      ),
    ).toEqual({ username: 'a', password: '***', nested: { secret: '***', token: '***', code: '***' } });
    expect(redact(null)).toBeNull();
    expect(redact('x'.repeat(30_000))!.length).toBeLessThan(20_100);
  });
});

describe('records (A09_A06_A01)', () => {
  it('one hook records setup changes of every module: who, what, target, before/after, IP, time', async () => {
    const t = await env.seeded();
    const before = Date.now();
    const role = await call<{ id: string }>(t.app, t.adminToken, 'POST', '/api/role/save', { name: 'QA' });
    const roleid = role.body.data.id;
    await call(t.app, t.adminToken, 'POST', '/api/black/save', { userid: 'v-1', controltime: 1 });
    const entries = (await call<Page<{ id: string }>>(t.app, t.adminToken, 'GET', '/api/black/list')).body
      .data;
    await call(t.app, t.adminToken, 'GET', `/api/black/delete?id=${entries.list[0]!.id}`);
    const u = await call<{ id: string }>(t.app, t.adminToken, 'POST', '/api/user/save', {
      username: 'audited',
      password: 'Secret#123',
      uname: 'Audited',
      roles: [roleid],
    });
    expect(u.body, JSON.stringify(u.body)).toMatchObject({ success: true });
    // Not recorded: reads, a refused change, a personal preference.
    await call(t.app, t.adminToken, 'GET', '/api/role/list');
    expectError(await call(t.app, t.adminToken, 'POST', '/api/role/save', { name: '' }), 'required');
    await call(t.app, t.adminToken, 'POST', '/api/agent/my/sound', { warningtone: 0, messagetone: 1 });

    const all = await records(t);
    expect(all.list.map((r) => r.action)).toEqual(['user.save', 'black.delete', 'black.save', 'role.save']);
    const [userSave, blackDelete, , roleSave] = all.list;
    expect(roleSave).toMatchObject({
      username: 'admin',
      method: 'POST',
      path: '/api/role/save',
      target: role.body.data.id,
    });
    expect(JSON.parse(roleSave!.after!)).toMatchObject({ name: 'QA' });
    expect(roleSave!.createtime).toBeGreaterThanOrEqual(before);
    expect(roleSave!.ip).toBeTruthy();
    expect(blackDelete).toMatchObject({ method: 'GET', target: entries.list[0]!.id });
    expect(userSave!.target).toBe(u.body.data.id);
    expect(JSON.stringify(all.list)).not.toContain('Secret#123');

    // Search by words, user, action and time.
    expect((await records(t, '&q=black')).total).toBe(2);
    expect((await records(t, '&action=role.save')).list).toHaveLength(1);
    expect((await records(t, `&begin=${Date.now() + 60_000}`)).total).toBe(0);
    const me = all.list[0]!.userid;
    expect((await records(t, `&userid=${me}`)).total).toBe(4);
  });

  it('a password change is recorded without the password', async () => {
    const t = await env.seeded();
    const u = await userWithCodes(t, ['A01']);
    const r = await call(t.app, u.token, 'POST', '/api/agent/my/updatePassword', {
      oldpassword: u.password,
      password: 'NewPassw0rd!',
    });
    expect(r.body.success).toBe(true);
    const list = (await records(t, '&action=agent.my.updatePassword')).list;
    expect(list).toMatchObject([{ userid: u.id, username: u.username }]);
    expect(JSON.stringify(list)).not.toContain('NewPassw0rd!');
  });

  it('append-only: no call changes a record, and the database refuses updates and deletes', async () => {
    const t = await env.seeded();
    await call(t.app, t.adminToken, 'POST', '/api/role/save', { name: 'R1' });
    expect(await count(t.db, 'audit_log')).toBe(1);
    await expect(t.db.kysely.updateTable('audit_log').set({ username: 'forged' }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.kysely.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    if (t.db.dialect === 'postgres')
      await expect(sql`truncate audit_log`.execute(t.db.kysely)).rejects.toThrow(/append-only/);
    expect(await count(t.db, 'audit_log')).toBe(1);
    for (const verb of ['update', 'delete', 'save'])
      expect((await call(t.app, t.adminToken, 'POST', `/api/records/${verb}`, { id: 'x' })).status).toBe(404);
  });

  it('export: the matching records as a background .xlsx; starting it is recorded', async () => {
    const t = await env.seeded();
    for (const name of ['R1', 'R2', 'R3'])
      await call(t.app, t.adminToken, 'POST', '/api/role/save', { name });
    const r = await call<ExportJobDto>(t.app, t.adminToken, 'GET', '/api/records/export?q=role&tz=-480');
    expect(r.body.data).toMatchObject({ kind: 'records', total: 3 });
    await exportRunner(t).idle();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/export/download?id=${r.body.data.id}`,
      headers: { authorization: t.adminToken },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = wb.worksheets[0]!.getSheetValues().slice(2) as unknown[][];
    expect(rows.map((x) => [x[2], x[3]])).toEqual([
      ['admin', 'role.save'],
      ['admin', 'role.save'],
      ['admin', 'role.save'],
    ]);
    expect(JSON.parse(String(rows[0]![8]))).toMatchObject({ name: 'R3' });
    expect((await records(t, '&action=records.export')).list).toHaveLength(1);
    const other = await userWithCodes(t, ['A05']);
    expect((await call(t.app, other.token, 'GET', '/api/records/export')).status).toBe(403);
  });

  it('refusal: the records list needs A09_A06_A01', async () => {
    const t = await env.seeded();
    const other = await userWithCodes(t, ['A09_A06_A02']);
    expect((await call(t.app, other.token, 'GET', '/api/records/list')).status).toBe(403);
    const allowed = await userWithCodes(t, ['A09_A06_A01']);
    expect((await call(t.app, allowed.token, 'GET', '/api/records/list')).status).toBe(200);
  });
});
