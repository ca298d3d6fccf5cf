import { userDisplayName } from '@kefu/protocol';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { SUM_KEYS } from './facts.js';
import { BLOCK_DAYS } from './contribution.js';

type Kdb = Db['kysely'];

/** One summed cell of a rollup: a local day, a row key, and its raw sums. */
export interface Cell {
  day: number;
  key: string;
  sums: Record<string, number>;
}

export interface RollupFilter {
  orgi: string;
  from: number;
  to: number;
  organ?: string | null;
  agentno?: string | null;
  channel?: string | null;
  appid?: string | null;
  /** Department scope: rows of these departments, or of this agent (work statistics). */
  scope?: { organs: readonly string[]; userid: string } | null;
}

const and = (parts: RawBuilder<unknown>[]) => sql.join(parts, sql` and `);

function where(
  f: RollupFilter,
  cols: { organ?: boolean; agent?: boolean; channel?: boolean },
): RawBuilder<unknown> {
  const c: RawBuilder<unknown>[] = [sql`orgi = ${f.orgi}`, sql`day >= ${f.from}`, sql`day <= ${f.to}`];
  if (cols.organ && f.organ) c.push(sql`organ = ${f.organ}`);
  if (cols.agent && f.agentno) c.push(sql`agentno = ${f.agentno}`);
  if (cols.channel && f.channel) c.push(sql`channel = ${f.channel}`);
  if (f.appid) c.push(sql`appid = ${f.appid}`);
  if (cols.organ && f.scope) {
    const organs = f.scope.organs.length ? sql`organ in (${sql.join([...f.scope.organs])}) or ` : sql``;
    c.push(sql`(${organs}agentno = ${f.scope.userid})`);
  }
  return and(c);
}

const toCells = (rows: Array<Record<string, unknown>>, sums: readonly string[]): Cell[] =>
  rows.map((r) => ({
    day: r.day === undefined ? -1 : Number(r.day),
    key: String(r.k ?? ''),
    sums: Object.fromEntries(sums.map((s) => [s, Number(r[s] ?? 0)])),
  }));

const summed = (cols: readonly string[]) =>
  sql.join(cols.map((c) => sql`sum(${sql.ref(c)}) as ${sql.ref(c)}`));

/**
 * What a query sums: the table's rows (by the key; `day` -1) or the chart's days (by day; key ''). Two
 * small groupings instead of one by day × key: a year of an agent table is 365 × agents cells, the screen
 * needs agents + 365.
 */
export type Part = 'rows' | 'days';

/** Sums `cols` of `from` (a table and its WHERE) by `key` (null: by day) or, for part days, by day. */
async function grouped(
  k: Kdb,
  from: RawBuilder<unknown>,
  key: RawBuilder<unknown> | null,
  cols: readonly string[],
  part: Part,
): Promise<Cell[]> {
  const q =
    part === 'days' || key === null
      ? sql<Record<string, unknown>>`select day, ${summed(cols)} from ${from} group by day`
      : sql<Record<string, unknown>>`select ${key} as k, ${summed(cols)} from ${from} group by ${key}`;
  return toCells((await q.execute(k)).rows, cols);
}

export type ConvKey = 'organ' | 'agentno' | 'channel' | 'appid' | 'day';

/**
 * The conversation sums by one key column (day: by day), from the smallest grain the filters allow:
 * agent × department when no channel or website is asked for, channel × website when no department,
 * agent or department scope is, else every dimension.
 */
export function convDays(k: Kdb, f: RollupFilter, by: ConvKey, part: Part): Promise<Cell[]> {
  const key = by === 'day' ? null : sql.ref(by);
  const people = by === 'organ' || by === 'agentno';
  const from =
    people && !f.channel && !f.appid
      ? sql`stat_conv_agent where ${where(f, { organ: true, agent: true })}`
      : !people && !f.organ && !f.agentno && !f.scope
        ? sql`stat_conv_src where ${where(f, { channel: true })}`
        : sql`stat_conv_day where ${where(f, { organ: true, agent: true, channel: true })}`;
  return grouped(k, from, key, SUM_KEYS, part);
}

