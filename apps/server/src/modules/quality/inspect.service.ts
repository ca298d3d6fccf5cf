import type { z } from 'zod';
import {
  QUALITY_LIMITS,
  type Page,
  type QualityBatchFormDto,
  type QualityCountDto,
  type QualityDetailDto,
  type QualityFindingDecision,
  type QualityRule,
  type QualityItemResultDto,
  type QualityRowDto,
  type QualityScorecardDto,
  type QualityTranscriptDto,
  type qualityFindingDecisionSchema,
  type qualityItemResultSchema,
  type qualityListQuery,
  type qualitySaveBatchSchema,
  type qualitySaveSchema,
  type qualityStaffQuery,
} from '@kefu/protocol';
import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { offsetOf, pageOf, type Paging } from '../../platform/http/paging.js';
import { presentMessage } from '../conversation/presenter.js';
import { assigner, denied, mayRead, ownResult } from './access.js';
import { notifyAgent } from './notify.js';
import { ids, presentAppeal, presentAppealMessage, presentFinding, presentRow } from './quality.presenter.js';
import * as repo from './quality.repository.js';
import type { InspectionRow, Kdb } from './quality.repository.js';
import { cardVersion, settings } from './scorecard.service.js';

type ItemInput = z.output<typeof qualityItemResultSchema>;
type DecisionInput = z.output<typeof qualityFindingDecisionSchema>;
type ListQuery = z.output<typeof qualityListQuery>;
const DAY = 86_400_000;

/** Final score of a card's items: base − deductions + bonuses (never below 0); a marked fatal item fails. */
export function scoreOf(card: QualityScorecardDto, items: ReadonlyArray<{ labelid: string; score: number }>) {
  const byId = new Map(card.items.map((i) => [i.id, i]));
  const seen = new Set<string>();
  let score = card.base;
  let fatal = false;
  for (const it of items) {
    const label = byId.get(it.labelid);
    if (!label) throw badRequest('quality_item_unknown', { items: 'quality_item_unknown' });
    if (seen.has(it.labelid)) throw badRequest('invalid_field', { items: 'invalid_field' });
    seen.add(it.labelid);
    if (it.score < 0 || it.score > label.points)
      throw badRequest('quality_score_range', { [it.labelid]: 'quality_score_range' });
    score += label.kind === 'add' ? it.score : -it.score;
    if (label.fatal && it.score > 0) fatal = true;
  }
  score = Math.max(0, score);
  return { score, fatal, pass: !fatal && score >= card.passmark };
}

// ---------------------------------------------------------------- rows

/** Names and conversation facts of inspection rows, in two queries plus names. */
export async function presentRows(k: Kdb, orgi: string, rows: InspectionRow[]): Promise<QualityRowDto[]> {
  if (!rows.length) return [];
  const convIds = [...new Set(rows.map((r) => r.agentserviceid))];
  const [convs, types, users, organs] = await Promise.all([
    k.selectFrom('agent_service').select(['id', 'username', 'channel']).where('id', 'in', convIds).execute(),
    k
      .selectFrom('quality_type')
      .select(['id', 'name'])
      .where('id', 'in', [...new Set(rows.map((r) => r.typeid))])
      .execute(),
    repo.userNames(
      k,
      orgi,
      rows.flatMap((r) => [r.agentno, r.inspector]),
    ),
    repo.organNames(
      k,
      orgi,
      rows.map((r) => r.organ),
    ),
  ]);
  const conv = new Map(convs.map((c) => [c.id, c]));
  const type = new Map(types.map((t) => [t.id, t.name]));
  return rows.map((r) =>
    presentRow(r, {
      agentusername: users.get(r.agentno) ?? '',
      organname: r.organ ? (organs.get(r.organ) ?? '') : '',
      inspectorname: users.get(r.inspector) ?? '',
      cardname: type.get(r.typeid) ?? '',
      username: conv.get(r.agentserviceid)?.username ?? '',
      channel: conv.get(r.agentserviceid)?.channel ?? '',
    }),
  );
}

type Q = SelectQueryBuilder<Database, 'quality_inspection', object>;

