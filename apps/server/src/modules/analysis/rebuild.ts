import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { conversationFacts } from './facts.js';
import { Bumps, encodeFacts, KEYS, type Bump, type RollupTable } from './contribution.js';
import { stateTime, visitBumps, type AgentLast } from './rollups.js';
import { localParts } from './zone.js';
import { forgetZones, tenantZone } from './tenant-zone.js';

type Kdb = Db['kysely'];

const TABLES: readonly RollupTable[] = Object.keys(KEYS) as RollupTable[];
const CHUNK = 2_000;

export interface RebuildReport {
  orgi: string;
  conversations: number;
  visits: number;
  stateChanges: number;
  invites: number;
  rows: number;
  ms: number;
}

/** Inserts rows of one shape in multi-row statements (tables just emptied: no conflicts). */
async function insertMany(
  k: Kdb,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  if (!rows.length) return;
  const cols = Object.keys(rows[0]!);
  const per = Math.max(1, Math.floor(900 / cols.length));
  for (let i = 0; i < rows.length; i += per) {
    const part = rows.slice(i, i + per);
    await sql`insert into ${sql.table(table)} (${sql.join(cols.map((c) => sql.ref(c)))}) values ${sql.join(
      part.map((r) => sql`(${sql.join(cols.map((c) => r[c]))})`),
    )}`.execute(k);
  }
}

async function writeBumps(k: Kdb, bumps: readonly Bump[]): Promise<number> {
  const byShape = new Map<string, Array<Record<string, unknown>>>();
  for (const b of bumps) {
    const row = { ...b.key, ...b.add };
    const shape = `${b.table}:${Object.keys(row).join(',')}`;
    const list = byShape.get(shape) ?? [];
    list.push(row);
    byShape.set(shape, list);
  }
  for (const [shape, rows] of byShape) await insertMany(k, shape.slice(0, shape.indexOf(':')), rows);
  return bumps.length;
}

/**
 * Rebuilds one tenant's rollups from the raw rows (conversations, visits, the agent state log,
 * invitations), in the tenant's current time zone: what the incremental maintenance would have produced
 * had it seen everything. Run by `npm run analysis:rebuild` (after a change of time zone, or to repair).
 */
