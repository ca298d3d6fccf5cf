import { describe, expect, it } from 'vitest';
import type { OpinionDto, SatisfactionSettingsDto } from '@kefu/protocol';
import { call, count, expectError, userWithCodes, type SeededApp, perTest } from '../../../test/factories.js';
import { insertConversation, insertVisitor } from '../access/channel-fixtures.js';

const env = perTest();

const admin = <T>(s: SeededApp, method: 'GET' | 'POST', url: string, body?: Record<string, unknown>) =>
  call<T>(s.app, s.adminToken, method, url, body);

describe('satisfaction settings and opinions', () => {
  it('data, enabled, update; bad input changes nothing; code A09_A03_A04', async () => {
    const t = await env.seeded();
    const d = await admin<SatisfactionSettingsDto & { opinions: OpinionDto[] }>(
      t,
      'GET',
      '/api/satisfaction/data',
    );
    expect(d.body.data).toMatchObject({ enabled: true, multi: false, comment: true, opinions: [] });
    expect(d.body.data.levels[0]).toEqual({ value: 1, name: '非常满意' });
    const off = await admin<SatisfactionSettingsDto>(t, 'POST', '/api/satisfaction/enabled', {
      enabled: false,
    });
    expect(off.body.data.enabled).toBe(false);
    const upd = await admin<SatisfactionSettingsDto>(t, 'POST', '/api/satisfaction/update', {
      text: '请评价{agent}',
      multi: true,
      levels: ['好', '中', '差'],
    });
    expect(upd.body.data).toMatchObject({ text: '请评价{agent}', multi: true });
    expect(upd.body.data.levels[2]).toEqual({ value: 3, name: '差' });
    const before = JSON.stringify((await admin(t, 'GET', '/api/satisfaction/data')).body.data);
    expectError(
      await admin(t, 'POST', '/api/satisfaction/update', { levels: ['only one'] }),
      'invalid_field',
    );
    expectError(await admin(t, 'POST', '/api/satisfaction/update', { text: 'x'.repeat(201) }), 'too_long');
    expectError(await admin(t, 'POST', '/api/satisfaction/enabled', { enabled: 'maybe' }), 'invalid_field');
    expect(JSON.stringify((await admin(t, 'GET', '/api/satisfaction/data')).body.data)).toBe(before);
    const agent = await userWithCodes(t, ['A01']);
    expect((await call(t.app, agent.token, 'GET', '/api/satisfaction/data')).status).toBe(403);
  });

  it('opinion list, save, update, detail, sort, delete', async () => {
    const t = await env.seeded();
    const save = (name: string) => admin<OpinionDto>(t, 'POST', '/api/opinion/save', { name });
    const a = (await save('态度不好')).body.data;
    const b = (await save('回复太慢')).body.data;
    expectError(await save('态度不好'), 'name_repeat');
    expectError(await save(' '), 'required');
    expect(await count(t.db, 'satis_opinion')).toBe(2);
    const u = await admin<OpinionDto>(t, 'POST', '/api/opinion/update', { id: a.id, name: '服务态度不好' });
    expect(u.body.data.name).toBe('服务态度不好');
    expectError(await admin(t, 'POST', '/api/opinion/update', { id: a.id, name: '回复太慢' }), 'name_repeat');
    expect((await admin<OpinionDto>(t, 'GET', `/api/opinion/detail?id=${b.id}`)).body.data.name).toBe(
      '回复太慢',
    );
    const sorted = await admin<OpinionDto[]>(t, 'POST', '/api/opinion/sort', { ids: [b.id, a.id] });
    expect(sorted.body.data.map((o) => o.id)).toEqual([b.id, a.id]);
    expectError(await admin(t, 'POST', '/api/opinion/sort', { ids: ['ghost'] }), 'invalid_field');
    await admin(t, 'POST', '/api/opinion/delete', { id: b.id });
    expect((await admin<OpinionDto[]>(t, 'GET', '/api/opinion/list')).body.data.map((o) => o.name)).toEqual([
      '服务态度不好',
    ]);
    expectError(await admin(t, 'POST', '/api/opinion/delete', { id: b.id }), 'not_found', 404);
  });
});

describe('visitor rating (POST /im/satis)', () => {
  it('stores level, opinions and comment on the conversation; re-rating only when allowed', async () => {
    const t = await env.seeded();
    const op = (await admin<OpinionDto>(t, 'POST', '/api/opinion/save', { name: '回复太慢' })).body.data;
    const v = await insertVisitor(t.db, 'demo');
    const sid = await insertConversation(t.db, 'demo', v.userid, 'end');
    const rate = (extra: Record<string, unknown>) =>
      call(t.app, null, 'POST', '/im/satis', {
        appid: 'demo',
        userid: v.userid,
        token: v.token,
        agentserviceid: sid,
        level: 2,
        ...extra,
      });
    const bad: Array<[Record<string, unknown>, string, number?]> = [
      [{ level: 0 }, 'invalid_field'],
      [{ level: 6 }, 'invalid_field'],
      [{ comment: 'x'.repeat(256) }, 'too_long'],
      [{ opinions: ['ghost'] }, 'invalid_field'],
      [{ token: 'wrong' }, 'visitor_token', 401],
      [{ appid: 'forged' }, 'access_point_not_found', 404],
      [{ agentserviceid: 'someone-else' }, 'conversation_not_found', 404],
    ];
    for (const [extra, key, code] of bad) expectError(await rate(extra), key, code);
    expect(await count(t.db, 'satis_rating')).toBe(0);

    const ok = await rate({ opinions: [op.id], comment: '<script>x</script>' });
    expect(ok.body).toMatchObject({ success: true, data: { agentserviceid: sid, level: 2, times: 1 } });
    const s = await t.db.kysely
      .selectFrom('agent_service')
      .selectAll()
      .where('id', '=', sid)
      .executeTakeFirstOrThrow();
    expect(s).toMatchObject({ satisfaction: 1, satislevel: '2', satiscomment: '<script>x</script>' });
    const r = await t.db.kysely.selectFrom('satis_rating').selectAll().executeTakeFirstOrThrow();
    expect(JSON.parse(r.opinions)).toEqual([{ id: op.id, name: '回复太慢' }]);
    expect(r.levelname).toBe('满意');

    expectError(await rate({ level: 5 }), 'satisfaction_done');
    await admin(t, 'POST', '/api/satisfaction/update', { multi: true });
    const again = await rate({ level: 5 });
    expect(again.body.data).toMatchObject({ level: 5, times: 2 });
    expect(await count(t.db, 'satis_rating')).toBe(1);

    await admin(t, 'POST', '/api/satisfaction/enabled', { enabled: false });
    expectError(await rate({ level: 1 }), 'satisfaction_disabled');
    const queued = await insertConversation(t.db, 'demo', v.userid, 'inqueue');
    await admin(t, 'POST', '/api/satisfaction/enabled', { enabled: true });
    expectError(await rate({ agentserviceid: queued }), 'satisfaction_not_allowed');
  });
});
