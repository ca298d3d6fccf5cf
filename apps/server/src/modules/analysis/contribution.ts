import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { ConvFacts } from './facts.js';
import { SUM_KEYS, zeroSums } from './facts.js';

type Kdb = Db['kysely'];

export type RollupTable =
  | 'stat_conv_day'
  | 'stat_conv_agent'
  | 'stat_conv_src'
  | 'stat_conv_hour'
  | 'stat_conv_dim'
  | 'stat_visit_day'
  | 'stat_visit_hour'
  | 'stat_invite_day'
  | 'stat_agent_day'
  | 'stat_agent_block'
  | 'stat_agent_total';

/** Key columns of each rollup (its primary key). */
export const KEYS: Record<RollupTable, readonly string[]> = {
  stat_conv_day: ['orgi', 'day', 'organ', 'agentno', 'channel', 'appid'],
  stat_conv_agent: ['orgi', 'day', 'organ', 'agentno'],
  stat_conv_src: ['orgi', 'day', 'channel', 'appid'],
  stat_conv_hour: ['orgi', 'day', 'hour', 'channel', 'appid'],
  stat_conv_dim: ['orgi', 'kind', 'day', 'value', 'organ', 'agentno', 'channel', 'appid'],
  stat_visit_day: ['orgi', 'kind', 'day', 'value', 'appid'],
  stat_visit_hour: ['orgi', 'day', 'hour', 'appid'],
  stat_invite_day: ['orgi', 'day', 'appid', 'agentno'],
  stat_agent_day: ['orgi', 'day', 'userid'],
  stat_agent_block: ['orgi', 'block', 'userid'],
  stat_agent_total: ['orgi', 'day'],
};

/** Days per stat_agent_block row (block = ⌊day / BLOCK_DAYS⌋; migration 0021 backfilled with the same). */
export const BLOCK_DAYS = 16;
export const blockOf = (day: number): number => Math.floor(day / BLOCK_DAYS);

export type WorkCol = 'ready_ms' | 'busy_ms' | 'notready_ms';

/** One row's worth of additions to a rollup. */
export interface Bump {
  table: RollupTable;
  key: Record<string, string | number>;
  add: Record<string, number>;
}

/** A set of bumps, merged by table and key. */
export class Bumps {
  readonly rows = new Map<string, Bump>();

  add(table: RollupTable, key: Record<string, string | number>, add: Record<string, number>, sign = 1): void {
    const id = `${table}\u0000${KEYS[table].map((c) => key[c]).join('\u0000')}`;
    let row = this.rows.get(id);
    if (!row) {
      row = { table, key, add: {} };
      this.rows.set(id, row);
    }
    for (const [c, v] of Object.entries(add)) if (v) row.add[c] = (row.add[c] ?? 0) + sign * v;
  }

  /** An agent's time on a local day: the day's row, its block's row and the tenant's total of the day. */
  agentTime(orgi: string, userid: string, day: number, col: WorkCol, ms: number): void {
    this.add('stat_agent_day', { orgi, day, userid }, { [col]: ms });
    this.add('stat_agent_block', { orgi, block: blockOf(day), userid }, { [col]: ms });
    this.add('stat_agent_total', { orgi, day }, { [col]: ms });
  }

  /** Adds (sign 1) or takes back (sign -1) a conversation's facts. */
  conversation(orgi: string, f: ConvFacts, sign: 1 | -1): void {
    const sums: Record<string, number> = {};
    for (const k of SUM_KEYS) sums[k] = f.sums[k];
    this.add(
      'stat_conv_day',
      { orgi, day: f.day, organ: f.organ, agentno: f.agentno, channel: f.channel, appid: f.appid },
      sums,
      sign,
    );
    this.add('stat_conv_agent', { orgi, day: f.day, organ: f.organ, agentno: f.agentno }, sums, sign);
    this.add('stat_conv_src', { orgi, day: f.day, channel: f.channel, appid: f.appid }, sums, sign);
    const counts = { conversations: f.sums.conversations, effective: f.sums.effective };
    this.add(
      'stat_conv_hour',
      { orgi, day: f.day, hour: f.hour, channel: f.channel, appid: f.appid },
      counts,
      sign,
    );
    for (const d of f.dims) {
      const mine = d.kind === 'opinion';
      this.add(
        'stat_conv_dim',
        {
          orgi,
          kind: d.kind,
          day: f.day,
          value: d.value,
          organ: mine ? f.organ : '',
          agentno: mine ? f.agentno : '',
          channel: f.channel,
          appid: f.appid,
        },
        counts,
        sign,
      );
    }
  }

  /** The bumps that change something. */
  effective(): Bump[] {
    return [...this.rows.values()].filter((b) => Object.values(b.add).some((v) => v !== 0));
  }
}

/** Applies bumps: insert the row, or add to it (one upsert per row, both dialects). */
export async function applyBumps(k: Kdb, bumps: readonly Bump[]): Promise<void> {
  for (const b of bumps) {
    const keys = KEYS[b.table];
    const cols = Object.keys(b.add);
    if (!cols.length) continue;
    const all = [...keys, ...cols];
    const values = [...keys.map((c) => b.key[c]), ...cols.map((c) => b.add[c])];
    await sql`insert into ${sql.table(b.table)} (${sql.join(all.map((c) => sql.ref(c)))})
      values (${sql.join(values)})
      on conflict (${sql.join(keys.map((c) => sql.ref(c)))}) do update set ${sql.join(
        cols.map((c) => sql`${sql.ref(c)} = ${sql.ref(`${b.table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`),
      )}`.execute(k);
  }
}

/** Facts as stored (compact JSON: zero sums left out). */
export function encodeFacts(f: ConvFacts): string {
  const sums: Record<string, number> = {};
  for (const k of SUM_KEYS) if (f.sums[k]) sums[k] = f.sums[k];
  return JSON.stringify({ ...f, sums });
}

export function decodeFacts(json: string): ConvFacts | null {
  if (!json) return null;
  const f = JSON.parse(json) as ConvFacts;
  const sums = zeroSums();
  for (const k of SUM_KEYS) sums[k] = f.sums[k] ?? 0;
  return { ...f, sums };
}
