import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { AnalysisResultDto, ExportJobDto } from '@kefu/protocol';
import { call, expectError, perTest, userWithCodes } from '../../../../test/factories.js';
import { insertConversation } from '../../../../test/conversation-rows.js';
import { engineOf } from '../../conversation/index.js';
import { endConversation } from '../../conversation/lifecycle.service.js';
import { setAgentState } from '../../conversation/agentstate.service.js';
import { exportRunner } from '../../export/export.service.js';
import { rollupsOf } from '../index.js';
import { generateDataset } from '../analysis.fixtures.js';
import { dateOfDay, localParts } from '../zone.js';

const env = perTest();
const today = () => dateOfDay(localParts(Date.now(), 'Asia/Shanghai').day);
const q = (extra = '') => `begin=${today()}&end=${today()}${extra}`;
type Res = AnalysisResultDto;

/** A seeded app with `conversations` generated over the last `days` days, rolled up. */
async function withData(days: number, conversations: number, seed: number) {
  const t = await env.seeded();
  const start = Date.now() - (days + 1) * 86_400_000;
  const ds = await generateDataset(t.db, { start, days, conversations, visits: conversations, seed });
  await rollupsOf(t.db)!.idle();
  return { t, ds };
}

describe('/api/analyse input', () => {
  it('refuses a reversed range, a range over 366 days, a non-date, an unknown dimension; clear keys', async () => {
    const t = await env.seeded();
    const get = (url: string) => call<Res>(t.app, t.adminToken, 'GET', url);
    expectError(await get('/api/analyse/userDegree?begin=2026-03-10&end=2026-03-01'), 'range_invalid');
    expectError(await get('/api/analyse/userDegree?begin=2016-01-01&end=2026-01-01'), 'range_too_long');
    expectError(await get('/api/analyse/userDegree?begin=2025-01-01&end=2026-01-02'), 'range_too_long');
    expect((await get('/api/analyse/userDegree?begin=2025-01-01&end=2026-01-01')).body.success).toBe(true);
    expectError(await get('/api/analyse/userDegree?begin=2026-02-30&end=2026-03-01'), 'invalid_field');
    expectError(await get('/api/analyse/userDegree?begin=yesterday&end=2026-03-01'), 'invalid_field');
    expectError(await get('/api/analyse/userDegree?end=2026-03-01'), 'required');
    expectError(await get(`/api/analyse/regionList?${q('&dim=planet')}`), 'dimension_unknown');
    expectError(await get(`/api/analyse/userDegree?${q('&channel=fax')}`), 'invalid_field');
    const ok = await get(`/api/analyse/visitor?${q('&dim=weekday')}`);
    expect(ok.body.data).toMatchObject({
      dim: 'weekday',
      buckets: ['1', '2', '3', '4', '5', '6', '7'],
      timezone: 'Asia/Shanghai',
    });
  });
});

describe('/api/analyse scopes', () => {
  it('an agent with only A06_A02_A02 sees agent statistics of its departments and nothing else', async () => {
    const { t, ds } = await withData(4, 60, 3);
    const [mine, other] = [ds.organs[1]!, ds.organs[2]!];
    const agent = await userWithCodes(t, ['A06_A02_A02'], { organ: mine });
    const get = (url: string) => call<Res>(t.app, agent.token, 'GET', url);
    const range = `begin=${dateOfDay(localParts(Date.now(), 'Asia/Shanghai').day - 6)}&end=${today()}`;

    const own = await get(`/api/analyse/userDegree?${range}`);
    expect(own.status).toBe(200);
    const admin = (await call<Res>(t.app, t.adminToken, 'GET', `/api/analyse/userDegree?${range}`)).body.data;
    const inMine = new Set(ds.agents.filter((a) => a.organ === mine).map((a) => a.id));
    expect(own.body.data.rows.length).toBeGreaterThan(0);
    // Its department's agents, and the department's conversations no agent took ('').
    expect(own.body.data.rows.every((r) => inMine.has(r.key) || r.key === '')).toBe(true);
    expect(admin.rows.some((r) => !inMine.has(r.key))).toBe(true);
    // Only the conversations of its department (served ones have the agent's department).
    expect(own.body.data.total.conversations).toBeLessThan(admin.total.conversations!);

    for (const c of [
      'organDegree',
      'browserData',
      'dateCount',
      'workLog',
      'dereeList',
      'searcheEngine',
      'aiDegree',
      'loginLogs',
    ])
      expect((await get(`/api/analyse/${c}?${range}`)).status, c).toBe(403);
    expectError(await get(`/api/analyse/userDegree?${range}&organ=${other}`), 'out_of_scope', 403);
    const stranger = ds.agents.find((a) => a.organ === other)!.id;
    expectError(await get(`/api/analyse/userDegree?${range}&agentno=${stranger}`), 'out_of_scope', 403);
    expect((await get(`/api/analyse/userDegree?${range}&organ=${mine}`)).status).toBe(200);
    // The export checks the table's own code.
    const exp = await call(t.app, agent.token, 'POST', '/api/analyse/export', {
      call: 'organDegree',
      begin: today(),
      end: today(),
    });
    expect(exp.status).toBe(403);
    const none = await userWithCodes(t, ['A06_A02_A08']);
    expect((await call(t.app, none.token, 'GET', `/api/analyse/userDegree?${range}`)).status).toBe(403);
  });
});

