import { describe, expect, it } from 'vitest';
import type { AccessCodeDto, AccessPointDto, FaqItemDto, WidgetConfigDto } from '@kefu/protocol';
import { call, count, expectError, userWithCodes, type SeededApp, perTest } from '../../../test/factories.js';
import { loadSecurityConfig } from '../../platform/http/security-config.js';

const env = perTest();

const newAccess = async (s: SeededApp, name = 'Main site', domain = 'www.example.com') => {
  const r = await call<AccessPointDto>(s.app, s.adminToken, 'POST', '/api/dialogue/access/save', {
    name,
    domain,
  });
  expect(r.body.success, JSON.stringify(r.body)).toBe(true);
  return r.body.data;
};

describe('website access points', () => {
  it('create, list, update, embed code, delete (with settings and FAQ)', async () => {
    // Behind a proxy on this host: X-Forwarded-Proto is believed only from a trusted proxy.
    const t = await env.seeded({ security: loadSecurityConfig({ KEFU_TRUST_PROXY: 'loopback' }) });
    const ap = await newAccess(t);
    expect(ap.id).toMatch(/^[0-9a-f]{32}$/);
    const list = await call<AccessPointDto[]>(t.app, t.adminToken, 'GET', '/api/dialogue/access/list');
    expect(list.body.data.map((a) => a.name)).toEqual(['演示网站', 'Main site']);
    const upd = await call<AccessPointDto>(t.app, t.adminToken, 'POST', '/api/dialogue/access/update', {
      id: ap.id,
      name: 'Shop',
      domain: 'https://shop.example.com',
    });
    expect(upd.body.data).toMatchObject({ id: ap.id, name: 'Shop', domain: 'https://shop.example.com' });

    const code = await call<AccessCodeDto>(
      t.app,
      t.adminToken,
      'GET',
      `/api/webim/accesscode?id=${ap.id}`,
      undefined,
      {
        host: 'kefu.example.com',
        'x-forwarded-proto': 'https',
      },
    );
    expect(code.body.data.code).toBe(
      `<script src="https://kefu.example.com/im/loader.js" data-appid="${ap.id}" async></script>`,
    );

    await call(t.app, t.adminToken, 'POST', '/api/consultationIcon/save', { appid: ap.id, text: 'Chat' });
    await call(t.app, t.adminToken, 'POST', '/api/problem/save', {
      appid: ap.id,
      question: 'Q',
      answer: 'A',
    });
    expect(await count(t.db, 'channel_setting')).toBe(1);
    const del = await call(t.app, t.adminToken, 'POST', '/api/dialogue/access/delete', { id: ap.id });
    expect(del.body.success).toBe(true);
    expect(await count(t.db, 'access_point')).toBe(1);
    expect(await count(t.db, 'channel_setting')).toBe(0);
    expect(await count(t.db, 'access_faq')).toBe(0);
    expectError(
      await call(t.app, t.adminToken, 'GET', `/api/webim/accesscode?id=${ap.id}`),
      'access_point_not_found',
      404,
    );
  });

  it('bad input stores nothing; names are unique; the code guards every call', async () => {
    const t = await env.seeded();
    await newAccess(t);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ name: '', domain: 'a.com' }, 'required'],
      [{ domain: 'a.com' }, 'required'],
      [{ name: 'x'.repeat(51) }, 'too_long'],
      [{ name: 'B', domain: 'javascript:alert(1)' }, 'invalid_field'],
      [{ name: 'Main site' }, 'name_repeat'],
      [{ name: 'C', organ: 'nope' }, 'invalid_field'],
    ];
    for (const [body, key] of bad) {
      expectError(await call(t.app, t.adminToken, 'POST', '/api/dialogue/access/save', body), key);
    }
    expect(await count(t.db, 'access_point')).toBe(2);
    const other = await userWithCodes(t, ['A01']);
    const denied = await call(t.app, other.token, 'GET', '/api/dialogue/access/list');
    expect(denied.status).toBe(403);
    expect((await call(t.app, null, 'GET', '/api/dialogue/access/list')).status).toBe(401);
  });
});

