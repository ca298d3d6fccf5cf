import { describe, expect, it } from 'vitest';
import type { LeaveMessageDto, Page } from '@kefu/protocol';
import { call, count, expectError, userWithCodes, type SeededApp, perTest } from '../../../test/factories.js';
import { insertVisitor } from '../access/channel-fixtures.js';
import { LEAVEMSG_RATE } from './leavemsg.routes.js';

const env = perTest();

let ipSeq = 0;
const post = (s: SeededApp, body: Record<string, unknown>, ip = `10.1.0.${++ipSeq}`) =>
  s.app.inject({ method: 'POST', url: '/im/leavemsg', payload: body, remoteAddress: ip }).then((r) => ({
    status: r.statusCode,
    body: r.json<{
      success: boolean;
      data: { id: string };
      key?: string;
      code: number;
      fields?: Record<string, string>;
    }>(),
  }));
const valid = {
  appid: 'demo',
  userid: 'v1',
  name: '张三',
  mobile: '13800138000',
  email: 'a@b.com',
  content: '请回电',
};

describe('public leave message', () => {
  it('validates with the shared validators and the access point settings; nothing stored on failure', async () => {
    const t = await env.seeded();
    const bad: Array<[Record<string, unknown>, string, number?]> = [
      [{ mobile: '12345' }, 'phone_format'],
      [{ mobile: '11800138000' }, 'phone_format'],
      [{ email: 'not-an-email' }, 'email_format'],
      [{ content: '' }, 'required'],
      [{ content: '   ' }, 'required'],
      [{ name: '' }, 'required'],
      [{ content: 'x'.repeat(1001) }, 'too_long'],
      [{ userid: '' }, 'required'],
      [{ appid: 'forged' }, 'access_point_not_found', 404],
      [{ token: 'wrong' }, 'visitor_token', 401],
    ];
    for (const [extra, key, code] of bad) {
      const r = await post(t, { ...valid, ...extra });
      expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: false, key, code: code ?? 400 });
    }
    expect(await count(t.db, 'leave_message')).toBe(0);
    const r = await post(t, { ...valid, email: '' });
    expect(r.body.success).toBe(true);
    // Settings: the name is hidden (dropped), the email required.
    await call(t.app, t.adminToken, 'POST', '/api/leavemsg/config/save', {
      appid: 'demo',
      fields: {
        name: { show: false, required: false },
        mobile: { show: true, required: false },
        email: { show: true, required: true },
        content: { show: true, required: true },
      },
    });
    expectError(
      await post(t, { ...valid, email: '' }).then((x) => ({ status: x.status, body: x.body as never })),
      'required',
    );
    const v = await insertVisitor(t.db, 'demo');
    const ok2 = await post(t, { ...valid, userid: v.userid, token: v.token, mobile: '' });
    expect(ok2.body.success).toBe(true);
    const row = await t.db.kysely
      .selectFrom('leave_message')
      .selectAll()
      .where('id', '=', ok2.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: '', mobile: '', email: 'a@b.com', status: 'new', userid: v.userid });
    await call(t.app, t.adminToken, 'POST', '/api/leavemsg/config/save', { appid: 'demo', enabled: false });
    expectError(
      await post(t, valid).then((x) => ({ status: x.status, body: x.body as never })),
      'leavemsg_disabled',
    );
    expect(await count(t.db, 'leave_message')).toBe(2);
  });

  it('is rate limited per IP', async () => {
    const t = await env.seeded();
    for (let i = 0; i < LEAVEMSG_RATE.max; i++)
      expect((await post(t, valid, '10.9.9.9')).body.success).toBe(true);
    const limited = await post(t, valid, '10.9.9.9');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, key: 'leavemsg_rate_limited', code: 429 });
    expect((await post(t, valid, '10.9.9.10')).body.success).toBe(true);
    expect(await count(t.db, 'leave_message')).toBe(LEAVEMSG_RATE.max + 1);
  });
});

describe('leave message handling', () => {
  it('supervisors list and allocate; agents see their own, count and complete them', async () => {
    const t = await env.seeded();
    const a = (await post(t, valid)).body.data.id;
    const b = (await post(t, { ...valid, content: '第二条' })).body.data.id;
    const agent = await userWithCodes(t, ['A01']);
    const other = await userWithCodes(t, ['A01']);
    const sup = await userWithCodes(t, ['A01', 'A03']);
    const size = async (token: string) =>
      (await call<number>(t.app, token, 'GET', '/api/leavemsg/size')).body.data;
    expect(await size(sup.token)).toBe(2);
    expect(await size(agent.token)).toBe(0);
    expect((await call(t.app, agent.token, 'GET', '/api/leavemsg/list')).status).toBe(403);
    expect(
      (await call(t.app, agent.token, 'POST', '/api/leavemsg/allocation', { ids: [a], agentno: agent.id }))
        .status,
    ).toBe(403);

    const list = await call<Page<LeaveMessageDto>>(t.app, sup.token, 'GET', '/api/leavemsg/list?status=new');
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.list[0]).toMatchObject({ accessname: '演示网站', status: 'new' });
    expectError(
      await call(t.app, sup.token, 'POST', '/api/leavemsg/allocation', { ids: [a], agentno: 'ghost' }),
      'invalid_field',
    );
    expectError(
      await call(t.app, sup.token, 'POST', '/api/leavemsg/allocation', {
        ids: [a, 'ghost'],
        agentno: agent.id,
      }),
      'not_found',
      404,
    );
    expect(await count(t.db, 'leave_message')).toBe(2);
    expect(
      (await call<Page<LeaveMessageDto>>(t.app, sup.token, 'GET', '/api/leavemsg/list?status=new')).body.data
        .total,
    ).toBe(2);

    const alloc = await call<LeaveMessageDto[]>(t.app, sup.token, 'POST', '/api/leavemsg/allocation', {
      ids: [a, b],
      agentno: agent.id,
    });
    expect(alloc.body.data.map((m) => m.status)).toEqual(['allocated', 'allocated']);
    expect(await size(agent.token)).toBe(2);
    const mine = await call<Page<LeaveMessageDto>>(t.app, agent.token, 'GET', '/api/leavemsg/mylist');
    expect(mine.body.data.list.map((m) => m.agentname)).toEqual([agent.username, agent.username]);
    expect(
      (await call<Page<LeaveMessageDto>>(t.app, other.token, 'GET', '/api/leavemsg/mylist')).body.data.total,
    ).toBe(0);

    expectError(await call(t.app, other.token, 'POST', '/api/leavemsg/complet', { id: a }), 'forbidden', 403);
    expectError(
      await call(t.app, agent.token, 'POST', '/api/leavemsg/complet', { id: a, note: 'x'.repeat(501) }),
      'too_long',
    );
    const done = await call<LeaveMessageDto>(t.app, agent.token, 'POST', '/api/leavemsg/complet', {
      id: a,
      note: '已回电',
    });
    expect(done.body.data).toMatchObject({ status: 'done', note: '已回电', donetime: expect.any(Number) });
    expectError(await call(t.app, agent.token, 'POST', '/api/leavemsg/complet', { id: a }), 'leavemsg_done');
    expectError(
      await call(t.app, sup.token, 'POST', '/api/leavemsg/allocation', { ids: [a], agentno: other.id }),
      'leavemsg_done',
    );
    expect(await size(agent.token)).toBe(1);
    const search = await call<Page<LeaveMessageDto>>(
      t.app,
      sup.token,
      'GET',
      `/api/leavemsg/list?q=${encodeURIComponent('第二')}`,
    );
    expect(search.body.data.list.map((m) => m.id)).toEqual([b]);
  });
});
