import type { z } from 'zod';
import {
  QUALITY_INSPECT_CODE,
  QUALITY_LIMITS,
  type Page,
  type QualityAllotResultDto,
  type QualityAllotRuleDto,
  type QualityCandidateDto,
  type QualityPeriod,
  type QualityRowDto,
  type QualityRule,
  type qualityAllotListQuery,
  type qualityAutomationSchema,
  type qualityManualSchema,
  type qualityNotAllotQuery,
  type qualityNotQualitySchema,
} from '@kefu/protocol';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest } from '../../platform/http/errors.js';
import { offsetOf, pageOf, type Paging } from '../../platform/http/paging.js';
import { newTimeId } from '../../platform/ids.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import { tenantZone } from '../analysis/tenant-zone.js';
import { dateOfDay, dayOfDate, dayStart, localParts, weekdayOf } from '../analysis/zone.js';
import { filtered, listBase, presentRows } from './inspect.service.js';
import * as repo from './quality.repository.js';
import type { InspectionRow, Kdb } from './quality.repository.js';
import { cardsFor, currentCard, settings } from './scorecard.service.js';

/** Assignment (A11_A02): candidates, exclusion, automatic and manual allotment and their re-assignment. */

export const RULE_SETTING = 'quality.allotRule';
type Automation = z.output<typeof qualityAutomationSchema>;

export function readRule(raw: unknown): QualityAllotRuleDto | null {
  if (!raw || typeof raw !== 'object') return null;
  return raw as QualityAllotRuleDto;
}

export const rule = async (db: Db, p: Principal): Promise<QualityAllotRuleDto | null> =>
  (await orgSettings(db).get(p.orgi, RULE_SETTING, readRule)).value;

/** Users who may inspect, for the pickers. */
export async function inspectors(db: Db, p: Principal): Promise<Array<{ id: string; name: string }>> {
  const ids = await repo.inspectorIds(db.kysely, p.orgi, QUALITY_INSPECT_CODE);
  if (!ids.size) return [];
  const rows = await db.kysely
    .selectFrom('users')
    .select(['id', 'uname', 'nickname', 'username'])
    .where('orgi', '=', p.orgi)
    .where('disabled', '=', 0)
    .where('id', 'in', [...ids])
    .orderBy('username')
    .execute();
  return rows.map((r) => ({ id: r.id, name: repo.displayName(r) }));
}

async function checkInspectors(db: Db, p: Principal, chosen: string[]): Promise<string[]> {
  const ok = new Set((await inspectors(db, p)).map((i) => i.id));
  const list = [...new Set(chosen)];
  if (list.some((i) => !ok.has(i))) throw badRequest('invalid_field', { inspectors: 'invalid_field' });
  return list;
}

type CandQ = SelectQueryBuilder<Database, 'agent_service' | 'quality_conv', object>;

const candidates = (k: Kdb, orgi: string) => repo.candidates(k, orgi) as CandQ;

const CAND_COLUMNS = [
  'agent_service.id',
  'agent_service.agentno',
  'agent_service.agentusername',
  'agent_service.organ',
  'agent_service.username',
  'agent_service.channel',
  'agent_service.createtime',
  'agent_service.endtime',
  'agent_service.satislevel',
  'agent_service.trans',
  'quality_conv.autopoints',
  'quality_conv.rules',
] as const;

function presentCandidate(r: {
  id: string;
  agentno: string | null;
  agentusername: string;
  organ: string | null;
  username: string;
  channel: string;
  createtime: number;
  endtime: number | null;
  satislevel: string | null;
  trans: number;
  autopoints: number | null;
  rules: string | null;
}): QualityCandidateDto {
  return {
    agentserviceid: r.id,
    agentno: r.agentno,
    agentusername: r.agentusername,
    organ: r.organ,
    username: r.username,
    channel: r.channel,
    createtime: Number(r.createtime),
    endtime: r.endtime === null ? null : Number(r.endtime),
    autopoints: Number(r.autopoints ?? 0),
    rules: (r.rules ? r.rules.split(',') : []) as QualityRule[],
    satislevel: r.satislevel,
    trans: Number(r.trans),
  };
}