/** stat_conv_dim of one kind by value. */
export function convDims(k: Kdb, f: RollupFilter, kind: string, part: Part): Promise<Cell[]> {
  const opinion = kind === 'opinion';
  return grouped(
    k,
    sql`stat_conv_dim where kind = ${kind} and ${where(f, { organ: opinion, agent: opinion, channel: true })}`,
    sql`value`,
    ['conversations', 'effective'],
    part,
  );
}

/** stat_conv_hour by local hour (key null: by day). */
export const convHours = (k: Kdb, f: RollupFilter, byHour: boolean): Promise<Cell[]> =>
  grouped(
    k,
    sql`stat_conv_hour where ${where(f, { channel: true })}`,
    byHour ? sql`hour` : null,
    ['conversations', 'effective'],
    'rows',
  );

/** stat_visit_day of one kind by value (or access point; null: by day). */
export const visitDays = (
  k: Kdb,
  f: RollupFilter,
  kind: string,
  by: 'value' | 'appid' | null,
  part: Part,
): Promise<Cell[]> =>
  grouped(
    k,
    sql`stat_visit_day where kind = ${kind} and ${where(f, {})}`,
    by && sql.ref(by),
    ['visits', 'visitors'],
    part,
  );

export const visitHours = (k: Kdb, f: RollupFilter, byHour: boolean): Promise<Cell[]> =>
  grouped(k, sql`stat_visit_hour where ${where(f, {})}`, byHour ? sql`hour` : null, ['visits'], 'rows');

export const inviteDays = (k: Kdb, f: RollupFilter, by: 'appid' | null, part: Part): Promise<Cell[]> =>
  grouped(k, sql`stat_invite_day where ${where(f, {})}`, by && sql.ref(by), ['invited', 'accepted'], part);

const WORK = ['ready_ms', 'busy_ms', 'notready_ms'] as const;
const summedWork = sql.join(WORK.map((c) => sql`sum(${sql.ref(c)}) as ${sql.ref(c)}`));
const workCols = sql.join(WORK.map((c) => sql.ref(c)));
const onlyAgents = (agents: readonly string[] | null) =>
  agents ? sql` and userid in (${sql.join([...agents])})` : sql``;

/** What one read of the work rollups returns (each part only when asked for). */
export interface WorkRead {
  /** By agent (day -1). */
  byAgent: Cell[];
  /** By day (key ''). */
  byDay: Cell[];
  /** The per-agent-per-day list's first rows and whether rows lie beyond them. */
  page: { cells: Cell[]; more: boolean };
}

export interface WorkWant {
  /**
   * The work time of each agent over the range, for these agents (null: every agent with time in the
   * range, also users no longer in the tenant). Whole blocks of BLOCK_DAYS come from stat_agent_block and
   * only the days at the two ends from stat_agent_day: a year of 50 agents is about 1,900 rows, not 18,250.
   */
  byAgent?: readonly string[] | null;
  /** By day: of these agents from stat_agent_day, or ('all') of every agent from stat_agent_total. */
  byDay?: readonly string[] | 'all';
  /**
   * The first rows of the per-agent-per-day list in (day, agent) order, of these agents (null: all): every
   * row of the days up to the one holding the (`rows` + 1)-th row (the caller orders within a day).
   */
  page?: { agents: readonly string[] | null; rows: number };
}

/**
 * Reads the work rollups in one statement (one round trip on PostgreSQL): the parts asked for, told apart
 * by a `part` column (a: by agent, d: by day, p: the page's rows, c: the page's cut day).
 */
