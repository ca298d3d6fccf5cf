import { describe, expect, it } from 'vitest';
import type { OnlineTalkDto, OnlineTraceDto, OnlineVisitorDto, Page, PageViewAck } from '@kefu/protocol';
import { ONLINE_WINDOW_MS } from '@kefu/protocol';
import { call, count, expectError, userWithCodes, type SeededApp, perTest } from '../../../test/factories.js';
import { insertConversation, insertVisitor } from '../access/channel-fixtures.js';
import { PAGEVIEW_RATE } from './online.routes.js';

const env = perTest();

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
let ipSeq = 0;
const nextIp = () => `10.2.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

/** Posts like the loader: text/plain JSON. */
const report = (s: SeededApp, body: Record<string, unknown> | string, ip = nextIp()) =>
  s.app
    .inject({
      method: 'POST',
      url: '/im/pageview',
      payload: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME },
      remoteAddress: ip,
    })
    .then((r) => ({
      status: r.statusCode,
      body: r.json<{ success: boolean; data: PageViewAck; key?: string; code: number }>(),
    }));

const view = (traceid: string, extra: Record<string, unknown> = {}) => ({
  appid: 'demo',
  traceid,
  url: 'https://shop.example.com/a',
  title: 'Page A',
  referrer: 'https://www.google.com/search?q=x',
  ...extra,
});

const adminId = async (s: SeededApp) =>
  (
    await s.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow()
  ).id;

const ageVisitor = (s: SeededApp, traceid: string, ms: number) =>
  s.db.kysely
    .updateTable('online_visitor')
    .set({ lasttime: Date.now() - ms })
    .where('traceid', '=', traceid)
    .execute();

describe('POST /im/pageview', () => {
  it('rejects bad input (forged appid → 404) and stores nothing', async () => {
    const t = await env.seeded();
    const bad: Array<[Record<string, unknown> | string, string, number?]> = [
      [view('t1', { appid: 'forged' }), 'access_point_not_found', 404],
      [view('t1', { appid: '' }), 'required'],
      [view('t1', { traceid: '' }), 'required'],
      [view('t1', { traceid: 'bad trace!' }), 'invalid_field'],
      [view('x'.repeat(65)), 'too_long'],
      [view('t1', { url: `https://a.com/${'x'.repeat(2000)}` }), 'too_long'],
      [view('t1', { url: 'javascript:alert(1)' }), 'invalid_field'],
      [view('t1', { title: 'x'.repeat(501) }), 'too_long'],
      [view('t1', { referrer: 'data:text/html,x' }), 'invalid_field'],
      ['{not json', 'invalid_body'],
      ['[1,2]', 'invalid_body'],
    ];
    for (const [body, key, code] of bad) {
      const r = await report(t, body);
      expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: false, key, code: code ?? 400 });
    }
    expect(await count(t.db, 'online_visitor')).toBe(0);
    expect(await count(t.db, 'page_view')).toBe(0);
  });

  it('stores page views and one visitor per trace; heartbeats only refresh last seen', async () => {
    const t = await env.seeded();
    const r = await report(t, view('traceA'), '10.9.9.9');
    expect(r.body).toMatchObject({ success: true, data: { invite: null } });
    await report(t, view('traceA', { hb: 1 }), '10.9.9.9');
    await report(t, view('traceA', { hb: 1 }), '10.9.9.9');
    let v = await t.db.kysely.selectFrom('online_visitor').selectAll().executeTakeFirstOrThrow();
    expect(v).toMatchObject({
      appid: 'demo',
      pages: 1,
      visits: 1,
      ip: '10.9.9.9',
      source: 'www.google.com',
      url: 'https://shop.example.com/a',
      browser: 'Chrome 126',
      os: 'Windows 10',
    });
    await report(t, view('traceA', { url: 'https://shop.example.com/b', title: 'Page B', referrer: '' }));
    v = await t.db.kysely.selectFrom('online_visitor').selectAll().executeTakeFirstOrThrow();
    expect(v).toMatchObject({ pages: 2, url: 'https://shop.example.com/b', title: 'Page B' });
    expect(await count(t.db, 'page_view')).toBe(2);

    // Back after being offline: a new visit (a heartbeat that starts a visit counts as a page view).
    await ageVisitor(t, 'traceA', ONLINE_WINDOW_MS + 1000);
    await report(t, view('traceA', { hb: 1 }));
    v = await t.db.kysely.selectFrom('online_visitor').selectAll().executeTakeFirstOrThrow();
    expect(v).toMatchObject({ pages: 1, visits: 2 });
    expect(await count(t.db, 'page_view')).toBe(3);

    const trail = await call<OnlineTraceDto>(t.app, t.adminToken, 'GET', '/api/online/trace?traceid=traceA');
    expect(trail.body.data.list.map((p) => p.title)).toEqual(['Page A', 'Page B', 'Page A']);
    expect(trail.body.data.list[2]).toMatchObject({
      referrer: 'https://www.google.com/search?q=x',
      browser: 'Chrome 126',
    });
    expect(trail.body.data.visitor).toMatchObject({ traceid: 'traceA', online: true, visits: 2 });
  });

  it('limits reports per IP (429) without storing the refused ones', async () => {
    const t = await env.seeded();
    for (let i = 0; i < PAGEVIEW_RATE.max; i++) {
      const r = await report(t, view('traceR', { url: `https://a.com/${i}` }), '10.7.7.7');
      expect(r.status).toBe(200);
    }
    const over = await report(t, view('traceR'), '10.7.7.7');
    expect(over.body).toMatchObject({ success: false, key: 'pageview_rate_limited', code: 429 });
    expect(await count(t.db, 'page_view')).toBe(PAGEVIEW_RATE.max);
    expect((await report(t, view('traceR'), '10.7.7.8')).status).toBe(200);
  });
});

