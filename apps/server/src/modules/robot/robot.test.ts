import { describe, expect, it } from 'vitest';
import type { AiServiceDto, KbItemDto, RobotAnswerDto, RobotDto, WebimAiDto } from '@kefu/protocol';
import { call, count, expectError, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import { asksForHuman } from './answer.service.js';

const env = perTest();

async function accessPoint(t: SeededApp): Promise<string> {
  const r = await call<{ id: string }>(t.app, t.adminToken, 'POST', '/api/dialogue/access/save', {
    name: `site${Date.now()}`,
  });
  return r.body.data.id;
}

async function robot(t: SeededApp, body: Record<string, unknown> = {}): Promise<RobotDto> {
  const r = await call<RobotDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/config/save', {
    name: '小助手',
    ...body,
  });
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
  return r.body.data;
}

async function faq(t: SeededApp) {
  const save = async (question: string, similar: string[], answer: string) =>
    (
      await call<KbItemDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/save', {
        question,
        similar,
        answer,
      })
    ).body.data;
  return {
    returns: await save('如何申请退货？', ['怎么退货', '退货流程'], '在“我的订单”中点击**申请售后**。'),
    refund: await save('退款多久到账？', ['退款什么时候到'], '1-3个工作日。'),
    refundWhere: await save('退款退到哪里？', ['钱退回哪个账户'], '原路退回。'),
    invoice: await save('如何开发票？', ['能开发票吗'], '在订单详情申请。'),
  };
}

const ask = async (t: SeededApp, id: string, question: string, token = t.adminToken) =>
  call<RobotAnswerDto>(t.app, token, 'POST', '/api/xiaoe/config/chat', { id, question });

describe('robots (/api/xiaoe/config)', () => {
  it('saves with defaults, updates partially, refuses a suggest threshold above the answer one, lists with bound access points', async () => {
    const t = await env.seeded();
    const r = await robot(t);
    expect(r).toMatchObject({
      answerThreshold: 0.45,
      suggestThreshold: 0.25,
      handoffFallbacks: 2,
      handoffButton: true,
      enabled: true,
      appids: [],
    });
    expect(r.welcome).not.toBe('');
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/config/save', { name: '小助手' }),
      'name_repeat',
    );
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/config/update', {
        id: r.id,
        suggestThreshold: 0.9,
      }),
      'robot_thresholds',
    );
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/config/update', { id: r.id, answerThreshold: 1.5 }),
      'invalid_field',
    );
    const u = await call<RobotDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/config/update', {
      id: r.id,
      welcome: '你好！',
      handoffKeywords: '投诉，律师',
      answerThreshold: 0.5,
    });
    expect(u.body.data).toMatchObject({
      welcome: '你好！',
      handoffKeywords: ['投诉', '律师'],
      answerThreshold: 0.5,
      suggestThreshold: 0.25,
    });

    const appid = await accessPoint(t);
    const b = await call<WebimAiDto>(t.app, t.adminToken, 'POST', '/api/webim/ai', { appid, robotid: r.id });
    expect(b.body.data).toEqual({ appid, robotid: r.id, robotname: '小助手' });
    expect(
      (await call<RobotDto[]>(t.app, t.adminToken, 'GET', '/api/xiaoe/config/list')).body.data[0]!.appids,
    ).toEqual([appid]);
    expect(
      (await call<WebimAiDto>(t.app, t.adminToken, 'GET', `/api/webim/ai?appid=${appid}`)).body.data.robotid,
    ).toBe(r.id);
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/webim/ai', { appid, robotid: 'nope' }),
      'invalid_field',
    );
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/webim/ai', { appid: 'nope', robotid: r.id }),
      'access_point_not_found',
      404,
    );
    await call(t.app, t.adminToken, 'POST', '/api/webim/ai', { appid, robotid: '' });
    expect(
      (await call<WebimAiDto>(t.app, t.adminToken, 'GET', `/api/webim/ai?appid=${appid}`)).body.data.robotid,
    ).toBeNull();

    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/config/delete', { id: r.id });
    expect(await count(t.db, 'robot')).toBe(0);
  });

  it('needs A09_A05_A01 (website access may read robots and bind them); refusals store nothing', async () => {
    const t = await env.seeded();
    const r = await robot(t);
    const appid = await accessPoint(t);
    const kbOnly = await userWithCodes(t, ['A09_A05_A02']);
    expect((await call(t.app, kbOnly.token, 'POST', '/api/xiaoe/config/save', { name: 'x' })).status).toBe(
      403,
    );
    expect((await ask(t, r.id, '你好', kbOnly.token)).status).toBe(403);
    expect(
      (await call(t.app, kbOnly.token, 'POST', '/api/xiaoe/serviceai/save', { enabled: true })).status,
    ).toBe(403);
    expect((await call(t.app, kbOnly.token, 'POST', '/api/webim/ai', { appid, robotid: r.id })).status).toBe(
      403,
    );
    const access = await userWithCodes(t, ['A09_A01_A01']);
    expect(
      (await call(t.app, access.token, 'POST', '/api/webim/ai', { appid, robotid: r.id })).body.success,
    ).toBe(true);
    expect((await call(t.app, access.token, 'GET', '/api/xiaoe/config/list')).body.success).toBe(true);
    expect(
      (await call(t.app, access.token, 'POST', '/api/xiaoe/config/update', { id: r.id, name: 'y' })).status,
    ).toBe(403);
    expect(await count(t.db, 'robot')).toBe(1);
  });

  it('the test chat answers, suggests, falls back or hands over; empty and 10 KB questions are refused', async () => {
    const t = await env.seeded();
    const items = await faq(t);
    const r = await robot(t, { handoffKeywords: ['律师'] });
    const a = (await ask(t, r.id, '退货的流程是什么')).body.data;
    expect(a).toMatchObject({
      action: 'answer',
      item: { id: items.returns.id },
      source: 'retrieval',
      handoff: null,
    });
    expect(a.text).toBe('在“我的订单”中点击**申请售后**。');
    expect(a.score).toBeGreaterThanOrEqual(0.45);
    expect(a.cites).toEqual([{ id: items.returns.id, question: '如何申请退货？' }]);

    const s = (await ask(t, r.id, '退款')).body.data;
    expect(s.action).toBe('suggest');
    expect(s.suggestions.map((x) => x.id)).toEqual(
      expect.arrayContaining([items.refund.id, items.refundWhere.id]),
    );
    expect(s.suggestions.length).toBeLessThanOrEqual(3);
    expect(s.text.split('\n')[0]).toBe(r.suggestmsg);

    const f = (await ask(t, r.id, '今天天气怎么样')).body.data;
    expect(f).toMatchObject({ action: 'fallback', text: r.fallback, handoff: null });

    expect((await ask(t, r.id, '转人工')).body.data).toMatchObject({
      action: 'handoff',
      handoff: 'phrase',
      text: r.handoffmsg,
    });
    expect((await ask(t, r.id, '我要找律师起诉你们')).body.data).toMatchObject({
      action: 'handoff',
      handoff: 'rule',
    });

    expectError(await ask(t, r.id, '   '), 'required');
    expectError(await ask(t, r.id, '退'.repeat(10_240)), 'too_long');
    expectError(await ask(t, 'nope', '退货'), 'not_found', 404);
  });

  it('answers only from the robot’s knowledge types (with subtypes), and only items in force', async () => {
    const t = await env.seeded();
    const type = (
      await call<{ id: string }>(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledgeType/save', {
        name: '售后',
      })
    ).body.data;
    const sub = (
      await call<{ id: string }>(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledgeType/save', {
        name: '退货',
        parentid: type.id,
      })
    ).body.data;
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/save', {
      typeid: sub.id,
      question: '如何申请退货？',
      answer: 'A',
    });
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/save', {
      question: '如何开发票？',
      answer: 'B',
    });
    const r = await robot(t, { kbtypes: [type.id] });
    expect((await ask(t, r.id, '如何申请退货')).body.data.action).toBe('answer');
    expect((await ask(t, r.id, '如何开发票')).body.data.action).toBe('fallback');
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/config/update', { id: r.id, kbtypes: ['nope'] }),
      'invalid_field',
    );
  });

  it('a robot serving open chats cannot be deleted', async () => {
    const t = await env.seeded();
    const r = await robot(t);
    const now = Date.now();
    await t.db.kysely
      .insertInto('agent_service')
      .values({
        id: 's1',
        orgi: 'kefu',
        userid: 'v1',
        username: 'v',
        appid: 'a',
        channel: 'webim',
        status: 'inservice',
        ai: 1,
        createtime: now,
        ordertime: 1,
      } as never)
      .execute();
    await t.db.kysely
      .insertInto('robot_session')
      .values({ agentserviceid: 's1', orgi: 'kefu', robotid: r.id, createtime: now })
      .execute();
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/config/delete', { id: r.id }),
      'robot_in_use',
    );
    expect(await count(t.db, 'robot')).toBe(1);
  });
});

