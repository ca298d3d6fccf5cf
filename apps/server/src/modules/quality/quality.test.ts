import { describe, expect, it } from 'vitest';
import {
  QUALITY_API as A,
  type AnalysisResultDto,
  type ExportJobDto,
  type Page,
  type QualityAllotResultDto,
  type QualityAppealDto,
  type QualityAppealMessageDto,
  type QualityCandidateDto,
  type QualityCountDto,
  type QualityDetailDto,
  type QualityLabelDto,
  type QualityLabelTypeDto,
  type QualityRowDto,
  type QualityScorecardDto,
  type QualityTranscriptDto,
} from '@kefu/protocol';
import { count, expectError, perTest, userWithCodes } from '../../../test/factories.js';
import { exportRunner } from '../export/export.service.js';
import { seedConversation } from '../history/history.fixtures.js';
import { remindDue } from './notify.js';
import { endedChat, okData, qualityWorld, req, type QualityWorld } from './quality.fixtures.js';

const env = perTest();

/** Allots conversations to one inspector through the API (as the admin) and returns the inspections. */
async function allotTo(w: QualityWorld, inspector: string, ids: string[]): Promise<QualityRowDto[]> {
  okData(await req(w.t, w.t.adminToken, A.allotManual, { ids, inspectors: [inspector] }));
  const list = okData(
    await req<Page<QualityRowDto>>(w.t, w.t.adminToken, `${A.allotList}?inspector=${inspector}&ps=100`),
  );
  return list.list.filter((r) => ids.includes(r.agentserviceid));
}

const today = () => new Date().toISOString().slice(0, 10);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function qualityAgentFigures(w: QualityWorld, agentno: string) {
  const r = okData(
    await req<AnalysisResultDto>(
      w.t,
      w.t.adminToken,
      `/api/analyse/quality?begin=${day(-1)}&end=${day(1)}&dim=agent`,
    ),
  );
  return r.rows.find((x) => x.key === agentno)?.figures;
}

