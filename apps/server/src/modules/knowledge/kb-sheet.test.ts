import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { KbItemDto, KbTypeDto, Page, TopicDto } from '@kefu/protocol';
import { call, count, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import { exported, sheet, sheetRows, XLSX_MIME } from '../../../test/exports.js';
import { upload } from '../media/media-fixtures.js';
import { rank } from './retrieval.js';

const env = perTest();

const importAs = (t: SeededApp, token: string, data: Buffer, tz = -480) =>
  upload(t, `/api/xiaoe/knowledge/import?tz=${tz}`, { authorization: token }, 'kb.xlsx', XLSX_MIME, data);

const items = async (t: SeededApp) =>
  (await call<Page<KbItemDto>>(t.app, t.adminToken, 'GET', '/api/xiaoe/knowledge/list?ps=100')).body.data
    .list;

describe('knowledge .xlsx: template, import, exports', () => {
  it('the template is a sheet with the headers in the caller’s language; filled in, it imports and the robot answers from it', async () => {
    const t = await env.seeded();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/xiaoe/knowledge/download?lang=zh',
      headers: { authorization: t.adminToken },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const rows = await sheetRows(res.rawPayload);
    expect(rows[0]).toEqual([
      '编号',
      '分类',
      '标准问题',
      '相似问题',
      '答案',
      '启用',
      '生效日期',
      '失效日期',
      '服务主题',
    ]);
    expect(rows).toHaveLength(3);

    const r = await importAs(t, t.adminToken, res.rawPayload);
    expect(r.json, JSON.stringify(r.json)).toMatchObject({ success: true, data: { created: 2, updated: 0 } });
    const list = await items(t);
    const returns = list.find((i) => i.question === '如何申请退货？')!;
    expect(returns).toMatchObject({
      typename: '退货',
      similar: ['怎么退货', '退货流程是什么'],
      enabled: true,
    });
    const promo = list.find((i) => i.question === '双十一有什么优惠？')!;
    // Dates are the reader's days (UTC+8 here): from 00:00 to 23:59:59.999.
    expect(new Date(promo.begintime!).toISOString()).toBe('2025-10-31T16:00:00.000Z');
    expect(new Date(promo.endtime!).toISOString()).toBe('2025-11-11T15:59:59.999Z');
    const types = (await call<KbTypeDto[]>(t.app, t.adminToken, 'GET', '/api/xiaoe/knowledgeType/list')).body
      .data;
    expect(types.map((x) => x.name).sort()).toEqual(['售后', '活动', '退货'].sort());
    const found = await rank(t.db, 'kefu', '退货怎么办理', { typeids: null, now: Date.now(), limit: 1 });
    expect(found[0]?.itemid).toBe(returns.id);
  });

  it('a sheet with bad rows stores nothing and reports every bad row; a file that is not a sheet is refused', async () => {
    const t = await env.seeded();
    const topic = (await call<TopicDto>(t.app, t.adminToken, 'POST', '/api/topic/save', { name: '物流' }))
      .body.data;
    const bad = await sheet([
      ['Type', 'Question', 'Answer', 'Similar questions', 'Enabled', 'Valid from', 'Valid until', 'Topics'],
      ['新分类', '用什么快递？', '中通。', '', 'yes', '', '', '物流'],
      ['', '', '没有问题的行', '', '', '', '', ''],
      ['', '用什么快递？', '重复的问题', '', '', '', '', ''],
      ['', '好问题', 'x'.repeat(5001), '', 'maybe', '2025-13-01', '', '不存在'],
      ['', 'q'.repeat(201), 'a', '', '', '2025-02-01', '2025-01-01', ''],
    ]);
    const r = await importAs(t, t.adminToken, bad);
    expect(r.json).toMatchObject({ success: false, key: 'import_rows_invalid' });
    const fields = (r.json as unknown as { fields: Record<string, string> }).fields;
    expect(fields).toMatchObject({
      '3.question': 'required',
      '4.question': 'kb_question_repeat',
      '5.enabled': 'invalid_field',
      '6.question': 'too_long',
    });
    expect(Object.keys(fields).some((k) => k.startsWith('2.'))).toBe(false);
    expect(await count(t.db, 'kb_item')).toBe(0);
    expect(await count(t.db, 'kb_type')).toBe(0);
    expect(await count(t.db, 'kb_question')).toBe(0);
    expect(topic.name).toBe('物流');

    const notXlsx = await importAs(t, t.adminToken, Buffer.from('PK\u0003\u0004 not really a zip'));
    expect(notXlsx.json).toMatchObject({ success: false, key: 'kb_import_file_invalid' });
    const noColumns = await importAs(
      t,
      t.adminToken,
      await sheet([
        ['姓名', '手机'],
        ['张三', '1'],
      ]),
    );
    expect(noColumns.json).toMatchObject({ success: false, key: 'kb_import_file_invalid' });
    const empty = await importAs(t, t.adminToken, await sheet([['标准问题', '答案']]));
    expect(empty.json).toMatchObject({ success: false, key: 'kb_import_file_invalid' });
    const agent = await userWithCodes(t, ['A01']);
    expect((await importAs(t, agent.token, bad)).status).toBe(403);
  });

  it('expall / expsearch export the sheet the import reads: an exported file imports back as updates', async () => {
    const t = await env.seeded();
    const topic = (await call<TopicDto>(t.app, t.adminToken, 'POST', '/api/topic/save', { name: '物流' }))
      .body.data;
    const type = (
      await call<KbTypeDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledgeType/save', { name: '配送' })
    ).body.data;
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/save', {
      typeid: type.id,
      question: '用什么快递？',
      similar: ['发什么快递', '能发顺丰吗'],
      answer: '默认中通，**顺丰**需补差价。',
      topics: [topic.id],
      begintime: Date.UTC(2025, 0, 1) - 8 * 3600_000,
    });
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/save', {
      question: '忘记密码？',
      answer: '找回密码。',
      enabled: false,
    });

    const all = await exported(t, t.adminToken, '/api/xiaoe/knowledge/expall?tz=-480', 'knowledge');
    const rows = await sheetRows(all.file);
    expect(rows).toHaveLength(3);
    const ship = rows.find((r) => r[2] === '用什么快递？')!;
    expect(ship.slice(1)).toEqual([
      '配送',
      '用什么快递？',
      '发什么快递\n能发顺丰吗',
      '默认中通，**顺丰**需补差价。',
      '是',
      '2025-01-01',
      '',
      '物流',
    ]);
    const some = await exported(
      t,
      t.adminToken,
      '/api/xiaoe/knowledge/expsearch?state=disabled&tz=-480',
      'knowledge',
    );
    expect((await sheetRows(some.file)).slice(1).map((r) => r[2])).toEqual(['忘记密码？']);

    // Edited in the sheet and imported back: the same items, updated.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(all.file as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    ws.eachRow((r, n) => {
      if (n > 1 && r.getCell(3).value === '用什么快递？') r.getCell(5).value = '默认韵达。';
    });
    const back = await importAs(t, t.adminToken, Buffer.from(await wb.xlsx.writeBuffer()));
    expect(back.json, JSON.stringify(back.json)).toMatchObject({
      success: true,
      data: { created: 0, updated: 2 },
    });
    const list = await items(t);
    expect(list).toHaveLength(2);
    const edited = list.find((i) => i.question === '用什么快递？')!;
    expect(edited).toMatchObject({
      answer: '默认韵达。',
      typeid: type.id,
      topics: [{ id: topic.id }],
      similar: ['发什么快递', '能发顺丰吗'],
    });
    expect(edited.begintime).toBe(Date.UTC(2025, 0, 1) - 8 * 3600_000);
    expect(list.find((i) => i.question === '忘记密码？')!.enabled).toBe(false);

    const agent = await userWithCodes(t, ['A01']);
    expect((await call(t.app, agent.token, 'GET', '/api/xiaoe/knowledge/expall')).status).toBe(403);
  });
});