export async function workSums(k: Kdb, f: RollupFilter, want: WorkWant): Promise<WorkRead> {
  const out: WorkRead = { byAgent: [], byDay: [], page: { cells: [], more: false } };
  const parts: RawBuilder<unknown>[] = [];
  const has = (agents: readonly string[] | null | undefined): agents is readonly string[] | null =>
    agents !== undefined && (agents === null || agents.length > 0);
  if (has(want.byAgent)) {
    const only = onlyAgents(want.byAgent);
    const first = Math.ceil(f.from / BLOCK_DAYS);
    const last = Math.floor((f.to + 1) / BLOCK_DAYS) - 1;
    const days = (a: number, b: number) =>
      sql`select userid, ${workCols} from stat_agent_day
        where orgi = ${f.orgi} and day >= ${a} and day <= ${b}${only}`;
    const from =
      first <= last
        ? [
            sql`select userid, ${workCols} from stat_agent_block
              where orgi = ${f.orgi} and block >= ${first} and block <= ${last}${only}`,
            ...(f.from < first * BLOCK_DAYS ? [days(f.from, first * BLOCK_DAYS - 1)] : []),
            ...((last + 1) * BLOCK_DAYS <= f.to ? [days((last + 1) * BLOCK_DAYS, f.to)] : []),
          ]
        : [days(f.from, f.to)];
    parts.push(sql`select 'a' as part, -1 as day, userid as k, ${summedWork}
      from (${sql.join(from, sql` union all `)}) x group by userid`);
  }
  const range = sql`orgi = ${f.orgi} and day >= ${f.from} and day <= ${f.to}`;
  if (want.byDay === 'all')
    parts.push(sql`select 'd' as part, day, '' as k, ${workCols} from stat_agent_total where ${range}`);
  else if (has(want.byDay))
    parts.push(sql`select 'd' as part, day, '' as k, ${summedWork} from stat_agent_day
      where ${range}${onlyAgents(want.byDay)} group by day`);
  let cut = sql``;
  if (want.page && has(want.page.agents)) {
    const listed = sql`${range}${onlyAgents(want.page.agents)}`;
    cut = sql`with cut as (
      select day from stat_agent_day where ${listed} order by day limit 1 offset ${want.page.rows}) `;
    parts.push(sql`select 'p' as part, day, userid as k, ${workCols} from stat_agent_day
      where ${listed} and day <= coalesce((select day from cut), ${f.to})`);
    parts.push(sql`select 'c' as part, day, '' as k, 0 as ready_ms, 0 as busy_ms, 0 as notready_ms from cut`);
  }
  if (!parts.length) return out;
  const r = await sql<Record<string, unknown>>`${cut}${sql.join(parts, sql` union all `)}`.execute(k);
  const of = (part: string) =>
    toCells(
      r.rows.filter((x) => x.part === part),
      WORK,
    );
  out.byAgent = of('a');
  out.byDay = of('d').map((x) => ({ ...x, key: '' }));
  out.page = { cells: of('p'), more: r.rows.some((x) => x.part === 'c') };
  return out;
}

export const agentLasts = (k: Kdb, orgi: string, agents: readonly string[] | null) => {
  let q = k
    .selectFrom('stat_agent_last')
    .select(['userid', 'status', 'reason', 'since'])
    .where('orgi', '=', orgi);
  if (agents) {
    if (!agents.length) return Promise.resolve([]);
    q = q.where('userid', 'in', [...agents]);
  }
  return q.execute();
};

/** Agents (id, name, primary department) of the tenant, optionally those of some departments or ids. */
export async function agentsOf(
  k: Kdb,
  orgi: string,
  organs: readonly string[] | null,
  ids: readonly string[] = [],
): Promise<Array<{ id: string; name: string; organ: string | null }>> {
  if (organs && !organs.length && !ids.length) return [];
  let q = k
    .selectFrom('users')
    .select(['id', 'uname', 'nickname', 'username', 'organ'])
    .where('orgi', '=', orgi);
  if (organs)
    q = q.where((eb) =>
      eb.or([
        ...(organs.length
          ? [
              eb('organ', 'in', [...organs]),
              eb(
                'id',
                'in',
                eb
                  .selectFrom('user_organ')
                  .select('userid')
                  .where('organid', 'in', [...organs]),
              ),
            ]
          : []),
        ...(ids.length ? [eb('id', 'in', [...ids])] : []),
      ]),
    );
  return (await q.execute()).map((u) => ({ id: u.id, name: userDisplayName(u), organ: u.organ }));
}

/** id → name for the ids of a table (department, access point, tag, opinion, user). */
export async function namesOf(
  k: Kdb,
  table: 'organ' | 'access_point' | 'tag' | 'satis_opinion' | 'users',
  orgi: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const list = ids.filter(Boolean);
  if (!list.length) return new Map();
  // Users by the protocol's userDisplayName rule: uname, nickname, login name.
  const col =
    table === 'users' ? sql`coalesce(nullif(uname, ''), nullif(nickname, ''), username)` : sql.ref('name');
  const r = await sql<{ id: string; name: string }>`select id, ${col} as name from ${sql.table(table)}
    where orgi = ${orgi} and id in (${sql.join(list)})`.execute(k);
  return new Map(r.rows.map((x) => [x.id, x.name]));
}