describe('scorecards (A09_A03_A12)', () => {
  it('types and labels: list, form, update, delete; versions move; bad input and other users refused', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const types = okData(await req<QualityLabelTypeDto[]>(t, t.adminToken, A.labelTypeList));
    expect(types).toEqual([
      expect.objectContaining({ id: w.card.id, items: 3, isdefault: true, passmark: 80 }),
    ]);
    const form = okData(
      await req<QualityScorecardDto>(t, t.adminToken, `${A.labelTypeForm}?id=${w.card.id}`),
    );
    expect(form.items.map((i) => [i.name, i.kind, i.fatal])).toEqual([
      ['用语不礼貌', 'deduct', false],
      ['泄露客户信息', 'deduct', true],
      ['主动推荐', 'add', false],
    ]);
    // Created (1) + three items = version 4.
    expect(form.version).toBe(4);
    const up = okData(
      await req<QualityLabelDto>(t, t.adminToken, A.labelUpdate, { id: w.polite.id, points: 15 }),
    );
    expect(up.points).toBe(15);
    expect(
      okData(await req<QualityLabelDto>(t, t.adminToken, `${A.labelForm}?id=${w.polite.id}`)).points,
    ).toBe(15);
    const list = okData(await req<QualityLabelDto[]>(t, t.adminToken, `${A.labelList}?typeid=${w.card.id}`));
    expect(list).toHaveLength(3);
    const tu = okData(
      await req<QualityLabelTypeDto>(t, t.adminToken, A.labelTypeUpdate, { id: w.card.id, passmark: 70 }),
    );
    expect(tu).toMatchObject({ passmark: 70, version: 6 });

    // Bad input: a bonus cannot be fatal, a pass mark above the base, a repeated name; nothing is written.
    const before = await count(t.db, 'quality_label');
    expectError(
      await req(t, t.adminToken, A.labelSave, {
        typeid: w.card.id,
        name: 'x',
        kind: 'add',
        points: 3,
        fatal: true,
      }),
      'invalid_field',
    );
    expectError(
      await req(t, t.adminToken, A.labelSave, { typeid: w.card.id, name: '主动推荐', points: 3 }),
      'name_repeat',
    );
    expectError(
      await req(t, t.adminToken, A.labelSave, { typeid: w.card.id, name: 'y', points: 0 }),
      'invalid_field',
    );
    expectError(
      await req(t, t.adminToken, A.labelTypeSave, { name: 'z', base: 50, passmark: 60 }),
      'invalid_field',
    );
    expect(await count(t.db, 'quality_label')).toBe(before);

    // Only A09_A03_A12 changes scorecards.
    expectError(
      await req(t, w.inspector.token, A.labelSave, { typeid: w.card.id, name: 'q', points: 1 }),
      'forbidden',
      403,
    );
    expectError(await req(t, w.agent.token, A.labelTypeList), 'forbidden', 403);

    // The setup change is in the audit log with its state before.
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'before'])
      .where('action', '=', 'quality.label.update')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.before).toContain('"points":10');

    // Delete an item, then the card.
    okData(await req(t, t.adminToken, `${A.labelDelete}?id=${w.bonus.id}`));
    expect(
      okData(await req<QualityLabelDto[]>(t, t.adminToken, `${A.labelList}?typeid=${w.card.id}`)),
    ).toHaveLength(2);
    okData(await req(t, t.adminToken, `${A.labelTypeDelete}?id=${w.card.id}`));
    expect(okData(await req<QualityLabelTypeDto[]>(t, t.adminToken, A.labelTypeList))).toEqual([]);
  });

  it('imAgent skill/quality/save binds a skill group to its card; its conversations are scored with it', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const other = okData(
      await req<QualityLabelTypeDto>(t, t.adminToken, A.labelTypeSave, { name: '售后评分表' }),
    );
    okData(await req(t, t.adminToken, A.labelSave, { typeid: other.id, name: '未核实身份', points: 5 }));
    const organ = 'g_quality';
    await t.db.kysely
      .insertInto('organ')
      .values({
        id: organ,
        orgi: 'kefu',
        name: '售后',
        parentid: null,
        skill: 1,
        createtime: 0,
        updatetime: 0,
      } as never)
      .execute();
    expectError(
      await req(t, t.adminToken, A.skillQualitySave, { organ: 'nope', typeid: other.id }),
      'invalid_field',
    );
    okData(await req(t, t.adminToken, A.skillQualitySave, { organ, typeid: other.id }));
    const skills = okData(
      await req<Array<{ organ: string; typeid: string | null }>>(t, t.adminToken, A.skillQualityList),
    );
    expect(skills.find((s) => s.organ === organ)?.typeid).toBe(other.id);
    expectError(await req(t, t.adminToken, `${A.labelTypeDelete}?id=${other.id}`), 'quality_type_in_use');

    const inGroup = await endedChat(t, w.agent.id, { organ });
    const outside = await endedChat(t, w.agent.id);
    const rows = await allotTo(w, w.inspector.id, [inGroup, outside]);
    expect(rows.find((r) => r.agentserviceid === inGroup)).toMatchObject({
      typeid: other.id,
      cardname: '售后评分表',
    });
    expect(rows.find((r) => r.agentserviceid === outside)).toMatchObject({ typeid: w.card.id });
  });
});

