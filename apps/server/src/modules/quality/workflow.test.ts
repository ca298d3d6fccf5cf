import { describe, expect, it } from 'vitest';
import {
  QUALITY_API as A,
  type AnalysisResultDto,
  type Page,
  type QualityAllotResultDto,
  type QualityAppealDto,
  type QualityCandidateDto,
  type QualityCountDto,
  type QualityDetailDto,
  type MessageDto,
  type VisitorNewResult,
  type QualityNotice,
  type QualityRowDto,
} from '@kefu/protocol';
import { count, expectError, perTest } from '../../../test/factories.js';
import {
  addAccessPoint,
  addUserWithCodes,
  api,
  call,
  next,
  ok,
  socketAgent,
  visitorReady,
} from '../../../test/live.js';
import { remindDue } from './notify.js';
import { endedChat, okData, qualityWorld, req, type QualityWorld } from './quality.fixtures.js';

/**
 * The rest of the workflow (issue 17): conversations left out of inspection, re-assignment (the 'again'
 * variants), appeal drafts, partly upheld appeals, bulk closing, and the reminder before the window closes.
 */
const env = perTest();

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function allotTo(w: QualityWorld, inspector: string, ids: string[]): Promise<QualityRowDto[]> {
  okData(await req(w.t, w.t.adminToken, A.allotManual, { ids, inspectors: [inspector] }));
  const list = okData(
    await req<Page<QualityRowDto>>(w.t, w.t.adminToken, `${A.allotList}?inspector=${inspector}&ps=100`),
  );
  return list.list.filter((r) => ids.includes(r.agentserviceid));
}

/** A result sent to agent: the polite item deducted 10 (score 90). */
async function sentResult(w: QualityWorld): Promise<QualityRowDto> {
  const chat = await endedChat(w.t, w.agent.id);
  const [row] = await allotTo(w, w.inspector.id, [chat]);
  okData(
    await req(w.t, w.inspector.token, A.save, {
      id: row!.id,
      items: [{ labelid: w.polite.id, score: 10 }],
      send: true,
    }),
  );
  return row!;
}

const appealOn = async (w: QualityWorld, row: QualityRowDto, submit = true) =>
  okData(
    await req<QualityAppealDto>(w.t, w.agent.token, A.appealSave, {
      inspectionid: row.id,
      items: [{ labelid: w.polite.id, reason: '扣分过重' }],
      submit,
    }),
  );

const snapshot = async (w: QualityWorld) =>
  JSON.stringify(
    await Promise.all(
      ['quality_inspection', 'quality_item', 'quality_appeal', 'quality_appeal_item', 'quality_event'].map(
        (t) =>
          w.t.db.kysely
            .selectFrom(t as 'quality_inspection')
            .selectAll()
            .execute()
            .then((rows) => rows.map((r) => JSON.stringify(r)).sort()),
      ),
    ),
  );

