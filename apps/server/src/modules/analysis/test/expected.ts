import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../../platform/db/database.js';

/**
 * The figures of docs/metrics.md computed independently of the analysis module: plain SQL over the raw
 * rows (agent_service, chat_message, satis_rating, agent_service_tag, visit, invite_record,
 * agent_state_log), with local days from a zone helper of its own (Intl, not zone.ts).
 */

type Kdb = Db['kysely'];
export type Row = Record<string, number | string | null>;

/** Offsets of the zone over [from, to): the instants it changes and the offset after each. */
export function offsetSpans(tz: string, from: number, to: number): Array<{ since: number; offset: number }> {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const off = (t: number) => {
    const p = Object.fromEntries(fmt.formatToParts(new Date(t)).map((x) => [x.type, Number(x.value)]));
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!) - Math.floor(t / 60_000) * 60_000;
  };
  const out = [{ since: -Infinity, offset: off(from) }];
  for (let t = from; t < to; t += 900_000) {
    const o = off(t);
    if (o !== out[out.length - 1]!.offset) out.push({ since: t, offset: o });
  }
  return out;
}

/** Local time of a column as SQL: col + the offset in force then. */
export function localExpr(
  col: RawBuilder<unknown>,
  spans: ReturnType<typeof offsetSpans>,
): RawBuilder<number> {
  let e: RawBuilder<unknown> = sql`cast(${spans[0]!.offset} as bigint)`;
  for (const s of spans.slice(1))
    e = sql`case when ${col} >= cast(${s.since} as bigint) then cast(${s.offset} as bigint) else ${e} end`;
  return sql<number>`(${col} + ${e})`;
}
export const dayExpr = (col: RawBuilder<unknown>, spans: ReturnType<typeof offsetSpans>) =>
  sql<number>`(${localExpr(col, spans)} / 86400000)`;
export const hourExpr = (col: RawBuilder<unknown>, spans: ReturnType<typeof offsetSpans>) =>
  sql<number>`((${localExpr(col, spans)} / 3600000) % 24)`;

export const dateOf = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

const HUMAN = sql`exists (select 1 from users u where u.id = m.sender)`;

/**
 * Per conversation (ended, of the tenant): its local day and hour and every per-conversation quantity,
 * straight from the raw rows. One row per conversation.
 */
export async function conversationRows(
  k: Kdb,
  orgi: string,
  spans: ReturnType<typeof offsetSpans>,
): Promise<Row[]> {
  const r = await sql<Row>`
    select s.id, s.organ, s.agentno, s.channel, s.appid, s.province, s.country, s.city, s.browser, s.osname,
      ${dayExpr(sql.ref('s.createtime'), spans)} as day,
      ${hourExpr(sql.ref('s.createtime'), spans)} as hour,
      (select count(*) from chat_message m where m.agentserviceid = s.id and m.type = 'message' and m.calltype = 'in') as msg_in,
      (select count(*) from chat_message m where m.agentserviceid = s.id and m.type = 'message' and m.calltype = 'out' and ${HUMAN}) as msg_out,
      case when s.servicetime is null then 0 else 1 end as served,
      case when s.servicetime is null and not (s.ai = 1 and s.foragent = 0) then 1 else 0 end as abandoned,
      case when s.trans > 0 then 1 else 0 end as transfers,
      case when s.satisfaction = 1 or s.invite = 1 then 1 else 0 end as asked,
      case when s.satisfaction = 1 then 1 else 0 end as rated,
      case when s.satisfaction = 1 then s.satislevel else null end as level,
      (select min(m.createtime) from chat_message m where m.agentserviceid = s.id and m.type = 'message'
        and m.calltype = 'out' and ${HUMAN} and m.createtime >= s.servicetime) - s.servicetime as firstresp,
      case when s.servicetime is not null then s.endtime - s.servicetime else null end as serve,
      case when s.servicetime is null then null when s.ai = 1 then s.waittime else s.servicetime - s.createtime end as wait,
      s.ai, case when s.ai = 1 and s.foragent = 1 then 1 else 0 end as ai_agent,
      case when s.ai = 1 and s.foragent = 0 then 1 else 0 end as ai_only,
      (select v.engine from visit v where v.orgi = s.orgi and v.traceid = s.traceid and s.traceid <> ''
        and v.firsttime <= s.createtime order by v.firsttime desc limit 1) as engine,
      (select v.keyword from visit v where v.orgi = s.orgi and v.traceid = s.traceid and s.traceid <> ''
        and v.firsttime <= s.createtime order by v.firsttime desc limit 1) as keyword,
      (select r.opinions from satis_rating r where r.agentserviceid = s.id) as opinions
    from agent_service s where s.orgi = ${orgi} and s.status = 'end'`.execute(k);
  const resp = await sql<{ sid: string; n: number; ms: number }>`
    select x.sid, count(*) as n, sum(x.rt - case when x.fi > x.st then x.fi else x.st end) as ms from (
      select r.agentserviceid as sid, r.createtime as rt, s.servicetime as st,
        (select min(i.createtime) from chat_message i where i.agentserviceid = r.agentserviceid
          and i.type = 'message' and i.calltype = 'in' and i.seq < r.seq
          and i.seq > coalesce((select max(m.seq) from chat_message m where m.agentserviceid = r.agentserviceid
            and m.type = 'message' and m.calltype = 'out' and ${HUMAN} and m.seq < r.seq), 0)) as fi
      from chat_message r join agent_service s on s.id = r.agentserviceid
      where s.orgi = ${orgi} and s.status = 'end' and r.type = 'message' and r.calltype = 'out'
        and exists (select 1 from users u where u.id = r.sender) and r.createtime >= s.servicetime
    ) x where x.fi is not null group by x.sid`.execute(k);
  const byId = new Map(resp.rows.map((x) => [x.sid, x]));
  const tags = await sql<{
    agentserviceid: string;
    tagid: string;
  }>`select t.agentserviceid, t.tagid from agent_service_tag t
    join agent_service s on s.id = t.agentserviceid where s.orgi = ${orgi} and s.status = 'end'`.execute(k);
  const tagsOf = new Map<string, string[]>();
  for (const t of tags.rows) tagsOf.set(t.agentserviceid, [...(tagsOf.get(t.agentserviceid) ?? []), t.tagid]);
  return r.rows.map((row) => {
    const x = byId.get(String(row.id));
    const out: Row = {};
    for (const [key, v] of Object.entries(row))
      out[key] =
        typeof v === 'string' &&
        /^-?\d+$/.test(v) &&
        key !== 'level' &&
        !['id', 'organ', 'agentno', 'appid', 'keyword'].includes(key)
          ? Number(v)
          : (v as Row[string]);
    out.resp_n = x ? Number(x.n) : 0;
    out.resp_ms = x ? Number(x.ms) : 0;
    out.tags = (tagsOf.get(String(row.id)) ?? []).join(',');
    return out;
  });
}