describe('assignment (A11_A02)', () => {
  it('manual and automatic allotment, round-robin, never an inspector’s own chats; the again variants', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const mine = await endedChat(t, w.inspector.id);
    const chats = [
      await endedChat(t, w.agent.id),
      await endedChat(t, w.agent.id),
      await endedChat(t, w.agent2.id),
    ];

    // An inspector without A11_A02 cannot assign; nothing changes.
    expectError(
      await req(t, w.inspector.token, A.allotManual, { ids: chats, inspectors: [w.inspector.id] }),
      'forbidden',
      403,
    );
    expectError(
      await req(t, w.inspector.token, A.allotAutomation, { share: 5, inspectors: [w.inspector.id] }),
      'forbidden',
      403,
    );
    expectError(await req(t, w.inspector.token, A.notAllotList), 'forbidden', 403);
    expect(await count(t.db, 'quality_inspection')).toBe(0);

    // Nobody inspects their own chats: the only inspector chosen is the conversation's agent.
    expectError(
      await req(t, w.assigner.token, A.allotManual, { ids: [mine], inspectors: [w.inspector.id] }),
      'quality_own_conversation',
    );
    expect(await count(t.db, 'quality_inspection')).toBe(0);
    // A user without A11_A01 is not an inspector.
    expectError(
      await req(t, w.assigner.token, A.allotManual, { ids: chats, inspectors: [w.agent.id] }),
      'invalid_field',
    );

    const cands = okData(
      await req<Page<QualityCandidateDto>>(t, w.assigner.token, `${A.notAllotList}?ps=50`),
    );
    expect(cands.total).toBe(4);

    // Exclude one conversation, then automatic: one per agent per day, round-robin over both inspectors.
    okData(await req(t, w.assigner.token, A.notQuality, { ids: [chats[1]] }));
    const auto = okData(
      await req<QualityAllotResultDto>(t, w.assigner.token, A.allotAutomation, {
        share: 1,
        period: 'day',
        inspectors: [w.inspector.id, w.inspector2.id],
      }),
    );
    // agent: 1 (of 2 left after the exclusion… one was excluded), agent2: 1, inspector's own chat: 1 → to inspector2.
    expect(auto.allotted).toBe(3);
    const rows = await t.db.kysely.selectFrom('quality_inspection').selectAll().execute();
    expect(rows.every((r) => r.inspector !== r.agentno)).toBe(true);
    expect(rows.find((r) => r.agentserviceid === mine)?.inspector).toBe(w.inspector2.id);
    expect(rows.some((r) => r.agentserviceid === chats[1])).toBe(false);
    expect(okData(await req<QualityAllotResultDto | null>(t, w.assigner.token, A.allotRule))).toMatchObject({
      share: 1,
      period: 'day',
    });
    // Nothing left to allot.
    expect(okData(await req<Page<QualityCandidateDto>>(t, w.assigner.token, A.notAllotList)).total).toBe(0);
    expect(okData(await req<QualityCountDto>(t, w.assigner.token, A.count)).notAllotted).toBe(0);

    // Manual again: an inspection of inspector moved to inspector2 (refused towards the agent himself).
    const ofFirst = rows.filter((r) => r.inspector === w.inspector.id);
    expect(ofFirst.length).toBeGreaterThan(0);
    const moved = okData(
      await req<QualityAllotResultDto>(t, w.assigner.token, A.allotManualAgain, {
        ids: [ofFirst[0]!.id],
        inspectors: [w.inspector2.id],
      }),
    );
    expect(moved).toMatchObject({ allotted: 1, perInspector: [{ inspector: w.inspector2.id, count: 1 }] });
    const ofSecondOwn = rows.find((r) => r.agentserviceid === mine)!;
    expectError(
      await req(t, w.assigner.token, A.allotManualAgain, {
        ids: [ofSecondOwn.id],
        inspectors: [w.inspector.id],
      }),
      'quality_own_conversation',
    );
    // Automation again deals the unscored ones of the range over the inspectors given.
    const again = okData(
      await req<QualityAllotResultDto>(t, w.assigner.token, A.allotAutomationAgain, {
        share: 1,
        begin: 0,
        inspectors: [w.inspector.id],
      }),
    );
    // Everything unscored is now inspector's, except inspector's own chat (skipped, still inspector2's).
    expect(again.allotted + again.skipped).toBe(3);
    const now = await t.db.kysely
      .selectFrom('quality_inspection')
      .select(['agentserviceid', 'inspector'])
      .execute();
    expect(now.find((r) => r.agentserviceid === mine)?.inspector).toBe(w.inspector2.id);
    expect(now.filter((r) => r.agentserviceid !== mine).every((r) => r.inspector === w.inspector.id)).toBe(
      true,
    );
  });
});

