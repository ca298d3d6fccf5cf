import { describe, expect, it } from 'vitest';
import type { HistoryDetailDto, HistoryMessagePage, HistoryPage } from '@kefu/protocol';
import { call, expectError, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import { addOrgan } from '../../../test/live.js';
import { newId } from '../../platform/ids.js';
import { seedContact, seedConversation, seedTag, seedTopic } from './history.fixtures.js';

const env = perTest();

const list = async (t: SeededApp, token: string, q = '') =>
  call<HistoryPage>(t.app, token, 'GET', `/api/agentService/list${q ? `?${q}` : ''}`);
const ids = async (t: SeededApp, q: string, token = t.adminToken) =>
  (await list(t, token, q)).body.data.list.map((r) => r.id).sort();

describe('GET /api/agentService/list', () => {
  it('filters by every field the screen offers', async () => {
    const t = await env.seeded();
    const day = 86_400_000;
    const now = Date.now();
    const organ = await addOrgan(t);
    const tag = await seedTag(t, '投诉');
    const topic = await seedTopic(t, '物流');
    const a = await seedConversation(t, {
      createtime: now - 3 * day,
      organ,
      agentno: 'ag1',
      channel: 'weixin',
      appid: 'site1',
      username: '张三',
      satisfaction: 1,
      satislevel: '1',
      endby: 'user',
      waittime: 2_000,
      tags: [tag],
      topicid: topic,
    });
    const b = await seedConversation(t, {
      createtime: now - day,
      agentno: 'ag2',
      username: 'Li Si',
      endby: 'timeout',
      waittime: 90_000,
      servicetime: null,
      leavemsg: 1,
      ai: 1,
    });
    const c = await seedConversation(t, {
      createtime: now - 2 * day,
      agentno: 'ag2',
      servicetime: now - 2 * day,
      endtime: now - 2 * day + 600_000,
    });
    // Not history: still in service, and another organisation's.
    await seedConversation(t, { status: 'inservice' });
    await seedConversation(t, { orgi: 'other' });

    expect(await ids(t, '')).toEqual([a, b, c].sort());
    expect(await ids(t, `begin=${now - 2.5 * day}&end=${now - 0.5 * day}`)).toEqual([b, c].sort());
    expect(await ids(t, `organ=${organ}`)).toEqual([a]);
    expect(await ids(t, 'agentno=ag2')).toEqual([b, c].sort());
    expect(await ids(t, 'channel=weixin')).toEqual([a]);
    expect(await ids(t, 'appid=site1')).toEqual([a]);
    expect(await ids(t, `visitor=${encodeURIComponent('张')}`)).toEqual([a]);
    expect(await ids(t, 'visitor=li%20s')).toEqual([b]);
    expect(await ids(t, `tagid=${tag}`)).toEqual([a]);
    expect(await ids(t, `topicid=${topic}`)).toEqual([a]);
    expect(await ids(t, 'satislevel=1')).toEqual([a]);
    expect(await ids(t, 'satislevel=0')).toEqual([b, c].sort());
    expect(await ids(t, 'endby=timeout')).toEqual([b]);
    expect(await ids(t, 'waitMin=60')).toEqual([b]);
    expect(await ids(t, 'waitMax=10')).toEqual([a, c].sort());
    expect(await ids(t, 'serveMin=300')).toEqual([c]);
    expect(await ids(t, 'serveMax=120')).toEqual([a]);
    expect(await ids(t, 'leavemsg=1')).toEqual([b]);
    expect(await ids(t, 'leavemsg=0')).toEqual([a, c].sort());
    expect(await ids(t, 'ai=true')).toEqual([b]);

    const row = (await list(t, t.adminToken, `tagid=${tag}`)).body.data.list[0]!;
    expect(row).toMatchObject({
      username: '张三',
      channel: 'weixin',
      endby: 'user',
      satislevel: '1',
      topicname: '物流',
      tags: [{ id: tag, name: '投诉', color: '#2C68FF' }],
      servetime: 60_000,
      waittime: 2_000,
    });
  });

  it('finds a contact’s conversations through its identities', async () => {
    const t = await env.seeded();
    const visitor = newId();
    const mine = await seedConversation(t, { userid: visitor });
    await seedConversation(t);
    const contact = await seedContact(t, visitor);
    expect(await ids(t, `contactid=${contact}`)).toEqual([mine]);
  });

  it('validates every filter', async () => {
    const t = await env.seeded();
    const bad = async (q: string, key: string) => expectError(await list(t, t.adminToken, q), key);
    await bad('begin=yesterday', 'invalid_field');
    await bad('begin=2000&end=1000', 'range_invalid');
    await bad('waitMin=60&waitMax=10', 'range_invalid');
    await bad('serveMin=-1', 'invalid_field');
    await bad('endby=nobody', 'invalid_field');
    await bad('satislevel=11', 'invalid_field');
    await bad('leavemsg=maybe', 'invalid_field');
    await bad('sort=name', 'invalid_field');
    await bad('ps=0', 'invalid_field');
    await bad(`keyword=${encodeURIComponent('，。！？…… ')}`, 'keyword_invalid');
    await bad(`keyword=${'退'.repeat(101)}`, 'keyword_too_long');
    const huge = await t.app.inject({
      method: 'GET',
      url: `/api/agentService/list?keyword=${'a'.repeat(10_240)}`,
      headers: { authorization: t.adminToken },
    });
    expect(huge.json()).toMatchObject({ success: false, key: 'keyword_too_long' });
  });

  it('pages by number and by cursor alike, in each sort order', async () => {
    const t = await env.seeded();
    const base = Date.now() - 86_400_000;
    for (let i = 0; i < 23; i++)
      await seedConversation(t, { createtime: base + Math.floor(i / 2) * 1000, waittime: (i % 5) * 1000 });
    for (const sort of ['createtime', 'waittime', 'endtime', 'servetime']) {
      for (const order of ['desc', 'asc']) {
        const byOffset: string[] = [];
        for (let p = 1; p <= 3; p++) {
          const r = (await list(t, t.adminToken, `sort=${sort}&order=${order}&p=${p}&ps=10`)).body.data;
          expect(r.total).toBe(23);
          byOffset.push(...r.list.map((x) => x.id));
        }
        const byCursor: string[] = [];
        let r = (await list(t, t.adminToken, `sort=${sort}&order=${order}&ps=10`)).body.data;
        for (;;) {
          byCursor.push(...r.list.map((x) => x.id));
          if (!r.next) break;
          r = (
            await list(
              t,
              t.adminToken,
              `sort=${sort}&order=${order}&ps=10&before=${encodeURIComponent(r.next)}`,
            )
          ).body.data;
          expect(r.total).toBe(23);
        }
        expect(byCursor, `${sort} ${order}`).toEqual(byOffset);
        expect(new Set(byCursor).size).toBe(23);
      }
    }
    const newest = (await list(t, t.adminToken, 'ps=100')).body.data;
    expect(newest.size).toBe(100);
    const times = newest.list.map((x) => x.createtime);
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect((await list(t, t.adminToken, 'ps=500')).body.data.size).toBe(100);
  });
});

describe('keyword search', () => {
  it('finds one- and two-character Chinese words, English and mixed keywords, ranks and shows a snippet', async () => {
    const t = await env.seeded();
    const refund = await seedConversation(t, {
      messages: ['你好，我要退款，订单号12345', { text: '好的，马上为您处理退款', calltype: 'out' }],
    });
    const ship = await seedConversation(t, { messages: ['请问什么时候发货？', '已经发货了吗'] });
    const phone = await seedConversation(t, { messages: ['我的iPhone15屏幕坏了，可以退货吗'] });
    const withdrawn = await seedConversation(t, {
      messages: [{ text: '撤回的密码是 hunter2', withdrawn: true }],
    });
    const kw = (k: string) => ids(t, `keyword=${encodeURIComponent(k)}`);

    expect(await kw('退款')).toEqual([refund]);
    expect(await kw('发货')).toEqual([ship]);
    expect(await kw('退')).toEqual([refund, phone].sort());
    expect(await kw('货')).toEqual([ship, phone].sort());
    expect(await kw('iphone')).toEqual([phone]);
    expect(await kw('iPhone15')).toEqual([phone]);
    expect(await kw('iPhone 退货')).toEqual([phone]);
    expect(await kw('12345')).toEqual([refund]);
    expect(await kw('  订单号 ')).toEqual([refund]);
    expect(await kw('退款 发货')).toEqual([]);
    expect(await kw('hunter2')).toEqual([]);
    expect(withdrawn).toBeTruthy();

    const r = (await list(t, t.adminToken, `keyword=${encodeURIComponent('退款')}`)).body.data;
    expect(r).toMatchObject({ total: 1, capped: false });
    expect(r.list[0]).toMatchObject({ id: refund, hits: 2 });
    expect(r.list[0]!.snippet).toContain('退款');

    // Relevance: the conversation saying it most comes first.
    const more = await seedConversation(t, { messages: ['发货 发货 发货 发货'] });
    const rel = (await list(t, t.adminToken, `keyword=${encodeURIComponent('发货')}&sort=relevance`)).body
      .data;
    expect(rel.list.map((x) => x.id)).toEqual([more, ship]);
    expect(rel.next).toBeNull();
  });

  it('combines the keyword with the other filters and the date range', async () => {
    const t = await env.seeded();
    const now = Date.now();
    const old = await seedConversation(t, {
      createtime: now - 10 * 86_400_000,
      agentno: 'a1',
      messages: ['退款'],
    });
    const recent = await seedConversation(t, {
      createtime: now - 3_600_000,
      agentno: 'a2',
      messages: ['退款'],
    });
    expect(await ids(t, `keyword=${encodeURIComponent('退款')}`)).toEqual([old, recent].sort());
    expect(await ids(t, `keyword=${encodeURIComponent('退款')}&begin=${now - 86_400_000}`)).toEqual([recent]);
    expect(await ids(t, `keyword=${encodeURIComponent('退款')}&agentno=a1`)).toEqual([old]);
  });
});

describe('data scope', () => {
  it('all for the administrator, the department for A04, own conversations for an agent with A01 only', async () => {
    const t = await env.seeded();
    const dept = await addOrgan(t);
    const sub = await addOrgan(t);
    await t.db.kysely.updateTable('organ').set({ parentid: dept }).where('id', '=', sub).execute();
    const lead = await userWithCodes(t, ['A04'], { organ: dept });
    const colleague = await userWithCodes(t, ['A01'], { organ: sub });
    const outsider = await userWithCodes(t, ['A01']);
    const none = await userWithCodes(t, ['A05']);
    const byColleague = await seedConversation(t, { agentno: colleague.id });
    const inGroup = await seedConversation(t, { agentno: 'someone', organ: dept });
    const byOutsider = await seedConversation(t, { agentno: outsider.id });
    const byLead = await seedConversation(t, { agentno: lead.id });

    expect(await ids(t, '')).toEqual([byColleague, inGroup, byOutsider, byLead].sort());
    expect(await ids(t, '', lead.token)).toEqual([byColleague, inGroup, byLead].sort());
    expect(await ids(t, '', colleague.token)).toEqual([byColleague]);
    expect(await ids(t, '', outsider.token)).toEqual([byOutsider]);
    expect((await list(t, none.token)).status).toBe(403);

    // Detail, transcript, summary and blacklist follow the same rule.
    const detail = (token: string, id: string) =>
      call<HistoryDetailDto>(t.app, token, 'GET', `/api/agentService/detail?agentserviceid=${id}`);
    expect((await detail(lead.token, byColleague)).status).toBe(200);
    expectError(await detail(lead.token, byOutsider), 'forbidden', 403);
    expectError(await detail(colleague.token, inGroup), 'forbidden', 403);
    expectError(
      await call(t.app, colleague.token, 'GET', `/api/agentService/message/list?agentserviceid=${inGroup}`),
      'forbidden',
      403,
    );
    expectError(
      await call(t.app, colleague.token, 'POST', '/api/agentService/update', {
        agentserviceid: inGroup,
        memo: 'x',
      }),
      'forbidden',
      403,
    );
    expectError(await detail(t.adminToken, 'nope'), 'conversation_not_found', 404);
    const elsewhere = await seedConversation(t, { orgi: 'other' });
    expectError(await detail(t.adminToken, elsewhere), 'conversation_not_found', 404);
  });
});

describe('a conversation of the history', () => {
  it('detail, paged transcript, one message, summary update with tags, contact and blacklist', async () => {
    const t = await env.seeded();
    const tagA = await seedTag(t, 'A');
    const tagB = await seedTag(t, 'B');
    const contactTag = await seedTag(t, 'VIP', 'user');
    const topic = await seedTopic(t, '售后');
    const texts = Array.from({ length: 7 }, (_, i) => `第${i + 1}条`);
    const id = await seedConversation(t, { messages: texts, tags: [tagA], username: '王五' });

    const d = (
      await call<HistoryDetailDto>(
        t.app,
        t.adminToken,
        'GET',
        `/api/agentService/detail?agentserviceid=${id}`,
      )
    ).body.data;
    expect(d.service).toMatchObject({ id, username: '王五', tags: [{ id: tagA }] });
    expect(d.summary).toMatchObject({ topicid: null, memo: '' });
    expect(d.contact).toBeNull();

    const transcript = async (q: string) =>
      (
        await call<HistoryMessagePage>(
          t.app,
          t.adminToken,
          'GET',
          `/api/agentService/message/list?agentserviceid=${id}&${q}`,
        )
      ).body.data;
    const page1 = await transcript('ps=5&after=0');
    expect(page1.list.map((m) => m.message)).toEqual(texts.slice(0, 5));
    expect(page1.hasMore).toBe(true);
    const page2 = await transcript('ps=5&after=5');
    expect(page2.list.map((m) => m.seq)).toEqual([6, 7]);
    expect(page2.hasMore).toBe(false);
    // Newest first, then back (the console's transcript).
    const newest = await transcript('ps=3');
    expect(newest.list.map((m) => m.seq)).toEqual([5, 6, 7]);
    expect(newest.hasMore).toBe(true);
    const older = await transcript('ps=3&before=2');
    expect(older).toMatchObject({ list: [{ seq: 1 }], hasMore: false });
    const one = await call<{ message: string }>(
      t.app,
      t.adminToken,
      'GET',
      `/api/agentService/message/detail?id=${page2.list[0]!.id}`,
    );
    expect(one.body.data.message).toBe('第6条');
    expectError(
      await call(t.app, t.adminToken, 'GET', '/api/agentService/message/detail?id=nope'),
      'not_found',
      404,
    );

    const upd = await call<HistoryDetailDto>(t.app, t.adminToken, 'POST', '/api/agentService/update', {
      agentserviceid: id,
      topicid: topic,
      memo: '已退款',
      tagids: [tagB, tagA],
    });
    expect(upd.body.data.summary).toMatchObject({ topicid: topic, topicname: '售后', memo: '已退款' });
    expect(upd.body.data.service.tags.map((x) => x.id).sort()).toEqual([tagA, tagB].sort());
    expect(await ids(t, `tagid=${tagB}`)).toEqual([id]);
    // A contact tag or an unknown one changes nothing.
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/agentService/update', {
        agentserviceid: id,
        tagids: [contactTag],
      }),
      'invalid_field',
    );
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/agentService/update', {
        agentserviceid: id,
        topicid: 'nope',
      }),
      'invalid_field',
    );
    const after = (
      await call<HistoryDetailDto>(
        t.app,
        t.adminToken,
        'GET',
        `/api/agentService/detail?agentserviceid=${id}`,
      )
    ).body.data;
    expect(after.service.tags).toHaveLength(2);
    expect(after.summary.memo).toBe('已退款');
    const cleared = await call<HistoryDetailDto>(t.app, t.adminToken, 'POST', '/api/agentService/update', {
      agentserviceid: id,
      topicid: '',
      tagids: [],
    });
    expect(cleared.body.data.summary.topicid).toBeNull();
    expect(cleared.body.data.service.tags).toEqual([]);

    const visitor = (
      await t.db.kysely
        .selectFrom('agent_service')
        .select('userid')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).userid;
    const blk = await call(t.app, t.adminToken, 'POST', '/api/agentService/black', {
      agentserviceid: id,
      controltime: 24,
      description: '骚扰',
    });
    expect(blk.status).toBe(200);
    const entry = await t.db.kysely
      .selectFrom('blacklist')
      .selectAll()
      .where('userid', '=', visitor)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ description: '骚扰', controltime: 24 });
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/agentService/black', {
        agentserviceid: id,
        controltime: -1,
      }),
      'invalid_field',
    );

    const none = await call(
      t.app,
      t.adminToken,
      'GET',
      `/api/agentService/contacts/detail?agentserviceid=${id}`,
    );
    expect(none.body.data).toBeNull();
    const contact = await seedContact(t, visitor, '王五');
    const linked = await call<{ id: string; name: string }>(
      t.app,
      t.adminToken,
      'GET',
      `/api/agentService/contacts/detail?agentserviceid=${id}`,
    );
    expect(linked.body.data).toMatchObject({ id: contact, name: '王五' });
  });
});
