import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { call, userWithCodes, perTest } from '../../../test/factories.js';
import type { LoginLogDto } from './loginlog.presenter.js';

const env = perTest();

type PageRes = { list: LoginLogDto[]; total: number; page: number; size: number };

describe('login log', () => {
  it('pages with filters and needs A06_A02_A08', async () => {
    const t = await env.seeded();
    await call(t.app, null, 'POST', '/tokens', { username: 'admin', password: 'wrong' });
    await call(t.app, null, 'POST', '/tokens', { username: 'ghost', password: 'wrong' });
    const viewer = await userWithCodes(t, ['A06_A02_A08']);
    const other = await userWithCodes(t, ['A06_A02_A07']);
    expect((await call(t.app, other.token, 'GET', '/api/analyse/loginLogs')).status).toBe(403);

    const all = (await call<PageRes>(t.app, viewer.token, 'GET', '/api/analyse/loginLogs')).body.data;
    expect(all).toMatchObject({ total: 5, page: 1, size: 20 });
    expect(Object.keys(all.list[0]).sort()).toEqual(
      [
        'browser',
        'createtime',
        'id',
        'ip',
        'os',
        'reason',
        'success',
        'useragent',
        'userid',
        'username',
      ].sort(),
    );
    expect(all.list[0].createtime).toBeGreaterThanOrEqual(all.list[4].createtime);

    const admin = (
      await call<PageRes>(t.app, viewer.token, 'GET', '/api/analyse/loginLogs?username=admin&ps=1&p=2')
    ).body.data;
    expect(admin.total).toBe(2);
    expect(admin.list).toHaveLength(1);
    expect(admin.list[0]).toMatchObject({ username: 'admin' });
    const ghost = (await call<PageRes>(t.app, viewer.token, 'GET', '/api/analyse/loginLogs?username=ghost'))
      .body.data.list[0];
    expect(ghost).toMatchObject({ success: false, reason: 'user_not_found', userid: null });

    const future = Date.now() + 60_000;
    expect(
      (await call<PageRes>(t.app, viewer.token, 'GET', `/api/analyse/loginLogs?begin=${future}`)).body.data
        .total,
    ).toBe(0);
    expect(
      (await call<PageRes>(t.app, viewer.token, 'GET', `/api/analyse/loginLogs?end=${future}&ps=500`)).body
        .data,
    ).toMatchObject({
      total: 5,
      size: 100,
    });
    expect(
      (await call(t.app, viewer.token, 'GET', '/api/analyse/loginLogs?begin=yesterday')).body,
    ).toMatchObject({ key: 'invalid_field' });
  });

  it('exports an .xlsx (the console fetches it with the authorization header)', async () => {
    const t = await env.seeded();
    await call(t.app, null, 'POST', '/tokens', { username: 'admin', password: 'wrong' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/analyse/exLoginLogs?username=admin',
      headers: { authorization: t.adminToken },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="loginlog-.*\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.rowCount).toBe(3);
    expect(ws.getRow(1).getCell(1).value).toBe('用户名');
    expect(ws.getRow(2).getCell(5).value).toBe('失败');
    expect(ws.getRow(2).getCell(6).value).toBe('密码错误');
    expect(ws.getRow(3).getCell(5).value).toBe('成功');
  });
});
