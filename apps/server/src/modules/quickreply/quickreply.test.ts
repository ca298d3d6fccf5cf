import { describe, expect, it } from 'vitest';
import type { QuickReplyDto, QuickTypeDto } from '@kefu/protocol';
import { call, count, expectError, userWithCodes, perTest } from '../../../test/factories.js';

const env = perTest();

const as =
  (token: string) =>
  <T>(url: string, body?: Record<string, unknown>) =>
    call<T>(env.t.app, token, body ? 'POST' : 'GET', url, body);

describe('quick replies', () => {
  it('types tree: save, update, repeat and parent checks, delete with its subtree and replies', async () => {
    const t = await env.seeded();
    const admin = as(t.adminToken);
    const root = (await admin<QuickTypeDto>('/api/agent/quickreply/type/save', { name: '售前' })).body.data;
    expect(root).toMatchObject({ name: '售前', parentid: null, type: 'pub' });
    const child = (
      await admin<QuickTypeDto>('/api/agent/quickreply/type/save', { name: '价格', parentid: root.id })
    ).body.data;
    expect(child.parentid).toBe(root.id);
    expectError(await admin('/api/agent/quickreply/type/save', { name: '售前' }), 'category_name_repeat');
    // the same name under another parent is fine
    expect((await admin('/api/agent/quickreply/type/save', { name: '价格' })).body.success).toBe(true);
    expectError(
      await admin('/api/agent/quickreply/type/update', { id: root.id, name: '售前', parentid: root.id }),
      'category_parent_self',
    );
    expectError(
      await admin('/api/agent/quickreply/type/update', { id: root.id, name: '售前', parentid: child.id }),
      'category_parent_self',
    );
    expectError(
      await admin('/api/agent/quickreply/type/update', { id: child.id, name: '价格', parentid: '' }),
      'category_name_repeat',
    );
    expectError(await admin('/api/agent/quickreply/type/save', { name: '' }), 'required');
    expectError(await admin('/api/agent/quickreply/type/save', { name: 'x'.repeat(51) }), 'too_long');
    expectError(
      await admin('/api/agent/quickreply/type/save', { name: 'y', parentid: 'nope' }),
      'invalid_field',
    );
    const upd = await admin<QuickTypeDto>('/api/agent/quickreply/type/update', {
      id: child.id,
      name: '报价',
      parentid: root.id,
    });
    expect(upd.body.data.name).toBe('报价');
    await admin('/api/agent/quickreply/save', { title: 'p1', content: '价格请咨询', cate: child.id });
    await admin('/api/agent/quickreply/save', { title: 'p2', content: '欢迎', cate: root.id });
    await admin('/api/agent/quickreply/save', { title: 'loose', content: '无分类' });
    const types = await admin<QuickTypeDto[]>('/api/quicktype');
    expect(types.body.data.map((x) => x.name)).toEqual(['售前', '报价', '价格']);
    const del = await admin<{ types: number; replies: number }>('/api/agent/quickreply/deletetype', {
      id: root.id,
    });
    expect(del.body.data).toEqual({ types: 2, replies: 2 });
    expect((await admin<QuickReplyDto[]>('/api/quickreply')).body.data.map((r) => r.title)).toEqual([
      'loose',
    ]);
    expect(await count(t.db, 'quick_type')).toBe(1);
  });

  it('replies: public need A09_A03_A09, personal belong to their agent; list, filter, search, rank, delete', async () => {
    const t = await env.seeded();
    const admin = as(t.adminToken);
    const ann = await userWithCodes(t, ['A01']);
    const bob = await userWithCodes(t, ['A01']);
    const keeper = await userWithCodes(t, ['A09_A03_A09']);
    const asAnn = as(ann.token);
    const asBob = as(bob.token);
    const pubType = (await admin<QuickTypeDto>('/api/agent/quickreply/type/save', { name: '通用' })).body
      .data;
    const hello = (
      await admin<QuickReplyDto>('/api/agent/quickreply/save', {
        title: '问候',
        content: '您好，请问有什么可以帮您？',
        cate: pubType.id,
      })
    ).body.data;
    expect(hello).toMatchObject({ type: 'pub', cate: pubType.id, creater: expect.any(String) });
    expectError(
      await admin('/api/agent/quickreply/save', { title: '问候', content: 'again', cate: pubType.id }),
      'name_repeat',
    );
    expectError(await admin('/api/agent/quickreply/save', { title: 't', content: '' }), 'required');
    expectError(
      await admin('/api/agent/quickreply/save', { title: 't', content: 'x'.repeat(2001) }),
      'too_long',
    );
    // an agent without the admin code: public ones are read-only
    expectError(await asAnn('/api/agent/quickreply/save', { title: 'x', content: 'y' }), 'forbidden', 403);
    expectError(
      await asAnn('/api/agent/quickreply/update', { id: hello.id, title: 'h', content: 'c' }),
      'forbidden',
      403,
    );
    expectError(await asAnn('/api/agent/quickreply/delete', { id: hello.id }), 'forbidden', 403);
    expectError(await asAnn('/api/agent/quickreply/type/save', { name: 'z' }), 'forbidden', 403);
    // personal ones
    const annType = (
      await asAnn<QuickTypeDto>('/api/agent/quickreply/type/save', { name: '我的', type: 'pri' })
    ).body.data;
    expect(annType.type).toBe('pri');
    // bob may use the same name for his own type
    expect((await asBob('/api/agent/quickreply/type/save', { name: '我的', type: 'pri' })).body.success).toBe(
      true,
    );
    const mine = (
      await asAnn<QuickReplyDto>('/api/agent/quickreply/save', {
        title: '稍等',
        content: '请稍等，我查询一下',
        cate: annType.id,
      })
    ).body.data;
    expect(mine).toMatchObject({ type: 'pri', creater: ann.id });
    // a personal reply cannot be filed under a public type and vice versa
    expectError(
      await asAnn('/api/agent/quickreply/update', {
        id: mine.id,
        title: '稍等',
        content: 'c',
        cate: pubType.id,
      }),
      'invalid_field',
    );
    expectError(
      await asAnn('/api/agent/quickreply/save', { title: 'q', content: 'c', type: 'pri', cate: 'missing' }),
      'invalid_field',
    );
    // bob sees the public reply only; ann sees both; the keeper (no A01) sees the public one
    expect((await asBob<QuickReplyDto[]>('/api/quickreply')).body.data.map((r) => r.id)).toEqual([hello.id]);
    expect((await asAnn<QuickReplyDto[]>('/api/quickreply')).body.data.map((r) => r.id)).toEqual([
      hello.id,
      mine.id,
    ]);
    expect((await asBob<QuickTypeDto[]>('/api/quicktype?type=pri')).body.data.map((x) => x.creater)).toEqual([
      bob.id,
    ]);
    expectError(await asBob('/api/agent/quickreply/delete', { id: mine.id }), 'not_found', 404);
    expectError(
      await asBob('/api/agent/quickreply/update', { id: mine.id, title: 'x', content: 'y' }),
      'not_found',
      404,
    );
    // filters and search
    expect((await asAnn<QuickReplyDto[]>('/api/quickreply?type=pri')).body.data.map((r) => r.id)).toEqual([
      mine.id,
    ]);
    expect(
      (await asAnn<QuickReplyDto[]>(`/api/quickreply?cate=${pubType.id}`)).body.data.map((r) => r.id),
    ).toEqual([hello.id]);
    expect(
      (await asAnn<QuickReplyDto[]>(`/api/quickreply?q=${encodeURIComponent('查询')}`)).body.data.map(
        (r) => r.id,
      ),
    ).toEqual([mine.id]);
    expect((await asAnn<QuickReplyDto[]>('/api/quickreply?q=100%25')).body.data).toEqual([]);
    // the keeper manages public replies, rank included
    const asKeeper = as(keeper.token);
    const second = (
      await asKeeper<QuickReplyDto>('/api/agent/quickreply/save', { title: '再见', content: '再见！' })
    ).body.data;
    const ranked = await asKeeper<QuickReplyDto[]>('/api/agent/quick/rank', { ids: [second.id, hello.id] });
    expect(ranked.body.data.map((r) => r.id)).toEqual([second.id, hello.id]);
    // ann may not reorder public replies, but may reorder her own
    expectError(await asAnn('/api/agent/quick/rank', { ids: [hello.id, second.id] }), 'forbidden', 403);
    expect((await asAnn('/api/agent/quick/rank', { ids: [mine.id] })).body.success).toBe(true);
    expectError(await asAnn('/api/agent/quick/rank', { ids: ['missing'] }), 'invalid_field');
    // update and batch delete (all or nothing)
    const edited = await asAnn<QuickReplyDto>('/api/agent/quickreply/update', {
      id: mine.id,
      title: '稍等片刻',
      content: '请稍等',
      cate: '',
    });
    expect(edited.body.data).toMatchObject({ title: '稍等片刻', cate: null });
    expectError(
      await asAnn('/api/agent/quickreply/batdel/reply', { ids: [mine.id, hello.id] }),
      'forbidden',
      403,
    );
    expect(await count(t.db, 'quick_reply')).toBe(3);
    const gone = await admin<{ deleted: number }>('/api/agent/quickreply/batdel/reply', {
      ids: `${hello.id},${second.id}`,
    });
    expect(gone.body.data.deleted).toBe(2);
    expect(
      (await asAnn<{ deleted: number }>('/api/agent/quickreply/delete', { id: mine.id })).body.data,
    ).toEqual({
      deleted: 1,
    });
    expect(await count(t.db, 'quick_reply')).toBe(0);
    // neither A01 nor A09_A03_A09: no access
    const none = await userWithCodes(t, ['A02']);
    expectError(await as(none.token)('/api/quickreply'), 'forbidden', 403);
  });
});
