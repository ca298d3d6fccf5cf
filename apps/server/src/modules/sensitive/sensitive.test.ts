import { describe, expect, it } from 'vitest';
import type {
  AuditLogDto,
  ExportJobDto,
  Page,
  PiiRules,
  SensitiveBatchResult,
  SensitiveCheckResult,
  SensitiveWordDto,
} from '@kefu/protocol';
import ExcelJS from 'exceljs';
import { call, count, expectError, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import { exportRunner } from '../export/export.service.js';
import { seedConversation } from '../history/history.fixtures.js';

const env = perTest();

const admin = <T>(t: SeededApp, url: string, body?: Record<string, unknown>) =>
  call<T>(t.app, t.adminToken, body ? 'POST' : 'GET', url, body);

const auditOf = async (t: SeededApp, action: string) =>
  (await admin<Page<AuditLogDto>>(t, `/api/records/list?action=${action}`)).body.data.list;

describe('sensitive words admin (A09_A03_A06)', () => {
  it('save, page, update, delete, batdel on both lists; a duplicate by normalised form is refused', async () => {
    const t = await env.seeded();
    const saved = await admin<SensitiveWordDto>(t, '/api/sensitive/agent/save', {
      word: '代开发票',
      action: 'block',
    });
    expect(saved.body.data).toMatchObject({ kind: 'agent', word: '代开发票', action: 'block' });
    // Traditional characters and spaces fold to the same word.
    expectError(
      await admin(t, '/api/sensitive/agent/save', { word: '代 開 發 票' }),
      'sensitive_word_exists',
    );
    // The visitor list is separate.
    const u = await admin<SensitiveWordDto>(t, '/api/sensitive/user/save', { word: '代開發票' });
    expect(u.body.data).toMatchObject({ kind: 'user', action: 'mask' });
    await admin(t, '/api/sensitive/agent/save', { word: '赌博', action: 'alert' });

    const page = await admin<Page<SensitiveWordDto>>(t, '/api/sensitive/agent/page?p=1&ps=10');
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.list.map((w) => w.word)).toEqual(['赌博', '代开发票']);
    const found = await admin<Page<SensitiveWordDto>>(t, '/api/sensitive/agent/page?q=%E8%B5%8C');
    expect(found.body.data.list.map((w) => w.word)).toEqual(['赌博']);
    const byAction = await admin<Page<SensitiveWordDto>>(t, '/api/sensitive/agent/page?action=block');
    expect(byAction.body.data.list.map((w) => w.word)).toEqual(['代开发票']);

    const upd = await admin<SensitiveWordDto>(t, '/api/sensitive/agent/update', {
      id: saved.body.data.id,
      action: 'mask',
    });
    expect(upd.body.data).toMatchObject({ word: '代开发票', action: 'mask' });
    const gamble = page.body.data.list[0]!;
    expectError(
      await admin(t, '/api/sensitive/agent/update', { id: gamble.id, word: '代开 发票' }),
      'sensitive_word_exists',
    );
    // The id belongs to the agent list: not found through the visitor list.
    expectError(
      await admin(t, '/api/sensitive/user/update', { id: gamble.id, action: 'mask' }),
      'not_found',
      404,
    );

    await admin(t, '/api/sensitive/agent/delete', { id: gamble.id });
    const del = await admin<{ removed: number }>(t, '/api/sensitive/user/batdel', { ids: [u.body.data.id] });
    expect(del.body.data.removed).toBe(1);
    expect(await count(t.db, 'sensitive_word')).toBe(1);
    expectError(await admin(t, '/api/sensitive/agent/delete', { id: gamble.id }), 'not_found', 404);

    // Every change has its audit record; the update keeps the word before and after.
    const rec = await auditOf(t, 'sensitive.agent.update');
    expect(rec).toHaveLength(1);
    expect(JSON.parse(rec[0]!.before!)).toMatchObject({ action: 'block' });
    expect(JSON.parse(rec[0]!.after!)).toMatchObject({ action: 'mask' });
    expect(rec[0]).toMatchObject({ username: 'admin', target: saved.body.data.id, method: 'POST' });
    expect(await auditOf(t, 'sensitive.agent.save')).toHaveLength(2);
    expect(await auditOf(t, 'sensitive.agent.delete')).toHaveLength(1);
    expect(await auditOf(t, 'sensitive.user.batdel')).toHaveLength(1);
    // Refused calls and reads are not recorded.
    expect(await auditOf(t, 'sensitive.agent.page')).toHaveLength(0);
    expect((await admin<Page<AuditLogDto>>(t, '/api/records/list?q=sensitive')).body.data.total).toBe(6);
  });

  it('bad input stores nothing: empty, 500 characters, only symbols, unknown action, unknown list', async () => {
    const t = await env.seeded();
    const bad: Array<[string, Record<string, unknown>, string, number?]> = [
      ['/api/sensitive/agent/save', { word: '' }, 'required'],
      ['/api/sensitive/agent/save', { word: '   ' }, 'required'],
      ['/api/sensitive/agent/save', { word: '字'.repeat(500) }, 'too_long'],
      ['/api/sensitive/agent/save', { word: '!!! ...' }, 'invalid_field'],
      ['/api/sensitive/agent/save', { word: 'ok', action: 'delete' }, 'invalid_field'],
      ['/api/sensitive/agent/update', { id: 'nope', action: 'mask' }, 'not_found', 404],
    ];
    for (const [url, body, key, code] of bad) expectError(await admin(t, url, body), key, code);
    expect((await admin(t, '/api/sensitive/other/save', { word: 'x' })).status).toBe(404);
    expect(await count(t.db, 'sensitive_word')).toBe(0);
  });

  it('batadd: 10,000 words in one transaction, duplicates (in the list or the batch) and invalid lines reported', async () => {
    const t = await env.seeded();
    await admin(t, '/api/sensitive/user/save', { word: '词0' });
    const words = Array.from({ length: 10_000 }, (_, i) => `词${i}`);
    words.push('詞1', '', '  ', '$$$', 'x'.repeat(51));
    const r = await admin<SensitiveBatchResult>(t, '/api/sensitive/user/batadd', {
      words: words.join('\n'),
      action: 'alert',
    });
    expect(r.body.success).toBe(true);
    expect(r.body.data.added).toBe(9_999);
    expect(r.body.data.duplicates.sort()).toEqual(['詞1', '词0'].sort());
    expect(r.body.data.invalid).toEqual([
      { word: '$$$', key: 'invalid_field' },
      { word: 'x'.repeat(51), key: 'too_long' },
    ]);
    expect(await count(t.db, 'sensitive_word')).toBe(10_000);
    const page = await admin<Page<SensitiveWordDto>>(t, '/api/sensitive/user/page?ps=1');
    expect(page.body.data).toMatchObject({ total: 10_000, list: [{ word: '词9999', action: 'alert' }] });
    const tooMany = Array.from({ length: 20_001 }, (_, i) => `w${i}`).join('\n');
    expectError(await admin(t, '/api/sensitive/user/batadd', { words: tooMany }), 'too_long');
    expect(await count(t.db, 'sensitive_word')).toBe(10_000);
  });

  it('check: the composer asks what a draft would hit in the agent list', async () => {
    const t = await env.seeded();
    await admin(t, '/api/sensitive/agent/save', { word: '代开发票', action: 'block' });
    await admin(t, '/api/sensitive/agent/save', { word: '退款', action: 'mask' });
    const agent = await userWithCodes(t, ['A01']);
    const r = await call<SensitiveCheckResult>(t.app, agent.token, 'POST', '/api/sensitive/check', {
      text: '可以退款，也可以代開發票',
    });
    expect(r.body.data).toMatchObject({ action: 'block', block: ['代开发票'], mask: ['退款'] });
    expect(r.body.data.text).toBe('可以＊＊，也可以＊＊＊＊'.replace('＊＊＊＊', '代開發票'));
    const clean = await call<SensitiveCheckResult>(t.app, agent.token, 'POST', '/api/sensitive/check', {
      text: '您好',
    });
    expect(clean.body.data).toEqual({ action: null, block: [], mask: [], alert: [], text: '您好' });
  });

  it('personal-data masking rules: off by default, switched per tenant, read by every user', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01']);
    const read = async () =>
      (await call<PiiRules>(t.app, agent.token, 'GET', '/api/sensitive/pii')).body.data;
    expect(await read()).toEqual({ phone: false, idcard: false, bankcard: false });
    const saved = await admin<PiiRules>(t, '/api/sensitive/pii/save', { phone: true, bankcard: '1' });
    expect(saved.body.data).toEqual({ phone: true, idcard: false, bankcard: true });
    expect(await read()).toEqual({ phone: true, idcard: false, bankcard: true });
    expectError(await admin(t, '/api/sensitive/pii/save', { phone: 'maybe' }), 'invalid_field');
    const rec = await auditOf(t, 'sensitive.pii.save');
    expect(rec).toHaveLength(1);
    expect(JSON.parse(rec[0]!.before!)).toEqual({ phone: false, idcard: false, bankcard: false });
  });

  it('the masking rules apply to exported message text', async () => {
    const t = await env.seeded();
    await seedConversation(t, { messages: ['我的手机13812345678，卡号4111 1111 1111 1111'] });
    const exportText = async () => {
      const r = await admin<ExportJobDto>(t, '/api/agentService/expsearch', { tz: 0 });
      await exportRunner(t).idle();
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/export/download?id=${r.body.data.id}`,
        headers: { authorization: t.adminToken },
      });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      return String(wb.worksheets[1]!.getRow(2).getCell(7).value);
    };
    expect(await exportText()).toBe('我的手机13812345678，卡号4111 1111 1111 1111');
    await admin(t, '/api/sensitive/pii/save', { phone: true, bankcard: true });
    expect(await exportText()).toBe('我的手机138****5678，卡号4111 **** **** 1111');
  });

  it('refusals: each call checks its permission code', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01']);
    const setup = await userWithCodes(t, ['A09_A03_A06']);
    const none = await userWithCodes(t, ['A02']);
    const as = (token: string, method: 'GET' | 'POST', url: string, body?: Record<string, unknown>) =>
      call(t.app, token, method, url, body);
    const adminCalls: Array<['GET' | 'POST', string, Record<string, unknown>?]> = [
      ['GET', '/api/sensitive/agent/page'],
      ['POST', '/api/sensitive/user/save', { word: 'x' }],
      ['POST', '/api/sensitive/user/batadd', { words: 'x' }],
      ['POST', '/api/sensitive/agent/update', { id: 'x' }],
      ['POST', '/api/sensitive/agent/delete', { id: 'x' }],
      ['POST', '/api/sensitive/agent/batdel', { ids: ['x'] }],
      ['POST', '/api/sensitive/pii/save', { phone: true }],
      ['GET', '/api/records/list'],
    ];
    for (const [m, url, body] of adminCalls) {
      const r = await as(agent.token, m, url, body);
      expect(r.status, url).toBe(403);
    }
    expect((await as(setup.token, 'GET', '/api/sensitive/agent/page')).status).toBe(200);
    expect((await as(none.token, 'POST', '/api/sensitive/check', { text: 'x' })).status).toBe(403);
    expect((await as(agent.token, 'GET', '/api/sensitive/hits')).status).toBe(403);
    const quality = await userWithCodes(t, ['A11']);
    expect((await as(quality.token, 'GET', '/api/sensitive/hits')).status).toBe(200);
    expect((await call(t.app, null, 'GET', '/api/sensitive/pii')).status).toBe(401);
    expect(await count(t.db, 'sensitive_word')).toBe(0);
  });
});
