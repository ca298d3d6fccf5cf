import { describe, expect, it } from 'vitest';
import type { KbItemDto, KbSuggestResult, KbSynonymDto, KbTypeDto, Page, TopicDto } from '@kefu/protocol';
import { call, count, expectError, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import { rank } from './retrieval.js';

const env = perTest();

const saveType = async (t: SeededApp, name: string, parentid?: string) =>
  (await call<KbTypeDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledgeType/save', { name, parentid }))
    .body.data;

const saveItem = async (t: SeededApp, body: Record<string, unknown>) => {
  const r = await call<KbItemDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/save', body);
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
  return r.body.data;
};

/** What the robot would find first for a question (items in force only). */
const top = async (t: SeededApp, q: string) =>
  (await rank(t.db, 'kefu', q, { typeids: null, now: Date.now(), limit: 3 }))[0];

describe('knowledge types (/api/xiaoe/knowledgeType)', () => {
  it('is a tree: save, rename, move (not below itself), delete only when empty; names unique among siblings', async () => {
    const t = await env.seeded();
    const a = await saveType(t, '售后');
    const b = await saveType(t, '退货', a.id);
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledgeType/save', {
        name: '退货',
        parentid: a.id,
      }),
      'category_name_repeat',
    );
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledgeType/update', {
        id: a.id,
        name: '售后',
        parentid: b.id,
      }),
      'category_parent_self',
    );
    await saveItem(t, { typeid: b.id, question: '如何退货？', answer: '在订单里申请。' });
    const list = (await call<KbTypeDto[]>(t.app, t.adminToken, 'GET', '/api/xiaoe/knowledgeType/list')).body
      .data;
    expect(list.find((x) => x.id === b.id)).toMatchObject({ parentid: a.id, items: 1 });
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledgeType/delete', { id: a.id }),
      'kb_type_not_empty',
    );
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledgeType/delete', { id: b.id }),
      'kb_type_not_empty',
    );
    expect(await count(t.db, 'kb_type')).toBe(2);
  });

  it('needs A09_A05_A02 (403 otherwise, nothing stored)', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01', 'A09_A05_A01']);
    expect(
      (await call(t.app, agent.token, 'POST', '/api/xiaoe/knowledgeType/save', { name: 'x' })).status,
    ).toBe(403);
    expect(
      (await call(t.app, agent.token, 'POST', '/api/xiaoe/knowledge/save', { question: 'q', answer: 'a' }))
        .status,
    ).toBe(403);
    expect((await call(t.app, agent.token, 'GET', '/api/xiaoe/knowledge/list')).status).toBe(403);
    expect((await call(t.app, agent.token, 'POST', '/api/xiaoe/knowledge/train')).status).toBe(403);
    // The robot screens read the type tree.
    expect((await call(t.app, agent.token, 'GET', '/api/xiaoe/knowledgeType/list')).body.success).toBe(true);
    expect(await count(t.db, 'kb_item')).toBe(0);
  });
});