describe('inspection (A11_A01) and the agent view (A11_A03)', () => {
  it('scores with the frozen card, cites messages, fatal fails, sends to the agent; bad input changes nothing', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const chat = await endedChat(t, w.agent.id);
    const [row] = await allotTo(w, w.inspector.id, [chat]);
    expect(row).toMatchObject({ status: 'allotted', score: null, version: 4 });

    // The card changes after allotment: the inspection keeps version 4.
    okData(await req(t, t.adminToken, A.labelUpdate, { id: w.polite.id, points: 3 }));

    const detail = okData(await req<QualityDetailDto>(t, w.inspector.token, `${A.detail}?id=${row!.id}`));
    expect(detail.card.version).toBe(4);
    expect(detail.card.items.find((i) => i.id === w.polite.id)?.points).toBe(10);
    expect(detail.transcript.messages.map((m) => m.message)).toEqual([
      '你好，我想问一下订单',
      '您好，请稍等',
      '好的，再见',
    ]);
    expect(detail.can).toMatchObject({ score: true, appeal: false });
    const cited = detail.transcript.messages[1]!.id;

    // A score outside the item's range (10 on the frozen card, even though the item now allows 3… and 11 is out).
    const snap = JSON.stringify(await t.db.kysely.selectFrom('quality_inspection').selectAll().execute());
    expectError(
      await req(t, w.inspector.token, A.save, { id: row!.id, items: [{ labelid: w.polite.id, score: 11 }] }),
      'quality_score_range',
    );
    expectError(
      await req(t, w.inspector.token, A.save, { id: row!.id, items: [{ labelid: w.bonus.id, score: -1 }] }),
      'quality_score_range',
    );
    expectError(
      await req(t, w.inspector.token, A.save, { id: row!.id, items: [{ labelid: 'nope', score: 1 }] }),
      'quality_item_unknown',
    );
    // Another inspector's inspection, a message of another conversation.
    expectError(
      await req(t, w.inspector2.token, A.save, { id: row!.id, items: [] }),
      'quality_not_inspector',
      403,
    );
    expectError(
      await req(t, w.inspector.token, A.save, {
        id: row!.id,
        items: [{ labelid: w.polite.id, score: 1, messageids: ['other'] }],
      }),
      'invalid_field',
    );
    expect(JSON.stringify(await t.db.kysely.selectFrom('quality_inspection').selectAll().execute())).toBe(
      snap,
    );
    expect(await count(t.db, 'quality_item')).toBe(0);

    // 100 − 10 + 5 = 95, saved (not sent): the agent sees nothing yet.
    const saved = okData(
      await req<QualityDetailDto>(t, w.inspector.token, A.save, {
        id: row!.id,
        items: [
          { labelid: w.polite.id, score: 10, messageids: [cited], comment: '语气生硬' },
          { labelid: w.bonus.id, score: 5 },
        ],
        comment: '整体尚可',
      }),
    );
    expect(saved.row).toMatchObject({ status: 'done', score: 95, pass: true, fatal: false });
    expect(saved.items.find((i) => i.labelid === w.polite.id)).toMatchObject({
      messageids: [cited],
      comment: '语气生硬',
    });
    expect(okData(await req<Page<QualityRowDto>>(t, w.agent.token, A.staffList)).total).toBe(0);
    expectError(await req(t, w.agent.token, `${A.detail}?id=${row!.id}`), 'forbidden', 403);

    // A fatal item fails whatever the score; sent to the agent.
    const failed = okData(
      await req<QualityDetailDto>(t, w.inspector.token, A.save, {
        id: row!.id,
        items: [{ labelid: w.fatal.id, score: 1, messageids: [cited] }],
        send: true,
      }),
    );
    expect(failed.row).toMatchObject({ status: 'sent', score: 99, pass: false, fatal: true });
    expect(failed.row.appealuntil! - failed.row.sendtime!).toBe(7 * 86_400_000);
    expect(failed.events.map((e) => e.action)).toEqual(['allot', 'score', 'score', 'send']);

    // The agent sees their own result, the other agent does not; nobody else's list.
    const mine = okData(await req<Page<QualityRowDto>>(t, w.agent.token, A.staffList));
    expect(mine.list.map((r) => [r.id, r.seen])).toEqual([[row!.id, false]]);
    expect(okData(await req<QualityCountDto>(t, w.agent.token, A.count)).mineUnseen).toBe(1);
    expect(okData(await req<Page<QualityRowDto>>(t, w.agent2.token, A.staffList)).total).toBe(0);
    expectError(await req(t, w.agent2.token, `${A.detail}?id=${row!.id}`), 'forbidden', 403);
    expectError(await req(t, w.agent2.token, `${A.read}?id=${row!.id}`), 'forbidden', 403);
    expectError(await req(t, w.agent.token, A.list), 'forbidden', 403);
    const seen = okData(await req<QualityDetailDto>(t, w.agent.token, `${A.detail}?id=${row!.id}`));
    expect(seen.row.seen).toBe(true);
    expect(seen.can.appeal).toBe(true);
    expect(okData(await req<QualityCountDto>(t, w.agent.token, A.count)).mineUnseen).toBe(0);
    // An inspector lists only their own.
    expect(okData(await req<Page<QualityRowDto>>(t, w.inspector2.token, A.list)).total).toBe(0);
    const own = okData(await req<Page<QualityRowDto>>(t, w.inspector.token, `${A.list}?pass=0&fatal=1`));
    expect(own.list.map((r) => r.id)).toEqual([row!.id]);
    expect(okData(await req<Page<QualityRowDto>>(t, w.inspector.token, `${A.list}?pass=1`)).total).toBe(0);
    expect(
      okData(await req<QualityRowDto | null>(t, w.inspector.token, `${A.get}?agentserviceid=${chat}`))?.id,
    ).toBe(row!.id);
    const page = okData(
      await req<QualityTranscriptDto>(t, w.inspector.token, `${A.read}?id=${row!.id}&after=1`),
    );
    expect(page.messages.map((m) => m.seq)).toEqual([2, 3]);
  });

  it('read/multiterm, save/batch/form and save/batch, expall and expIds', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const visitor = 'visitor-multi';
    const a = await endedChat(t, w.agent.id, { userid: visitor });
    const b = await endedChat(t, w.agent2.id, { userid: visitor, createtime: Date.now() - 7_200_000 });
    const rows = await allotTo(w, w.inspector.id, [a, b]);
    const ra = rows.find((r) => r.agentserviceid === a)!;
    const multi = okData(
      await req<QualityTranscriptDto[]>(t, w.inspector.token, `${A.readMultiterm}?id=${ra.id}`),
    );
    expect(multi.map((m) => m.agentserviceid)).toEqual([b]);

    const form = okData(
      await req<{ card: QualityScorecardDto; ids: string[] }>(
        t,
        w.inspector.token,
        `${A.saveBatchForm}?ids=${rows.map((r) => r.id).join(',')}`,
      ),
    );
    expect(form.card.items).toHaveLength(3);
    // A new card version after an edit: a later allotment does not share the batch card.
    okData(await req(t, t.adminToken, A.labelUpdate, { id: w.polite.id, points: 8 }));
    const c = await endedChat(t, w.agent.id);
    const [rc] = await allotTo(w, w.inspector.id, [c]);
    expectError(
      await req(t, w.inspector.token, `${A.saveBatchForm}?ids=${ra.id},${rc!.id}`),
      'quality_card_mismatch',
    );

    // Batch: one bad score refuses the whole batch.
    expectError(
      await req(t, w.inspector.token, A.saveBatch, {
        ids: rows.map((r) => r.id),
        items: [{ labelid: w.polite.id, score: 50 }],
      }),
      'quality_score_range',
    );
    expect(await count(t.db, 'quality_item')).toBe(0);
    const batch = okData(
      await req<{ saved: number }>(t, w.inspector.token, A.saveBatch, {
        ids: rows.map((r) => r.id),
        items: [{ labelid: w.polite.id, score: 4 }],
        send: true,
      }),
    );
    expect(batch.saved).toBe(2);
    expect(okData(await req<Page<QualityRowDto>>(t, w.agent2.token, A.staffList)).list[0]).toMatchObject({
      score: 96,
    });

    const job = okData(await req<ExportJobDto>(t, w.inspector.token, `${A.expall}?status=sent`));
    expect(job).toMatchObject({ kind: 'quality', total: 2 });
    const ids = okData(await req<ExportJobDto>(t, w.inspector.token, A.expIds, { ids: [ra.id] }));
    expect(ids.total).toBe(1);
    await exportRunner(t.ctx).idle();
    const done = await t.db.kysely
      .selectFrom('export_job')
      .select(['status', 'rows'])
      .where('id', 'in', [job.id, ids.id])
      .execute();
    expect(done.map((d) => [d.status, Number(d.rows)]).sort()).toEqual([
      ['done', 1],
      ['done', 2],
    ]);
    expectError(await req(t, w.agent.token, A.expall), 'forbidden', 403);
  });
});

