/**
 * B12 (statistics): N ended conversations over 365 days (2M; smoke 20k), N/2 visits, 400 state changes
 * per agent-year and a tag on one conversation in five, seeded with direct SQL; the rollups built by the
 * product's rebuild. Then, for a 365-day range, each /api/analyse call (the service in process: validation,
 * scope, rollup SQL, shaping; HTTP framing excluded) against the bare GROUP BY over the raw rows that
 * answers the same question, interleaved; p50 of each. Last, the rollup maintenance of one ended
 * conversation (six messages, a rating, a tag), applied one by one as the end hook does: µs each.
 */
import { sql, type RawBuilder } from 'kysely';
import { ANALYSIS_CALLS, type AnalysisCall } from '@kefu/protocol';
import type { Db } from '../../apps/server/src/platform/db/database.js';
import type { Principal } from '../../apps/server/src/platform/auth/principal.js';
import { analyse } from '../../apps/server/src/modules/analysis/analysis.service.js';
import { rebuildTenant } from '../../apps/server/src/modules/analysis/rebuild.js';
import { Rollups } from '../../apps/server/src/modules/analysis/rollups.js';
import { dateOfDay, localParts } from '../../apps/server/src/modules/analysis/zone.js';
import { newId } from '../../apps/server/src/platform/ids.js';
import { prepareKefuDb, type Dialect } from './lib/kefu.js';
import type { Mode, Row, Skip } from './lib/report.js';

const DAY = 86_400_000;
const SPAN = 365 * DAY;
const AGENTS = 50;
const TZ_MS = 8 * 3_600_000; // Asia/Shanghai, the default zone: no DST
const CHUNK = 100_000;

type Kdb = Db['kysely'];

/** `from … select` over i in [a, b): a recursive CTE on SQLite, generate_series on PostgreSQL. */
function series(d: Dialect, a: number, b: number, body: (i: RawBuilder<number>) => RawBuilder<unknown>) {
  const i = sql<number>`s.i`;
  return d === 'sqlite'
    ? sql`with recursive s(i) as (select ${a} union all select i + 1 from s where i < ${b - 1}) ${body(i)}`
    : body(i);
}
const from = (d: Dialect, a: number, b: number) =>
  d === 'sqlite' ? sql`from s` : sql`from generate_series(${a}::bigint, ${b - 1}::bigint) as s(i)`;

