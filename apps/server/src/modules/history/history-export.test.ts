import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ExportJobDto } from '@kefu/protocol';
import { call, expectError, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import { exportRunner } from '../export/export.service.js';
import { seedConversation, seedTag } from './history.fixtures.js';

const env = perTest();

async function finished(t: SeededApp, token: string, job: ExportJobDto): Promise<ExcelJS.Workbook> {
  await exportRunner(t).idle();
  const j = await call<ExportJobDto>(t.app, token, 'GET', `/api/export/job?id=${job.id}`);
  expect(j.body.data.status).toBe('done');
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/export/download?id=${job.id}`,
    headers: { authorization: token },
  });
  expect(res.statusCode).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return wb;
}

const values = (ws: ExcelJS.Worksheet) =>
  ws
    .getSheetValues()
    .slice(2)
    .map((r) => (Array.isArray(r) ? r.slice(1) : []));

describe('history exports', () => {
  it('expsearch exports what the filter (keyword included) matches: conversations and their transcripts', async () => {
    const t = await env.seeded();
    const tag = await seedTag(t, '退款类');
    const created = Date.UTC(2026, 0, 5, 2, 0, 0);
    const hit = await seedConversation(t, {
      createtime: created,
      username: '赵六',
      tags: [tag],
      messages: ['我要退款', { text: '好的', calltype: 'out' }, { text: '撤回了', withdrawn: true }],
    });
    await seedConversation(t, { messages: ['发货了吗'] });
    const r = await call<ExportJobDto>(t.app, t.adminToken, 'POST', '/api/agentService/expsearch', {
      keyword: '退款',
      tz: -480,
    });
    expect(r.body.data).toMatchObject({ kind: 'history', total: 4 });
    const wb = await finished(t, t.adminToken, r.body.data);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['会话', '消息']);
    const convs = values(wb.getWorksheet('会话')!);
    expect(convs).toHaveLength(1);
    expect(convs[0]!.slice(0, 3)).toEqual([hit, '赵六', expect.any(String)]);
    // Times in the reader's zone (UTC+8): 02:00 UTC reads 10:00.
    expect((convs[0]![7] as Date).toISOString()).toBe('2026-01-05T10:00:00.000Z');
    expect(convs[0]![21]).toBe('退款类');
    const msgs = values(wb.getWorksheet('消息')!);
    expect(msgs.map((m) => [m[0], m[1], m[3], m[6], m[7]])).toEqual([
      [hit, 1, '访客', '我要退款', undefined],
      [hit, 2, '坐席', '好的', undefined],
      [hit, 3, '访客', undefined, '是'],
    ]);
  });

  it('expids exports the selected rows within the caller’s scope; nothing matched is a valid empty file', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01']);
    const mine = await seedConversation(t, { agentno: agent.id, messages: ['a', 'b'] });
    const theirs = await seedConversation(t, { agentno: 'someone-else', messages: ['c'] });
    const r = await call<ExportJobDto>(t.app, agent.token, 'POST', '/api/agentService/expids', {
      ids: [mine, theirs],
    });
    const wb = await finished(t, agent.token, r.body.data);
    expect(values(wb.worksheets[0]!).map((x) => x[0])).toEqual([mine]);
    expect(values(wb.worksheets[1]!)).toHaveLength(2);

    const empty = await call<ExportJobDto>(t.app, t.adminToken, 'POST', '/api/agentService/expsearch', {
      keyword: '不存在的词',
    });
    const ewb = await finished(t, t.adminToken, empty.body.data);
    expect(ewb.worksheets.map((w) => w.rowCount)).toEqual([1, 1]);

    expectError(await call(t.app, agent.token, 'POST', '/api/agentService/expids', { ids: [] }), 'required');
    expectError(
      await call(t.app, agent.token, 'POST', '/api/agentService/expsearch', { tz: 9999 }),
      'invalid_field',
    );
    expectError(
      await call(t.app, agent.token, 'POST', '/api/agentService/expsearch', { keyword: '!!!' }),
      'keyword_invalid',
    );
    const none = await userWithCodes(t, ['A05']);
    expect((await call(t.app, none.token, 'POST', '/api/agentService/expsearch', {})).status).toBe(403);
  });
});