describe('not for inspection (notQuality)', () => {
  it('an excluded conversation leaves the candidates and automation, and comes back when included', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const [a, b] = [await endedChat(t, w.agent.id), await endedChat(t, w.agent2.id)];
    const candidates = async () =>
      okData(await req<Page<QualityCandidateDto>>(t, w.assigner.token, `${A.notAllotList}?ps=50`)).list.map(
        (c) => c.agentserviceid,
      );
    expect((await candidates()).sort()).toEqual([a, b].sort());

    // Refused: an inspector without A11_A02, an unknown conversation (nothing excluded).
    expectError(await req(t, w.inspector.token, A.notQuality, { ids: [a] }), 'forbidden', 403);
    expectError(await req(t, w.assigner.token, A.notQuality, { ids: [a, 'nope'] }), 'invalid_field');
    expect(await candidates()).toHaveLength(2);

    expect(okData(await req<{ changed: number }>(t, w.assigner.token, A.notQuality, { ids: [a] }))).toEqual({
      changed: 1,
    });
    expect(await candidates()).toEqual([b]);
    expect(okData(await req<QualityCountDto>(t, w.assigner.token, A.count)).notAllotted).toBe(1);
    // Automation deals only what is left.
    const auto = okData(
      await req<QualityAllotResultDto>(t, w.assigner.token, A.allotAutomation, {
        share: 10,
        period: 'day',
        inspectors: [w.inspector.id],
        save: false,
      }),
    );
    expect(auto.allotted).toBe(1);
    expect(
      (await t.db.kysely.selectFrom('quality_inspection').select('agentserviceid').execute()).map(
        (r) => r.agentserviceid,
      ),
    ).toEqual([b]);
    // Nor can it be given by hand while marked: a clear error, nothing allotted.
    expectError(
      await req(t, w.assigner.token, A.allotManual, { ids: [a], inspectors: [w.inspector.id] }),
      'quality_excluded',
    );
    expect(await count(t.db, 'quality_inspection')).toBe(1);

    // Included again (exclude=false, as a GET too): a candidate once more, and automation takes it.
    okData(await req(t, w.assigner.token, `${A.notQuality}?ids=${a}&exclude=0`));
    expect(await candidates()).toEqual([a]);
    const again = okData(
      await req<QualityAllotResultDto>(t, w.assigner.token, A.allotAutomation, {
        share: 10,
        period: 'day',
        inspectors: [w.inspector.id],
        save: false,
      }),
    );
    expect(again.allotted).toBe(1);
    expect(await count(t.db, 'quality_inspection')).toBe(2);
  });
});

describe('re-assignment (allot/manual/again, allot/automation/again)', () => {
  it('moves unscored inspections with a reallot event; a scored one refuses the whole call', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const chats = [
      await endedChat(t, w.agent.id),
      await endedChat(t, w.agent.id),
      await endedChat(t, w.agent2.id),
    ];
    const rows = await allotTo(w, w.inspector.id, chats);
    const [r1, r2, r3] = chats.map((c) => rows.find((r) => r.agentserviceid === c)!);
    okData(await req(t, w.inspector.token, A.save, { id: r1!.id, items: [] }));

    // A scored inspection in the list: refused, nothing moves (all or nothing).
    const before = await snapshot(w);
    expectError(
      await req(t, w.assigner.token, A.allotManualAgain, {
        ids: [r2!.id, r1!.id],
        inspectors: [w.inspector2.id],
      }),
      'quality_already_scored',
    );
    expectError(
      await req(t, w.assigner.token, A.allotManualAgain, { ids: ['nope'], inspectors: [w.inspector2.id] }),
      'invalid_field',
    );
    expectError(
      await req(t, w.inspector.token, A.allotManualAgain, { ids: [r2!.id], inspectors: [w.inspector2.id] }),
      'forbidden',
      403,
    );
    expect(await snapshot(w)).toBe(before);

    const moved = okData(
      await req<QualityAllotResultDto>(t, w.assigner.token, A.allotManualAgain, {
        ids: [r2!.id],
        inspectors: [w.inspector2.id],
      }),
    );
    expect(moved).toEqual({
      allotted: 1,
      perInspector: [{ inspector: w.inspector2.id, count: 1 }],
      skipped: 0,
    });
    // The new inspector sees it and may score it; the former one no longer may.
    expect(
      okData(await req<Page<QualityRowDto>>(t, w.inspector2.token, A.list)).list.map((r) => r.id),
    ).toEqual([r2!.id]);
    expectError(
      await req(t, w.inspector.token, A.save, { id: r2!.id, items: [] }),
      'quality_not_inspector',
      403,
    );
    const d = okData(await req<QualityDetailDto>(t, w.inspector2.token, `${A.detail}?id=${r2!.id}`));
    expect(d.events.map((e) => [e.action, e.detail])).toEqual([
      ['allot', expect.any(String)],
      ['reallot', `${w.inspector.id} → ${w.inspector2.id}`],
    ]);

    // Automation again over agent2's conversations only: r3 moves, the scored r1 and agent's r2 stay.
    const auto = okData(
      await req<QualityAllotResultDto>(t, w.assigner.token, A.allotAutomationAgain, {
        share: 1,
        begin: 0,
        filters: { agents: [w.agent2.id] },
        inspectors: [w.inspector2.id],
        save: false,
      }),
    );
    expect(auto).toMatchObject({ allotted: 1, skipped: 0 });
    const now = await t.db.kysely.selectFrom('quality_inspection').select(['id', 'inspector']).execute();
    const who = new Map(now.map((r) => [r.id, r.inspector]));
    expect([who.get(r1!.id), who.get(r2!.id), who.get(r3!.id)]).toEqual([
      w.inspector.id,
      w.inspector2.id,
      w.inspector2.id,
    ]);
  });
});

