import { describe, expect, it } from 'vitest';
import type { ContactDto, ContactViewDto, Page, TagDto } from '@kefu/protocol';
import { call, count, expectError, perTest, userWithCodes } from '../../../test/factories.js';
import { insertConversation } from '../../../test/conversation-rows.js';
import { addOrgan } from '../../../test/live.js';

const env = perTest();

const as =
  (token: string) =>
  <T>(url: string, body?: Record<string, unknown>) =>
    call<T>(env.t.app, token, body ? 'POST' : 'GET', url, body);

const put = <T>(token: string, body: Record<string, unknown>) =>
  call<T>(env.t.app, token, 'PUT', '/api/contacts', body);

const names = (r: { body: { data: Page<ContactDto> } }) => r.body.data.list.map((c) => c.name);

describe('contacts (A05)', () => {
  it('save, update, view, delete, with the spec validators and the duplicate mobile / email key', async () => {
    const t = await env.seeded();
    const admin = as(t.adminToken);
    const vip = (await admin<TagDto>('/api/tag/save', { name: 'VIP', tagtype: 'user' })).body.data;
    const convTag = (await admin<TagDto>('/api/tag/save', { name: '退款' })).body.data;
    const ann = await admin<ContactDto>('/api/contacts/save', {
      name: ' 王小明 ',
      phone: '13800138000',
      email: 'Ming@Example.com, ming2@example.com',
      company: '示例科技',
      gender: 'male',
      region: '上海',
      address: '浦东新区',
      birthday: '1990-02-28',
      memo: '老客户',
      tags: [vip.id],
    });
    expect(ann.body.data).toMatchObject({
      name: '王小明',
      phone: '13800138000',
      email: 'ming@example.com,ming2@example.com',
      gender: 'male',
      birthday: '1990-02-28',
      ownername: 'admin',
      tags: [{ id: vip.id, name: 'VIP' }],
      identities: [],
    });
    const id = ann.body.data.id;

    expectError(await admin('/api/contacts/save', { name: '' }), 'required');
    expectError(await admin('/api/contacts/save', { name: 'a', phone: '12345' }), 'phone_format');
    expectError(await admin('/api/contacts/save', { name: 'a', email: 'a@b.com,nope' }), 'email_format');
    expectError(await admin('/api/contacts/save', { name: 'a', birthday: '1990-02-30' }), 'invalid_field');
    expectError(await admin('/api/contacts/save', { name: 'a', gender: 'x' }), 'invalid_field');
    expectError(await admin('/api/contacts/save', { name: 'a', memo: 'x'.repeat(1001) }), 'too_long');
    expectError(await admin('/api/contacts/save', { name: 'a', tags: [convTag.id] }), 'invalid_field');
    expectError(await admin('/api/contacts/save', { name: 'a', owner: 'nobody' }), 'invalid_field');
    const dupPhone = await admin('/api/contacts/save', { name: 'b', phone: '13800138000' });
    expectError(dupPhone, 'mobile_email_exists');
    expect(dupPhone.body.fields).toEqual({ phone: 'mobile_email_exists' });
    const dupMail = await admin('/api/contacts/save', { name: 'b', email: 'x@y.cn,MING2@example.com' });
    expectError(dupMail, 'mobile_email_exists');
    expect(dupMail.body.fields).toEqual({ email: 'mobile_email_exists' });
    expect(await count(t.db, 'contact')).toBe(1);

    const bob = (await admin<ContactDto>('/api/contacts/save', { name: '李雷', phone: '13900139000' })).body
      .data;
    // an update keeps its own keys, may not take another's, and a refused one changes nothing
    expect((await admin('/api/contacts/update', { id, phone: '13800138000', memo: '改' })).body.success).toBe(
      true,
    );
    expectError(
      await admin('/api/contacts/update', { id: bob.id, email: 'ming@example.com' }),
      'mobile_email_exists',
    );
    expectError(await admin('/api/contacts/update', { id: bob.id, name: '' }), 'required');
    const bobNow = (await admin<ContactViewDto>(`/api/contacts/view?id=${bob.id}`)).body.data.contact;
    expect(bobNow).toMatchObject({ name: '李雷', email: '' });
    // clearing the phone frees it
    await admin('/api/contacts/update', { id: bob.id, phone: '' });
    expect((await admin('/api/contacts/save', { name: 'c', phone: '13900139000' })).body.success).toBe(true);

    const view = (await admin<ContactViewDto>(`/api/contacts/view?id=${id}`)).body.data;
    expect(view.contact).toMatchObject({ memo: '改', company: '示例科技', tags: [{ name: 'VIP' }] });
    expect(view.timeline).toEqual({ list: [], total: 0, page: 1, size: 20 });
    expectError(await admin('/api/contacts/view?id=nope'), 'not_found', 404);

    expect((await admin(`/api/contacts/delete?id=${id}`)).body.success).toBe(true);
    expectError(await admin(`/api/contacts/view?id=${id}`), 'not_found', 404);
    // the deleted contact's mobile and emails are free again
    expect((await admin('/api/contacts/save', { name: 'd', email: 'ming@example.com' })).body.success).toBe(
      true,
    );
    expect(
      await t.db.kysely.selectFrom('contact_identity').select('value').where('contactid', '=', id).execute(),
    ).toEqual([]);
  });

  it('the list: keyword (contains, or a whole mobile / email by its key), tag, owner, gender, dates, pages', async () => {
    const t = await env.seeded();
    const admin = as(t.adminToken);
    const agent = await userWithCodes(t, ['A05']);
    const vip = (await admin<TagDto>('/api/tag/save', { name: 'VIP', tagtype: 'user' })).body.data;
    const mk = (b: Record<string, unknown>) => admin<ContactDto>('/api/contacts/save', b);
    await mk({ name: '张三', phone: '13800000001', company: 'Acme 科技', gender: 'male' });
    await mk({ name: '李四', email: 'lisi@corp.cn', tags: [vip.id], owner: agent.id });
    await mk({ name: '王五_100%', phone: '13800000003', gender: 'female' });
    const list = (q: string) => admin<Page<ContactDto>>(`/api/contacts/index?${q}`);
    expect(names(await list(''))).toEqual(['王五_100%', '李四', '张三']);
    expect(names(await list('q=acme'))).toEqual(['张三']);
    expect(names(await list('q=' + encodeURIComponent('李')))).toEqual(['李四']);
    expect(names(await list('q=13800000003'))).toEqual(['王五_100%']);
    expect(names(await list('q=1380000000'))).toEqual(['王五_100%', '张三']);
    expect(names(await list('q=LISI@corp.cn'))).toEqual(['李四']);
    expect(names(await list('q=' + encodeURIComponent('%')))).toEqual(['王五_100%']);
    expect(names(await list('q=_'))).toEqual(['王五_100%']);
    expect(names(await list(`tag=${vip.id}`))).toEqual(['李四']);
    expect(names(await list(`owner=${agent.id}`))).toEqual(['李四']);
    expect(names(await list('gender=female'))).toEqual(['王五_100%']);
    const p2 = (await list('p=2&ps=2')).body.data;
    expect(p2).toMatchObject({ total: 3, page: 2, size: 2 });
    expect(p2.list.map((c) => c.name)).toEqual(['张三']);
    const now = Date.now();
    expect(names(await list(`begin=${now + 60_000}`))).toEqual([]);
    expect(names(await list(`begin=0&end=${now + 60_000}`))).toHaveLength(3);
    expectError(await list(`begin=${now}&end=${now - 1}`), 'time_start_after_end');
    expectError(await list('begin=yesterday'), 'invalid_field');
    expectError(await list('gender=x'), 'invalid_field');
    expectError(await list(`q=${'x'.repeat(51)}`), 'too_long');
  });

  it('needs A05; data scope: own + departments (with sub-departments) for A05, everything for usertype 0', async () => {
    const t = await env.seeded();
    const admin = as(t.adminToken);
    const d1 = await addOrgan(t, 'D1');
    const d1child = await addOrgan(t, 'D1-1');
    await t.db.kysely.updateTable('organ').set({ parentid: d1 }).where('id', '=', d1child).execute();
    const d2 = await addOrgan(t, 'D2');
    const lead = await userWithCodes(t, ['A05'], { organ: d1 });
    const member = await userWithCodes(t, ['A05'], { organ: d1child });
    const stranger = await userWithCodes(t, ['A05'], { organ: d2 });
    const chatOnly = await userWithCodes(t, ['A01'], { organ: d1 });

    expectError(await as(chatOnly.token)('/api/contacts/index'), 'forbidden', 403);
    expectError(await as(chatOnly.token)('/api/contacts/save', { name: 'x' }), 'forbidden', 403);
    expectError(await as(chatOnly.token)('/api/contacts/delete?id=x'), 'forbidden', 403);

    const ofMember = (await as(member.token)<ContactDto>('/api/contacts/save', { name: '成员的' })).body.data;
    expect(ofMember).toMatchObject({ owner: member.id, organ: d1child });
    const ofStranger = (await as(stranger.token)<ContactDto>('/api/contacts/save', { name: '外部门的' })).body
      .data;
    const ofAdmin = (await admin<ContactDto>('/api/contacts/save', { name: '管理员的' })).body.data;

    const seen = async (token: string) => names(await as(token)<Page<ContactDto>>('/api/contacts/index'));
    expect(await seen(lead.token)).toEqual(['成员的']);
    expect(await seen(member.token)).toEqual(['成员的']);
    expect(await seen(stranger.token)).toEqual(['外部门的']);
    expect(await seen(t.adminToken)).toEqual(['管理员的', '外部门的', '成员的']);

    const asLead = as(lead.token);
    expectError(await asLead(`/api/contacts/view?id=${ofStranger.id}`), 'forbidden', 403);
    expectError(await asLead('/api/contacts/update', { id: ofStranger.id, memo: 'x' }), 'forbidden', 403);
    expectError(await asLead(`/api/contacts/delete?id=${ofStranger.id}`), 'forbidden', 403);
    expectError(
      await asLead('/api/contacts/merge', { target: ofMember.id, source: ofAdmin.id }),
      'forbidden',
      403,
    );
    // handing a contact to someone outside the scope is refused; inside it is fine
    expectError(
      await asLead('/api/contacts/update', { id: ofMember.id, owner: stranger.id }),
      'forbidden',
      403,
    );
    expect(
      (await asLead('/api/contacts/update', { id: ofMember.id, owner: lead.id })).body.data,
    ).toMatchObject({
      owner: lead.id,
      organ: d1,
    });
    expect((await asLead(`/api/contacts/view?id=${ofMember.id}`)).body.success).toBe(true);
    expect(await count(t.db, 'contact')).toBe(3);
  });

  it('PUT /api/contacts from a conversation: create from the visitor, update, link another; GET /api/talk/data shows it', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01']);
    const other = await userWithCodes(t, ['A01']);
    const conv = await insertConversation(t.db, {
      agentno: agent.id,
      username: 'Guest_1',
      name: '访客小张',
      phone: '13700137000',
      email: 'not-an-email',
    });
    const created = await put<ContactDto>(agent.token, { agentserviceid: conv.agentserviceid });
    expect(created.body.data).toMatchObject({
      name: '访客小张',
      phone: '13700137000',
      email: '',
      owner: agent.id,
      identities: [{ channel: 'webim', userid: conv.userid }],
    });
    const updated = await put<ContactDto>(agent.token, {
      agentserviceid: conv.agentserviceid,
      company: '甲公司',
    });
    expect(updated.body.data).toMatchObject({ id: created.body.data.id, company: '甲公司' });
    expect(await count(t.db, 'contact')).toBe(1);

    expectError(
      await put(other.token, { agentserviceid: conv.agentserviceid }),
      'not_conversation_owner',
      403,
    );
    expectError(await put(agent.token, { agentserviceid: 'nope' }), 'conversation_not_found', 404);
    expectError(await put(agent.token, { agentserviceid: conv.agentserviceid, phone: '1' }), 'phone_format');

    // the same visitor's next conversation finds the contact
    const again = await insertConversation(t.db, { agentno: agent.id, userid: conv.userid });
    const data = await call<{ contact: ContactDto | null }>(
      t.app,
      agent.token,
      'GET',
      `/api/talk/data?id=${again.agentuserid}`,
    );
    expect(data.body.data.contact).toMatchObject({ id: created.body.data.id, company: '甲公司' });

    // linking to another contact: only one in the caller's scope (an A01-only agent: their own)
    const foreign = (await as(t.adminToken)<ContactDto>('/api/contacts/save', { name: '别人的' })).body.data;
    expectError(
      await put(agent.token, { agentserviceid: conv.agentserviceid, contactid: foreign.id }),
      'forbidden',
      403,
    );
    const second = await insertConversation(t.db, { agentno: agent.id, phone: '13700137000' });
    const mine = await put<ContactDto>(agent.token, {
      agentserviceid: second.agentserviceid,
      name: '另一个',
    });
    // the visitor's mobile already belongs to the first contact, so the new one starts without it
    expect(mine.body.data).toMatchObject({ name: '另一个', phone: '' });
    const linked = await put<ContactDto>(agent.token, {
      agentserviceid: conv.agentserviceid,
      contactid: mine.body.data.id,
    });
    expect(linked.body.data.identities.map((i) => i.userid).sort()).toEqual(
      [conv.userid, second.userid].sort(),
    );
    const first = await as(t.adminToken)<ContactViewDto>(`/api/contacts/view?id=${created.body.data.id}`);
    expect(first.body.data.contact.identities).toEqual([]);
  });

  it('merge keeps both histories: identities, emails, tags and empty fields move to the target', async () => {
    const t = await env.seeded();
    const admin = as(t.adminToken);
    const agent = await userWithCodes(t, ['A01', 'A05']);
    const vip = (await admin<TagDto>('/api/tag/save', { name: 'VIP', tagtype: 'user' })).body.data;
    const old = (await admin<TagDto>('/api/tag/save', { name: '老客户', tagtype: 'user' })).body.data;
    const c1 = await insertConversation(t.db, { agentno: agent.id, createtime: Date.now() - 10_000 });
    const c2 = await insertConversation(t.db, { agentno: agent.id });
    const a = (
      await put<ContactDto>(agent.token, {
        agentserviceid: c1.agentserviceid,
        name: '甲',
        email: 'a@x.cn',
        tags: [vip.id],
        memo: '一',
      })
    ).body.data;
    const b = (
      await put<ContactDto>(agent.token, {
        agentserviceid: c2.agentserviceid,
        name: '乙',
        phone: '13600136000',
        email: 'b@x.cn',
        company: '乙公司',
        tags: [old.id],
        memo: '二',
      })
    ).body.data;
    expectError(await admin('/api/contacts/merge', { target: a.id, source: a.id }), 'invalid_field');
    expectError(await admin('/api/contacts/merge', { target: a.id, source: 'nope' }), 'not_found', 404);
    const merged = (await admin<ContactDto>('/api/contacts/merge', { target: a.id, source: b.id })).body.data;
    expect(merged).toMatchObject({
      id: a.id,
      name: '甲',
      phone: '13600136000',
      email: 'a@x.cn,b@x.cn',
      company: '乙公司',
      memo: '一\n二',
    });
    expect(merged.tags.map((x) => x.name).sort()).toEqual(['VIP', '老客户'].sort());
    expect(merged.identities.map((i) => i.userid).sort()).toEqual([c1.userid, c2.userid].sort());
    const view = (await admin<ContactViewDto>(`/api/contacts/view?id=${a.id}`)).body.data;
    expect(view.timeline.list.map((c) => c.id)).toEqual([c2.agentserviceid, c1.agentserviceid]);
    expectError(await admin(`/api/contacts/view?id=${b.id}`), 'not_found', 404);
    expect(await count(t.db, 'contact')).toBe(1);
    // the source's keys now belong to the target
    expectError(
      await admin('/api/contacts/save', { name: 'z', phone: '13600136000' }),
      'mobile_email_exists',
    );
  });
});
