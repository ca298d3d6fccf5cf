import { describe, expect, it } from 'vitest';
import {
  SEED_EN_TEXTS,
  type VisitorNewResult,
  type VisitorTextsDto,
  type VisitorWelcome,
  type WidgetConfigDto,
} from '@kefu/protocol';
import { call, expectError, perTest, userWithCodes } from '../../../test/factories.js';
import {
  addAccessPoint,
  api,
  call as emit,
  next,
  ok,
  socketAgent,
  visitorSocket,
  vid,
  connected,
} from '../../../test/live.js';
import { DEMO_APPID } from '../seed/seed.service.js';
import { saveSessionConfig } from '../conversation/session-config.js';
import { storeTexts } from './texts.repository.js';

const env = perTest();

const widget = async (t: Parameters<typeof call>[0], appid: string, l?: string) =>
  (await call<WidgetConfigDto>(t, null, 'GET', `/im/config?appid=${appid}${l ? `&l=${l}` : ''}`)).body.data;

describe('one welcome text (the prompts\u2019), and it reaches the widget', () => {
  it('the welcome saved on /setup/prompt is the widget config\u2019s and the welcome event\u2019s', async () => {
    const t = await env.seeded();
    const saved = await call(t.app, t.adminToken, 'POST', '/api/sessionConfig/prompt/save', {
      sessionmsg: '欢迎光临星河家居！',
    });
    expect(saved.body.success).toBe(true);
    expect((await widget(t.app, DEMO_APPID)).dialogue.welcome).toBe('欢迎光临星河家居！');
    // The chat window section has no welcome of its own any more: one sent there is not stored.
    await call(t.app, t.adminToken, 'POST', '/api/profile/save', { appid: DEMO_APPID, welcome: 'other' });
    const dialogue = await call<Record<string, unknown>>(
      t.app,
      t.adminToken,
      'GET',
      `/api/profile/detail?appid=${DEMO_APPID}`,
    );
    expect(dialogue.body.data).not.toHaveProperty('welcome');
    expect(dialogue.body.data).not.toHaveProperty('offlineText');
    expect((await widget(t.app, DEMO_APPID)).dialogue.welcome).toBe('欢迎光临星河家居！');
  });
});