describe('knowledge items (/api/xiaoe/knowledge)', () => {
  it('saves an item with similar questions, topics and validity; the index follows every save and delete', async () => {
    const t = await env.seeded();
    const topic = (await call<TopicDto>(t.app, t.adminToken, 'POST', '/api/topic/save', { name: '售后咨询' }))
      .body.data;
    const item = await saveItem(t, {
      question: '如何申请退货？',
      similar: '怎么退货\n退货流程是什么\n\n怎么退货',
      answer: '在“我的订单”中点击**申请售后**。详见[说明](https://example.com/r)',
      topics: [topic.id],
    });
    expect(item).toMatchObject({
      similar: ['怎么退货', '退货流程是什么'],
      enabled: true,
      active: true,
      topics: [{ id: topic.id, name: '售后咨询' }],
      begintime: null,
    });
    expect(await count(t.db, 'kb_question')).toBe(3);
    expect((await top(t, '退货的流程'))?.itemid).toBe(item.id);

    // Rewording: the old question is no longer found, the new one is.
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/update', {
      id: item.id,
      question: '发票怎么开？',
      similar: [],
      answer: '在订单详情申请。',
    });
    expect(await top(t, '退货的流程')).toBeUndefined();
    expect((await top(t, '怎么开发票'))?.itemid).toBe(item.id);
    // Topics absent from an update are kept.
    const d = (await call<KbItemDto>(t.app, t.adminToken, 'GET', `/api/xiaoe/knowledge/detail?id=${item.id}`))
      .body.data;
    expect(d.topics).toHaveLength(1);

    // Disabled or outside its window: not answered; enabled again: answered.
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/enabled', {
      ids: [item.id],
      enabled: false,
    });
    expect(await top(t, '怎么开发票')).toBeUndefined();
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/enabled', {
      ids: [item.id],
      enabled: true,
    });
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/update', {
      id: item.id,
      question: '发票怎么开？',
      answer: '在订单详情申请。',
      endtime: Date.now() - 60_000,
    });
    expect(await top(t, '怎么开发票')).toBeUndefined();
    const expired = (
      await call<Page<KbItemDto>>(t.app, t.adminToken, 'GET', '/api/xiaoe/knowledge/list?state=expired')
    ).body.data;
    expect(expired.list.map((x) => x.id)).toEqual([item.id]);
    expect(expired.list[0]!.active).toBe(false);

    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/delete', { id: item.id });
    expect(await count(t.db, 'kb_question')).toBe(0);
    expect(await count(t.db, 'kb_item_topic')).toBe(0);
  });

  it('refuses bad input and stores nothing: empty or long question, repeated question, reversed window, unknown type/topic', async () => {
    const t = await env.seeded();
    await saveItem(t, { question: '运费怎么算？', answer: '满99包邮。' });
    const bad = async (body: Record<string, unknown>, key: string) =>
      expectError(await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/save', body), key);
    await bad({ question: '   ', answer: 'a' }, 'required');
    await bad({ question: 'x'.repeat(201), answer: 'a' }, 'too_long');
    await bad({ question: 'q', answer: 'a'.repeat(5001) }, 'too_long');
    await bad({ question: '运费怎么算？', answer: 'b' }, 'kb_question_repeat');
    await bad({ question: 'q2', answer: 'a', begintime: 2000, endtime: 1000 }, 'range_invalid');
    await bad({ question: 'q3', answer: 'a', typeid: 'nope' }, 'invalid_field');
    await bad({ question: 'q4', answer: 'a', topics: ['nope'] }, 'invalid_field');
    await bad(
      { question: 'q5', answer: 'a', similar: Array.from({ length: 51 }, (_, i) => `s${i}`) },
      'too_long',
    );
    expect(await count(t.db, 'kb_item')).toBe(1);
    expect(await count(t.db, 'kb_question')).toBe(1);
  });

  it('lists by type (with subtypes), keyword and topic; batch enable and delete are all or nothing', async () => {
    const t = await env.seeded();
    const a = await saveType(t, '物流');
    const b = await saveType(t, '时效', a.id);
    const other = await saveType(t, '账户');
    const i1 = await saveItem(t, { typeid: a.id, question: '用什么快递？', answer: '中通。' });
    const i2 = await saveItem(t, {
      typeid: b.id,
      question: '多久发货？',
      answer: '48小时内。',
      similar: ['几天发货'],
    });
    const i3 = await saveItem(t, { typeid: other.id, question: '忘记密码？', answer: '找回密码。' });
    const page = async (q: string) =>
      (await call<Page<KbItemDto>>(t.app, t.adminToken, 'GET', `/api/xiaoe/knowledge/list?${q}`)).body.data;
    expect((await page(`typeid=${a.id}`)).list.map((x) => x.id).sort()).toEqual([i1.id, i2.id].sort());
    expect((await page(`typeid=${b.id}`)).list.map((x) => x.typename)).toEqual(['时效']);
    expect((await page('q=几天')).list.map((x) => x.id)).toEqual([i2.id]);
    expect((await page('typeid=unknown')).total).toBe(0);
    expect((await page('p=1&ps=2')).list).toHaveLength(2);

    expect(
      (await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/batdel', { ids: [i1.id, 'nope'] }))
        .status,
    ).toBe(404);
    expect(await count(t.db, 'kb_item')).toBe(3);
    const r = await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/enabled', {
      ids: `${i1.id},${i3.id}`,
      enabled: 0,
    });
    expect(r.body.data).toEqual({ updated: 2 });
    expect((await page('state=disabled')).total).toBe(2);
    expect(
      (await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/batdel', { ids: [i1.id, i3.id] })).body
        .data,
    ).toEqual({ deleted: 2 });
    expect(await count(t.db, 'kb_item')).toBe(1);
  });

  it('topic relations: read and replaced; an unknown topic is refused', async () => {
    const t = await env.seeded();
    const topic = (await call<TopicDto>(t.app, t.adminToken, 'POST', '/api/topic/save', { name: '物流' }))
      .body.data;
    const item = await saveItem(t, { question: '用什么快递？', answer: '中通。' });
    const r = await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/topic/save', {
      id: item.id,
      topics: [topic.id],
    });
    expect(r.body.data).toEqual([{ id: topic.id, name: '物流' }]);
    expect(
      (await call(t.app, t.adminToken, 'GET', `/api/xiaoe/knowledge/topic?id=${item.id}`)).body.data,
    ).toHaveLength(1);
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/topic/save', {
        id: item.id,
        topics: ['x'],
      }),
      'invalid_field',
    );
    expect(
      (await call(t.app, t.adminToken, 'GET', '/api/xiaoe/knowledge/list?topic=' + topic.id)).body.data,
    ).toMatchObject({ total: 1 });
    // A deleted topic is no longer listed.
    await call(t.app, t.adminToken, 'POST', '/api/topic/delete', { id: topic.id });
    expect(
      (await call(t.app, t.adminToken, 'GET', `/api/xiaoe/knowledge/topic?id=${item.id}`)).body.data,
    ).toEqual([]);
  });

  it('synonyms: an admin group makes a question with another word find the item; a word is in one group only', async () => {
    const t = await env.seeded();
    const item = await saveItem(t, { question: '耳机多久能到？', answer: '3天。' });
    const before = await top(t, '耳麦多久能到');
    const g = (
      await call<KbSynonymDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/synonym/save', {
        words: '耳机 耳麦 头戴',
      })
    ).body.data;
    expect(g.words).toEqual(['耳机', '耳麦', '头戴']);
    const after = await top(t, '耳麦多久能到');
    expect(after?.itemid).toBe(item.id);
    expect(after!.score).toBeGreaterThan(before?.score ?? 0);
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/synonym/save', {
        words: ['头戴', '蓝牙'],
      }),
      'name_repeat',
    );
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/synonym/save', { words: '耳机' }),
      'kb_synonym_short',
    );
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/synonym/update', {
      id: g.id,
      words: '耳机 听筒',
    });
    expect(
      (await call<KbSynonymDto[]>(t.app, t.adminToken, 'GET', '/api/xiaoe/knowledge/synonym/list')).body.data,
    ).toEqual([{ id: g.id, words: ['耳机', '听筒'] }]);
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/synonym/delete', { id: g.id });
    expect((await top(t, '耳麦多久能到'))?.score ?? 0).toBe(before?.score ?? 0);
  });

  it('built-in vocabulary: 物流 finds a 快递 question with no admin group, misspellings are read right, an admin group joins the built-in one it shares a word with', async () => {
    const t = await env.seeded();
    const item = await saveItem(t, { question: '快递多久能到？', answer: '3天。' });
    const other = await saveItem(t, { question: '包邮吗？', answer: '满99包邮。' });
    const viaBuiltin = await top(t, '物流多久能到');
    expect(viaBuiltin?.itemid).toBe(item.id);
    // 速递 is no built-in word (it shares 递 with 快递, 物流 nothing): it scores lower than 物流.
    const before = await top(t, '速递多久能到');
    expect(viaBuiltin!.score).toBeGreaterThan(before?.score ?? 0);
    const acct = await saveItem(t, { question: '账号怎么注册？', answer: '点注册。' });
    const typed = await top(t, '帐号怎么注册');
    expect(typed?.itemid).toBe(acct.id);
    expect(typed?.score).toBe((await top(t, '账号怎么注册'))?.score);
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/synonym/save', { words: '速递 物流' });
    const after = await top(t, '速递多久能到');
    expect(after?.itemid).toBe(item.id);
    expect(after!.score).toBeGreaterThan(before?.itemid === item.id ? before.score : 0);
    expect(after?.itemid).not.toBe(other.id);
  });

  it('train rebuilds the index from the stored items', async () => {
    const t = await env.seeded();
    const item = await saveItem(t, {
      question: '支持货到付款吗？',
      answer: '部分地区支持。',
      similar: ['可以到付吗'],
    });
    await t.db.kysely.deleteFrom('kb_question').execute();
    const r = await call<{ items: number; questions: number }>(
      t.app,
      t.adminToken,
      'POST',
      '/api/xiaoe/knowledge/train',
    );
    expect(r.body.data).toMatchObject({ items: 1, questions: 2 });
    expect((await top(t, '能到付吗'))?.itemid).toBe(item.id);
  });

  it('agent assist: suggestions with answers for a text (A01), none for nonsense', async () => {
    const t = await env.seeded();
    const item = await saveItem(t, { question: '如何开发票？', answer: '在订单详情申请电子发票。' });
    const agent = await userWithCodes(t, ['A01']);
    const r = await call<KbSuggestResult>(
      t.app,
      agent.token,
      'GET',
      `/api/xiaoe/knowledge/suggest?q=${encodeURIComponent('发票怎么开')}`,
    );
    expect(r.body.data.list[0]).toMatchObject({ id: item.id, answer: '在订单详情申请电子发票。' });
    expect(r.body.data.list[0]!.score).toBeGreaterThan(0.3);
    const none = await call<KbSuggestResult>(
      t.app,
      agent.token,
      'GET',
      `/api/xiaoe/knowledge/suggest?q=${encodeURIComponent('今天天气怎么样')}`,
    );
    expect(none.body.data.list).toEqual([]);
    const nobody = await userWithCodes(t, ['A04']);
    expect((await call(t.app, nobody.token, 'GET', '/api/xiaoe/knowledge/suggest?q=x')).status).toBe(403);
  });
});