describe('/api/online', () => {
  it('is guarded by A02', async () => {
    const t = await env.seeded();
    const none = await userWithCodes(t, ['A01']);
    const a02 = await userWithCodes(t, ['A02']);
    for (const path of [
      'onlineUser',
      'onlineUserHis',
      'trace?traceid=x',
      'invite?traceid=x',
      'talk?traceid=x',
    ]) {
      expect((await call(t.app, null, 'GET', `/api/online/${path}`)).status).toBe(401);
      expect((await call(t.app, none.token, 'GET', `/api/online/${path}`)).status).toBe(403);
    }
    expect((await call(t.app, a02.token, 'GET', '/api/online/onlineUser')).body).toMatchObject({
      success: true,
    });
  });

  it('lists online visitors (paged) and the history with offline ones', async () => {
    const t = await env.seeded();
    for (const id of ['v1', 'v2', 'v3']) await report(t, view(id));
    await ageVisitor(t, 'v1', ONLINE_WINDOW_MS + 1000);
    const p1 = await call<Page<OnlineVisitorDto>>(
      t.app,
      t.adminToken,
      'GET',
      '/api/online/onlineUser?p=1&ps=1',
    );
    expect(p1.body.data.total).toBe(2);
    expect(p1.body.data.list).toHaveLength(1);
    expect(p1.body.data.list[0]).toMatchObject({
      appid: 'demo',
      online: true,
      chat: 'none',
      browser: 'Chrome 126',
      os: 'Windows 10',
      source: 'www.google.com',
      pages: 1,
    });
    const p2 = await call<Page<OnlineVisitorDto>>(
      t.app,
      t.adminToken,
      'GET',
      '/api/online/onlineUser?p=2&ps=1',
    );
    expect(p2.body.data.list[0]?.traceid).not.toBe(p1.body.data.list[0]?.traceid);
    const his = await call<Page<OnlineVisitorDto>>(t.app, t.adminToken, 'GET', '/api/online/onlineUserHis');
    expect(his.body.data.total).toBe(3);
    expect(his.body.data.list.find((v) => v.traceid === 'v1')).toMatchObject({ online: false });
    expectError(await call(t.app, t.adminToken, 'GET', '/api/online/trace'), 'required');
  });

  it('invites an online visitor: the next report carries the invite once; the answer is recorded', async () => {
    const t = await env.seeded();
    const me = await adminId(t);
    expectError(
      await call(t.app, t.adminToken, 'GET', '/api/online/invite?traceid=nobody'),
      'online_visitor_not_found',
      404,
    );
    await report(t, view('inv1'));
    const inv = await call<{ id: string }>(t.app, t.adminToken, 'POST', '/api/online/invite', {
      traceid: 'inv1',
    });
    expect(inv.body.success).toBe(true);
    const hb = await report(t, view('inv1', { hb: 1 }));
    expect(hb.body.data.invite).toEqual({ id: inv.body.data.id, agent: me });
    expect((await report(t, view('inv1', { hb: 1 }))).body.data.invite).toBeNull();

    const answer = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/im/invite',
        payload: JSON.stringify(body),
        headers: { 'content-type': 'text/plain' },
      });
    expect(
      (await answer({ appid: 'demo', traceid: 'inv1', id: 'forged', result: 'accept' })).statusCode,
    ).toBe(404);
    expect(
      (await answer({ appid: 'demo', traceid: 'inv1', id: inv.body.data.id, result: 'maybe' })).statusCode,
    ).toBe(400);
    expect(
      (await answer({ appid: 'demo', traceid: 'inv1', id: inv.body.data.id, result: 'accept' })).statusCode,
    ).toBe(200);
    const rec = await t.db.kysely.selectFrom('invite_record').selectAll().executeTakeFirstOrThrow();
    expect(rec).toMatchObject({
      traceid: 'inv1',
      agentno: me,
      result: 'accept',
      url: 'https://shop.example.com/a',
    });
    const v = await t.db.kysely.selectFrom('online_visitor').selectAll().executeTakeFirstOrThrow();
    expect(v).toMatchObject({ invitestatus: 'accept', invitetimes: 1 });

    await ageVisitor(t, 'inv1', ONLINE_WINDOW_MS + 1000);
    expectError(
      await call(t.app, t.adminToken, 'GET', '/api/online/invite?traceid=inv1'),
      'online_visitor_offline',
    );
  });

  it('talk: only the conversation the caller serves; clear errors otherwise', async () => {
    const t = await env.seeded();
    const me = await adminId(t);
    await report(t, view('tk1'));
    expectError(await call(t.app, t.adminToken, 'GET', '/api/online/talk?traceid=tk1'), 'online_not_in_chat');
    const { userid } = await insertVisitor(t.db, 'demo');
    const sid = await insertConversation(t.db, 'demo', userid, 'inqueue');
    await t.db.kysely.updateTable('agent_service').set({ traceid: 'tk1' }).where('id', '=', sid).execute();
    expectError(await call(t.app, t.adminToken, 'GET', '/api/online/talk?traceid=tk1'), 'online_in_queue');
    expectError(
      await call(t.app, t.adminToken, 'GET', '/api/online/invite?traceid=tk1'),
      'online_visitor_in_chat',
    );
    await t.db.kysely
      .updateTable('agent_service')
      .set({ status: 'inservice', agentno: 'someone' })
      .where('id', '=', sid)
      .execute();
    expectError(await call(t.app, t.adminToken, 'GET', '/api/online/talk?traceid=tk1'), 'online_other_agent');
    await t.db.kysely.updateTable('agent_service').set({ agentno: me }).where('id', '=', sid).execute();
    const ok = await call<OnlineTalkDto>(t.app, t.adminToken, 'GET', '/api/online/talk?traceid=tk1');
    expect(ok.body.data).toEqual({ agentserviceid: sid, userid });
    const list = await call<Page<OnlineVisitorDto>>(t.app, t.adminToken, 'GET', '/api/online/onlineUser');
    expect(list.body.data.list[0]).toMatchObject({ chat: 'inservice', agentserviceid: sid, agentno: me });
  });
});