export async function rebuildTenant(db: Db, orgi: string): Promise<RebuildReport> {
  const t0 = Date.now();
  forgetZones(db);
  const tz = await tenantZone(db, orgi);
  const k = db.kysely;
  const b = new Bumps();
  const report = { orgi, conversations: 0, visits: 0, stateChanges: 0, invites: 0, rows: 0, ms: 0 };
  await k.deleteFrom('stat_conv').where('orgi', '=', orgi).execute();
  for (const t of TABLES) await sql`delete from ${sql.table(t)} where orgi = ${orgi}`.execute(k);
  await k.deleteFrom('stat_agent_last').where('orgi', '=', orgi).execute();

  // Conversations, by id pages.
  let after = '';
  const now = Date.now();
  for (;;) {
    const ids = (
      await k
        .selectFrom('agent_service')
        .select('id')
        .where('orgi', '=', orgi)
        .where('status', '=', 'end')
        .where('id', '>', after)
        .orderBy('id')
        .limit(CHUNK)
        .execute()
    ).map((r) => r.id);
    if (!ids.length) break;
    after = ids[ids.length - 1]!;
    const facts = await conversationFacts(k, ids, tz);
    const rows: Array<Record<string, unknown>> = [];
    for (const [id, f] of facts) {
      b.conversation(orgi, f, 1);
      rows.push({ id, orgi, facts: encodeFacts(f), updatetime: now });
    }
    await insertMany(k, 'stat_conv', rows);
    report.conversations += facts.size;
  }

  // Visits in trace order (the visit_trace index): a visitor counts once per access point and local day,
  // told apart in the stream without a query per visit.
  let trace = '';
  let counted = new Set<string>();
  let vAfter: [string, number, string] = ['', -1, ''];
  for (;;) {
    const [tr, ft, vid] = vAfter;
    const visits = await k
      .selectFrom('visit')
      .selectAll()
      .where('orgi', '=', orgi)
      .where((eb) =>
        eb.or([
          eb('traceid', '>', tr),
          eb.and([eb('traceid', '=', tr), eb('firsttime', '>', ft)]),
          eb.and([eb('traceid', '=', tr), eb('firsttime', '=', ft), eb('id', '>', vid)]),
        ]),
      )
      .orderBy('traceid')
      .orderBy('firsttime')
      .orderBy('id')
      .limit(CHUNK)
      .execute();
    if (!visits.length) break;
    const last = visits[visits.length - 1]!;
    vAfter = [last.traceid, Number(last.firsttime), last.id];
    for (const v of visits) {
      const { day, hour } = localParts(Number(v.firsttime), tz);
      if (day !== Number(v.day) || hour !== Number(v.hour))
        await k.updateTable('visit').set({ day, hour }).where('id', '=', v.id).execute();
      if (v.traceid !== trace) {
        trace = v.traceid;
        counted = new Set();
      }
      const key = `${v.appid}\n${day}`;
      visitBumps(b, orgi, { ...v, day, hour }, !counted.has(key));
      counted.add(key);
      report.visits++;
    }
  }

  // The agent state log, per agent in time order.
  let prevUser = '';
  let prev: AgentLast | null = null;
  const lasts: Array<Record<string, unknown>> = [];
  const flushLast = () => {
    if (prev && prevUser) lasts.push({ userid: prevUser, orgi, ...prev });
  };
  let lAfter: [string, number, number] = ['', -1, -1];
  for (;;) {
    const [u, t, i] = lAfter;
    const log = await k
      .selectFrom('agent_state_log')
      .select(['id', 'userid', 'to_status', 'reason', 'createtime'])
      .where('orgi', '=', orgi)
      .where((eb) =>
        eb.or([
          eb('userid', '>', u),
          eb.and([eb('userid', '=', u), eb('createtime', '>', t)]),
          eb.and([eb('userid', '=', u), eb('createtime', '=', t), eb('id', '>', i)]),
        ]),
      )
      .orderBy('userid')
      .orderBy('createtime')
      .orderBy('id')
      .limit(CHUNK)
      .execute();
    if (!log.length) break;
    for (const r of log) {
      const at = Number(r.createtime);
      if (r.userid !== prevUser) {
        flushLast();
        prevUser = r.userid;
        prev = null;
      }
      if (prev)
        stateTime(prev, at, r.to_status, tz, (day, col, ms) => b.agentTime(orgi, r.userid, day, col, ms));
      prev = { status: r.to_status, reason: r.reason, since: at };
      report.stateChanges++;
    }
    const last = log[log.length - 1]!;
    lAfter = [last.userid, Number(last.createtime), Number(last.id)];
  }
  flushLast();
  await insertMany(k, 'stat_agent_last', lasts);

  const invites = await k
    .selectFrom('invite_record')
    .select(['appid', 'agentno', 'createtime', 'result'])
    .where('orgi', '=', orgi)
    .execute();
  for (const r of invites) {
    const key = { orgi, day: localParts(Number(r.createtime), tz).day, appid: r.appid, agentno: r.agentno };
    b.add('stat_invite_day', key, { invited: 1, accepted: r.result === 'accept' ? 1 : 0 });
    report.invites++;
  }

  report.rows = await writeBumps(k, b.effective());
  report.ms = Date.now() - t0;
  return report;
}

export async function rebuildAll(db: Db): Promise<RebuildReport[]> {
  const orgs = await db.kysely.selectFrom('organization').select('id').execute();
  const out: RebuildReport[] = [];
  for (const o of orgs) out.push(await rebuildTenant(db, o.id));
  return out;
}
