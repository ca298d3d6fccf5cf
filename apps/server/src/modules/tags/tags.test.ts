import { describe, expect, it } from 'vitest';
import type { ConversationSummaryDto, Page, TagDto, TopicDto } from '@kefu/protocol';
import { call, count, expectError, perTest, userWithCodes } from '../../../test/factories.js';
import { insertConversation } from '../../../test/conversation-rows.js';

const env = perTest();

const as =
  (token: string) =>
  <T>(url: string, body?: Record<string, unknown>) =>
    call<T>(env.t.app, token, body ? 'POST' : 'GET', url, body);

const adminId = async () =>
  (
    await env.t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow()
  ).id;

interface TalkData {
  tags: string[];
  summary: ConversationSummaryDto;
}

describe('tags (A09_A03_A07)', () => {
  it('save, update, delete; name unique per type; colours; page with usage; GET /api/tags', async () => {
    const t = await env.seeded();
    const admin = as(t.adminToken);
    const refund = (await admin<TagDto>('/api/tag/save', { name: '退款', color: '#F5222D' })).body.data;
    expect(refund).toMatchObject({ name: '退款', color: '#F5222D', tagtype: 'summary', times: 0 });
    const vip = (await admin<TagDto>('/api/tag/save', { name: 'VIP', tagtype: 'user' })).body.data;
    expect(vip.color).toMatch(/^#[0-9A-F]{6}$/);
    expectError(await admin('/api/tag/save', { name: '退款' }), 'name_repeat');
    // the same name as a contact tag is another tag
    expect((await admin('/api/tag/save', { name: '退款', tagtype: 'user' })).body.success).toBe(true);
    expectError(await admin('/api/tag/save', { name: '' }), 'required');
    expectError(await admin('/api/tag/save', { name: 'x'.repeat(21) }), 'too_long');
    expectError(await admin('/api/tag/save', { name: 'c', color: 'red' }), 'invalid_field');
    expectError(await admin('/api/tag/save', { name: 'c', tagtype: 'quality' }), 'invalid_field');
    const ship = (await admin<TagDto>('/api/tag/save', { name: '发货' })).body.data;
    expectError(await admin('/api/tag/update', { id: ship.id, name: '退款' }), 'name_repeat');
    const upd = await admin<TagDto>('/api/tag/update', { id: ship.id, color: '#52C41A' });
    expect(upd.body.data).toMatchObject({ name: '发货', color: '#52C41A' });
    expectError(await admin('/api/tag/update', { id: 'nope', name: 'z' }), 'not_found', 404);

    const summary = (await admin<TagDto[]>('/api/tags?tagtype=summary')).body.data;
    expect(summary.map((x) => x.name)).toEqual(['退款', '发货']);
    expect((await admin<TagDto[]>('/api/tags')).body.data).toHaveLength(4);
    expectError(await admin('/api/tags?tagtype=bad'), 'invalid_field');

    const { agentserviceid } = await insertConversation(t.db, { agentno: await adminId() });
    await admin('/api/talk/tagrelation', { agentserviceid, tagid: refund.id, checked: true });
    const page = (await admin<Page<TagDto>>('/api/tag/page?tagtype=summary&ps=1')).body.data;
    expect(page).toMatchObject({ total: 2, page: 1, size: 1 });
    expect(page.list[0]).toMatchObject({ name: '退款', times: 1 });
    expect((await admin<Page<TagDto>>('/api/tag/page?q=vi')).body.data.list.map((x) => x.name)).toEqual([
      'VIP',
    ]);

    // deleting a tag takes it off every conversation
    expect((await admin('/api/tag/delete', { id: refund.id })).body.success).toBe(true);
    expect(await count(t.db, 'agent_service_tag')).toBe(0);
    expectError(await admin('/api/tag/delete', { id: refund.id }), 'not_found', 404);
    expect(vip.id).toBeTruthy();
  });

  it('setup calls need A09_A03_A07; the list is open to chat, history and contacts users', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01']);
    const asAgent = as(agent.token);
    expectError(await asAgent('/api/tag/save', { name: 'x' }), 'forbidden', 403);
    expectError(await asAgent('/api/tag/page'), 'forbidden', 403);
    expectError(await asAgent('/api/tag/delete', { id: 'x' }), 'forbidden', 403);
    expect((await asAgent('/api/tags')).body.success).toBe(true);
    const nobody = await userWithCodes(t, ['A02']);
    expectError(await as(nobody.token)('/api/tags'), 'forbidden', 403);
    const keeper = await userWithCodes(t, ['A09_A03_A07']);
    expect((await as(keeper.token)('/api/tag/save', { name: 'ok' })).body.success).toBe(true);
  });

  it('POST /api/talk/tagrelation takes only this organisation’s conversation tags', async () => {
    const t = await env.seeded();
    const admin = as(t.adminToken);
    const agent = await userWithCodes(t, ['A01']);
    const other = await userWithCodes(t, ['A01']);
    const { agentserviceid, agentuserid } = await insertConversation(t.db, { agentno: agent.id });
    const tag = (await admin<TagDto>('/api/tag/save', { name: '咨询' })).body.data;
    const userTag = (await admin<TagDto>('/api/tag/save', { name: '老客户', tagtype: 'user' })).body.data;
    const rel = (token: string, tagid: string, checked = true) =>
      call(t.app, token, 'POST', '/api/talk/tagrelation', { agentserviceid, tagid, checked });

    expectError(await rel(agent.token, 'no-such-tag'), 'invalid_field');
    expectError(await rel(agent.token, userTag.id), 'invalid_field');
    expectError(await rel(other.token, tag.id), 'not_conversation_owner', 403);
    expect(await count(t.db, 'agent_service_tag')).toBe(0);
    expect((await rel(agent.token, tag.id)).body.success).toBe(true);
    expect((await rel(agent.token, tag.id)).body.success).toBe(true);
    const data = await call<TalkData>(t.app, agent.token, 'GET', `/api/talk/data?id=${agentuserid}`);
    expect(data.body.data.tags).toEqual([tag.id]);
    expect((await rel(agent.token, tag.id, false)).body.success).toBe(true);
    expect(await count(t.db, 'agent_service_tag')).toBe(0);
  });
});