/** The list filters (inspection list, exports). Range: the conversation's end. */
export function filtered(q: Q, f: ListQuery): Q {
  if (f.begin !== undefined) q = q.where('convtime', '>=', f.begin);
  if (f.end !== undefined) q = q.where('convtime', '<=', f.end);
  if (f.organ) q = q.where('organ', '=', f.organ);
  if (f.agentno) q = q.where('agentno', '=', f.agentno);
  if (f.inspector) q = q.where('inspector', '=', f.inspector);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.pass !== undefined) q = q.where('pass', '=', f.pass ? 1 : 0);
  if (f.fatal !== undefined) q = q.where('fatal', '=', f.fatal ? 1 : 0);
  if (f.appeal) q = q.where('appeal', '=', f.appeal);
  if (f.minscore !== undefined) q = q.where('score', '>=', f.minscore);
  if (f.maxscore !== undefined) q = q.where('score', '<=', f.maxscore);
  if (f.typeid) q = q.where('typeid', '=', f.typeid);
  return q;
}

/** What the caller may list: an assigner everything, an inspector their own. */
export function listBase(k: Kdb, p: Principal): Q {
  let q = k.selectFrom('quality_inspection').where('orgi', '=', p.orgi) as Q;
  if (!assigner(p)) q = q.where('inspector', '=', p.id);
  return q;
}

async function paged(k: Kdb, p: Principal, q: Q, pg: Paging, order: 'allottime' | 'sendtime') {
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy(order, 'desc').orderBy('id', 'desc').limit(pg.ps).offset(offsetOf(pg)).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(await presentRows(k, p.orgi, rows as InspectionRow[]), Number(total.n), pg);
}

export const list = (db: Db, p: Principal, f: ListQuery, pg: Paging): Promise<Page<QualityRowDto>> =>
  paged(db.kysely, p, filtered(listBase(db.kysely, p), f), pg, 'allottime');

/** The agent's own results (sent ones only). */
export function staffList(
  db: Db,
  p: Principal,
  f: z.output<typeof qualityStaffQuery>,
  pg: Paging,
): Promise<Page<QualityRowDto>> {
  let q = db.kysely
    .selectFrom('quality_inspection')
    .where('orgi', '=', p.orgi)
    .where('agentno', '=', p.id)
    .where('status', '=', 'sent') as Q;
  if (f.begin !== undefined) q = q.where('sendtime', '>=', f.begin);
  if (f.end !== undefined) q = q.where('sendtime', '<=', f.end);
  if (f.appeal) q = q.where('appeal', '=', f.appeal);
  return paged(db.kysely, p, q, pg, 'sendtime');
}

export async function readable(k: Kdb, p: Principal, id: string): Promise<InspectionRow> {
  const r = await repo.findInspection(k, p.orgi, id);
  if (!r) throw notFound();
  if (!mayRead(p, r)) throw denied();
  return r;
}

// ---------------------------------------------------------------- transcript

export async function transcript(k: Kdb, agentserviceid: string, after = 0): Promise<QualityTranscriptDto> {
  const [s, rows] = await Promise.all([
    k
      .selectFrom('agent_service')
      .select(['id', 'createtime', 'endtime', 'agentusername'])
      .where('id', '=', agentserviceid)
      .executeTakeFirst(),
    k
      .selectFrom('chat_message')
      .selectAll()
      .where('agentserviceid', '=', agentserviceid)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(QUALITY_LIMITS.messagePage + 1)
      .execute(),
  ]);
  const more = rows.length > QUALITY_LIMITS.messagePage;
  return {
    agentserviceid,
    createtime: Number(s?.createtime ?? 0),
    endtime: s?.endtime === null || s?.endtime === undefined ? null : Number(s.endtime),
    agentusername: s?.agentusername ?? '',
    messages: (more ? rows.slice(0, -1) : rows).map((m) => presentMessage(m)),
    more,
  };
}

export async function read(db: Db, p: Principal, id: string, after: number): Promise<QualityTranscriptDto> {
  const r = await readable(db.kysely, p, id);
  return transcript(db.kysely, r.agentserviceid, after);
}

/** The same visitor's other conversations (newest first): inspectors and assigners only. */
export async function multiterm(db: Db, p: Principal, id: string): Promise<QualityTranscriptDto[]> {
  const k = db.kysely;
  const r = await readable(k, p, id);
  if (!assigner(p) && r.inspector !== p.id) throw denied();
  const s = await k
    .selectFrom('agent_service')
    .select('userid')
    .where('id', '=', r.agentserviceid)
    .executeTakeFirst();
  if (!s) return [];
  const others = await k
    .selectFrom('agent_service')
    .select('id')
    .where('orgi', '=', p.orgi)
    .where('userid', '=', s.userid)
    .where('id', '!=', r.agentserviceid)
    .orderBy('createtime', 'desc')
    .limit(QUALITY_LIMITS.multiterm)
    .execute();
  return Promise.all(others.map((o) => transcript(k, o.id)));
}