describe('appeals', () => {
  async function sentResult(w: QualityWorld) {
    const chat = await endedChat(w.t, w.agent.id);
    const [row] = await allotTo(w, w.inspector.id, [chat]);
    okData(
      await req(w.t, w.inspector.token, A.save, {
        id: row!.id,
        items: [
          { labelid: w.polite.id, score: 10 },
          { labelid: w.fatal.id, score: 0 },
        ],
        send: true,
      }),
    );
    return row!;
  }

  it('draft → submitted → in review → resolved (upheld): score and statistics change, each step recorded', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const row = await sentResult(w);
    const before = await qualityAgentFigures(w, w.agent.id);
    expect(before).toMatchObject({
      inspected: 1,
      avgScore: 90,
      passed: 1,
      appealsOpened: 0,
      appealsUpheld: 0,
    });

    // Someone else's result, an item not on the card: refused, nothing stored.
    expectError(
      await req(t, w.agent2.token, A.appealSave, {
        inspectionid: row.id,
        items: [{ labelid: w.polite.id, reason: 'x' }],
      }),
      'quality_appeal_not_owner',
      403,
    );
    expectError(
      await req(t, w.agent.token, A.appealSave, {
        inspectionid: row.id,
        items: [{ labelid: 'zzz', reason: 'x' }],
      }),
      'quality_item_unknown',
    );
    expect(await count(t.db, 'quality_appeal')).toBe(0);

    const draft = okData(
      await req<QualityAppealDto>(t, w.agent.token, A.appealSave, {
        inspectionid: row.id,
        reason: '评分不公',
        items: [{ labelid: w.polite.id, reason: '我的用语并无不妥' }],
        submit: false,
      }),
    );
    expect(draft).toMatchObject({ state: 'draft', scorebefore: 90 });
    // A draft is not seen by the inspector, and cannot be discussed yet.
    expect(
      okData(await req<QualityDetailDto>(t, w.inspector.token, `${A.detail}?id=${row.id}`)).appeals,
    ).toEqual([]);
    expectError(
      await req(t, w.inspector.token, A.appealMessageSave, { appealid: draft.id, text: 'hi' }),
      'quality_appeal_state',
    );
    const submitted = okData(
      await req<QualityAppealDto>(t, w.agent.token, A.appealSave, {
        id: draft.id,
        items: [{ labelid: w.polite.id, reason: '我的用语并无不妥' }],
      }),
    );
    expect(submitted).toMatchObject({
      state: 'submitted',
      items: [{ labelid: w.polite.id, before: 10, after: null }],
    });
    // The inspector cannot rescore while the appeal is open.
    expectError(await req(t, w.inspector.token, A.save, { id: row.id, items: [] }), 'quality_locked');

    // The thread: the inspector's answer moves it to review; the agent answers; a stranger may not.
    const msg = okData(
      await req<QualityAppealMessageDto>(t, w.inspector.token, A.appealMessageSave, {
        appealid: draft.id,
        text: '请说明',
      }),
    );
    expect(msg).toMatchObject({ role: 'inspector', text: '请说明' });
    okData(await req(t, w.agent.token, A.appealMessageSave, { appealid: draft.id, text: '客户先骂人' }));
    expectError(
      await req(t, w.agent2.token, A.appealMessageSave, { appealid: draft.id, text: 'x' }),
      'forbidden',
      403,
    );
    // An agent cannot close their own appeal.
    expectError(
      await req(t, w.agent.token, `${A.appealEnd}?id=${draft.id}&outcome=upheld`),
      'forbidden',
      403,
    );

    const ended = okData(
      await req<QualityAppealDto>(
        t,
        w.inspector.token,
        `${A.appealEnd}?id=${draft.id}&outcome=upheld&comment=ok`,
      ),
    );
    expect(ended).toMatchObject({ state: 'resolved', outcome: 'upheld', scorebefore: 90, scoreafter: 100 });
    expect(ended.items).toEqual([expect.objectContaining({ before: 10, after: 0 })]);
    expect(ended.messages.map((m) => m.role)).toEqual(['inspector', 'agent']);
    const d = okData(await req<QualityDetailDto>(t, w.agent.token, `${A.detail}?id=${row.id}`));
    expect(d.row).toMatchObject({ score: 100, appeal: 'resolved', pass: true });
    expect(d.events.map((e) => [e.action, e.detail])).toEqual(
      expect.arrayContaining([
        ['appeal_submitted', ''],
        ['appeal_in_review', ''],
        ['appeal_resolved', 'upheld'],
        ['rescore', '90 → 100'],
      ]),
    );
    expectError(
      await req(t, w.inspector.token, `${A.appealEnd}?id=${draft.id}&outcome=rejected`),
      'quality_appeal_state',
    );

    // A second appeal on the same item is refused; nothing stored.
    const items = await count(t.db, 'quality_appeal_item');
    expectError(
      await req(t, w.agent.token, A.appealSave, {
        inspectionid: row.id,
        items: [{ labelid: w.polite.id, reason: 'again' }],
      }),
      'quality_appeal_item_repeat',
    );
    expect(await count(t.db, 'quality_appeal_item')).toBe(items);

    const after = await qualityAgentFigures(w, w.agent.id);
    expect(after).toMatchObject({
      inspected: 1,
      avgScore: 100,
      passed: 1,
      appealsOpened: 1,
      appealsUpheld: 1,
    });
    expect(after?.appealResolve).toBeGreaterThanOrEqual(0);
    const labels = okData(
      await req<AnalysisResultDto>(
        t,
        t.adminToken,
        `/api/analyse/label/quality?begin=${day(-1)}&end=${day(1)}&dim=label`,
      ),
    );
    // The upheld appeal withdrew the only deduction.
    expect(labels.rows.find((r) => r.key === w.polite.id)?.figures).toMatchObject({
      deducted: 0,
      inspected: 1,
    });
    expect(labels.rows.find((r) => r.key === w.polite.id)?.name).toBe('服务态度 / 用语不礼貌');
  });

  it('partly upheld records the new item score; after the window an appeal is refused; batch close', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const row = await sentResult(w);
    const a = okData(
      await req<QualityAppealDto>(t, w.agent.token, A.appealSave, {
        inspectionid: row.id,
        items: [{ labelid: w.polite.id, reason: '扣太多' }],
      }),
    );
    expectError(
      await req(t, w.assigner.token, A.appealEnd, {
        id: a.id,
        outcome: 'partly',
        items: [{ labelid: w.polite.id, score: 11 }],
      }),
      'quality_score_range',
    );
    const p = okData(
      await req<QualityAppealDto>(t, w.assigner.token, A.appealEnd, {
        id: a.id,
        outcome: 'partly',
        items: [{ labelid: w.polite.id, score: 4 }],
      }),
    );
    expect(p).toMatchObject({ outcome: 'partly', scoreafter: 96, resolver: w.assigner.id });

    // Window: appeals close at once with appealDays 0.
    okData(await req(t, t.adminToken, A.settingsSave, { appealDays: 0 }));
    const late = await sentResult(w);
    await new Promise((r) => setTimeout(r, 5));
    expectError(
      await req(t, w.agent.token, A.appealSave, {
        inspectionid: late.id,
        items: [{ labelid: w.polite.id, reason: 'x' }],
      }),
      'quality_appeal_window',
    );
    expect(await count(t.db, 'quality_appeal')).toBe(1);

    // Batch close by an assigner (inspector without A11_A02 refused).
    okData(await req(t, t.adminToken, A.settingsSave, { appealDays: 7 }));
    const r2 = await sentResult(w);
    const r3 = await sentResult(w);
    const ids: string[] = [];
    for (const r of [r2, r3])
      ids.push(
        okData(
          await req<QualityAppealDto>(t, w.agent.token, A.appealSave, {
            inspectionid: r.id,
            items: [{ labelid: w.polite.id, reason: 'x' }],
          }),
        ).id,
      );
    expectError(
      await req(t, w.inspector.token, `${A.appealBatch}?ids=${ids.join(',')}&outcome=rejected`),
      'forbidden',
      403,
    );
    expect(
      okData(
        await req<{ ended: number }>(
          t,
          w.assigner.token,
          `${A.appealBatch}?ids=${ids.join(',')}&outcome=rejected`,
        ),
      ).ended,
    ).toBe(2);
    const list = okData(
      await req<Page<{ state: string; outcome: string }>>(
        t,
        w.assigner.token,
        `${A.appealList}?state=resolved`,
      ),
    );
    expect(list.list.map((x) => x.outcome).sort()).toEqual(['partly', 'rejected', 'rejected']);
  });

  it('reminds the agent once before the window closes', async () => {
    const w = await qualityWorld(await env.seeded());
    const row = await sentResult(w);
    // 7 days left: not yet (remindHours 24).
    expect(await remindDue(w.t.db)).toBe(0);
    const sixDaysOn = Date.now() + 6.5 * 86_400_000;
    expect(await remindDue(w.t.db, sixDaysOn)).toBe(1);
    expect(await remindDue(w.t.db, sixDaysOn)).toBe(0);
    const r = await w.t.db.kysely
      .selectFrom('quality_inspection')
      .select('reminded')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(r.reminded).toBe(1);
  });
});