describe('AI service settings (/api/xiaoe/serviceai)', () => {
  it('off by default; the key is kept but never sent back; on needs a base URL; a bad URL is refused', async () => {
    const t = await env.seeded();
    const d = (await call<AiServiceDto>(t.app, t.adminToken, 'GET', '/api/xiaoe/serviceai')).body.data;
    expect(d).toMatchObject({ enabled: false, baseUrl: '', hasKey: false, timeoutMs: 8000 });
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/serviceai/save', { enabled: true }),
      'required',
    );
    expectError(
      await call(t.app, t.adminToken, 'POST', '/api/xiaoe/serviceai/save', { baseUrl: 'ftp://x' }),
      'url_format',
    );
    const s = await call<AiServiceDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/serviceai/save', {
      enabled: true,
      baseUrl: 'http://127.0.0.1:9/v1/',
      apiKey: 'sk-secret',
      model: 'm',
    });
    expect(s.body.data).toMatchObject({ enabled: true, baseUrl: 'http://127.0.0.1:9/v1', hasKey: true });
    expect(JSON.stringify(s.body)).not.toContain('sk-secret');
    const kept = await call<AiServiceDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/serviceai/save', {
      model: 'm2',
    });
    expect(kept.body.data).toMatchObject({ hasKey: true, model: 'm2' });
    // Nothing listens on port 9: the probe says so instead of hanging.
    const probe = await call<{ chat: { ok: boolean; error: string } }>(
      t.app,
      t.adminToken,
      'POST',
      '/api/xiaoe/serviceai/test',
    );
    expect(probe.body.data.chat).toMatchObject({ ok: false, error: 'unreachable' });
  });
});

describe('handoff phrases', () => {
  it('a short request for a human is one; a question that mentions 人工 is not', () => {
    for (const q of [
      '转人工',
      '人工',
      '人工客服',
      '我要人工客服',
      '请帮我转人工服务',
      '找真人',
      '真人吗',
      'human',
      '转人工，谢谢',
    ])
      expect(asksForHuman(q), q).toBe(true);
    for (const q of ['人工客服什么时候在线', '人工费用怎么算', '退货', '怎么联系人工客服比较快呢啊'])
      expect(asksForHuman(q), q).toBe(false);
  });
});