describe('appeal drafts', () => {
  it('a draft is the agent’s own until submitted; it can be edited, and submits the score of that time', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const row = await sentResult(w);
    const draft = await appealOn(w, row, false);
    expect(draft).toMatchObject({ state: 'draft', submittime: null, scorebefore: 90 });

    // Nobody else sees it: not the inspector (detail, list, count), not the reviewer's list.
    expect(
      okData(await req<QualityDetailDto>(t, w.inspector.token, `${A.detail}?id=${row.id}`)).appeals,
    ).toEqual([]);
    expect(okData(await req<Page<QualityAppealDto>>(t, w.inspector.token, A.appealList)).total).toBe(0);
    expect(okData(await req<Page<QualityAppealDto>>(t, w.assigner.token, A.appealList)).total).toBe(0);
    expect(okData(await req<QualityCountDto>(t, w.inspector.token, A.count)).appealsOpen).toBe(0);
    expect(okData(await req<QualityCountDto>(t, w.agent.token, A.count)).mineAppeals).toBe(1);
    expect(okData(await req<Page<QualityAppealDto>>(t, w.agent.token, A.appealList)).total).toBe(1);
    // Another agent may not edit it; it cannot be discussed nor closed, alone or in a batch.
    const before = await snapshot(w);
    expectError(
      await req(t, w.agent2.token, A.appealSave, {
        id: draft.id,
        items: [{ labelid: w.polite.id, reason: 'x' }],
      }),
      'quality_appeal_not_owner',
      403,
    );
    expectError(
      await req(t, w.agent.token, A.appealMessageSave, { appealid: draft.id, text: 'hi' }),
      'quality_appeal_state',
    );
    expectError(
      await req(t, w.assigner.token, `${A.appealEnd}?id=${draft.id}&outcome=upheld`),
      'quality_appeal_state',
    );
    expectError(
      await req(t, w.assigner.token, `${A.appealBatch}?ids=${draft.id}&outcome=upheld`),
      'quality_appeal_state',
    );
    expect(await snapshot(w)).toBe(before);

    // While only a draft exists the inspector may still rescore (no appeal is open yet)…
    okData(
      await req(t, w.inspector.token, A.save, { id: row.id, items: [{ labelid: w.polite.id, score: 6 }] }),
    );
    // …the agent edits the draft (the bonus item now, a new reason) and submits it later.
    const edited = okData(
      await req<QualityAppealDto>(t, w.agent.token, A.appealSave, {
        id: draft.id,
        reason: '补充说明',
        items: [{ labelid: w.bonus.id, reason: '我主动推荐了' }],
        submit: false,
      }),
    );
    expect(edited).toMatchObject({ state: 'draft', reason: '补充说明', items: [{ labelid: w.bonus.id }] });
    const submitted = okData(
      await req<QualityAppealDto>(t, w.agent.token, A.appealSave, {
        id: draft.id,
        reason: '补充说明',
        items: [
          { labelid: w.bonus.id, reason: '我主动推荐了' },
          { labelid: w.polite.id, reason: '扣分过重' },
        ],
      }),
    );
    expect(submitted).toMatchObject({
      state: 'submitted',
      scorebefore: 94,
      items: expect.arrayContaining([
        expect.objectContaining({ labelid: w.polite.id, before: 6 }),
        expect.objectContaining({ labelid: w.bonus.id, before: 0 }),
      ]),
    });
    expect(submitted.submittime).toBeGreaterThan(0);
    // Submitted: the inspector sees it and can no longer rescore; a submitted appeal is not a draft to edit.
    expect(okData(await req<QualityCountDto>(t, w.inspector.token, A.count)).appealsOpen).toBe(1);
    expectError(await req(t, w.inspector.token, A.save, { id: row.id, items: [] }), 'quality_locked');
    expectError(
      await req(t, w.agent.token, A.appealSave, {
        id: draft.id,
        items: [{ labelid: w.polite.id, reason: 'x' }],
      }),
      'quality_appeal_state',
    );
    const events = okData(await req<QualityDetailDto>(t, w.agent.token, `${A.detail}?id=${row.id}`)).events;
    expect(events.map((e) => e.action).filter((a) => a.startsWith('appeal'))).toEqual([
      'appeal_draft',
      'appeal_submitted',
    ]);
  });
});