describe('statistics', () => {
  it('analyse/quality by inspector shows calibration; by organ; label/quality by card', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const chat = await seedConversation(t, { agentno: w.agent.id, messages: ['hi'] });
    okData(
      await req(t, t.adminToken, A.allotManual, {
        ids: [chat],
        inspectors: [w.inspector.id, w.inspector2.id],
      }),
    );
    okData(await req(t, t.adminToken, A.allotManual, { ids: [chat], inspectors: [w.inspector2.id] }));
    const rows = await t.db.kysely.selectFrom('quality_inspection').selectAll().execute();
    expect(rows).toHaveLength(2);
    for (const [r, score] of [
      [rows.find((x) => x.inspector === w.inspector.id)!, 10],
      [rows.find((x) => x.inspector === w.inspector2.id)!, 4],
    ] as const)
      okData(
        await req(t, r.inspector === w.inspector.id ? w.inspector.token : w.inspector2.token, A.save, {
          id: r.id,
          items: [{ labelid: w.polite.id, score }],
        }),
      );
    const byInspector = okData(
      await req<AnalysisResultDto>(
        t,
        t.adminToken,
        `/api/analyse/quality?begin=${today()}&end=${day(1)}&dim=inspector`,
      ),
    );
    expect(byInspector.figures).toContain('scoreSpread');
    expect(byInspector.rows.find((r) => r.key === w.inspector.id)?.figures).toMatchObject({
      inspected: 1,
      avgScore: 90,
      scoreSpread: 6,
    });
    expect(byInspector.total).toMatchObject({ inspected: 2, avgScore: 93, passRate: 1, scoreSpread: 6 });
    expect(byInspector.series.inspected?.reduce((a, b) => a + b, 0)).toBe(2);
    // By department (the conversation's group; none here): the same totals, one row.
    const byOrgan = okData(
      await req<AnalysisResultDto>(
        t,
        t.adminToken,
        `/api/analyse/quality?begin=${today()}&end=${day(1)}&dim=organ`,
      ),
    );
    expect(byOrgan.rows.map((r) => [r.key, r.figures.inspected])).toEqual([['', 2]]);
    const byType = okData(
      await req<AnalysisResultDto>(
        t,
        t.adminToken,
        `/api/analyse/label/quality?begin=${today()}&end=${day(1)}&dim=type`,
      ),
    );
    expect(byType.rows).toEqual([
      expect.objectContaining({
        key: w.card.id,
        name: '标准评分表',
        figures: { deducted: 2, deductedPoints: 14, inspected: 2 },
      }),
    ]);
    // A06_A02_A05 is needed.
    expectError(
      await req(t, w.inspector.token, `/api/analyse/quality?begin=${today()}&end=${today()}`),
      'forbidden',
      403,
    );
  });
});

