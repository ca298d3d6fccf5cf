import { describe, expect, it } from 'vitest';
import type { AiDegreeRobotDto, KbItemDto } from '@kefu/protocol';
import { perTest } from '../../../../test/factories.js';
import { addUserWithCodes, api, call, ok, socketAgent } from '../../../../test/live.js';
import { robotScene, robotVisitor, say } from './kit.js';

const env = perTest();

describe('AI statistics (/api/analyse/aiDegree/robot)', () => {
  it('counts questions by outcome, robot chats, handoffs and chats closed without a human, by day and robot; an unanswered question becomes an item', async () => {
    const sc = await robotScene(env, { handoffFallbacks: 0 });
    await socketAgent(sc.s, env.sockets);
    const a = await robotVisitor(sc, env.sockets);
    await say(a, '退货的流程是什么');
    await say(a, '退款');
    await say(a, '你们卖不卖二手手机');
    await say(a, '你们卖不卖二手手机');
    ok(await call(a.s, 'end', {}));
    const b = await robotVisitor(sc, env.sockets);
    await say(b, '转人工');
    // The test chat is not counted.
    await api(sc.s, sc.admin, '/api/xiaoe/config/chat', { id: sc.robot.id, question: '怎么开发票' });

    const day = new Date(sc.s.clock.now()).toISOString().slice(0, 10);
    const stats = await addUserWithCodes(sc.s.tdb, ['A06_A04_A01']);
    const r = await api<AiDegreeRobotDto>(
      sc.s,
      stats.token,
      `/api/analyse/aiDegree/robot?begin=${day}&end=${day}&tz=0`,
    );
    expect(r.json.success, JSON.stringify(r.json)).toBe(true);
    const want = {
      questions: 5,
      answered: 1,
      suggested: 1,
      fallback: 2,
      handoffs: 1,
      conversations: 2,
      resolved: 1,
    };
    expect(r.json.data.totals).toEqual(want);
    expect(r.json.data.days).toEqual([{ day, ...want }]);
    expect(r.json.data.robots).toEqual([{ robotid: sc.robot.id, name: '小智', ...want }]);
    expect(r.json.data.unanswered[0]).toMatchObject({
      question: '你们卖不卖二手手机',
      times: 2,
      action: 'fallback',
    });
    expect(r.json.data.unanswered.map((u) => u.question)).toContain('退款');

    // Learning needs the knowledge base code as well.
    const unanswered = r.json.data.unanswered[0]!;
    const learnBody = { id: unanswered.id, question: '卖二手手机吗？', answer: '目前只销售全新商品。' };
    expect((await api(sc.s, stats.token, '/api/analyse/aiDegree/learn', learnBody)).status).toBe(403);
    const both = await addUserWithCodes(sc.s.tdb, ['A06_A04_A01', 'A09_A05_A02']);
    const learned = await api<KbItemDto>(sc.s, both.token, '/api/analyse/aiDegree/learn', learnBody);
    expect(learned.json.data).toMatchObject({ question: '卖二手手机吗？', similar: ['你们卖不卖二手手机'] });
    const after = await api<AiDegreeRobotDto>(
      sc.s,
      stats.token,
      `/api/analyse/aiDegree/robot?begin=${day}&end=${day}&tz=0`,
    );
    expect(after.json.data.unanswered.map((u) => u.question)).not.toContain('你们卖不卖二手手机');
    const c = await robotVisitor(sc, env.sockets);
    expect((await say(c, '你们卖不卖二手手机'))?.robot?.action).toBe('answer');

    // Days are the reader's calendar days; a reversed or too long range is refused.
    const two = await api<AiDegreeRobotDto>(
      sc.s,
      stats.token,
      `/api/analyse/aiDegree/robot?begin=2025-01-01&end=2025-01-02&tz=-480`,
    );
    expect(two.json.data.days.map((d) => d.day)).toEqual(['2025-01-01', '2025-01-02']);
    expect(
      (await api(sc.s, stats.token, `/api/analyse/aiDegree/robot?begin=2025-01-02&end=2025-01-01`)).json.key,
    ).toBe('range_invalid');
    expect(
      (await api(sc.s, stats.token, `/api/analyse/aiDegree/robot?begin=2023-01-01&end=2025-01-01`)).json.key,
    ).toBe('range_too_long');
    const agent = await addUserWithCodes(sc.s.tdb, ['A01']);
    expect((await api(sc.s, agent.token, `/api/analyse/aiDegree/robot?begin=${day}&end=${day}`)).status).toBe(
      403,
    );
  });
});
