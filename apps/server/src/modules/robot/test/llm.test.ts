import { afterEach, describe, expect, it } from 'vitest';
import type { RobotAnswerDto, RobotDto } from '@kefu/protocol';
import { call, perTest, type SeededApp } from '../../../../test/factories.js';
import { robotLines, robotScene, robotVisitor, say } from './kit.js';
import { api } from '../../../../test/live.js';
import { chatAnswer, lastMessage, startFakeLlm, type FakeLlm } from '../../../../test/fake-llm.js';

/**
 * A real HTTP server speaking the OpenAI-compatible API (started per test on a free port): embeddings are
 * character-count vectors, the chat model answers from the first knowledge item it is given (or hands over
 * when the visitor complains), and modes make it hang or answer garbage.
 */
type Mode = 'ok' | 'garbage' | 'ungrounded';
type Provider = FakeLlm<Mode>;

const vector = (text: string) => {
  const v = new Array<number>(64).fill(0);
  for (const ch of text) v[ch.codePointAt(0)! % 64]! += 1;
  return v;
};

const provider = (): Promise<Provider> =>
  startFakeLlm<Mode>('ok', (call, mode) => {
    if (call.path === '/v1/embeddings') {
      const input = call.body.input as string[];
      return { data: input.map((t, index) => ({ index, embedding: vector(t) })) };
    }
    const user = lastMessage(call.body);
    const first = /\[(\w+)\] 问：.*\n答：(.*)/.exec(user);
    const question = user.slice(user.lastIndexOf('访客问题：') + 5);
    if (mode === 'garbage') return chatAnswer('我觉得应该是这样的');
    if (mode === 'ungrounded')
      return chatAnswer(JSON.stringify({ answer: '随便说说', cites: ['nope'], action: 'continue' }));
    if (question.includes('太差') || question.includes('生气'))
      return chatAnswer(JSON.stringify({ answer: '', cites: [], action: 'handoff' }));
    return chatAnswer(
      JSON.stringify({
        answer: `您好！${first?.[2] ?? ''}`,
        cites: first ? [first[1]] : [],
        action: 'continue',
      }),
    );
  });

const env = perTest();
let open: Provider | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function configured(t: SeededApp, extra: Record<string, unknown> = {}) {
  open = await provider();
  const r = await call(t.app, t.adminToken, 'POST', '/api/xiaoe/serviceai/save', {
    enabled: true,
    baseUrl: open.url,
    apiKey: 'sk-test',
    model: 'qwen-local',
    embeddingModel: 'bge-local',
    generate: true,
    timeoutMs: 600,
    ...extra,
  });
  expect(r.body.success, JSON.stringify(r.body)).toBe(true);
  return open;
}

async function kbAndRobot(t: SeededApp): Promise<{ robot: RobotDto; item: string }> {
  const item = (
    await call<{ id: string }>(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/save', {
      question: '如何开发票？',
      similar: ['能开发票吗'],
      answer: '在订单详情申请电子发票。',
    })
  ).body.data.id;
  const robot = (await call<RobotDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/config/save', { name: 'AI' }))
    .body.data;
  return { robot, item };
}

const ask = async (t: SeededApp, id: string, question: string) =>
  (await call<RobotAnswerDto>(t.app, t.adminToken, 'POST', '/api/xiaoe/config/chat', { id, question })).body
    .data;