describe('the online list tells who chatted and drops who left', () => {
  const online = async (t: SeededApp) =>
    (await call<Page<OnlineVisitorDto>>(t.app, t.adminToken, 'GET', '/api/online/onlineUser')).body.data.list;

  it('a visitor whose chat ended shows as having chatted, not as never chatting', async () => {
    const t = await env.seeded();
    await report(t, view('ch1'));
    const { userid } = await insertVisitor(t.db, 'demo');
    const sid = await insertConversation(t.db, 'demo', userid, 'end');
    await t.db.kysely.updateTable('agent_service').set({ traceid: 'ch1' }).where('id', '=', sid).execute();
    expect((await online(t))[0]).toMatchObject({ traceid: 'ch1', chat: 'end', agentserviceid: sid });
    // Ended, so it can be invited again.
    expect((await call(t.app, t.adminToken, 'GET', '/api/online/invite?traceid=ch1')).body.success).toBe(
      true,
    );
  });

  it('a page left (pagehide) is off the list at once; a reload or the next page is back in the same visit', async () => {
    const t = await env.seeded();
    const ip = nextIp();
    await report(t, view('lv1'), ip);
    await report(t, view('bounce'), ip);
    expect((await online(t)).map((v) => v.traceid).sort()).toEqual(['bounce', 'lv1']);
    // The bounce leaves after a moment: no 0 s ghost for minutes.
    await report(t, view('bounce', { leave: 1 }), ip);
    expect((await online(t)).map((v) => v.traceid)).toEqual(['lv1']);
    const his = await call<Page<OnlineVisitorDto>>(t.app, t.adminToken, 'GET', '/api/online/onlineUserHis');
    expect(his.body.data.list.find((v) => v.traceid === 'bounce')?.online).toBe(false);
    // lv1 reloads: leave, then the new page reports; still one visit, two pages.
    await report(t, view('lv1', { leave: 1 }), ip);
    await new Promise((r) => setTimeout(r, 5));
    await report(t, view('lv1', { url: 'https://shop.example.com/b' }), ip);
    const [v] = await online(t);
    expect(v).toMatchObject({ traceid: 'lv1', online: true, visits: 1, pages: 2 });
    // Time on site of a visitor still there runs until now, not until the last report.
    await t.db.kysely
      .updateTable('online_visitor')
      .set({ firsttime: Date.now() - 40_000 })
      .where('traceid', '=', 'lv1')
      .execute();
    expect((await online(t))[0]!.duration).toBeGreaterThanOrEqual(40_000);
    // A leave of an unknown trace changes nothing.
    await report(t, view('never', { leave: 1 }), ip);
    expect(await count(t.db, 'online_visitor')).toBe(2);
  });
});