describe('visitor texts per language', () => {
  it('the seed provides English: an English widget reads English texts, others fall back to the base', async () => {
    const t = await env.seeded();
    const en = await widget(t.app, DEMO_APPID, 'en');
    expect(en.dialogue.welcome).toBe(SEED_EN_TEXTS.prompt.sessionmsg);
    expect(en.consult.text).toBe(SEED_EN_TEXTS.consult.text);
    expect(en.dialogue.companyName).toBe(SEED_EN_TEXTS.dialogue.companyName);
    expect(en.leavemsg.notice).toBe(SEED_EN_TEXTS.leavemsg.notice);
    expect(en.satisfaction.text).toBe(SEED_EN_TEXTS.satisfaction.satisftext);
    expect(en.satisfaction.levels.map((l) => l.name)[0]).toBe('Very satisfied');
    const zh = await widget(t.app, DEMO_APPID, 'zh');
    expect(zh.dialogue.welcome).toBe('您好，欢迎咨询！');
    expect(zh.consult.text).toBe('在线客服');
    // A language without texts of its own reads the base texts.
    expect((await widget(t.app, DEMO_APPID, 'fr')).dialogue.welcome).toBe('您好，欢迎咨询！');
  });

  it('saves a scope\u2019s texts per language; an empty text falls back; checks code, scope and input', async () => {
    const t = await env.seeded();
    const r = await call<VisitorTextsDto>(t.app, t.adminToken, 'POST', '/api/visitorText/save', {
      scope: 'dialogue',
      appid: DEMO_APPID,
      lang: 'en',
      texts: { companyName: 'Star Home', agentName: '' },
    });
    expect(r.body.data.texts).toMatchObject({ companyName: 'Star Home', agentName: '' });
    expect(r.body.data.defaults.agentName).toBe('客服');
    const en = await widget(t.app, DEMO_APPID, 'en');
    expect(en.dialogue.companyName).toBe('Star Home');
    expect(en.dialogue.agentName).toBe('客服');
    const got = await call<VisitorTextsDto>(
      t.app,
      t.adminToken,
      'GET',
      `/api/visitorText?scope=prompt&lang=en`,
    );
    expect(got.body.data.texts.sessionmsg).toBe(SEED_EN_TEXTS.prompt.sessionmsg);
    expect(got.body.data.defaults.sessionmsg).toBe('您好，欢迎咨询！');

    // Codes: prompt texts need the prompts' code; widget texts need their section's.
    const prompts = await userWithCodes(t, ['A09_A03_A01']);
    const body = { scope: 'prompt', lang: 'en', texts: { sessionmsg: 'Hi' } };
    expect((await call(t.app, prompts.token, 'POST', '/api/visitorText/save', body)).body.success).toBe(true);
    expectError(
      await call(t.app, prompts.token, 'POST', '/api/visitorText/save', {
        scope: 'dialogue',
        appid: DEMO_APPID,
        lang: 'en',
        texts: { companyName: 'x' },
      }),
      'forbidden',
      403,
    );
    const agent = await userWithCodes(t, ['A01']);
    expectError(await call(t.app, agent.token, 'POST', '/api/visitorText/save', body), 'forbidden', 403);
    // Input: the base language is edited on the settings pages; unknown keys; a widget scope needs its site.
    const bad: Array<[Record<string, unknown>, string, number]> = [
      [{ ...body, lang: 'zh' }, 'invalid_field', 400],
      [{ ...body, texts: { nope: 'x' } }, 'invalid_field', 400],
      [{ ...body, texts: { sessionmsg: 'x'.repeat(501) } }, 'too_long', 400],
      [{ scope: 'consult', lang: 'en', texts: { text: 'x' } }, 'required', 400],
      [
        { scope: 'consult', appid: 'forged', lang: 'en', texts: { text: 'x' } },
        'access_point_not_found',
        404,
      ],
    ];
    for (const [b, key, code] of bad)
      expectError(await call(t.app, t.adminToken, 'POST', '/api/visitorText/save', b), key, code);
    expect((await widget(t.app, DEMO_APPID, 'en')).dialogue.welcome).toBe('Hi');
  });

  it('the conversation speaks the visitor\u2019s language: welcome, assignment and end', async () => {
    const srv = await env.live();
    const appid = await addAccessPoint(srv.tdb);
    await saveSessionConfig(srv.tdb.db, 'kefu', { successmsg: '{agent}为您服务' }, Date.now());
    await storeTexts(
      srv.tdb.db.kysely,
      'kefu',
      'prompt',
      'en',
      { sessionmsg: 'Welcome!', successmsg: '{agent} is here', finessmsg: 'Bye' },
      Date.now(),
    );
    const a = await socketAgent(srv, env.sockets);
    const chat = async (l: string) => {
      const s = visitorSocket(srv.url, appid, vid(), { l });
      env.sockets.push(s);
      const welcome = next<VisitorWelcome>(s, 'welcome');
      await connected(s);
      const w = await welcome;
      const r = ok(await emit<VisitorNewResult>(s, 'new'));
      return { s, w, r };
    };
    const en = await chat('en');
    expect(en.w.config.welcome).toBe('Welcome!');
    expect(en.r.message).toMatch(/ is here$/);
    const zh = await chat('zh');
    expect(zh.w.config.welcome).toBe('您好，欢迎咨询！');
    expect(zh.r.message).toMatch(/为您服务$/);
    const ended = next<{ message: string }>(en.s, 'end');
    await api(srv, a.token, `/api/talk/end?agentserviceid=${en.r.agentserviceid}`);
    expect((await ended).message).toBe('Bye');
  });
});
