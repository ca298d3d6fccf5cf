import type { z } from 'zod';
import {
  type Page,
  type QualityAppealDto,
  type QualityAppealMessageDto,
  type QualityAppealRowDto,
  type QualityAppealOutcome,
  type QualityAppealState,
  type qualityAppealBatchSchema,
  type qualityAppealEndSchema,
  type qualityAppealListQuery,
  type qualityAppealMessageSchema,
  type qualityAppealSaveSchema,
  userDisplayName,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { offsetOf, pageOf, type Paging } from '../../platform/http/paging.js';
import { newTimeId } from '../../platform/ids.js';
import { assigner, denied } from './access.js';
import { scoreOf } from './inspect.service.js';
import { notifyAgent } from './notify.js';
import { presentAppeal, presentAppealMessage } from './quality.presenter.js';
import * as repo from './quality.repository.js';
import type { AppealRow, InspectionRow, Kdb } from './quality.repository.js';
import { cardVersion } from './scorecard.service.js';

/**
 * Appeals: the agent contests items of a sent result within the window (draft → submitted); the inspector
 * or a reviewer (A11_A02) answers in the thread (→ in_review) and closes it (→ resolved) as upheld (the
 * contested items no longer count against the agent), partly (new scores) or rejected. Every change is an
 * event with who and when; a score change is recorded with its before and after.
 */

const OPEN: QualityAppealState[] = ['submitted', 'in_review'];

async function appealDto(k: Kdb, orgi: string, a: AppealRow): Promise<QualityAppealDto> {
  const [items, msgs] = await Promise.all([
    k.selectFrom('quality_appeal_item').selectAll().where('appealid', '=', a.id).execute(),
    k
      .selectFrom('quality_appeal_message')
      .selectAll()
      .where('appealid', '=', a.id)
      .orderBy('createtime')
      .orderBy('id')
      .execute(),
  ]);
  const names = await repo.userNames(
    k,
    orgi,
    msgs.map((m) => m.userid),
  );
  return presentAppeal(
    a,
    items,
    msgs.map((m) => presentAppealMessage(m, names.get(m.userid) ?? '')),
  );
}

const setInspectionAppeal = (k: Kdb, id: string, state: QualityAppealState) =>
  k.updateTable('quality_inspection').set({ appeal: state }).where('id', '=', id).execute();

export async function save(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityAppealSaveSchema>,
): Promise<QualityAppealDto> {
  const now = Date.now();
  const k = db.kysely;
  const out = await k.transaction().execute(async (trx) => {
    let draft: AppealRow | undefined;
    let inspectionid = b.inspectionid ?? '';
    if (b.id) {
      draft = await repo.findAppeal(trx, p.orgi, b.id);
      if (!draft) throw notFound();
      if (draft.agentno !== p.id) throw denied('quality_appeal_not_owner');
      if (draft.state !== 'draft') throw badRequest('quality_appeal_state');
      inspectionid = draft.inspectionid;
    }
    if (!inspectionid) throw badRequest('required', { inspectionid: 'required' });
    const r = await repo.findInspection(trx, p.orgi, inspectionid);
    if (!r) throw notFound();
    if (r.agentno !== p.id) throw denied('quality_appeal_not_owner');
    if (r.status !== 'sent') throw badRequest('quality_not_sent');
    if (r.appealuntil === null || now > Number(r.appealuntil)) throw badRequest('quality_appeal_window');
    const others = await trx
      .selectFrom('quality_appeal')
      .select(['id', 'state'])
      .where('inspectionid', '=', r.id)
      .execute();
    if (others.some((o) => o.id !== draft?.id && o.state !== 'resolved'))
      throw badRequest('quality_appeal_state');
    const card = await cardVersion(trx, r.versionid);
    const onCard = new Set(card.items.map((i) => i.id));
    const labels = b.items.map((i) => i.labelid);
    if (labels.some((l) => !onCard.has(l)))
      throw badRequest('quality_item_unknown', { items: 'quality_item_unknown' });
    if (new Set(labels).size !== labels.length) throw badRequest('invalid_field', { items: 'invalid_field' });
    const contested = await trx
      .selectFrom('quality_appeal_item')
      .select('labelid')
      .where('inspectionid', '=', r.id)
      .where('appealid', '!=', draft?.id ?? '')
      .execute();
    if (contested.some((c) => labels.includes(c.labelid))) throw badRequest('quality_appeal_item_repeat');
    const scores = new Map((await repo.itemsOf(trx, r.id)).map((i) => [i.labelid, i.score]));
    const state: QualityAppealState = b.submit ? 'submitted' : 'draft';
    const id = draft?.id ?? newTimeId(now);
    if (draft) {
      await trx.deleteFrom('quality_appeal_item').where('appealid', '=', id).execute();
      await trx
        .updateTable('quality_appeal')
        // The score contested is the one when the draft is saved or submitted (the inspector may rescore
        // while only a draft exists).
        .set({
          reason: b.reason,
          state,
          submittime: b.submit ? now : null,
          scorebefore: Number(r.score ?? 0),
        })
        .where('id', '=', id)
        .execute();
    } else
      await trx
        .insertInto('quality_appeal')
        .values({
          id,
          orgi: p.orgi,
          inspectionid: r.id,
          agentno: p.id,
          inspector: r.inspector,
          state,
          reason: b.reason,
          scorebefore: Number(r.score ?? 0),
          createtime: now,
          submittime: b.submit ? now : null,
        })
        .execute();
    await trx
      .insertInto('quality_appeal_item')
      .values(
        b.items.map((i) => ({
          appealid: id,
          inspectionid: r.id,
          labelid: i.labelid,
          reason: i.reason,
          oldscore: scores.get(i.labelid) ?? 0,
          newscore: null,
        })),
      )
      .execute();
    if (b.submit) await setInspectionAppeal(trx, r.id, 'submitted');
    if (!draft || b.submit)
      await repo.addEvent(
        trx,
        { orgi: p.orgi, inspectionid: r.id, appealid: id, action: `appeal_${state}`, userid: p.id },
        now,
      );
    return { id, r, state };
  });
  const a = (await repo.findAppeal(k, p.orgi, out.id))!;
  return appealDto(k, p.orgi, a);
}

/** The caller's role on an appeal, or a refusal. */
function roleOf(p: Principal, a: AppealRow): QualityAppealMessageDto['role'] {
  if (a.agentno === p.id) return 'agent';
  if (a.inspector === p.id) return 'inspector';
  if (assigner(p)) return 'reviewer';
  throw denied();
}

export async function message(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityAppealMessageSchema>,
): Promise<QualityAppealMessageDto> {
  const now = Date.now();
  const k = db.kysely;
  const res = await k.transaction().execute(async (trx) => {
    const a = await repo.findAppeal(trx, p.orgi, b.appealid);
    if (!a) throw notFound();
    const role = roleOf(p, a);
    if (!OPEN.includes(a.state as QualityAppealState)) throw badRequest('quality_appeal_state');
    const id = newTimeId(now);
    await trx
      .insertInto('quality_appeal_message')
      .values({ id, orgi: p.orgi, appealid: a.id, userid: p.id, role, text: b.text, createtime: now })
      .execute();
    // The other side has answered: the appeal is being reviewed.
    if (role !== 'agent' && a.state === 'submitted') {
      await trx
        .updateTable('quality_appeal')
        .set({ state: 'in_review', reviewtime: now })
        .where('id', '=', a.id)
        .execute();
      await setInspectionAppeal(trx, a.inspectionid, 'in_review');
      await repo.addEvent(
        trx,
        {
          orgi: p.orgi,
          inspectionid: a.inspectionid,
          appealid: a.id,
          action: 'appeal_in_review',
          userid: p.id,
        },
        now,
      );
    }
    const msg = await trx
      .selectFrom('quality_appeal_message')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { a, role, msg };
  });
  const r = (await repo.findInspection(k, p.orgi, res.a.inspectionid))!;
  if (res.role !== 'agent')
    notifyAgent(db, r.agentno, {
      type: 'appeal_message',
      inspectionid: r.id,
      agentserviceid: r.agentserviceid,
      score: r.score,
      pass: r.pass === null ? null : r.pass === 1,
      appealid: res.a.id,
      state: (r.appeal as QualityAppealState | null) ?? undefined,
    });
  return presentAppealMessage(res.msg, userDisplayName(p));
}

/** Closes one open appeal inside a transaction; returns the inspection for the notice. */
async function end(
  k: Kdb,
  p: Principal,
  id: string,
  outcome: QualityAppealOutcome,
  given: Array<{ labelid: string; score: number }>,
  comment: string,
  now: number,
): Promise<InspectionRow> {
  const a = await repo.findAppeal(k, p.orgi, id);
  if (!a) throw notFound();
  if (a.inspector !== p.id && !assigner(p)) throw denied();
  if (!OPEN.includes(a.state as QualityAppealState)) throw badRequest('quality_appeal_state');
  const r = (await repo.findInspection(k, p.orgi, a.inspectionid))!;
  const card = await cardVersion(k, r.versionid);
  const label = new Map(card.items.map((i) => [i.id, i]));
  const contested = await k
    .selectFrom('quality_appeal_item')
    .selectAll()
    .where('appealid', '=', a.id)
    .execute();
  const current = new Map((await repo.itemsOf(k, r.id)).map((i) => [i.labelid, i.score]));
  const next = new Map(current);
  if (outcome === 'upheld')
    // The agent was right: a deduction is withdrawn, a bonus is given in full.
    for (const c of contested) {
      const l = label.get(c.labelid)!;
      next.set(c.labelid, l.kind === 'add' ? l.points : 0);
    }
  if (outcome === 'partly') {
    if (!given.length) throw badRequest('required', { items: 'required' });
    const mine = new Set(contested.map((c) => c.labelid));
    for (const g of given) {
      if (!mine.has(g.labelid)) throw badRequest('quality_item_unknown', { items: 'quality_item_unknown' });
      next.set(g.labelid, g.score);
    }
  }
  const s = scoreOf(
    card,
    [...next].map(([labelid, score]) => ({ labelid, score })),
  );
  for (const c of contested) {
    const v = next.get(c.labelid) ?? 0;
    await k
      .updateTable('quality_appeal_item')
      .set({ newscore: v })
      .where('appealid', '=', a.id)
      .where('labelid', '=', c.labelid)
      .execute();
    if (v === (current.get(c.labelid) ?? 0)) continue;
    const exists = current.has(c.labelid);
    if (exists)
      await k
        .updateTable('quality_item')
        .set({ score: v })
        .where('inspectionid', '=', r.id)
        .where('labelid', '=', c.labelid)
        .execute();
    else
      await k
        .insertInto('quality_item')
        .values({ inspectionid: r.id, labelid: c.labelid, score: v })
        .execute();
  }
  await k
    .updateTable('quality_appeal')
    .set({
      state: 'resolved',
      outcome,
      scoreafter: s.score,
      resolver: p.id,
      resolvecomment: comment,
      resolvetime: now,
    })
    .where('id', '=', a.id)
    .execute();
  await k
    .updateTable('quality_inspection')
    .set({ appeal: 'resolved', score: s.score, pass: s.pass ? 1 : 0, fatal: s.fatal ? 1 : 0 })
    .where('id', '=', r.id)
    .execute();
  await repo.addEvent(
    k,
    {
      orgi: p.orgi,
      inspectionid: r.id,
      appealid: a.id,
      action: 'appeal_resolved',
      userid: p.id,
      detail: outcome,
    },
    now,
  );
  if (s.score !== Number(r.score ?? 0))
    await repo.addEvent(
      k,
      {
        orgi: p.orgi,
        inspectionid: r.id,
        appealid: a.id,
        action: 'rescore',
        userid: p.id,
        detail: `${r.score ?? 0} → ${s.score}`,
      },
      now,
    );
  return { ...r, score: s.score, pass: s.pass ? 1 : 0, appeal: 'resolved' };
}

const notifyEnd = (db: Db, r: InspectionRow, appealid: string) =>
  notifyAgent(db, r.agentno, {
    type: 'appeal',
    inspectionid: r.id,
    agentserviceid: r.agentserviceid,
    score: r.score,
    pass: r.pass === null ? null : r.pass === 1,
    appealid,
    state: 'resolved',
  });

export async function endOne(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityAppealEndSchema>,
): Promise<QualityAppealDto> {
  const now = Date.now();
  const r = await db.kysely
    .transaction()
    .execute((trx) => end(trx, p, b.id, b.outcome, b.items, b.comment, now));
  notifyEnd(db, r, b.id);
  return appealDto(db.kysely, p.orgi, (await repo.findAppeal(db.kysely, p.orgi, b.id))!);
}

export async function endBatch(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityAppealBatchSchema>,
): Promise<{ ended: number }> {
  const now = Date.now();
  const ids = [...new Set(b.ids)];
  const done = await db.kysely.transaction().execute(async (trx) => {
    const out: Array<[InspectionRow, string]> = [];
    for (const id of ids) out.push([await end(trx, p, id, b.outcome, [], b.comment, now), id]);
    return out;
  });
  for (const [r, id] of done) notifyEnd(db, r, id);
  return { ended: done.length };
}

export async function list(
  db: Db,
  p: Principal,
  f: z.output<typeof qualityAppealListQuery>,
  pg: Paging,
): Promise<Page<QualityAppealRowDto>> {
  const k = db.kysely;
  let q = k
    .selectFrom('quality_appeal')
    .innerJoin('quality_inspection', 'quality_inspection.id', 'quality_appeal.inspectionid')
    .where('quality_appeal.orgi', '=', p.orgi);
  if (!assigner(p))
    q = q.where((eb) =>
      eb.or([eb('quality_appeal.inspector', '=', p.id), eb.and([eb('quality_appeal.agentno', '=', p.id)])]),
    );
  // Drafts stay the agent's own.
  q = q.where((eb) =>
    eb.or([eb('quality_appeal.state', '!=', 'draft'), eb('quality_appeal.agentno', '=', p.id)]),
  );
  if (f.state) q = q.where('quality_appeal.state', '=', f.state);
  if (f.agentno) q = q.where('quality_appeal.agentno', '=', f.agentno);
  const [rows, total] = await Promise.all([
    q
      .select([
        'quality_appeal.id',
        'quality_appeal.inspectionid',
        'quality_inspection.agentserviceid',
        'quality_appeal.agentno',
        'quality_appeal.inspector',
        'quality_appeal.state',
        'quality_appeal.outcome',
        'quality_appeal.scorebefore',
        'quality_appeal.scoreafter',
        'quality_appeal.createtime',
        'quality_appeal.submittime',
        'quality_appeal.resolvetime',
      ])
      .orderBy('quality_appeal.createtime', 'desc')
      .limit(pg.ps)
      .offset(offsetOf(pg))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const [names, counts] = await Promise.all([
    repo.userNames(
      k,
      p.orgi,
      rows.flatMap((r) => [r.agentno, r.inspector]),
    ),
    rows.length
      ? k
          .selectFrom('quality_appeal_item')
          .select(['appealid', (eb) => eb.fn.countAll<number>().as('n')])
          .where(
            'appealid',
            'in',
            rows.map((r) => r.id),
          )
          .groupBy('appealid')
          .execute()
      : Promise.resolve([]),
  ]);
  const n = new Map(counts.map((c) => [c.appealid, Number(c.n)]));
  const t = (v: number | null) => (v === null ? null : Number(v));
  return pageOf(
    rows.map((r) => ({
      id: r.id,
      inspectionid: r.inspectionid,
      agentserviceid: r.agentserviceid,
      agentno: r.agentno,
      agentusername: names.get(r.agentno) ?? '',
      inspector: r.inspector,
      inspectorname: names.get(r.inspector) ?? '',
      state: r.state as QualityAppealState,
      outcome: (r.outcome as QualityAppealOutcome | null) ?? null,
      items: n.get(r.id) ?? 0,
      scorebefore: r.scorebefore,
      scoreafter: r.scoreafter,
      createtime: Number(r.createtime),
      submittime: t(r.submittime),
      resolvetime: t(r.resolvetime),
    })),
    Number(total.n),
    pg,
  );
}