// ---------------------------------------------------------------- detail

export async function detailOf(db: Db, p: Principal, r: InspectionRow): Promise<QualityDetailDto> {
  const k = db.kysely;
  const [[row], card, items, findings, tr, appeals, events, decisions] = await Promise.all([
    presentRows(k, p.orgi, [r]),
    cardVersion(k, r.versionid),
    repo.itemsOf(k, r.id),
    k
      .selectFrom('quality_finding')
      .selectAll()
      .where('agentserviceid', '=', r.agentserviceid)
      .orderBy('rule')
      .execute(),
    transcript(k, r.agentserviceid),
    k
      .selectFrom('quality_appeal')
      .selectAll()
      .where('inspectionid', '=', r.id)
      .orderBy('createtime')
      .execute(),
    k
      .selectFrom('quality_event')
      .selectAll()
      .where('inspectionid', '=', r.id)
      .orderBy('createtime')
      .orderBy('id')
      .execute(),
    k
      .selectFrom('quality_decision')
      .selectAll()
      .where('inspectionid', '=', r.id)
      .orderBy('rule')
      .orderBy('findingid')
      .execute(),
  ]);
  // A draft is the agent's own until submitted.
  const shown = appeals.filter((a) => a.state !== 'draft' || a.agentno === p.id);
  const appealIds = shown.map((a) => a.id);
  const [aItems, aMsgs] = appealIds.length
    ? await Promise.all([
        k.selectFrom('quality_appeal_item').selectAll().where('appealid', 'in', appealIds).execute(),
        k
          .selectFrom('quality_appeal_message')
          .selectAll()
          .where('appealid', 'in', appealIds)
          .orderBy('createtime')
          .orderBy('id')
          .execute(),
      ])
    : [[], []];
  const names = await repo.userNames(k, p.orgi, [
    ...events.map((e) => e.userid),
    ...aMsgs.map((m) => m.userid),
    ...decisions.map((x) => x.userid),
  ]);
  const open = appeals.some((a) => a.state === 'submitted' || a.state === 'in_review');
  const now = Date.now();
  return {
    row: row!,
    card,
    items: items.map((i): QualityItemResultDto => ({
      labelid: i.labelid,
      score: i.score,
      messageids: ids(i.messageids),
      comment: i.comment,
    })),
    comment: r.comment,
    findings: findings.map(presentFinding),
    decisions: decisions.map((x) => ({
      findingid: x.findingid,
      rule: x.rule as QualityRule,
      decision: x.decision as QualityFindingDecision,
      autopoints: Number(x.autopoints),
      points: x.points === null ? null : Number(x.points),
      reason: x.reason,
      userid: x.userid,
      username: names.get(x.userid) ?? '',
      createtime: Number(x.createtime),
    })),
    transcript: tr,
    appeals: shown.map((a) =>
      presentAppeal(
        a,
        aItems.filter((i) => i.appealid === a.id),
        aMsgs
          .filter((m) => m.appealid === a.id)
          .map((m) => presentAppealMessage(m, names.get(m.userid) ?? '')),
      ),
    ),
    events: events.map((e) => ({
      action: e.action,
      userid: e.userid,
      username: names.get(e.userid) ?? '',
      detail: e.detail,
      createtime: Number(e.createtime),
    })),
    can: {
      score: r.inspector === p.id && r.agentno !== p.id && !r.appeal,
      appeal: ownResult(p, r) && !open && r.appealuntil !== null && now <= Number(r.appealuntil),
      arbitrate: open && (assigner(p) || r.inspector === p.id),
    },
  };
}

export async function detail(db: Db, p: Principal, id: string): Promise<QualityDetailDto> {
  const r = await readable(db.kysely, p, id);
  if (r.agentno === p.id && r.seen === 0 && r.status === 'sent') {
    await db.kysely.updateTable('quality_inspection').set({ seen: 1 }).where('id', '=', r.id).execute();
    r.seen = 1;
  }
  return detailOf(db, p, r);
}

/** The caller's inspection of a conversation (an assigner: the first one), or null. */
export async function get(db: Db, p: Principal, agentserviceid: string): Promise<QualityRowDto | null> {
  const rows = await db.kysely
    .selectFrom('quality_inspection')
    .selectAll()
    .where('orgi', '=', p.orgi)
    .where('agentserviceid', '=', agentserviceid)
    .orderBy('allottime')
    .execute();
  const mine = rows.find((r) => r.inspector === p.id) ?? rows.find((r) => mayRead(p, r));
  return mine ? (await presentRows(db.kysely, p.orgi, [mine]))[0]! : null;
}

