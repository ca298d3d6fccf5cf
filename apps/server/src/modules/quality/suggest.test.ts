import { afterEach, describe, expect, it } from 'vitest';
import { QUALITY_API as A, type Page, type QualityRowDto, type QualitySuggestDto } from '@kefu/protocol';
import { count, expectError, perTest } from '../../../test/factories.js';
import { chatAnswer, lastMessage, startFakeLlm, type FakeLlm } from '../../../test/fake-llm.js';
import { endedChat, okData, qualityWorld, req, type QualityWorld } from './quality.fixtures.js';

/**
 * Optional LLM suggestions against a real local HTTP server speaking the OpenAI chat-completions API
 * (started per test on a free port, as robot/test/llm.test.ts): the model reads the card's item ids from
 * the prompt and suggests scores with quotes, one of them invented; modes make it answer garbage or hang.
 */
type Mode = 'ok' | 'garbage';
type Provider = FakeLlm<Mode>;

const provider = (): Promise<Provider> =>
  startFakeLlm<Mode>('ok', (call, mode) => {
    const ids = [...lastMessage(call.body).matchAll(/labelid=(\S+)/g)].map((m) => m[1]!);
    return chatAnswer(
      mode === 'garbage'
        ? '这个会话整体还可以'
        : JSON.stringify({
            items: [
              // Quoted from the transcript (with the model's own spacing): kept.
              { labelid: ids[0], points: 3, quote: '您好， 请稍等' },
              // Out of range for the fatal item (0..20): dropped.
              { labelid: ids[1], points: 99, quote: '好的，再见' },
              // An invented quote: dropped, never shown.
              { labelid: ids[2], points: 2, quote: '我们保证全额退款' },
              // Not an item of the card: dropped.
              { labelid: 'nope', points: 1, quote: '你好' },
            ],
          }),
    );
  });

const env = perTest();
let open: Provider | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function allotted(w: QualityWorld): Promise<QualityRowDto> {
  const chat = await endedChat(w.t, w.agent.id);
  okData(await req(w.t, w.t.adminToken, A.allotManual, { ids: [chat], inspectors: [w.inspector.id] }));
  return okData(await req<Page<QualityRowDto>>(w.t, w.inspector.token, A.list)).list[0]!;
}

async function aiService(w: QualityWorld, p: Provider) {
  okData(
    await req(w.t, w.t.adminToken, '/api/xiaoe/serviceai/save', {
      enabled: true,
      baseUrl: p.url,
      apiKey: 'sk-test',
      model: 'qwen-local',
      timeoutMs: 600,
    }),
  );
}

describe('optional LLM suggestions of item scores (POST /api/quality/suggest)', () => {
  it('off by default; suggestions keep only verbatim quotes of the transcript; nothing is saved', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const row = await allotted(w);
    open = await provider();
    // Off by default, even with the AI service on: no provider call.
    await aiService(w, open);
    expectError(await req(t, w.inspector.token, A.suggest, { id: row.id }), 'quality_ai_off');
    expect(open.calls).toHaveLength(0);
    okData(await req(t, t.adminToken, A.settingsSave, { aiSuggest: true }));
    expect(okData(await req<{ aiSuggest: boolean }>(t, w.inspector.token, A.settings)).aiSuggest).toBe(true);

    const before = JSON.stringify(
      await t.db.kysely.selectFrom('quality_inspection').selectAll().where('id', '=', row.id).execute(),
    );
    const s = okData(await req<QualitySuggestDto>(t, w.inspector.token, A.suggest, { id: row.id }));
    const msgs = await t.db.kysely
      .selectFrom('chat_message')
      .select(['id', 'message'])
      .where('agentserviceid', '=', row.agentserviceid)
      .execute();
    expect(s).toEqual({
      items: [
        {
          labelid: w.polite.id,
          points: 3,
          quote: '您好， 请稍等',
          messageid: msgs.find((m) => m.message === '您好，请稍等')!.id,
        },
      ],
      dropped: 3,
    });
    // The provider got the transcript and the card's items.
    const sent = JSON.stringify(open.calls[0]!.body);
    expect(open.calls[0]!.path).toBe('/v1/chat/completions');
    for (const x of ['你好，我想问一下订单', '好的，再见', w.polite.id, w.fatal.id, w.bonus.id])
      expect(sent).toContain(x);
    // Nothing saved: the score stays the inspector's to give.
    expect(await count(t.db, 'quality_item')).toBe(0);
    expect(
      JSON.stringify(
        await t.db.kysely.selectFrom('quality_inspection').selectAll().where('id', '=', row.id).execute(),
      ),
    ).toBe(before);
  });

  it('a provider that answers garbage or hangs: a clear error, nothing changed; A11_A01 and the inspector only', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const row = await allotted(w);
    open = await provider();
    await aiService(w, open);
    okData(await req(t, t.adminToken, A.settingsSave, { aiSuggest: true }));
    const snapshot = async () =>
      JSON.stringify([
        await t.db.kysely.selectFrom('quality_inspection').selectAll().execute(),
        await t.db.kysely.selectFrom('quality_item').selectAll().execute(),
        await t.db.kysely.selectFrom('quality_event').selectAll().execute(),
      ]);
    const before = await snapshot();

    open.mode = 'garbage';
    const g = await req(t, w.inspector.token, A.suggest, { id: row.id });
    expectError(g, 'quality_ai_failed');
    expect(g.body.msg).toContain('AI');
    open.mode = 'hang';
    expectError(await req(t, w.inspector.token, A.suggest, { id: row.id }), 'quality_ai_failed');
    expect(open.calls).toHaveLength(2);

    // Without A11_A01 (the agent), or another inspector's inspection: refused before any provider call.
    open.mode = 'ok';
    expectError(await req(t, w.agent.token, A.suggest, { id: row.id }), 'forbidden', 403);
    expectError(await req(t, w.assigner.token, A.suggest, { id: row.id }), 'forbidden', 403);
    expectError(await req(t, w.inspector2.token, A.suggest, { id: row.id }), 'quality_not_inspector', 403);
    expectError(await req(t, w.inspector.token, A.suggest, {}), 'required');
    expect(open.calls).toHaveLength(2);
    expect(await snapshot()).toBe(before);
  });
});