describe('optional LLM (OpenAI-compatible, a real local HTTP server)', () => {
  it('off by default: no provider call, retrieval answers', async () => {
    const t = await env.seeded();
    const { robot } = await kbAndRobot(t);
    open = await provider();
    expect((await ask(t, robot.id, '发票怎么开')).source).toBe('retrieval');
    expect(open.calls).toHaveLength(0);
  });

  it('generates an answer grounded in the retrieved items, with citations; the model’s handoff is a structured decision', async () => {
    const t = await env.seeded();
    const { robot, item } = await kbAndRobot(t);
    const p = await configured(t);
    const a = await ask(t, robot.id, '发票怎么开');
    expect(a).toMatchObject({
      action: 'answer',
      source: 'llm',
      text: '您好！在订单详情申请电子发票。',
      cites: [{ id: item, question: '如何开发票？' }],
    });
    const chat = p.calls.find((c) => c.path === '/v1/chat/completions')!;
    expect(chat.auth).toBe('Bearer sk-test');
    expect(chat.body).toMatchObject({ model: 'qwen-local', response_format: { type: 'json_schema' } });
    expect(JSON.stringify(chat.body.messages)).toContain(item);

    const h = await ask(t, robot.id, '发票怎么开？太差了');
    expect(h).toMatchObject({ action: 'handoff', handoff: 'llm', source: 'llm' });
    // No retrieved item: the model is not asked (nothing to ground an answer in).
    const chats = () => p.calls.filter((c) => c.path === '/v1/chat/completions').length;
    const before = chats();
    expect((await ask(t, robot.id, '今天天气怎么样')).action).toBe('fallback');
    expect(chats()).toBe(before);
  });

  it('a hanging provider times out and the retrieval answer is given; garbage and ungrounded answers are not used', async () => {
    const t = await env.seeded();
    const { robot } = await kbAndRobot(t);
    const p = await configured(t, { rerank: true });
    p.mode = 'hang';
    const start = Date.now();
    const a = await ask(t, robot.id, '发票怎么开');
    expect(Date.now() - start).toBeLessThan(5_000);
    expect(a).toMatchObject({ action: 'answer', source: 'retrieval', text: '在订单详情申请电子发票。' });
    p.mode = 'garbage';
    expect(await ask(t, robot.id, '发票怎么开')).toMatchObject({ action: 'answer', source: 'retrieval' });
    p.mode = 'ungrounded';
    expect(await ask(t, robot.id, '发票怎么开')).toMatchObject({ action: 'answer', source: 'retrieval' });
  });

  it('embeddings re-rank the retrieved items (question first, then each matched question)', async () => {
    const t = await env.seeded();
    const { robot, item } = await kbAndRobot(t);
    await call(t.app, t.adminToken, 'POST', '/api/xiaoe/knowledge/save', {
      question: '发票抬头怎么改？',
      answer: '在发票详情修改。',
    });
    const p = await configured(t, { rerank: true, generate: false });
    const a = await ask(t, robot.id, '发票怎么开');
    const emb = p.calls.find((c) => c.path === '/v1/embeddings')!;
    expect(emb.body).toMatchObject({ model: 'bge-local' });
    expect((emb.body.input as string[])[0]).toBe('发票怎么开');
    expect((emb.body.input as string[]).length).toBeGreaterThan(2);
    expect(a).toMatchObject({ source: 'retrieval', item: { id: item } });
  });

  it('in a live chat: the generated answer and its citations reach the visitor; a hang never leaves the chat stuck', async () => {
    const sc = await robotScene(env);
    open = await provider();
    await api(sc.s, sc.admin, '/api/xiaoe/serviceai/save', {
      enabled: true,
      baseUrl: open.url,
      model: 'm',
      generate: true,
      timeoutMs: 500,
    });
    const v = await robotVisitor(sc, env.sockets);
    const a = await say(v, '发票怎么开');
    expect(a?.message).toBe('您好！在订单详情申请电子发票。');
    expect(a?.robot).toMatchObject({ action: 'answer', cites: [{ id: sc.items.invoice }] });
    open.mode = 'hang';
    const b = await say(v, '退货的流程是什么');
    expect(b?.robot).toMatchObject({ action: 'answer', itemid: sc.items.returns });
    expect(robotLines(v.lines).at(-1)?.message).toBe('在“我的订单”中点击**申请售后**。');
    const log = await sc.s.tdb.db.kysely.selectFrom('robot_question').select(['source']).execute();
    expect(log.map((x) => x.source).sort()).toEqual(['llm', 'retrieval']);
  });
});