export async function count(db: Db, p: Principal): Promise<QualityCountDto> {
  const k = db.kysely;
  const byStatus = await k
    .selectFrom('quality_inspection')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('orgi', '=', p.orgi)
    .where('inspector', '=', p.id)
    .groupBy('status')
    .execute();
  const n = (s: string) => Number(byStatus.find((b) => b.status === s)?.n ?? 0);
  let open = k
    .selectFrom('quality_appeal')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('orgi', '=', p.orgi)
    .where('state', 'in', ['submitted', 'in_review']);
  if (!assigner(p)) open = open.where('inspector', '=', p.id);
  const [openN, unseen, mineAppeals, notAllotted] = await Promise.all([
    open.executeTakeFirstOrThrow(),
    k
      .selectFrom('quality_inspection')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('orgi', '=', p.orgi)
      .where('agentno', '=', p.id)
      .where('status', '=', 'sent')
      .where('seen', '=', 0)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('quality_appeal')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('orgi', '=', p.orgi)
      .where('agentno', '=', p.id)
      .where('state', '!=', 'resolved')
      .executeTakeFirstOrThrow(),
    assigner(p)
      ? repo
          .candidates(k, p.orgi)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      : Promise.resolve({ n: 0 }),
  ]);
  return {
    allotted: n('allotted'),
    done: n('done'),
    sent: n('sent'),
    appealsOpen: Number(openN.n),
    mineUnseen: Number(unseen.n),
    mineAppeals: Number(mineAppeals.n),
    notAllotted: Number(notAllotted.n),
  };
}

// ---------------------------------------------------------------- scoring

/** The inspection the caller may score: allotted to them, not their own chat, no appeal on it. */
async function scorable(k: Kdb, p: Principal, id: string): Promise<InspectionRow> {
  const r = await repo.findInspection(k, p.orgi, id);
  if (!r) throw notFound();
  if (r.inspector !== p.id) throw denied('quality_not_inspector');
  if (r.agentno === p.id) throw badRequest('quality_own_conversation');
  if (r.appeal) throw badRequest('quality_locked');
  return r;
}

/** Cited messages must belong to the inspected conversation. */
async function checkCitations(k: Kdb, agentserviceid: string, items: ItemInput[]): Promise<void> {
  const cited = [...new Set(items.flatMap((i) => i.messageids))];
  if (!cited.length) return;
  const found = await k
    .selectFrom('chat_message')
    .select('id')
    .where('agentserviceid', '=', agentserviceid)
    .where('id', 'in', cited)
    .execute();
  if (found.length !== cited.length) throw badRequest('invalid_field', { messageids: 'invalid_field' });
}

/**
 * Records the inspector's decision on every automatic finding of the conversation: the ones given
 * (confirmed, or overridden with points and a reason) replace earlier ones; a finding without a decision
 * keeps its earlier one, else is recorded as confirmed. quality_finding itself is never written here.
 * Checked before anything is written: a finding of another conversation is quality_finding_unknown.
 */
async function decisionRows(k: Kdb, p: Principal, r: InspectionRow, given: DecisionInput[], now: number) {
  const findings = await k
    .selectFrom('quality_finding')
    .select(['id', 'rule', 'points'])
    .where('agentserviceid', '=', r.agentserviceid)
    .execute();
  const byId = new Map(findings.map((f) => [f.id, f]));
  const explicit = new Map<string, DecisionInput>();
  for (const g of given) {
    if (!byId.has(g.findingid))
      throw badRequest('quality_finding_unknown', { decisions: 'quality_finding_unknown' });
    if (explicit.has(g.findingid)) throw badRequest('invalid_field', { decisions: 'invalid_field' });
    explicit.set(g.findingid, g);
  }
  if (!findings.length) return null;
  const had = new Set(
    (
      await k.selectFrom('quality_decision').select('findingid').where('inspectionid', '=', r.id).execute()
    ).map((x) => x.findingid),
  );
  return findings
    .filter((f) => explicit.has(f.id) || !had.has(f.id))
    .map((f) => {
      const g = explicit.get(f.id);
      const over = g?.decision === 'overridden';
      return {
        inspectionid: r.id,
        findingid: f.id,
        orgi: p.orgi,
        rule: f.rule,
        decision: over ? 'overridden' : 'confirmed',
        autopoints: Number(f.points),
        points: over ? (g.points ?? 0) : null,
        reason: over ? g.reason : '',
        userid: p.id,
        createtime: now,
      };
    });
}

