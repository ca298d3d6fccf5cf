import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { SUM_KEYS } from './facts.js';

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
    day: Number(r.day),
    key: String(r.k ?? ''),
    sums: Object.fromEntries(sums.map((s) => [s, Number(r[s] ?? 0)])),
  }));

const summed = (cols: readonly string[]) =>
  sql.join(cols.map((c) => sql`sum(${sql.ref(c)}) as ${sql.ref(c)}`));

export type ConvKey = 'organ' | 'agentno' | 'channel' | 'appid' | 'day';

/** stat_conv_day summed by day and one key column. */
export async function convDays(k: Kdb, f: RollupFilter, by: ConvKey): Promise<Cell[]> {
  const key = by === 'day' ? sql`''` : sql.ref(by);
  // PostgreSQL refuses a constant in GROUP BY: by day alone then.
  const group = by === 'day' ? sql`day` : sql`day, ${sql.ref(by)}`;
  const r = await sql<Record<string, unknown>>`select day, ${key} as k, ${summed(SUM_KEYS)}
    from stat_conv_day where ${where(f, { organ: true, agent: true, channel: true })}
    group by ${group}`.execute(k);
  return toCells(r.rows, SUM_KEYS);
}

/** stat_conv_dim of one kind summed by day and value. */
export async function convDims(k: Kdb, f: RollupFilter, kind: string): Promise<Cell[]> {
  const opinion = kind === 'opinion';
  const r = await sql<
    Record<string, unknown>
  >`select day, value as k, ${summed(['conversations', 'effective'])}
    from stat_conv_dim where kind = ${kind} and ${where(f, { organ: opinion, agent: opinion, channel: true })}
    group by day, value`.execute(k);
  return toCells(r.rows, ['conversations', 'effective']);
}

/** stat_conv_hour summed by day and local hour. */
export async function convHours(k: Kdb, f: RollupFilter): Promise<Cell[]> {
  const r = await sql<
    Record<string, unknown>
  >`select day, hour as k, ${summed(['conversations', 'effective'])}
    from stat_conv_hour where ${where(f, { channel: true })} group by day, hour`.execute(k);
  return toCells(r.rows, ['conversations', 'effective']);
}

/** stat_visit_day of one kind summed by day and value (or access point). */
export async function visitDays(
  k: Kdb,
  f: RollupFilter,
  kind: string,
  by: 'value' | 'appid' = 'value',
): Promise<Cell[]> {
  const r = await sql<
    Record<string, unknown>
  >`select day, ${sql.ref(by)} as k, ${summed(['visits', 'visitors'])}
    from stat_visit_day where kind = ${kind} and ${where(f, {})} group by day, ${sql.ref(by)}`.execute(k);
  return toCells(r.rows, ['visits', 'visitors']);
}

export async function visitHours(k: Kdb, f: RollupFilter): Promise<Cell[]> {
  const r = await sql<Record<string, unknown>>`select day, hour as k, ${summed(['visits'])}
    from stat_visit_hour where ${where(f, {})} group by day, hour`.execute(k);
  return toCells(r.rows, ['visits']);
}

export async function inviteDays(k: Kdb, f: RollupFilter, by: 'day' | 'appid' = 'day'): Promise<Cell[]> {
  const key = by === 'day' ? sql`''` : sql.ref(by);
  const group = by === 'day' ? sql`day` : sql`day, ${sql.ref(by)}`;
  const r = await sql<Record<string, unknown>>`select day, ${key} as k, ${summed(['invited', 'accepted'])}
    from stat_invite_day where ${where(f, {})} group by ${group}`.execute(k);
  return toCells(r.rows, ['invited', 'accepted']);
}

/** stat_agent_day by day and agent, for the given agents (null: all of the tenant). */
export async function agentDays(k: Kdb, f: RollupFilter, agents: readonly string[] | null): Promise<Cell[]> {
  if (agents && !agents.length) return [];
  const only = agents ? sql` and userid in (${sql.join([...agents])})` : sql``;
  const r = await sql<
    Record<string, unknown>
  >`select day, userid as k, ${summed(['ready_ms', 'busy_ms', 'notready_ms'])}
    from stat_agent_day where orgi = ${f.orgi} and day >= ${f.from} and day <= ${f.to}${only}
    group by day, userid`.execute(k);
  return toCells(r.rows, ['ready_ms', 'busy_ms', 'notready_ms']);
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
  let q = k.selectFrom('users').select(['id', 'uname', 'username', 'organ']).where('orgi', '=', orgi);
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
  return (await q.execute()).map((u) => ({ id: u.id, name: u.uname || u.username, organ: u.organ }));
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
  const col = table === 'users' ? sql`coalesce(nullif(uname, ''), username)` : sql.ref('name');
  const r = await sql<{ id: string; name: string }>`select id, ${col} as name from ${sql.table(table)}
    where orgi = ${orgi} and id in (${sql.join(list)})`.execute(k);
  return new Map(r.rows.map((x) => [x.id, x.name]));
}
