import type { QualityScorecardDto } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { dayStart, localParts } from '../analysis/zone.js';
import * as repo from './quality.repository.js';
import type { Kdb } from './quality.repository.js';

/**
 * Figures of /api/analyse/quality and /api/analyse/label/quality, as cells of the analysis module (a row
 * key, a local day, raw sums; analysis.presenter derive() turns the sums into figures). Days are those of
 * the scoring (quality), of the submission (appeals opened) and of the resolution (appeals upheld, time to
 * resolve), in the tenant's zone. Inspections count with their final score (after resolved appeals).
 * Decisions on automatic findings count on the day their inspection was scored.
 */

export interface QualityCell {
  day: number;
  key: string;
  sums: Record<string, number>;
}

export interface QualityStatsFilter {
  orgi: string;
  /** Local days, both included. */
  from: number;
  to: number;
  tz: string;
  organ?: string | null;
  agentno?: string | null;
  scope?: { organs: readonly string[]; userid: string } | null;
}

export type QualityDim = 'agent' | 'organ' | 'inspector';

function scoped(k: Kdb, f: QualityStatsFilter) {
  let q = k.selectFrom('quality_inspection').where('quality_inspection.orgi', '=', f.orgi);
  if (f.organ) q = q.where('quality_inspection.organ', '=', f.organ);
  if (f.agentno) q = q.where('quality_inspection.agentno', '=', f.agentno);
  const s = f.scope;
  if (s)
    q = q.where((eb) =>
      eb.or([
        ...(s.organs.length ? [eb('quality_inspection.organ', 'in', [...s.organs])] : []),
        eb('quality_inspection.agentno', '=', s.userid),
      ]),
    );
  return q;
}

const bounds = (f: QualityStatsFilter) => ({ lo: dayStart(f.from, f.tz), hi: dayStart(f.to + 1, f.tz) });

const keyOf = (r: { agentno: string; organ: string | null; inspector: string }, dim: QualityDim) =>
  dim === 'agent' ? r.agentno : dim === 'organ' ? (r.organ ?? '') : r.inspector;

export async function qualityCells(k: Kdb, f: QualityStatsFilter, dim: QualityDim): Promise<QualityCell[]> {
  const { lo, hi } = bounds(f);
  const day = (t: number) => localParts(t, f.tz).day;
  const scored = await scoped(k, f)
    .select(['id', 'agentserviceid', 'agentno', 'organ', 'inspector', 'score', 'pass', 'fatal', 'scoretime'])
    .where('status', 'in', ['done', 'sent'])
    .where('scoretime', '>=', lo)
    .where('scoretime', '<', hi)
    .execute();
  const cells: QualityCell[] = [];
  const byConv = new Map<string, typeof scored>();
  for (const r of scored) {
    cells.push({
      day: day(Number(r.scoretime)),
      key: keyOf(r, dim),
      sums: {
        q_n: 1,
        q_score: Number(r.score ?? 0),
        q_pass: Number(r.pass) === 1 ? 1 : 0,
        q_fatal: Number(r.fatal),
      },
    });
    const l = byConv.get(r.agentserviceid) ?? [];
    l.push(r);
    byConv.set(r.agentserviceid, l);
  }
  // Calibration: each score's distance from the mean of the other inspectors' scores of the same chat.
  for (const same of byConv.values()) {
    if (same.length < 2) continue;
    const total = same.reduce((a, r) => a + Number(r.score ?? 0), 0);
    for (const r of same) {
      const others = (total - Number(r.score ?? 0)) / (same.length - 1);
      cells.push({
        day: day(Number(r.scoretime)),
        key: keyOf(r, dim),
        sums: { spread_sum: Math.abs(Number(r.score ?? 0) - others), spread_n: 1 },
      });
    }
  }
  // Automatic findings decided on the inspections scored in the range: how many the inspector overrode.
  const decided = await scoped(k, f)
    .innerJoin('quality_decision', 'quality_decision.inspectionid', 'quality_inspection.id')
    .select([
      'quality_inspection.agentno',
      'quality_inspection.organ',
      'quality_inspection.inspector',
      'quality_inspection.scoretime',
      'quality_decision.decision',
    ])
    .where('quality_inspection.status', 'in', ['done', 'sent'])
    .where('quality_inspection.scoretime', '>=', lo)
    .where('quality_inspection.scoretime', '<', hi)
    .execute();
  for (const x of decided)
    cells.push({
      day: day(Number(x.scoretime)),
      key: keyOf(x, dim),
      sums: { fd_n: 1, fd_over: x.decision === 'overridden' ? 1 : 0 },
    });
  const appeals = await scoped(k, f)
    .innerJoin('quality_appeal', 'quality_appeal.inspectionid', 'quality_inspection.id')
    .select([
      'quality_inspection.agentno',
      'quality_inspection.organ',
      'quality_inspection.inspector',
      'quality_appeal.outcome',
      'quality_appeal.submittime',
      'quality_appeal.resolvetime',
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb('quality_appeal.submittime', '>=', lo), eb('quality_appeal.submittime', '<', hi)]),
        eb.and([eb('quality_appeal.resolvetime', '>=', lo), eb('quality_appeal.resolvetime', '<', hi)]),
      ]),
    )
    .execute();
  for (const a of appeals) {
    const sub = a.submittime === null ? null : Number(a.submittime);
    const res = a.resolvetime === null ? null : Number(a.resolvetime);
    if (sub !== null && sub >= lo && sub < hi)
      cells.push({ day: day(sub), key: keyOf(a, dim), sums: { ap_open: 1 } });
    if (res !== null && res >= lo && res < hi) {
      const upheld = a.outcome === 'upheld' || a.outcome === 'partly' ? 1 : 0;
      cells.push({
        day: day(res),
        key: keyOf(a, dim),
        sums: { ap_upheld: upheld, ap_resolved: 1, ap_ms: Math.max(0, res - (sub ?? res)) },
      });
    }
  }
  return cells;
}