export async function seed(
  k: Kdb,
  d: Dialect,
  n: number,
  start: number,
  appid: string,
  agents: string[],
  log: (s: string) => void,
) {
  const t0 = Date.now();
  await sql`create table bench_agent (n integer primary key, id text not null)`.execute(k);
  for (const [n, id] of agents.entries()) await sql`insert into bench_agent values (${n}, ${id})`.execute(k);
  const step = Math.floor(SPAN / n);
  const t = (i: RawBuilder<number>) =>
    sql<number>`(cast(${start} as bigint) + ${i} * ${step} + (${i} * 7919) % 3600000)`;
  for (let a = 0; a < n; a += CHUNK) {
    const b = Math.min(n, a + CHUNK);
    await series(
      d,
      a,
      b,
      (i) => sql`insert into agent_service (id, orgi, userid, appid, channel, status, organ, agentno,
        createtime, servicetime, endtime, waittime, trans, invite, satisfaction, satislevel, browser, osname, country,
        province, city, traceid, ai, foragent)
      select 'c' || ${i}, 'kefu', 'v' || (${i} % 200000), ${appid},
        case ${i} % 7 when 0 then 'weixin' when 1 then 'wechat' else 'webim' end, 'end', 'org' || (${i} % 5),
        case when ${i} % 10 = 0 then null else a.id end,
        ${t(i)}, case when ${i} % 10 = 0 then null else ${t(i)} + 20000 + (${i} % 90) * 1000 end,
        ${t(i)} + 600000, case when ${i} % 10 = 0 then 0 else 20000 + (${i} % 90) * 1000 end,
        case when ${i} % 13 = 0 then 1 else 0 end, case when ${i} % 2 = 0 then 1 else 0 end,
        case when ${i} % 3 = 0 then 1 else 0 end, case when ${i} % 3 = 0 then cast(${i} % 5 + 1 as text) else null end,
        case ${i} % 4 when 0 then 'Chrome 126' when 1 then 'WeChat 8' when 2 then 'Safari 17' else 'Edge 120' end,
        case ${i} % 3 when 0 then 'Windows 10' when 1 then 'iOS 17.0' else 'Android 13' end,
        '中国', case ${i} % 6 when 0 then '广东省' when 1 then '北京' when 2 then '浙江省' when 3 then '上海' when 4 then '江苏省' else '四川省' end,
        '', 't' || (${i} % 100000), case when ${i} % 20 = 0 then 1 else 0 end, case when ${i} % 40 = 0 then 1 else 0 end
      ${from(d, a, b)} join bench_agent a on a.n = ${i} % ${AGENTS}`,
    ).execute(k);
    await series(
      d,
      a,
      b,
      (i) => sql`insert into agent_service_tag (agentserviceid, tagid, orgi, creater, createtime)
      select 'c' || ${i}, 'tag' || (${i} % 4), 'kefu', 'bench', ${t(i)} ${from(d, a, b)} where ${i} % 5 = 0`,
    ).execute(k);
    if (a < n / 2) {
      const vb = Math.min(b, Math.ceil(n / 2));
      const vt = (i: RawBuilder<number>) =>
        sql<number>`(cast(${start} as bigint) + ${i} * ${step * 2} + (${i} * 104729) % 3600000)`;
      await series(
        d,
        a,
        vb,
        (i) => sql`insert into visit (id, orgi, appid, traceid, firsttime, day, hour, province,
          country, city, browser, os, engine, keyword)
        select 'v' || ${i}, 'kefu', ${appid}, 't' || (${i} % 100000), ${vt(i)}, (${vt(i)} + ${TZ_MS}) / ${DAY},
          ((${vt(i)} + ${TZ_MS}) / 3600000) % 24,
          case ${i} % 6 when 0 then '广东省' when 1 then '北京' when 2 then '浙江省' when 3 then '上海' when 4 then '江苏省' else '四川省' end,
          '中国', '', case ${i} % 3 when 0 then 'Chrome' when 1 then 'WeChat' else 'Safari' end,
          case ${i} % 3 when 0 then 'Windows' when 1 then 'iOS' else 'Android' end,
          case ${i} % 4 when 0 then 'baidu' when 1 then 'google' else '' end,
          case ${i} % 4 when 0 then 'kw' || (${i} % 50) when 1 then 'q' || (${i} % 20) else '' end
        ${from(d, a, vb)}`,
      ).execute(k);
    }
    log(`  seeded ${b.toLocaleString()} conversations (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  // The state log: 400 changes per agent over the year, cycling ready → busy → not ready (a break) → ready.
  const changes = AGENTS * 400;
  const ls = Math.floor(SPAN / 400);
  await series(
    d,
    0,
    changes,
    (i) => sql`insert into agent_state_log (orgi, userid, from_status, to_status, reason, createtime)
    select 'kefu', a.id, '', case (${i} / ${AGENTS}) % 4 when 0 then 'ready' when 1 then 'busy' when 2 then 'notready' else 'ready' end,
      case (${i} / ${AGENTS}) % 4 when 2 then 'notready' else 'socket' end,
      cast(${start} as bigint) + (${i} / ${AGENTS}) * ${ls} + (${i} % ${AGENTS}) * 1000
    ${from(d, 0, changes)} join bench_agent a on a.n = ${i} % ${AGENTS}`,
  ).execute(k);
  for (let j = 0; j < 4; j++) {
    const now = Date.now();
    await k
      .insertInto('tag')
      .values({
        id: `tag${j}`,
        orgi: 'kefu',
        name: `标签${j}`,
        color: '',
        tagtype: 'summary',
        creater: 'bench',
        createtime: now,
        updatetime: now,
      })
      .execute();
  }
  if (d === 'postgres') await sql`analyze`.execute(k);
}

/** The bare GROUP BY over the raw rows answering each call's question for the range. */
function bare(call: AnalysisCall, a: number, b: number): RawBuilder<unknown> | null {
  const conv = (by: RawBuilder<unknown>, extra = sql``) => sql`select ${by} as k, count(*) as n,
      sum(case when servicetime is null then 1 else 0 end) as abandoned, sum(trans) as trans, sum(satisfaction) as rated,
      sum(case when satislevel in ('1', '2') then 1 else 0 end) as satisfied, sum(servicetime - createtime) as wait,
      sum(endtime - servicetime) as serve
    from agent_service where orgi = 'kefu' and status = 'end' and createtime >= ${a} and createtime < ${b}${extra}
    group by ${by}`;
  const day = sql`(createtime + ${TZ_MS}) / ${DAY}`;
  switch (call) {
    case 'userDegree':
      return conv(sql`agentno`);
    case 'organDegree':
      return conv(sql`organ`);
    case 'channelCount':
      return conv(sql`channel`);
    case 'snsidCount':
      return conv(sql`appid`);
    case 'dateCount':
    case 'aiDegree':
      return conv(day, call === 'aiDegree' ? sql` and ai = 1` : sql``);
    case 'dereeList':
      return conv(sql`satislevel`);
    case 'regionList':
      return conv(sql`province`);
    case 'browserData':
      return conv(sql`browser`);
    case 'osnameData':
      return conv(sql`osname`);
    case 'visitor':
      return conv(sql`((createtime + ${TZ_MS}) / 3600000) % 24`);
    case 'labelList':
      return sql`select t.tagid as k, count(*) as n from agent_service_tag t join agent_service s on s.id = t.agentserviceid
        where s.orgi = 'kefu' and s.status = 'end' and s.createtime >= ${a} and s.createtime < ${b} group by t.tagid`;
    case 'searcheEngine':
      return sql`select engine as k, count(*) as n from visit where orgi = 'kefu' and firsttime >= ${a} and firsttime < ${b}
        group by engine`;
    case 'workLog':
    case 'workLogList':
    case 'workOrganLog':
      return sql`select userid as k, sum(case when to_status = 'ready' then nxt - createtime else 0 end) as ready,
          sum(case when to_status = 'busy' then nxt - createtime else 0 end) as busy from (
          select userid, to_status, createtime, lead(createtime) over (partition by userid order by createtime, id) as nxt
          from agent_state_log where orgi = 'kefu' and createtime >= ${a} and createtime < ${b}) x
        where nxt is not null group by userid`;
    default:
      return null;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function timed(run: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** One ended conversation with six messages, a rating and a tag, as the hooks see it; µs to apply it. */
export async function maintenance(db: Db, agents: string[], count: number): Promise<number> {
  const k = db.kysely;
  const r = new Rollups(db);
  const now = Date.now();
  const ids: string[] = [];
  for (let j = 0; j < count; j++) {
    const id = newId();
    ids.push(id);
    const agent = agents[j % agents.length]!;
    await k
      .insertInto('agent_service')
      .values({
        id,
        orgi: 'kefu',
        userid: `mv${j}`,
        appid: 'app',
        status: 'end',
        organ: 'org1',
        agentno: agent,
        createtime: now - 600_000,
        servicetime: now - 590_000,
        endtime: now,
        satisfaction: 1,
        satislevel: '2',
        invite: 1,
        traceid: `t${j % 1000}`,
      })
      .execute();
    await k
      .insertInto('chat_message')
      .values(
        Array.from({ length: 6 }, (_, s) => ({
          id: newId(),
          orgi: 'kefu',
          agentserviceid: id,
          seq: s + 1,
          sender: s % 2 ? agent : `mv${j}`,
          client_id: newId(),
          usession: `mv${j}`,
          type: 'message',
          msgtype: 'text',
          calltype: s % 2 ? 'out' : 'in',
          message: 'x',
          attachmentid: null,
          filename: null,
          filesize: null,
          withdrawn_at: null,
          createtime: now - 580_000 + s * 10_000,
          tokens: '',
        })),
      )
      .execute();
    await k
      .insertInto('agent_service_tag')
      .values({ agentserviceid: id, tagid: 'tag1', orgi: 'kefu', creater: agent, createtime: now })
      .execute();
  }
  // The bulk load's WAL is checkpointed first, so its flush is not charged to the conversations timed.
  if (db.sqlite) db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const t0 = process.hrtime.bigint();
  for (const id of ids) await r.applyConversations('kefu', [id]);
  return Number(process.hrtime.bigint() - t0) / 1e3 / count;
}

/**
 * Narrowing a run (bench/src/run.ts): `--b12-conversations=N` seeds N conversations instead of 2M (the
 * state log stays 50 agents × 365 days), `--b12-calls=workLog,workLogList` times only those calls.
 */
export interface B12Options {
  conversations?: number;
  calls?: readonly string[];
}

export async function analysisCalls(
  dialect: Dialect,
  mode: Mode,
  log: (s: string) => void,
  opts: B12Options = {},
): Promise<Row[] | Skip> {
  const n = opts.conversations ?? (mode.smoke ? 5_000 : 2_000_000);
  const kdb = await prepareKefuDb(dialect, AGENTS, 10);
  const db = kdb.open();
  const rows: Row[] = [];
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  try {
    const end = Date.now();
    const start = end - SPAN;
    await seed(db.kysely, dialect, n, start, kdb.appid, kdb.agentIds, log);
    const rb = await rebuildTenant(db, 'kefu');
    log(
      `  rebuild: ${rb.conversations} conversations, ${rb.visits} visits, ${rb.stateChanges} state changes → ${rb.rows} rollup rows in ${(rb.ms / 1000).toFixed(1)} s`,
    );
    rows.push({
      id: 'B12',
      metric: `rollup rebuild, ${n.toLocaleString()} conversations (${label})`,
      unit: 's',
      baseline: null,
      ours: rb.ms / 1000,
      ratio: null,
      target: '–',
      holds: null,
    });

    const today = localParts(end, 'Asia/Shanghai').day;
    const q = { begin: dateOfDay(today - 364), end: dateOfDay(today) };
    const a = start;
    const b = end + DAY;
    const admin: Principal = {
      id: 'bench',
      orgi: 'kefu',
      username: 'admin',
      uname: 'admin',
      usertype: '0',
      superuser: true,
      organ: null,
      language: 'zh',
      auth: {},
      token: '',
    };
    const runs = mode.smoke ? 2 : 7;
    for (const call of Object.keys(ANALYSIS_CALLS) as AnalysisCall[]) {
      if (opts.calls && !opts.calls.includes(call)) continue;
      const base = bare(call, a, b);
      if (!base) continue;
      const ours: number[] = [];
      const raw: number[] = [];
      await analyse(db, admin, call, q); // warm
      for (let i = 0; i < runs; i++) {
        raw.push(await timed(() => base.execute(db.kysely)));
        ours.push(await timed(() => analyse(db, admin, call, { ...q, compare: false })));
      }
      const p50 = median(ours);
      const bp50 = median(raw);
      const speed = bp50 / p50;
      rows.push({
        id: 'B12',
        metric: `${call}, 365 days (${label}): p50 ms; ratio = bare GROUP BY ÷ call`,
        unit: 'ms',
        baseline: bp50,
        ours: p50,
        ratio: speed,
        target: '≤ 100 ms, ≥ 5×',
        holds: p50 <= 100 && speed >= 5,
      });
      log(`  ${call}: ${p50.toFixed(1)} ms vs bare ${bp50.toFixed(1)} ms (${speed.toFixed(1)}×)`);
    }
    const us = await maintenance(db, kdb.agentIds, mode.smoke ? 50 : 1_000);
    rows.push({
      id: 'B12',
      metric: `rollup maintenance per ended conversation (${label})`,
      unit: 'µs',
      baseline: null,
      ours: us,
      ratio: null,
      target: '–',
      holds: null,
    });
    log(`  maintenance: ${us.toFixed(0)} µs per ended conversation`);
    return rows;
  } finally {
    await db.close();
    await kdb.drop();
  }
}