describe('permissions', () => {
  it('every quality call refuses a user without its code', async () => {
    const w = await qualityWorld(await env.seeded());
    const { t } = w;
    const nobody = await userWithCodes(t, ['A01']);
    const GET_ONLY = new Set<string>([
      A.labelTypeList,
      A.labelTypeForm,
      A.labelList,
      A.labelForm,
      A.skillQualityList,
      A.settings,
      A.allotList,
      A.notAllotList,
      A.allotRule,
      A.inspectors,
      A.list,
      A.detail,
      A.get,
      A.read,
      A.readMultiterm,
      A.count,
      A.saveBatchForm,
      A.staffList,
      A.appealList,
    ]);
    for (const path of Object.values(A)) {
      const r = await req(t, nobody.token, path, GET_ONLY.has(path) ? undefined : { id: 'x' });
      expectError(r, 'forbidden', 403);
    }
    // By role: an inspector neither assigns, arbitrates in bulk nor edits scorecards; an agent does not inspect.
    const refused: Array<[string, string[]]> = [
      [
        w.inspector.token,
        [
          A.allotManual,
          A.allotManualAgain,
          A.allotAutomation,
          A.allotAutomationAgain,
          A.notQuality,
          A.appealBatch,
          A.labelSave,
          A.labelTypeSave,
          A.skillQualitySave,
          A.settingsSave,
          A.staffList,
          A.appealSave,
        ],
      ],
      [
        w.agent.token,
        [A.list, A.save, A.saveBatch, A.expall, A.expIds, A.appealEnd, A.readMultiterm, A.allotList],
      ],
      [w.assigner.token, [A.save, A.saveBatch, A.labelSave]],
    ];
    for (const [token, paths] of refused)
      for (const path of paths)
        expectError(
          GET_ONLY.has(path)
            ? await req(t, token, `${path}?id=x&ids=x`)
            : await req(t, token, path, { id: 'x', ids: 'x' }),
          'forbidden',
          403,
        );
    expect(await count(t.db, 'quality_inspection')).toBe(0);
  });
});
