import {
  ANALYSIS_CALLS,
  ANALYSIS_LIMITS,
  CODES,
  type AnalysisCall,
  type AnalysisOptionsDto,
  type AnalysisResultDto,
  type AnalysisRowDto,
  type CountFigure,
  type Figure,
  type analysisQuery,
} from '@kefu/protocol';
import type { z } from 'zod';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { dataScope } from '../../platform/auth/data-scope.js';
import { AppError, badRequest } from '../../platform/http/errors.js';
import { settings as satisfactionSettings } from '../satisfaction/satisfaction.service.js';
import * as repo from './analysis.repository.js';
import { addRaw, derive, type Raw } from './analysis.presenter.js';
import { tenantZone } from './tenant-zone.js';
import { labelCells, qualityCells, qualityNames, type QualityDim } from '../quality/quality.stats.js';
import { dateOfDay, dayOfDate, dayStart, splitByDay, weekdayOf } from './zone.js';

type Query = z.output<typeof analysisQuery>;
type Kdb = Db['kysely'];

/** What a call's rows are keyed by, and how the chart's x axis runs. */
interface Plan {
  /** The table's cells by row key (day -1 unless a row is a day). */
  rows: repo.Cell[];
  /** The chart's cells by day (axis 'day' only). */
  days: repo.Cell[];
  /** 'day': the series runs over the days of the range; 'key': over the row keys (hours, weekdays). */
  axis: 'day' | 'key';
  buckets?: string[];
  /** Row keys in a fixed order (days, hours, levels) instead of by size. */
  ordered?: boolean;
  names: (keys: string[]) => Promise<Map<string, string>>;
  /** The table's rows already summed, ordered and folded (the per-day work list pages in SQL). */
  entries?: Array<[string, Raw]>;
  /** The total when `rows` does not hold every cell. */
  total?: Raw;
}

const same = async (keys: string[]) => new Map(keys.map((k) => [k, k]));

/** The figures a call shows for a dimension (satisfaction by level or opinion shows ratings only). */
export function figuresFor(call: AnalysisCall, dim: string): Figure[] {
  if (call === 'dereeList' && (dim === 'level' || dim === 'opinion')) return ['ratings'];
  return [...ANALYSIS_CALLS[call].figures];
}

const chartFor = (call: AnalysisCall, dim: string): CountFigure[] =>
  call === 'dereeList' && (dim === 'level' || dim === 'opinion')
    ? ['ratings']
    : [...ANALYSIS_CALLS[call].chart];

interface Range {
  from: number;
  to: number;
}

/** Checks the dates: not reversed, not longer than ANALYSIS_LIMITS.maxDays. */
export function rangeOf(q: Pick<Query, 'begin' | 'end'>): Range {
  const from = dayOfDate(q.begin);
  const to = dayOfDate(q.end);
  if (from > to) throw badRequest('range_invalid', { begin: 'range_invalid' });
  if (to - from + 1 > ANALYSIS_LIMITS.maxDays) throw badRequest('range_too_long', { end: 'range_too_long' });
  return { from, to };
}

const outOfScope = () => new AppError('out_of_scope', CODES.forbidden);

/**
 * The department scope of a work-statistics call: administrators see everything; others the departments
 * they belong to and those below, and their own figures. A filter outside it is refused (out_of_scope).
 */
async function scopeOf(k: Kdb, p: Principal, code: string, q: Query): Promise<repo.RollupFilter['scope']> {
  const s = await dataScope(k, p, code);
  if (s.kind === 'all') return null;
  const organs = s.kind === 'organ' ? s.organs : [];
  if (q.organ && !organs.includes(q.organ)) throw outOfScope();
  if (q.agentno && q.agentno !== p.id) {
    const inScope = await repo.agentsOf(k, p.orgi, organs);
    if (!inScope.some((a) => a.id === q.agentno)) throw outOfScope();
  }
  return { organs, userid: p.id };
}

const rename = (cells: repo.Cell[], names: Record<string, string>): repo.Cell[] =>
  cells.map((c) => ({
    ...c,
    sums: Object.fromEntries(Object.entries(c.sums).map(([k, v]) => [names[k] ?? k, v])),
  }));

interface Ctx {
  db: Db;
  k: Kdb;
  p: Principal;
  f: repo.RollupFilter;
  tz: string;
  levels: string[];
  now: number;
}

/** Visits exist only for the website channel: another channel filter leaves none. */
const visitsApply = (f: repo.RollupFilter) => !f.channel || f.channel === 'webim';