describe('widget settings sections', () => {
  it('defaults, partial saves, reset; validation keeps the stored document', async () => {
    const t = await env.seeded();
    const ap = await newAccess(t);
    const detail = await call<{ color: string; text: string }>(
      t.app,
      t.adminToken,
      'GET',
      `/api/consultationIcon/detail?appid=${ap.id}`,
    );
    expect(detail.body.data).toMatchObject({ color: '#2C68FF', text: '在线客服', position: 'right-bottom' });
    const saved = await call(t.app, t.adminToken, 'POST', '/api/consultationIcon/save', {
      appid: ap.id,
      color: '#112233',
      text: '<b>hi</b>',
    });
    expect(saved.body.data).toMatchObject({ color: '#112233', text: '<b>hi</b>', icon: 'chat' });
    const before = await t.db.kysely.selectFrom('channel_setting').selectAll().execute();
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['/api/consultationIcon/update', { color: 'red' }, 'invalid_field'],
      ['/api/consultationIcon/update', { position: 'top' }, 'invalid_field'],
      ['/api/invote/save', { delay: 3601 }, 'invalid_field'],
      ['/api/invote/save', { delay: 1.5 }, 'invalid_field'],
      ['/api/invote/save', { image: 'javascript:alert(1)' }, 'invalid_field'],
      ['/api/profile/save', { logo: 'data:text/html,x' }, 'invalid_field'],
      ['/api/profile/save', { adText: 'x'.repeat(201) }, 'too_long'],
      ['/api/gathering/save', { rememberHours: -1 }, 'invalid_field'],
      ['/api/leavemsg/config/save', { notice: 'y'.repeat(501) }, 'too_long'],
    ];
    for (const [url, body, key] of bad) {
      expectError(await call(t.app, t.adminToken, 'POST', url, { appid: ap.id, ...body }), key);
    }
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/invote/save', { appid: 'forged', delay: 1 }),
      'access_point_not_found',
      404,
    );
    expect(await t.db.kysely.selectFrom('channel_setting').selectAll().execute()).toEqual(before);

    const inv = await call(t.app, t.adminToken, 'POST', '/api/invote/save', {
      appid: ap.id,
      enabled: true,
      delay: 30,
    });
    expect(inv.body.data).toMatchObject({ enabled: true, delay: 30, acceptText: '现在咨询' });
    const prof = await call(t.app, t.adminToken, 'POST', '/api/profile/update', {
      appid: ap.id,
      logo: '/res/image.html?id=abc',
      adEnabled: true,
      adUrl: 'https://example.com/ad',
    });
    expect(prof.body.data).toMatchObject({ logo: '/res/image.html?id=abc', adEnabled: true });
    const info = await call<{ phone: { enabled: boolean; required: boolean } }>(
      t.app,
      t.adminToken,
      'POST',
      '/api/gathering/save',
      { appid: ap.id, enabled: true, phone: { enabled: false, required: true }, rememberHours: 24 },
    );
    expect(info.body.data.phone).toEqual({ enabled: true, required: true });
    const lm = await call<{ fields: Record<string, { show: boolean; required: boolean }> }>(
      t.app,
      t.adminToken,
      'POST',
      '/api/leavemsg/config/save',
      {
        appid: ap.id,
        fields: {
          name: { show: false, required: false },
          mobile: { show: false, required: true },
          email: { show: true, required: false },
          content: { show: false, required: false },
        },
      },
    );
    expect(lm.body.data.fields).toEqual({
      name: { show: false, required: false },
      mobile: { show: true, required: true },
      email: { show: true, required: false },
      content: { show: true, required: true },
    });
    const reset = await call(t.app, t.adminToken, 'POST', '/api/consultationIcon/delete', { appid: ap.id });
    expect(reset.body.data).toMatchObject({ color: '#2C68FF' });

    const limited = await userWithCodes(t, ['A09_A04_A01']);
    expect(
      (await call(t.app, limited.token, 'GET', `/api/consultationIcon/detail?appid=${ap.id}`)).status,
    ).toBe(200);
    expect((await call(t.app, limited.token, 'GET', `/api/profile/detail?appid=${ap.id}`)).status).toBe(403);
  });
});