describe('service topics (A09_A03_A08) and the conversation summary', () => {
  it('a tree: save, rename / move, repeat and parent checks, delete with its subtree', async () => {
    const t = await env.seeded();
    const admin = as(t.adminToken);
    const save = (b: Record<string, unknown>) => admin<TopicDto>('/api/topic/save', b);
    const sales = (await save({ name: '售前' })).body.data;
    expect(sales).toMatchObject({ name: '售前', parentid: null });
    const price = (await save({ name: '价格', parentid: sales.id })).body.data;
    const discount = (await save({ name: '优惠', parentid: price.id })).body.data;
    const after = (await save({ name: '售后' })).body.data;
    expectError(await save({ name: '售前' }), 'category_name_repeat');
    expect((await save({ name: '价格', parentid: after.id })).body.success).toBe(true);
    expectError(await save({ id: sales.id, name: '售前', parentid: discount.id }), 'category_parent_self');
    expectError(await save({ id: sales.id, name: '售前', parentid: sales.id }), 'category_parent_self');
    expectError(await save({ name: 'x', parentid: 'nope' }), 'invalid_field');
    expectError(await save({ id: 'nope', name: 'x' }), 'not_found', 404);
    expectError(await save({ name: '' }), 'required');
    const moved = (await save({ id: discount.id, name: '折扣', parentid: sales.id })).body.data;
    expect(moved).toMatchObject({ name: '折扣', parentid: sales.id });

    const { agentserviceid } = await insertConversation(t.db, { agentno: await adminId() });
    await admin('/api/talk/summary', { agentserviceid, topicid: price.id, memo: '问价格' });
    const list = (await admin<TopicDto[]>('/api/sessionType')).body.data;
    expect(list.map((x) => x.name)).toEqual(['售前', '价格', '折扣', '售后', '价格']);
    const del = await admin<{ deleted: number }>('/api/topic/delete', { id: sales.id });
    expect(del.body.data).toEqual({ deleted: 3 });
    expect((await admin<TopicDto[]>('/api/sessionType')).body.data.map((x) => x.name)).toEqual([
      '售后',
      '价格',
    ]);
    const row = await t.db.kysely
      .selectFrom('agent_service')
      .select(['topicid', 'summary'])
      .where('id', '=', agentserviceid)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ topicid: null, summary: '问价格' });
  });

  it('topic calls need A09_A03_A08; the summary is written by whoever follows the conversation', async () => {
    const t = await env.seeded();
    const admin = as(t.adminToken);
    const agent = await userWithCodes(t, ['A01']);
    const other = await userWithCodes(t, ['A01']);
    expectError(await as(agent.token)('/api/topic/save', { name: 'x' }), 'forbidden', 403);
    expectError(await as(agent.token)('/api/topic/delete', { id: 'x' }), 'forbidden', 403);
    expect((await as(agent.token)('/api/sessionType')).body.success).toBe(true);
    const topic = (await admin<TopicDto>('/api/topic/save', { name: '物流' })).body.data;
    const { agentserviceid, agentuserid } = await insertConversation(t.db, { agentno: agent.id });
    const sum = (token: string, b: Record<string, unknown>) =>
      call<ConversationSummaryDto>(t.app, token, 'POST', '/api/talk/summary', { agentserviceid, ...b });

    expectError(await sum(other.token, { memo: 'x' }), 'not_conversation_owner', 403);
    expectError(await sum(agent.token, { topicid: 'nope' }), 'invalid_field');
    expectError(await sum(agent.token, { memo: 'x'.repeat(1001) }), 'too_long');
    const ok = await sum(agent.token, { topicid: topic.id, memo: '  查询发货进度 ' });
    expect(ok.body.data).toMatchObject({ topicid: topic.id, topicname: '物流', memo: '查询发货进度' });
    // absent fields keep their value; '' clears the topic
    expect((await sum(agent.token, { memo: '已解决' })).body.data).toMatchObject({
      topicid: topic.id,
      memo: '已解决',
    });
    const data = await call<TalkData>(t.app, agent.token, 'GET', `/api/talk/data?id=${agentuserid}`);
    expect(data.body.data.summary).toMatchObject({ topicname: '物流', memo: '已解决' });
    expect((await sum(agent.token, { topicid: '' })).body.data).toMatchObject({
      topicid: null,
      topicname: '',
    });
  });
});
