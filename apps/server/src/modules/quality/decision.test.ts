import { describe, expect, it } from 'vitest';
import {
  QUALITY_API as A,
  type AnalysisResultDto,
  type Page,
  type QualityDetailDto,
  type QualityRowDto,
} from '@kefu/protocol';
import { count, expectError, perTest } from '../../../test/factories.js';
import { prescore } from './prescore.js';
import { endedChat, okData, qualityWorld, req, type QualityWorld } from './quality.fixtures.js';

/**
 * The inspector confirms or overrides each automatic finding when saving an inspection (issue 17): the
 * decisions are stored apart from the findings (which never change), with who and when, returned by the
 * detail, and counted by /api/analyse/quality as the "automatic findings overridden" rate.
 */
const env = perTest();

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A conversation with two findings (missing greeting and closing), allotted to the inspector. */
async function inspected(w: QualityWorld) {
  okData(
    await req(w.t, w.t.adminToken, A.settingsSave, { greetings: ['欢迎光临'], closings: ['感谢您的咨询'] }),
  );
  const chat = await endedChat(w.t, w.agent.id);
  await prescore(w.t.db, [chat]);
  okData(await req(w.t, w.t.adminToken, A.allotManual, { ids: [chat], inspectors: [w.inspector.id] }));
  const rows = okData(await req<Page<QualityRowDto>>(w.t, w.inspector.token, A.list));
  const row = rows.list.find((r) => r.agentserviceid === chat)!;
  const d = okData(await req<QualityDetailDto>(w.t, w.inspector.token, `${A.detail}?id=${row.id}`));
  return { chat, row, d };
}

describe('confirm / override of automatic findings', () => {
  it('records each decision apart from the findings, with who and when; bad input changes nothing', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const { row, d } = await inspected(w);
    expect(d.findings.map((f) => f.rule).sort()).toEqual(['closing', 'greeting']);
    expect(d.decisions).toEqual([]);
    const greeting = d.findings.find((f) => f.rule === 'greeting')!;
    const closing = d.findings.find((f) => f.rule === 'closing')!;
    const findingsNow = async () =>
      JSON.stringify(
        await t.db.kysely
          .selectFrom('quality_finding')
          .selectAll()
          .where('agentserviceid', '=', row.agentserviceid)
          .orderBy('id')
          .execute(),
      );
    const findingsBefore = await findingsNow();

    // Bad input: a finding of another conversation, an override without points, points out of range.
    const other = await endedChat(t, w.agent2.id);
    await prescore(t.db, [other]);
    const foreign = await t.db.kysely
      .selectFrom('quality_finding')
      .select('id')
      .where('agentserviceid', '=', other)
      .executeTakeFirstOrThrow();
    expectError(
      await req(t, w.inspector.token, A.save, {
        id: row.id,
        items: [],
        decisions: [{ findingid: foreign.id, decision: 'confirmed' }],
      }),
      'quality_finding_unknown',
    );
    expectError(
      await req(t, w.inspector.token, A.save, {
        id: row.id,
        items: [],
        decisions: [{ findingid: greeting.id, decision: 'overridden' }],
      }),
      'required',
    );
    expectError(
      await req(t, w.inspector.token, A.save, {
        id: row.id,
        items: [],
        decisions: [{ findingid: greeting.id, decision: 'maybe' }],
      }),
      'invalid_field',
    );
    expect(await count(t.db, 'quality_decision')).toBe(0);
    expect(await count(t.db, 'quality_item')).toBe(0);

    // Override the greeting (0 points: the agent greeted by phone); the closing, not named, is confirmed.
    const saved = okData(
      await req<QualityDetailDto>(t, w.inspector.token, A.save, {
        id: row.id,
        items: [{ labelid: w.polite.id, score: 2 }],
        decisions: [{ findingid: greeting.id, decision: 'overridden', points: 0, reason: '电话里已问候' }],
      }),
    );
    expect(saved.decisions).toEqual([
      expect.objectContaining({
        findingid: closing.id,
        rule: 'closing',
        decision: 'confirmed',
        autopoints: closing.points,
        points: null,
        userid: w.inspector.id,
      }),
      expect.objectContaining({
        findingid: greeting.id,
        rule: 'greeting',
        decision: 'overridden',
        autopoints: greeting.points,
        points: 0,
        reason: '电话里已问候',
        userid: w.inspector.id,
      }),
    ]);
    expect(saved.decisions[0]!.username).not.toBe('');
    expect(saved.decisions[0]!.createtime).toBeGreaterThan(0);
    // The automatic values are untouched; the automatic score stays apart from the inspector's.
    expect(await findingsNow()).toBe(findingsBefore);
    expect(saved.findings.find((f) => f.id === greeting.id)?.points).toBe(greeting.points);
    expect(saved.row).toMatchObject({ score: 98, autopoints: row.autopoints });

    // A later save keeps earlier decisions unless given again: confirm the greeting now.
    const again = okData(
      await req<QualityDetailDto>(t, w.inspector.token, A.save, {
        id: row.id,
        items: [{ labelid: w.polite.id, score: 2 }],
        decisions: [{ findingid: greeting.id, decision: 'confirmed' }],
      }),
    );
    expect(again.decisions.map((x) => [x.rule, x.decision, x.points])).toEqual([
      ['closing', 'confirmed', null],
      ['greeting', 'confirmed', null],
    ]);
    expect(await count(t.db, 'quality_decision')).toBe(2);

    // The agent sees the decisions with the result once sent.
    okData(
      await req(t, w.inspector.token, A.save, {
        id: row.id,
        items: [],
        decisions: [{ findingid: closing.id, decision: 'overridden', points: 1, reason: '' }],
        send: true,
      }),
    );
    const mine = okData(await req<QualityDetailDto>(t, w.agent.token, `${A.detail}?id=${row.id}`));
    expect(mine.decisions.find((x) => x.rule === 'closing')).toMatchObject({
      decision: 'overridden',
      points: 1,
    });
  });

  it('save/batch confirms the findings it does not override; analyse/quality gains the overridden rate', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const { row, d } = await inspected(w);
    const greeting = d.findings.find((f) => f.rule === 'greeting')!;
    okData(
      await req(t, w.inspector.token, A.save, {
        id: row.id,
        items: [],
        decisions: [{ findingid: greeting.id, decision: 'overridden', points: 0 }],
      }),
    );
    // A second conversation scored in a batch: its two findings are confirmed.
    const chat2 = await endedChat(t, w.agent.id);
    await prescore(t.db, [chat2]);
    okData(await req(t, t.adminToken, A.allotManual, { ids: [chat2], inspectors: [w.inspector.id] }));
    const r2 = okData(await req<Page<QualityRowDto>>(t, w.inspector.token, A.list)).list.find(
      (r) => r.agentserviceid === chat2,
    )!;
    okData(await req(t, w.inspector.token, A.saveBatch, { ids: [r2.id], items: [] }));
    const d2 = okData(await req<QualityDetailDto>(t, w.inspector.token, `${A.detail}?id=${r2.id}`));
    expect(d2.decisions.map((x) => x.decision)).toEqual(['confirmed', 'confirmed']);

    // 1 overridden of 4 decided.
    const r = okData(
      await req<AnalysisResultDto>(
        t,
        t.adminToken,
        `/api/analyse/quality?begin=${day(-1)}&end=${day(1)}&dim=agent`,
      ),
    );
    expect(r.figures).toContain('autoOverrideRate');
    expect(r.rows.find((x) => x.key === w.agent.id)?.figures.autoOverrideRate).toBe(0.25);
    expect(r.total.autoOverrideRate).toBe(0.25);
  });
});