describe('FAQ', () => {
  it('adds, edits, sorts and deletes questions; bad input stores nothing', async () => {
    const t = await env.seeded();
    const ap = await newAccess(t);
    const add = (question: string) =>
      call<FaqItemDto>(t.app, t.adminToken, 'POST', '/api/problem/save', {
        appid: ap.id,
        question,
        answer: `A ${question}`,
      });
    const q1 = (await add('One')).body.data;
    const q2 = (await add('Two')).body.data;
    expectError(await add(''), 'required');
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/problem/save', {
        appid: ap.id,
        question: 'x',
        answer: 'y'.repeat(2001),
      }),
      'too_long',
    );
    expect(await count(t.db, 'access_faq')).toBe(2);
    const upd = await call<FaqItemDto>(t.app, t.adminToken, 'POST', '/api/problem/update', {
      id: q1.id,
      question: 'One!',
      answer: 'Yes',
    });
    expect(upd.body.data).toMatchObject({ question: 'One!', answer: 'Yes' });
    const sorted = await call<FaqItemDto[]>(t.app, t.adminToken, 'POST', '/api/problem/sort', {
      appid: ap.id,
      ids: [q2.id],
    });
    expect(sorted.body.data.map((f) => f.id)).toEqual([q2.id, q1.id]);
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/problem/sort', { appid: ap.id, ids: ['zzz'] }),
      'invalid_field',
    );
    await call(t.app, t.adminToken, 'POST', '/api/problem/delete', { id: q2.id });
    const list = await call<FaqItemDto[]>(t.app, t.adminToken, 'GET', `/api/problem/list?appid=${ap.id}`);
    expect(list.body.data.map((f) => f.question)).toEqual(['One!']);
  });
});

describe('public widget config', () => {
  it('serves the access point settings without login; a forged appid is 404', async () => {
    const t = await env.seeded();
    const ap = await newAccess(t);
    await call(t.app, t.adminToken, 'POST', '/api/invote/save', { appid: ap.id, enabled: true, delay: 5 });
    await call(t.app, t.adminToken, 'POST', '/api/problem/save', {
      appid: ap.id,
      question: 'Hours?',
      answer: '9-18',
    });
    await call(t.app, t.adminToken, 'POST', '/api/opinion/save', { name: '回复太慢' });
    const r = await call<WidgetConfigDto>(t.app, null, 'GET', `/im/config?appid=${ap.id}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      access: { id: ap.id, name: 'Main site', domain: 'www.example.com' },
      consult: { enabled: true, color: '#2C68FF' },
      invite: { enabled: true, delay: 5 },
      dialogue: { agentName: '客服' },
      information: { enabled: false },
      faq: [{ question: 'Hours?', answer: '9-18' }],
      satisfaction: { enabled: true, comment: true, opinions: [{ name: '回复太慢' }] },
      leavemsg: { enabled: true, fields: { content: { show: true, required: true } } },
    });
    expect(r.body.data.satisfaction.levels).toHaveLength(5);
    const forged = await call(t.app, null, 'GET', '/im/config?appid=0123456789abcdef0123456789abcdef');
    expect(forged.status).toBe(404);
    expectError(forged, 'access_point_not_found', 404);
    expectError(await call(t.app, null, 'GET', '/im/config'), 'required');
  });

  it("lists the organisation's skill groups (not plain departments) for /visitor/navigation", async () => {
    const t = await env.seeded();
    const ap = await newAccess(t);
    const now = Date.now();
    const organ = (id: string, name: string, skill: number, sortindex: number) => ({
      id,
      orgi: 'kefu',
      name,
      parentid: null,
      skill,
      sortindex,
      createtime: now,
      updatetime: now,
    });
    await t.db.kysely
      .insertInto('organ')
      .values([
        organ('sk_b', 'After-sales', 1, 9),
        organ('sk_a', 'Pre-sales', 1, 8),
        organ('plain', 'HR', 0, 1),
      ])
      .execute();
    const r = await call<WidgetConfigDto>(t.app, null, 'GET', `/im/config?appid=${ap.id}`);
    const skills = r.body.data.skills;
    expect(skills.map((s) => s.id)).not.toContain('plain');
    const mine = skills.filter((s) => s.id.startsWith('sk_'));
    expect(mine).toEqual([
      { id: 'sk_a', name: 'Pre-sales' },
      { id: 'sk_b', name: 'After-sales' },
    ]);
  });
});