describe('/api/analyse export', () => {
  it('writes the table and its total to an .xlsx that opens', async () => {
    const { t } = await withData(3, 40, 5);
    const range = { begin: dateOfDay(localParts(Date.now(), 'Asia/Shanghai').day - 4), end: today() };
    const table = (
      await call<Res>(
        t.app,
        t.adminToken,
        'GET',
        `/api/analyse/channelCount?begin=${range.begin}&end=${range.end}`,
      )
    ).body.data;
    const r = await call<ExportJobDto>(t.app, t.adminToken, 'POST', '/api/analyse/export', {
      call: 'channelCount',
      ...range,
      tz: -480,
    });
    expect(r.body.data).toMatchObject({ kind: 'analysis' });
    await exportRunner(t).idle();
    const dl = await t.app.inject({
      method: 'GET',
      url: `/api/export/download?id=${r.body.data.id}`,
      headers: { authorization: t.adminToken },
    });
    expect(dl.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(dl.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(table.rows.length + 2);
    const head = ws.getRow(1).values as unknown[];
    expect(head.slice(1, 3)).toEqual(['渠道', '会话数']);
    const last = ws.getRow(ws.rowCount).values as unknown[];
    expect(last.slice(1, 3)).toEqual(['合计', table.total.conversations]);
    // The console's language heads the sheet when it says so.
    const en = await call<ExportJobDto>(t.app, t.adminToken, 'POST', '/api/analyse/export', {
      call: 'channelCount',
      ...range,
      lang: 'en',
    });
    await exportRunner(t).idle();
    const dl2 = await t.app.inject({
      method: 'GET',
      url: `/api/export/download?id=${en.body.data.id}`,
      headers: { authorization: t.adminToken },
    });
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(dl2.rawPayload as unknown as ArrayBuffer);
    expect((wb2.worksheets[0]!.getRow(1).values as unknown[]).slice(1, 3)).toEqual([
      'Channel',
      'Conversations',
    ]);
    expect(table.total.conversations).toBeGreaterThan(0);
  });
});

describe('rollups follow the real code paths', () => {
  it('a conversation ended by the lifecycle, an agent state change, a visit and an invitation are counted', async () => {
    const t = await env.seeded();
    const e = engineOf(t.app)!;
    const admin = (
      await t.db.kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    const get = async (c: string, extra = '') =>
      (await call<Res>(t.app, t.adminToken, 'GET', `/api/analyse/${c}?${q(extra)}`)).body.data;

    const c = await insertConversation(t.db, { agentno: admin, status: 'inservice' });
    await rollupsOf(t.db)!.idle();
    expect((await get('userDegree')).total.conversations).toBe(0);
    expect(await endConversation(e, c.agentserviceid, 'agent')).toBe(true);
    await rollupsOf(t.db)!.idle();
    const after = await get('userDegree');
    expect(after.total.conversations).toBe(1);
    expect(after.rows[0]).toMatchObject({ key: admin });

    await setAgentState(e, admin, 'ready', 'ready');
    await new Promise((r) => setTimeout(r, 30));
    await setAgentState(e, admin, 'busy', 'busy');
    await rollupsOf(t.db)!.idle();
    const work = await get('workLog');
    expect(work.rows[0]!.key).toBe(admin);
    expect(work.total.ready).toBeGreaterThanOrEqual(25);
    // Busy is the current state: counted up to now.
    expect(work.total.busy).toBeGreaterThanOrEqual(0);

    const pv = await t.app.inject({
      method: 'POST',
      url: '/im/pageview',
      payload: JSON.stringify({
        appid: 'demo',
        traceid: 'traceA',
        url: 'https://shop.example.com/',
        title: 'A',
        referrer: 'https://www.baidu.com/s?wd=%E5%AE%A2%E6%9C%8D',
      }),
      headers: {
        'content-type': 'text/plain',
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      },
      remoteAddress: '120.24.78.68',
    });
    expect(pv.statusCode).toBe(200);
    await rollupsOf(t.db)!.idle();
    const visit = await t.db.kysely.selectFrom('visit').selectAll().executeTakeFirstOrThrow();
    expect(visit).toMatchObject({
      province: '广东省',
      city: '深圳市',
      browser: 'Chrome',
      os: 'Windows',
      device: 'desktop',
      engine: 'baidu',
      keyword: '客服',
    });
    expect((await get('searcheEngine', '&dim=keyword')).rows).toEqual([
      { key: '客服', name: '客服', figures: { visits: 1, conversations: 0 } },
    ]);
    expect((await get('regionList')).total.visits).toBe(1);

    const inv = await call<{ id: string }>(t.app, t.adminToken, 'GET', '/api/online/invite?traceid=traceA');
    expect(inv.body.success).toBe(true);
    await t.app.inject({
      method: 'POST',
      url: '/im/pageview',
      payload: JSON.stringify({
        appid: 'demo',
        traceid: 'traceA',
        url: 'https://shop.example.com/',
        title: 'A',
        referrer: '',
        hb: 1,
      }),
      headers: { 'content-type': 'text/plain' },
      remoteAddress: '120.24.78.68',
    });
    await t.app.inject({
      method: 'POST',
      url: '/im/invite',
      payload: JSON.stringify({ appid: 'demo', traceid: 'traceA', id: inv.body.data.id, result: 'accept' }),
      headers: { 'content-type': 'text/plain' },
    });
    await rollupsOf(t.db)!.idle();
    expect((await get('dateCount')).total).toMatchObject({
      invited: 1,
      inviteAccepted: 1,
      inviteRate: 1,
      visits: 1,
      visitors: 1,
    });
  });
});