/** Visits per local day: visits, distinct traces, and the visit rows themselves with their local day/hour. */
export async function visitRows(k: Kdb, orgi: string, spans: ReturnType<typeof offsetSpans>) {
  const rows = await sql<Row>`select appid, traceid, province, country, city, browser, os, engine, keyword,
      ${dayExpr(sql.ref('firsttime'), spans)} as day, ${hourExpr(sql.ref('firsttime'), spans)} as hour
    from visit where orgi = ${orgi}`.execute(k);
  const uniques = await sql<{
    day: number;
    appid: string;
    n: number;
  }>`select d.day, d.appid, count(distinct d.traceid) as n from (
      select ${dayExpr(sql.ref('firsttime'), spans)} as day, appid, traceid from visit where orgi = ${orgi}) d
    group by d.day, d.appid`.execute(k);
  return {
    visits: rows.rows.map((r): Row & { day: number; hour: number } => ({
      ...r,
      day: Number(r.day),
      hour: Number(r.hour),
    })),
    uniques: uniques.rows.map((u) => ({ day: Number(u.day), appid: u.appid, n: Number(u.n) })),
  };
}

export async function inviteRows(k: Kdb, orgi: string, spans: ReturnType<typeof offsetSpans>) {
  const r = await sql<{
    day: number;
    appid: string;
    invited: number;
    accepted: number;
  }>`select d.day, d.appid,
      count(*) as invited, sum(case when d.result = 'accept' then 1 else 0 end) as accepted from (
      select ${dayExpr(sql.ref('createtime'), spans)} as day, appid, result from invite_record where orgi = ${orgi}) d
    group by d.day, d.appid`.execute(k);
  return r.rows.map((x) => ({
    day: Number(x.day),
    appid: x.appid,
    invited: Number(x.invited),
    accepted: Number(x.accepted),
  }));
}

/** Consecutive state-log rows of each agent (the state held, since when, until when, what came next). */
export async function stateIntervals(k: Kdb, orgi: string) {
  const r = await sql<Row>`select userid, status, reason, since, until, next from (
      select userid, to_status as status, reason, createtime as since,
        lead(createtime) over (partition by userid order by createtime, id) as until,
        lead(to_status) over (partition by userid order by createtime, id) as next
      from agent_state_log where orgi = ${orgi}) x where until is not null`.execute(k);
  return r.rows.map((x) => ({
    userid: String(x.userid),
    status: String(x.status),
    reason: String(x.reason),
    since: Number(x.since),
    until: Number(x.until),
    next: String(x.next),
  }));
}

/** Each agent's last state-log row: the state it is still in, since when. */
export async function openStates(k: Kdb, orgi: string) {
  const r = await sql<Row>`select userid, status, since from (
      select userid, to_status as status, createtime as since,
        lead(createtime) over (partition by userid order by createtime, id) as until
      from agent_state_log where orgi = ${orgi}) x where until is null`.execute(k);
  return r.rows.map((x) => ({ userid: String(x.userid), status: String(x.status), since: Number(x.since) }));
}