/** Both groupings of a source: by row key and by day (only the first when the chart is not needed). */
async function both(withDays: boolean, ...sources: Array<(part: repo.Part) => Promise<repo.Cell[]>>) {
  const rows: repo.Cell[] = [];
  const days: repo.Cell[] = [];
  for (const src of sources) {
    rows.push(...(await src('rows')));
    if (withDays) days.push(...(await src('days')));
  }
  return { rows, days };
}

const byDate = (cells: repo.Cell[]) => cells.map((x) => ({ ...x, key: dateOfDay(x.day) }));

/** Agents the work statistics cover: the scope, then the department and agent filters. */
async function workAgents(c: Ctx, q: Query) {
  const { k, p, f } = c;
  let agents = f.scope
    ? await repo.agentsOf(k, p.orgi, f.scope.organs, [f.scope.userid])
    : await repo.agentsOf(k, p.orgi, null);
  if (q.organ) {
    const inOrgan = new Set((await repo.agentsOf(k, p.orgi, [q.organ])).map((a) => a.id));
    agents = agents.filter((a) => inOrgan.has(a.id));
  }
  if (q.agentno) agents = agents.filter((a) => a.id === q.agentno);
  return agents;
}

/** The current state still open: ready or busy from its start up to now (or the range's end), by day. */
async function openStates(c: Ctx, ids: string[]): Promise<repo.Cell[]> {
  const out: repo.Cell[] = [];
  const end = Math.min(c.now, dayStart(c.f.to + 1, c.tz));
  const begin = dayStart(c.f.from, c.tz);
  for (const l of await repo.agentLasts(c.k, c.p.orgi, ids)) {
    if (l.status !== 'ready' && l.status !== 'busy') continue;
    const col = l.status === 'ready' ? 'ready_ms' : 'busy_ms';
    splitByDay(Math.max(Number(l.since), begin), end, c.tz, (day, ms) =>
      out.push({ day, key: l.userid, sums: { [col]: ms } }),
    );
  }
  return out;
}

const isZero = (x: repo.Cell) => !x.sums.ready_ms && !x.sums.busy_ms && !x.sums.notready_ms;

/**
 * The work calls (docs/metrics.md "Work"): stored time from the rollups plus the current state still open.
 * By agent or department: stat_agent_block and the ends of the range from stat_agent_day. The chart: from
 * stat_agent_total when every agent of the tenant is shown and no one else (a removed user) has time in
 * the range, else from stat_agent_day. The per-agent-per-day list reads only the rows of its first page in
 * (day, agent) order; its fold ("other") is the total minus that page.
 */
async function workPlan(c: Ctx, call: AnalysisCall, q: Query, withDays: boolean): Promise<Plan> {
  const { k, f } = c;
  const agents = await workAgents(c, q);
  const ids = agents.map((a) => a.id);
  const known = new Set(ids);
  // Agent names as workAgents read them: no second look-up.
  const nameOf = new Map(agents.map((a) => [a.id, a.name]));
  const everyAgent = !f.scope && !q.organ && !q.agentno;
  const list = call === 'workLogList';
  const page = (agents: readonly string[] | null) =>
    list ? { agents, rows: ANALYSIS_LIMITS.maxRows } : undefined;
  // One read. When every agent is shown: by agent of everyone with time in the range, the tenant's daily
  // totals and the list's page of everyone; these hold exactly the shown agents' time when no one else (a
  // removed user) has any, else the chart and the page are read again for the shown agents.
  const [open, read] = await Promise.all([
    openStates(c, ids),
    repo.workSums(k, f, {
      byAgent: !list || everyAgent ? (everyAgent ? null : ids) : undefined,
      byDay: withDays || list ? (everyAgent ? 'all' : ids) : undefined,
      page: page(everyAgent ? null : ids),
    }),
  ]);
  const listed = read.byAgent.filter((x) => known.has(x.key));
  const fits = !everyAgent || read.byAgent.every((x) => known.has(x.key) || isZero(x));
  const { byDay, page: first } = fits
    ? read
    : await repo.workSums(k, f, { byDay: withDays || list ? ids : undefined, page: page(ids) });
  const days = [...byDay, ...open];
  if (list) {
    const total: Raw = {};
    for (const x of days) addRaw(total, x.sums);
    return {
      axis: 'day',
      ordered: true,
      rows: [],
      days,
      total,
      entries: dayList(first, open, total),
      names: async (keys) => new Map(keys.map((x) => [x, nameOf.get(x.slice(11)) ?? ''])),
    };
  }
  const rows = [...listed, ...open];
  if (call === 'workOrganLog') {
    const organOf = new Map(agents.map((a) => [a.id, a.organ ?? '']));
    return {
      axis: 'day',
      rows: rows.map((x) => ({ ...x, key: organOf.get(x.key) ?? '' })),
      days,
      names: names(c, 'organ'),
    };
  }
  return {
    axis: 'day',
    rows,
    days,
    names: async (keys) => new Map(keys.map((x) => [x, nameOf.get(x) ?? ''])),
  };
}