async function write(
  k: Kdb,
  p: Principal,
  r: InspectionRow,
  items: ItemInput[],
  decisions: DecisionInput[],
  comment: string,
  send: boolean,
  appealDays: number,
  now: number,
) {
  const card = await cardVersion(k, r.versionid);
  const s = scoreOf(card, items);
  await checkCitations(k, r.agentserviceid, items);
  const decided = await decisionRows(k, p, r, decisions, now);
  if (decided?.length) {
    await k
      .deleteFrom('quality_decision')
      .where('inspectionid', '=', r.id)
      .where(
        'findingid',
        'in',
        decided.map((d) => d.findingid),
      )
      .execute();
    await k.insertInto('quality_decision').values(decided).execute();
  }
  const sending = send && r.status !== 'sent';
  await k.deleteFrom('quality_item').where('inspectionid', '=', r.id).execute();
  if (items.length)
    await k
      .insertInto('quality_item')
      .values(
        items.map((i) => ({
          inspectionid: r.id,
          labelid: i.labelid,
          score: i.score,
          messageids: JSON.stringify(i.messageids),
          comment: i.comment,
        })),
      )
      .execute();
  await k
    .updateTable('quality_inspection')
    .set({
      score: s.score,
      pass: s.pass ? 1 : 0,
      fatal: s.fatal ? 1 : 0,
      comment,
      scoretime: now,
      status: r.status === 'sent' || sending ? 'sent' : 'done',
      ...(sending ? { sendtime: now, appealuntil: now + appealDays * DAY, seen: 0, reminded: 0 } : {}),
    })
    .where('id', '=', r.id)
    .execute();
  const before = r.score === null ? '' : `${r.score} → `;
  await repo.addEvent(
    k,
    { orgi: p.orgi, inspectionid: r.id, action: 'score', userid: p.id, detail: `${before}${s.score}` },
    now,
  );
  if (sending)
    await repo.addEvent(k, { orgi: p.orgi, inspectionid: r.id, action: 'send', userid: p.id }, now);
  return { ...s, sending };
}

export async function save(
  db: Db,
  p: Principal,
  b: z.output<typeof qualitySaveSchema>,
): Promise<QualityDetailDto> {
  const now = Date.now();
  const cfg = await settings(db, p.orgi);
  const { row, sending, score, pass } = await db.kysely.transaction().execute(async (trx) => {
    const r = await scorable(trx, p, b.id);
    const s = await write(trx, p, r, b.items, b.decisions, b.comment, b.send, cfg.appealDays, now);
    return { row: r, ...s };
  });
  if (sending)
    notifyAgent(db, row.agentno, {
      type: 'result',
      inspectionid: row.id,
      agentserviceid: row.agentserviceid,
      score,
      pass,
    });
  return detail(db, p, b.id);
}

/** The same item scores and comment on several inspections of the caller: all or none. */
export async function saveBatch(
  db: Db,
  p: Principal,
  b: z.output<typeof qualitySaveBatchSchema>,
): Promise<{ saved: number }> {
  const now = Date.now();
  const cfg = await settings(db, p.orgi);
  const sent = await db.kysely.transaction().execute(async (trx) => {
    const out: Array<{ r: InspectionRow; score: number; pass: boolean }> = [];
    for (const id of new Set(b.ids)) {
      const r = await scorable(trx, p, id);
      const s = await write(trx, p, r, b.items, [], b.comment, b.send, cfg.appealDays, now);
      if (s.sending) out.push({ r, score: s.score, pass: s.pass });
    }
    return out;
  });
  for (const { r, score, pass } of sent)
    notifyAgent(db, r.agentno, {
      type: 'result',
      inspectionid: r.id,
      agentserviceid: r.agentserviceid,
      score,
      pass,
    });
  return { saved: new Set(b.ids).size };
}

/** The card a batch is scored with: the inspections must share one card version. */
export async function batchForm(db: Db, p: Principal, idList: string[]): Promise<QualityBatchFormDto> {
  const k = db.kysely;
  const rows: InspectionRow[] = [];
  for (const id of new Set(idList)) rows.push(await scorable(k, p, id));
  const versions = new Set(rows.map((r) => r.versionid));
  if (versions.size !== 1) throw badRequest('quality_card_mismatch');
  return { card: await cardVersion(k, rows[0]!.versionid), ids: rows.map((r) => r.id) };
}