export async function notAllotList(
  db: Db,
  p: Principal,
  f: z.output<typeof qualityNotAllotQuery>,
  pg: Paging,
): Promise<Page<QualityCandidateDto>> {
  let q = candidates(db.kysely, p.orgi);
  if (f.begin !== undefined) q = q.where('agent_service.endtime', '>=', f.begin);
  if (f.end !== undefined) q = q.where('agent_service.endtime', '<=', f.end);
  if (f.organ) q = q.where('agent_service.organ', '=', f.organ);
  if (f.agentno) q = q.where('agent_service.agentno', '=', f.agentno);
  if (f.rule)
    q = q.where(sql<boolean>`(',' || ${sql.ref('quality_conv.rules')} || ',') like ${`%,${f.rule},%`}`);
  const [rows, total] = await Promise.all([
    q
      .select(CAND_COLUMNS)
      .orderBy('agent_service.endtime', 'desc')
      .limit(pg.ps)
      .offset(offsetOf(pg))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(presentCandidate), Number(total.n), pg);
}

export async function allotList(
  db: Db,
  p: Principal,
  f: z.output<typeof qualityAllotListQuery>,
  pg: Paging,
): Promise<Page<QualityRowDto>> {
  const q = filtered(listBase(db.kysely, p), f);
  const [rows, total] = await Promise.all([
    q
      .selectAll()
      .orderBy('allottime', 'desc')
      .orderBy('id', 'desc')
      .limit(pg.ps)
      .offset(offsetOf(pg))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(await presentRows(db.kysely, p.orgi, rows as InspectionRow[]), Number(total.n), pg);
}

export async function notQuality(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityNotQualitySchema>,
): Promise<{ changed: number }> {
  const k = db.kysely;
  const now = Date.now();
  const found = await k
    .selectFrom('agent_service')
    .select('id')
    .where('orgi', '=', p.orgi)
    .where('id', 'in', [...new Set(b.ids)])
    .execute();
  if (found.length !== new Set(b.ids).size) throw badRequest('invalid_field', { ids: 'invalid_field' });
  await k.transaction().execute(async (trx) => {
    for (const { id } of found)
      await trx
        .insertInto('quality_conv')
        .values({ agentserviceid: id, orgi: p.orgi, excluded: b.exclude ? 1 : 0, updatetime: now })
        .onConflict((oc) =>
          oc.column('agentserviceid').doUpdateSet({ excluded: b.exclude ? 1 : 0, updatetime: now }),
        )
        .execute();
  });
  return { changed: found.length };
}

// ---------------------------------------------------------------- allotting

interface Conv {
  id: string;
  agentno: string;
  organ: string | null;
  endtime: number;
  autopoints: number;
}

/** Nobody chosen may take a conversation: it is the only inspector's own chat, or they all have it already. */
const untakable = (chosen: string[], agentno: string) =>
  badRequest(chosen.every((i) => i === agentno) ? 'quality_own_conversation' : 'quality_already_allotted');

/** Round-robin over the inspectors, skipping the conversation's own agent. */
function roundRobin(inspectors: string[]) {
  let at = 0;
  return (agentno: string, taken: (inspector: string) => boolean = () => false): string | null => {
    for (let i = 0; i < inspectors.length; i++) {
      const who = inspectors[(at + i) % inspectors.length]!;
      if (who === agentno || taken(who)) continue;
      at = (at + i + 1) % inspectors.length;
      return who;
    }
    return null;
  };
}

function result(pairs: Array<{ inspector: string }>, skipped: number): QualityAllotResultDto {
  const per = new Map<string, number>();
  for (const x of pairs) per.set(x.inspector, (per.get(x.inspector) ?? 0) + 1);
  return {
    allotted: pairs.length,
    perInspector: [...per].map(([inspector, count]) => ({ inspector, count })),
    skipped,
  };
}

/** Inserts inspections for (conversation, inspector) pairs with the card of each conversation's group. */
async function insertPairs(k: Kdb, p: Principal, pairs: Array<{ c: Conv; inspector: string }>, now: number) {
  const cards = await cardsFor(
    k,
    p.orgi,
    pairs.map((x) => x.c.organ),
  );
  if (pairs.length && !cards.has('')) throw badRequest('quality_no_card');
  const versions = new Map<string, Awaited<ReturnType<typeof currentCard>>>();
  for (const typeid of new Set(cards.values())) versions.set(typeid, await currentCard(k, p.orgi, typeid));
  const rows = pairs.map(({ c, inspector }) => {
    const card = versions.get(cards.get(c.organ ?? '') ?? cards.get('')!)!;
    return {
      id: newTimeId(now),
      orgi: p.orgi,
      agentserviceid: c.id,
      agentno: c.agentno,
      organ: c.organ,
      inspector,
      status: 'allotted',
      typeid: card.typeid,
      versionid: card.versionid,
      version: card.version,
      autopoints: c.autopoints,
      convtime: c.endtime,
      allottime: now,
      allotby: p.id,
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    await k
      .insertInto('quality_inspection')
      .values(rows.slice(i, i + 500))
      .execute();
  for (const r of rows)
    await repo.addEvent(
      k,
      { orgi: p.orgi, inspectionid: r.id, action: 'allot', userid: p.id, detail: r.inspector },
      now,
    );
}

async function convsOf(k: Kdb, orgi: string, idList: string[]): Promise<Conv[]> {
  const rows = await k
    .selectFrom('agent_service')
    .leftJoin('quality_conv', 'quality_conv.agentserviceid', 'agent_service.id')
    .select([
      'agent_service.id',
      'agent_service.agentno',
      'agent_service.organ',
      'agent_service.endtime',
      'agent_service.status',
      'quality_conv.autopoints',
      'quality_conv.excluded',
    ])
    .where('agent_service.orgi', '=', orgi)
    .where('agent_service.id', 'in', idList)
    .execute();
  if (rows.length !== idList.length) throw badRequest('invalid_field', { ids: 'invalid_field' });
  for (const r of rows) if (r.status !== 'end' || !r.agentno) throw badRequest('quality_not_ended');
  // Marked not for inspection (notQuality): the mark is lifted on purpose before anyone is given it.
  if (rows.some((r) => Number(r.excluded ?? 0) === 1)) throw badRequest('quality_excluded');
  return rows.map((r) => ({
    id: r.id,
    agentno: r.agentno!,
    organ: r.organ,
    endtime: Number(r.endtime ?? 0),
    autopoints: Number(r.autopoints ?? 0),
  }));
}

/** Given conversations to given inspectors, round-robin; a conversation of an inspector goes to another. */
export async function manual(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityManualSchema>,
): Promise<QualityAllotResultDto> {
  const chosen = await checkInspectors(db, p, b.inspectors);
  const now = Date.now();
  return db.kysely.transaction().execute(async (trx) => {
    const convs = await convsOf(trx, p.orgi, [...new Set(b.ids)]);
    const have = await repo.pairsOf(
      trx,
      convs.map((c) => c.id),
    );
    const next = roundRobin(chosen);
    const pairs: Array<{ c: Conv; inspector: string }> = [];
    for (const c of convs) {
      const who = next(c.agentno, (i) => have.has(`${c.id}:${i}`));
      if (!who) throw untakable(chosen, c.agentno);
      pairs.push({ c, inspector: who });
    }
    await insertPairs(trx, p, pairs, now);
    return result(pairs, 0);
  });
}

/** Inspections not yet scored moved to other inspectors, round-robin. */
export async function manualAgain(
  db: Db,
  p: Principal,
  b: z.output<typeof qualityManualSchema>,
): Promise<QualityAllotResultDto> {
  const chosen = await checkInspectors(db, p, b.inspectors);
  const now = Date.now();
  return db.kysely.transaction().execute(async (trx) => {
    const rows: InspectionRow[] = [];
    for (const id of new Set(b.ids)) {
      const r = await repo.findInspection(trx, p.orgi, id);
      if (!r) throw badRequest('invalid_field', { ids: 'invalid_field' });
      if (r.status !== 'allotted') throw badRequest('quality_already_scored');
      rows.push(r);
    }
    return reassign(trx, p, rows, chosen, now, true);
  });
}

async function reassign(
  k: Kdb,
  p: Principal,
  rows: InspectionRow[],
  chosen: string[],
  now: number,
  strict: boolean,
) {
  const next = roundRobin(chosen);
  const have = await repo.pairsOf(
    k,
    rows.map((r) => r.agentserviceid),
  );
  const moved: Array<{ inspector: string }> = [];
  let skipped = 0;
  for (const r of rows) {
    const who = next(r.agentno, (i) => i === r.inspector || have.has(`${r.agentserviceid}:${i}`));
    if (!who) {
      if (strict) throw untakable(chosen, r.agentno);
      skipped++;
      continue;
    }
    have.add(`${r.agentserviceid}:${who}`);
    await k
      .updateTable('quality_inspection')
      .set({ inspector: who, allottime: now, allotby: p.id })
      .where('id', '=', r.id)
      .execute();
    await repo.addEvent(
      k,
      {
        orgi: p.orgi,
        inspectionid: r.id,
        action: 'reallot',
        userid: p.id,
        detail: `${r.inspector} → ${who}`,
      },
      now,
    );
    moved.push({ inspector: who });
  }
  return result(moved, skipped);
}

// ---------------------------------------------------------------- automation

/**
 * The period bucket of a time, in the tenant's time zone (the one the statistics count days in): local
 * days; weeks start on Monday; calendar months.
 */
export function periodKey(t: number, period: QualityPeriod, tz: string): string {
  const { day } = localParts(t, tz);
  if (period === 'month') return dateOfDay(day).slice(0, 7);
  if (period === 'day') return String(day);
  return String(day - weekdayOf(day) + 1);
}

/** The default range of a run: the current local period up to now. */
export function periodRange(
  a: Pick<Automation, 'begin' | 'end' | 'period'>,
  now: number,
  tz: string,
): { begin: number; end: number } {
  if (a.begin !== undefined || a.end !== undefined) return { begin: a.begin ?? 0, end: a.end ?? now };
  const { day } = localParts(now, tz);
  const first =
    a.period === 'day'
      ? day
      : a.period === 'week'
        ? day - weekdayOf(day) + 1
        : dayOfDate(`${dateOfDay(day).slice(0, 8)}01`);
  return { begin: dayStart(first, tz), end: now };
}

/** The rule's filters over ended conversations in the range (any filter set: a match on one suffices). */
async function matching(
  db: Db,
  p: Principal,
  a: Automation,
  base: CandQ,
  range: { begin: number; end: number },
) {
  const cfg = await settings(db, p.orgi);
  const f = a.filters;
  let q = base
    .where('agent_service.endtime', '>=', range.begin)
    .where('agent_service.endtime', '<=', range.end);
  if (f.organs?.length) q = q.where('agent_service.organ', 'in', f.organs);
  if (f.agents?.length) q = q.where('agent_service.agentno', 'in', f.agents);
  const low = String(cfg.lowSatisfaction || 4);
  q = q.where((eb) => {
    const any = [];
    if (f.lowSatisfaction)
      any.push(eb.and([eb('agent_service.satisfaction', '=', 1), eb('agent_service.satislevel', '>=', low)]));
    if (f.longWait) any.push(eb('agent_service.waittime', '>=', cfg.longWaitSec * 1000));
    if (f.transfer) any.push(eb('agent_service.trans', '>', 0));
    if (f.aiHandoff) any.push(eb.and([eb('agent_service.ai', '=', 1), eb('agent_service.foragent', '=', 1)]));
    if (f.sensitive)
      any.push(
        eb.exists(
          eb
            .selectFrom('sensitive_hit as sh')
            .select('sh.id')
            .whereRef('sh.agentserviceid', '=', 'agent_service.id'),
        ),
      );
    return any.length ? eb.or(any) : sql<boolean>`1 = 1`;
  });
  return q
    .select([
      'agent_service.id',
      'agent_service.agentno',
      'agent_service.organ',
      'agent_service.endtime',
      'quality_conv.autopoints',
    ])
    .orderBy('quality_conv.autopoints', 'desc')
    .orderBy('agent_service.endtime', 'desc')
    .limit(QUALITY_LIMITS.automationMax * 10)
    .execute();
}

/**
 * Runs a rule: per agent and period, up to `share` conversations (or share % of them), those with the
 * most automatic points first, round-robin over the inspectors (never an agent's own chats). Conversations
 * already allotted in that agent's period count toward the share.
 */
export async function automation(db: Db, p: Principal, a: Automation): Promise<QualityAllotResultDto> {
  const chosen = await checkInspectors(db, p, a.inspectors);
  const now = Date.now();
  const tz = await tenantZone(db, p.orgi);
  const range = periodRange(a, now, tz);
  if (a.save) {
    const saved: QualityAllotRuleDto = {
      share: a.share,
      percent: a.percent,
      period: a.period,
      filters: a.filters,
      inspectors: chosen,
      updatetime: now,
      updater: p.id,
    };
    await orgSettings(db).save(p.orgi, RULE_SETTING, saved);
  }
  const k = db.kysely;
  const rows = await matching(db, p, a, candidates(k, p.orgi), range);
  const already = await k
    .selectFrom('quality_inspection')
    .select(['agentno', 'convtime'])
    .where('orgi', '=', p.orgi)
    .where('convtime', '>=', range.begin)
    .where('convtime', '<=', range.end)
    .execute();
  const key = (agentno: string, t: number) => `${agentno}|${periodKey(t, a.period, tz)}`;
  const taken = new Map<string, number>();
  for (const r of already)
    taken.set(key(r.agentno, Number(r.convtime)), (taken.get(key(r.agentno, Number(r.convtime))) ?? 0) + 1);
  const groupSize = new Map<string, number>();
  for (const r of rows)
    groupSize.set(
      key(r.agentno!, Number(r.endtime)),
      (groupSize.get(key(r.agentno!, Number(r.endtime))) ?? 0) + 1,
    );
  const quota = (g: string) =>
    a.percent
      ? Math.ceil((((groupSize.get(g) ?? 0) + (taken.get(g) ?? 0)) * Math.min(a.share, 100)) / 100)
      : a.share;
  const next = roundRobin(chosen);
  const pairs: Array<{ c: Conv; inspector: string }> = [];
  let skipped = 0;
  for (const r of rows) {
    if (pairs.length >= QUALITY_LIMITS.automationMax) break;
    const g = key(r.agentno!, Number(r.endtime));
    if ((taken.get(g) ?? 0) >= quota(g)) continue;
    const who = next(r.agentno!);
    if (!who) {
      skipped++;
      continue;
    }
    taken.set(g, (taken.get(g) ?? 0) + 1);
    pairs.push({
      c: {
        id: r.id,
        agentno: r.agentno!,
        organ: r.organ,
        endtime: Number(r.endtime),
        autopoints: Number(r.autopoints ?? 0),
      },
      inspector: who,
    });
  }
  await k.transaction().execute((trx) => insertPairs(trx, p, pairs, now));
  return result(pairs, skipped);
}

/** The 'again' run: inspections of the range not yet scored are dealt again over the chosen inspectors. */
export async function automationAgain(db: Db, p: Principal, a: Automation): Promise<QualityAllotResultDto> {
  const chosen = await checkInspectors(db, p, a.inspectors);
  const now = Date.now();
  const range = periodRange(a, now, await tenantZone(db, p.orgi));
  return db.kysely.transaction().execute(async (trx) => {
    let q = trx
      .selectFrom('quality_inspection')
      .selectAll()
      .where('orgi', '=', p.orgi)
      .where('status', '=', 'allotted')
      .where('convtime', '>=', range.begin)
      .where('convtime', '<=', range.end);
    if (a.filters.organs?.length) q = q.where('organ', 'in', a.filters.organs);
    if (a.filters.agents?.length) q = q.where('agentno', 'in', a.filters.agents);
    const rows = await q.orderBy('convtime').limit(QUALITY_LIMITS.automationMax).execute();
    return reassign(trx, p, rows, chosen, now, false);
  });
}