/**
 * The per-agent-per-day table (key `YYYY-MM-DD|agent`, in that order): its first maxRows - 1 rows and,
 * past maxRows, one "other" row holding the rest (the total minus those rows), from the stored rows of
 * the days up to the page's end (workSums, read with maxRows) and the open states.
 */
function dayList(page: repo.WorkRead['page'], open: readonly repo.Cell[], total: Raw): Array<[string, Raw]> {
  const max = ANALYSIS_LIMITS.maxRows;
  const byKey = new Map<string, Raw>();
  for (const x of [...page.cells, ...open]) {
    const key = `${dateOfDay(x.day)}|${x.key}`;
    let r = byKey.get(key);
    if (!r) byKey.set(key, (r = {}));
    addRaw(r, x.sums);
  }
  let entries = [...byKey.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (page.more || entries.length > max) {
    entries = entries.slice(0, max - 1);
    const other: Raw = { ...total };
    for (const [, r] of entries) for (const [key, v] of Object.entries(r)) other[key] = (other[key] ?? 0) - v;
    entries.push(['~other', other]);
  }
  return entries;
}

const names =
  (c: Ctx, table: Parameters<typeof repo.namesOf>[1]) =>
  (keys: string[]): Promise<Map<string, string>> =>
    repo.namesOf(c.k, table, c.p.orgi, keys);

async function planOf(c: Ctx, call: AnalysisCall, dim: string, q: Query, withDays: boolean): Promise<Plan> {
  const { k, f } = c;
  const visits = visitsApply(f);
  const axis = 'day' as const;
  const conv = (by: repo.ConvKey) => (part: repo.Part) => repo.convDays(k, f, by, part);
  switch (call) {
    case 'organDegree':
    case 'userDegree':
    case 'channelCount': {
      const by = call === 'organDegree' ? 'organ' : call === 'userDegree' ? 'agentno' : 'channel';
      const table = call === 'organDegree' ? 'organ' : call === 'userDegree' ? 'users' : null;
      return { axis, ...(await both(withDays, conv(by))), names: table ? names(c, table) : same };
    }
    case 'aiDegree':
    case 'dateCount': {
      const cells = await repo.convDays(k, f, 'day', 'days');
      if (call === 'dateCount') {
        if (visits) cells.push(...(await repo.visitDays(k, f, 'all', null, 'days')));
        cells.push(...(await repo.inviteDays(k, f, null, 'days')));
      }
      const dated = byDate(cells);
      return { axis, ordered: true, rows: dated, days: dated, names: same };
    }
    case 'snsidCount':
      return {
        axis,
        ...(await both(
          withDays,
          conv('appid'),
          ...(visits ? [(part: repo.Part) => repo.visitDays(k, f, 'all', 'appid', part)] : []),
          (part) => repo.inviteDays(k, f, 'appid', part),
        )),
        names: names(c, 'access_point'),
      };
    case 'dereeList': {
      if (dim === 'opinion') {
        const { rows, days } = await both(withDays, (part) => repo.convDims(k, f, 'opinion', part));
        const r = { conversations: 'ratings', effective: '_' };
        return { axis, rows: rename(rows, r), days: rename(days, r), names: names(c, 'satis_opinion') };
      }
      if (dim === 'level') {
        const cells: repo.Cell[] = [];
        for (const x of await repo.convDays(k, f, 'day', 'days'))
          c.levels.forEach((_, i) => {
            const n = x.sums[`l${i + 1}`] ?? 0;
            if (n) cells.push({ day: x.day, key: String(i + 1), sums: { ratings: n } });
          });
        return {
          axis,
          ordered: true,
          rows: cells,
          days: cells,
          names: async () => new Map(c.levels.map((name, i) => [String(i + 1), name])),
        };
      }
      const by = dim === 'organ' ? 'organ' : 'agentno';
      return {
        axis,
        ...(await both(withDays, conv(by))),
        names: names(c, by === 'organ' ? 'organ' : 'users'),
      };
    }
    case 'searcheEngine':
    case 'regionList':
    case 'browserData':
    case 'osnameData': {
      const kind = call === 'browserData' ? 'browser' : call === 'osnameData' ? 'os' : dim;
      return {
        axis,
        ...(await both(
          withDays,
          (part) => repo.convDims(k, f, kind, part),
          ...(visits ? [(part: repo.Part) => repo.visitDays(k, f, kind, 'value', part)] : []),
        )),
        names: same,
      };
    }
    case 'labelList': {
      const { rows, days } = await both(withDays, (part) => repo.convDims(k, f, 'tag', part));
      const r = { conversations: 'tagged', effective: '_' };
      return { axis, rows: rename(rows, r), days: rename(days, r), names: names(c, 'tag') };
    }
    case 'visitor': {
      const weekday = dim === 'weekday';
      const cells = await repo.convHours(k, f, !weekday);
      if (visits) cells.push(...(await repo.visitHours(k, f, !weekday)));
      return {
        axis: 'key',
        ordered: true,
        buckets: weekday
          ? ['1', '2', '3', '4', '5', '6', '7']
          : Array.from({ length: 24 }, (_, i) => String(i)),
        rows: weekday ? cells.map((x) => ({ ...x, key: String(weekdayOf(x.day)) })) : cells,
        days: [],
        names: same,
      };
    }
    case 'workLog':
    case 'workLogList':
    case 'workOrganLog':
      return workPlan(c, call, q, withDays);
    case 'quality': {
      const cells = await qualityCells(k, { ...f, tz: c.tz }, dim as QualityDim);
      return {
        axis,
        rows: cells,
        days: cells,
        names: (keys) => qualityNames(c.db, c.p.orgi, dim as QualityDim, keys),
      };
    }
    case 'label/quality': {
      const { cells, names: labels } = await labelCells(k, { ...f, tz: c.tz }, dim as 'label' | 'type');
      return {
        axis,
        rows: cells,
        days: cells,
        names: async (keys) => new Map(keys.map((x) => [x, labels.get(x) ?? ''])),
      };
    }
  }
}

const collator = new Intl.Collator('en');

/** Rows from cells: summed by key, sorted, and past maxRows folded into one "other" row. */
function rowsOf(plan: Plan, sortBy: Figure | undefined, levels: number) {
  const raw = new Map<string, Raw>();
  for (const c of plan.rows) {
    let r = raw.get(c.key);
    if (!r) raw.set(c.key, (r = {}));
    addRaw(r, c.sums);
  }
  let entries = [...raw.entries()];
  // Ordered keys (dates, hours, levels) are ASCII: a plain comparison, not the collator (18k keys a year).
  if (plan.ordered) entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  else {
    // Each row's size worked out once, not at every comparison.
    const sizes = new Map(
      entries.map(([key, r]) => [
        key,
        Number(derive(r, sortBy ? [sortBy] : [], levels)[sortBy ?? 'conversations'] ?? 0),
      ]),
    );
    entries.sort((a, b) => sizes.get(b[0])! - sizes.get(a[0])! || collator.compare(a[0], b[0]));
  }
  if (plan.ordered && plan.axis === 'key') entries.sort((a, b) => Number(a[0]) - Number(b[0]));
  if (entries.length > ANALYSIS_LIMITS.maxRows) {
    const other: Raw = {};
    for (const [, r] of entries.slice(ANALYSIS_LIMITS.maxRows - 1)) addRaw(other, r);
    entries = [...entries.slice(0, ANALYSIS_LIMITS.maxRows - 1), ['~other', other]];
  }
  return { entries };
}

/** The total raw sums of a plan. */
const totalOf = (plan: Plan): Raw => {
  if (plan.total) return plan.total;
  const t: Raw = {};
  for (const c of plan.rows) addRaw(t, c.sums);
  return t;
};

/** The departments, agents and access points a call's filters offer the caller. */
export async function options(db: Db, p: Principal, call: AnalysisCall): Promise<AnalysisOptionsDto> {
  const k = db.kysely;
  const def = ANALYSIS_CALLS[call];
  const s = def.scoped ? await dataScope(k, p, def.code) : ({ kind: 'all' } as const);
  const organs = s.kind === 'all' ? null : s.kind === 'organ' ? s.organs : [];
  const [timezone, organRows, agents, aps] = await Promise.all([
    tenantZone(db, p.orgi),
    k
      .selectFrom('organ')
      .select(['id', 'name'])
      .where('orgi', '=', p.orgi)
      .orderBy('sortindex')
      .orderBy('name')
      .execute(),
    repo.agentsOf(k, p.orgi, organs, organs ? [p.id] : []),
    k.selectFrom('access_point').select(['id', 'name']).where('orgi', '=', p.orgi).orderBy('name').execute(),
  ]);
  return {
    timezone,
    organs: organs ? organRows.filter((o) => organs.includes(o.id)) : organRows,
    agents: agents.sort((a, b) => collator.compare(a.name, b.name)),
    appids: aps,
  };
}

export async function analyse(
  db: Db,
  p: Principal,
  call: AnalysisCall,
  q: Query,
  now = Date.now(),
): Promise<AnalysisResultDto> {
  const def = ANALYSIS_CALLS[call];
  const dim = q.dim || def.dims[0]!;
  if (!(def.dims as readonly string[]).includes(dim))
    throw badRequest('dimension_unknown', { dim: 'dimension_unknown' });
  const range = rangeOf(q);
  const k = db.kysely;
  const accepts = (x: string) => (def.filters as readonly string[]).includes(x);
  const scope = def.scoped ? await scopeOf(k, p, def.code, q) : null;
  // The satisfaction levels matter to the satisfaction figures and the rating levels only.
  const figures = figuresFor(call, dim);
  const chart = chartFor(call, dim);
  const needsLevels =
    call === 'dereeList' || [...figures, ...chart].some((f) => f === 'satisfied' || f === 'satisfactionRate');
  const [tz, sat] = await Promise.all([
    tenantZone(db, p.orgi),
    needsLevels ? satisfactionSettings(db, p.orgi) : null,
  ]);
  const levels = sat ? sat.levels.map((l) => l.name) : [];
  const filter = (r: Range): repo.RollupFilter => ({
    orgi: p.orgi,
    from: r.from,
    to: r.to,
    organ: accepts('organ') ? q.organ : null,
    agentno: accepts('agentno') ? q.agentno : null,
    channel: accepts('channel') ? q.channel : null,
    appid: accepts('appid') ? q.appid : null,
    scope,
  });
  const ctx: Ctx = { db, k, p, f: filter(range), tz, levels, now };
  const plan = await planOf(ctx, call, dim, q, true);
  const entries = plan.entries ?? rowsOf(plan, figures[0], levels.length).entries;
  const nameMap = await plan.names(entries.map(([key]) => key).filter((x) => x !== '~other'));
  const rows: AnalysisRowDto[] = entries.map(([key, raw]) => ({
    key,
    name: nameMap.get(key) ?? '',
    figures: derive(raw, figures, levels.length),
  }));

  const buckets =
    plan.axis === 'key'
      ? plan.buckets!
      : Array.from({ length: range.to - range.from + 1 }, (_, i) => dateOfDay(range.from + i));
  const byBucket = new Map<string, Raw>(buckets.map((b) => [b, {}]));
  for (const c of plan.axis === 'key' ? plan.rows : plan.days) {
    const b = plan.axis === 'key' ? c.key : dateOfDay(c.day);
    const r = byBucket.get(b);
    if (r) addRaw(r, c.sums);
  }
  const series: AnalysisResultDto['series'] = {};
  // One derivation per bucket for all the chart's figures (a year is 365 buckets).
  const perBucket = buckets.map((b) => derive(byBucket.get(b)!, chart, levels.length));
  for (const fig of chart) series[fig] = perBucket.map((x) => Number(x[fig] ?? 0));

  let previous = null;
  let previousBegin: string | null = null;
  let previousEnd: string | null = null;
  if (q.compare) {
    const n = range.to - range.from + 1;
    const prev = { from: range.from - n, to: range.from - 1 };
    const prevPlan = await planOf({ ...ctx, f: filter(prev) }, call, dim, q, false);
    previous = derive(totalOf(prevPlan), figures, levels.length);
    previousBegin = dateOfDay(prev.from);
    previousEnd = dateOfDay(prev.to);
  }
  return {
    call,
    dim,
    begin: q.begin,
    end: q.end,
    timezone: tz,
    figures,
    buckets,
    series,
    rows,
    total: derive(totalOf(plan), figures, levels.length),
    previous,
    previousBegin,
    previousEnd,
  };
}