describe('closing appeals', () => {
  it('partly upheld: the new item score, the score change and the statistics are recorded', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const row = await sentResult(w);
    const a = await appealOn(w, row);
    const before = await snapshot(w);
    // partly needs scores of the contested items, in range.
    expectError(
      await req(t, w.inspector.token, A.appealEnd, { id: a.id, outcome: 'partly', items: [] }),
      'required',
    );
    expectError(
      await req(t, w.inspector.token, A.appealEnd, {
        id: a.id,
        outcome: 'partly',
        items: [{ labelid: w.fatal.id, score: 1 }],
      }),
      'quality_item_unknown',
    );
    expect(await snapshot(w)).toBe(before);

    const p = okData(
      await req<QualityAppealDto>(t, w.inspector.token, A.appealEnd, {
        id: a.id,
        outcome: 'partly',
        items: JSON.stringify([{ labelid: w.polite.id, score: 3 }]),
        comment: '酌情减扣',
      }),
    );
    expect(p).toMatchObject({
      state: 'resolved',
      outcome: 'partly',
      scorebefore: 90,
      scoreafter: 97,
      resolver: w.inspector.id,
      resolvecomment: '酌情减扣',
      items: [expect.objectContaining({ labelid: w.polite.id, before: 10, after: 3 })],
    });
    const d = okData(await req<QualityDetailDto>(t, w.agent.token, `${A.detail}?id=${row.id}`));
    expect(d.row).toMatchObject({ score: 97, pass: true, appeal: 'resolved' });
    expect(d.items.find((i) => i.labelid === w.polite.id)?.score).toBe(3);
    expect(d.events.filter((e) => e.action === 'rescore' || e.action === 'appeal_resolved')).toEqual([
      expect.objectContaining({ action: 'appeal_resolved', detail: 'partly', userid: w.inspector.id }),
      expect.objectContaining({ action: 'rescore', detail: '90 → 97', userid: w.inspector.id }),
    ]);
    const stats = okData(
      await req<AnalysisResultDto>(
        t,
        t.adminToken,
        `/api/analyse/quality?begin=${day(-1)}&end=${day(1)}&dim=agent`,
      ),
    );
    expect(stats.total).toMatchObject({ inspected: 1, avgScore: 97, appealsOpened: 1, appealsUpheld: 1 });
  });

  it('batch: upheld on each appeal, all or nothing when one is not open; A11_A02 only', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const [r1, r2, r3] = [await sentResult(w), await sentResult(w), await sentResult(w)];
    const [a1, a2] = [await appealOn(w, r1), await appealOn(w, r2)];
    const resolved = await appealOn(w, r3);
    okData(await req(t, w.assigner.token, `${A.appealEnd}?id=${resolved.id}&outcome=rejected`));

    // One of the batch is already resolved: refused, nothing closed.
    const before = await snapshot(w);
    expectError(
      await req(t, w.assigner.token, A.appealBatch, { ids: [a1.id, resolved.id, a2.id], outcome: 'upheld' }),
      'quality_appeal_state',
    );
    expectError(
      await req(t, w.assigner.token, A.appealBatch, { ids: [a1.id], outcome: 'partly' }),
      'invalid_field',
    );
    expectError(
      await req(t, w.inspector.token, A.appealBatch, { ids: [a1.id, a2.id], outcome: 'upheld' }),
      'forbidden',
      403,
    );
    expect(await snapshot(w)).toBe(before);

    expect(
      okData(
        await req<{ ended: number }>(t, w.assigner.token, A.appealBatch, {
          ids: [a1.id, a2.id, a1.id],
          outcome: 'upheld',
          comment: '批量处理',
        }),
      ),
    ).toEqual({ ended: 2 });
    for (const r of [r1, r2]) {
      const d = okData(await req<QualityDetailDto>(t, w.agent.token, `${A.detail}?id=${r.id}`));
      expect(d.row).toMatchObject({ score: 100, appeal: 'resolved' });
      expect(d.appeals[0]).toMatchObject({
        outcome: 'upheld',
        resolver: w.assigner.id,
        resolvecomment: '批量处理',
        items: [expect.objectContaining({ before: 10, after: 0 })],
      });
      expect(d.events.find((e) => e.action === 'rescore')).toMatchObject({
        detail: '90 → 100',
        userid: w.assigner.id,
      });
    }
    expect(okData(await req<QualityDetailDto>(t, w.agent.token, `${A.detail}?id=${r3.id}`)).row.score).toBe(
      90,
    );
  });
});