/** Items deducted (deduct items scored above 0) and how often each item was on a scored card. */
export async function labelCells(
  k: Kdb,
  f: QualityStatsFilter,
  dim: 'label' | 'type',
): Promise<{ cells: QualityCell[]; names: Map<string, string> }> {
  const { lo, hi } = bounds(f);
  const scored = await scoped(k, f)
    .select(['id', 'versionid', 'typeid', 'scoretime'])
    .where('status', 'in', ['done', 'sent'])
    .where('scoretime', '>=', lo)
    .where('scoretime', '<', hi)
    .execute();
  const names = new Map<string, string>();
  if (!scored.length) return { cells: [], names };
  const versions = await k
    .selectFrom('quality_card_version')
    .select(['id', 'card'])
    .where('id', 'in', [...new Set(scored.map((s) => s.versionid))])
    .execute();
  const cards = new Map(versions.map((v) => [v.id, JSON.parse(v.card) as QualityScorecardDto]));
  const cells: QualityCell[] = [];
  const items = new Map<string, Array<{ labelid: string; score: number }>>();
  for (let i = 0; i < scored.length; i += 500) {
    const rows = await k
      .selectFrom('quality_item')
      .select(['inspectionid', 'labelid', 'score'])
      .where(
        'inspectionid',
        'in',
        scored.slice(i, i + 500).map((s) => s.id),
      )
      .where('score', '>', 0)
      .execute();
    for (const r of rows) {
      const l = items.get(r.inspectionid) ?? [];
      l.push(r);
      items.set(r.inspectionid, l);
    }
  }
  for (const s of scored) {
    const card = cards.get(s.versionid);
    if (!card) continue;
    const d = localParts(Number(s.scoretime), f.tz).day;
    const given = new Map((items.get(s.id) ?? []).map((x) => [x.labelid, x.score]));
    if (dim === 'type') {
      names.set(s.typeid, card.name);
      let n = 0;
      let pts = 0;
      for (const it of card.items)
        if (it.kind === 'deduct' && (given.get(it.id) ?? 0) > 0) {
          n++;
          pts += given.get(it.id)!;
        }
      cells.push({ day: d, key: s.typeid, sums: { q_n: 1, ded_n: n, ded_pts: pts } });
      continue;
    }
    for (const it of card.items) {
      if (it.kind !== 'deduct') continue;
      names.set(it.id, it.groupname ? `${it.groupname} / ${it.name}` : it.name);
      const v = given.get(it.id) ?? 0;
      cells.push({ day: d, key: it.id, sums: { q_n: 1, ded_n: v > 0 ? 1 : 0, ded_pts: v } });
    }
  }
  return { cells, names };
}

export const qualityNames = async (db: Db, orgi: string, dim: QualityDim, keys: string[]) =>
  dim === 'organ' ? repo.organNames(db.kysely, orgi, keys) : repo.userNames(db.kysely, orgi, keys);