describe('reminder before the appeal window closes', () => {
  it('the agent’s socket hears `remind` once, only when the window closes within remindHours', async () => {
    const srv = await env.live();
    const appid = await addAccessPoint(srv.tdb);
    const agent = await socketAgent(srv, env.sockets);
    const v = await visitorReady(srv.url, appid);
    env.sockets.push(v.s);
    const r = ok(await call<VisitorNewResult>(v.s, 'new'));
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-visitor-1', message: '在吗' }));
    await api(srv, agent.token, `/api/talk/end?agentserviceid=${r.agentserviceid}`);
    const boss = await addUserWithCodes(srv.tdb, ['A11', 'A11_A01', 'A11_A02', 'A09_A03_A12']);
    const post = async <T>(url: string, body: unknown) => {
      const res = await api<T>(srv, boss.token, url, body);
      expect(res.json.success, JSON.stringify(res.json)).toBe(true);
      return res.json.data;
    };
    const typeid = (await post<{ id: string }>(A.labelTypeSave, { name: 'card' })).id;
    const labelid = (await post<{ id: string }>(A.labelSave, { typeid, name: 'greet', points: 5 })).id;
    await post(A.allotManual, { ids: [r.agentserviceid], inspectors: [boss.id] });
    const row = (await api<Page<QualityRowDto>>(srv, boss.token, A.list)).json.data.list[0]!;
    const result = next<QualityNotice>(agent.sock, 'quality');
    await post(A.save, { id: row.id, items: [{ labelid, score: 5 }], send: true });
    expect(await result).toMatchObject({ type: 'result', inspectionid: row.id });
    const db = srv.tdb.db;
    // Seven days left, remindHours 24: not yet.
    expect(await remindDue(db)).toBe(0);
    const later = Date.now() + 6.5 * 86_400_000;
    const heard = next<QualityNotice>(agent.sock, 'quality');
    expect(await remindDue(db, later)).toBe(1);
    const until = await db.kysely
      .selectFrom('quality_inspection')
      .select('appealuntil')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(await heard).toEqual({
      type: 'remind',
      inspectionid: row.id,
      agentserviceid: r.agentserviceid,
      score: 95,
      pass: true,
      appealuntil: Number(until.appealuntil),
    });
    // Once: a second run (another node, or the next tick) finds nothing to remind.
    expect(await remindDue(db, later)).toBe(0);
  });
});
