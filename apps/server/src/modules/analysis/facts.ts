import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { ConvSums } from '../../platform/db/schema-analysis.js';
import { localParts } from './zone.js';
import { userAgentOf } from './visit-info.js';

type Kdb = Db['kysely'];

/**
 * What one conversation contributes to the rollups, worked out from its raw rows (docs/metrics.md defines
 * each figure). Stored with the conversation (stat_conv.facts) so that a later change replaces exactly
 * what was added.
 */
export interface ConvFacts {
  day: number;
  hour: number;
  organ: string;
  agentno: string;
  channel: string;
  appid: string;
  sums: ConvSums;
  /** Dimension values: region, browser, … one each; tags and opinions any number. */
  dims: Array<{ kind: DimKind; value: string }>;
}

export type DimKind = 'province' | 'city' | 'browser' | 'os' | 'engine' | 'keyword' | 'tag' | 'opinion';

export const zeroSums = (): ConvSums => ({
  conversations: 0,
  effective: 0,
  served: 0,
  abandoned: 0,
  transfers: 0,
  asked: 0,
  rated: 0,
  l1: 0,
  l2: 0,
  l3: 0,
  l4: 0,
  l5: 0,
  firstresp_n: 0,
  firstresp_ms: 0,
  resp_n: 0,
  resp_ms: 0,
  serve_ms: 0,
  wait_n: 0,
  wait_ms: 0,
  msg_in: 0,
  msg_out: 0,
  ai: 0,
  ai_agent: 0,
  ai_only: 0,
});
export const SUM_KEYS = Object.keys(zeroSums()) as Array<keyof ConvSums>;

interface ServiceRow {
  id: string;
  orgi: string;
  status: string;
  organ: string | null;
  agentno: string | null;
  channel: string;
  appid: string;
  createtime: number;
  servicetime: number | null;
  endtime: number | null;
  waittime: number;
  trans: number;
  invite: number;
  satisfaction: number;
  satislevel: string | null;
  ai: number;
  foragent: number;
  traceid: string;
  browser: string;
  osname: string;
  country: string;
  province: string;
  city: string;
}

/** A message that matters to response times: a visitor line, or an agent's (a person's) reply. */
export interface TimedLine {
  createtime: number;
  /** true: an agent's reply; false: the visitor's message. */
  reply: boolean;
}

/**
 * First-response and response intervals of the human service. Lines before the assignment wait from the
 * assignment on (queue and robot time excluded); each reply that follows unanswered visitor lines closes
 * one interval from the first of them.
 */
export function responseTimes(lines: readonly TimedLine[], servicetime: number | null) {
  const out = { firstresp_n: 0, firstresp_ms: 0, resp_n: 0, resp_ms: 0 };
  if (servicetime === null) return out;
  let waitingSince: number | null = null;
  for (const l of lines) {
    if (!l.reply) {
      if (waitingSince === null) waitingSince = Math.max(l.createtime, servicetime);
      continue;
    }
    if (l.createtime < servicetime) continue;
    if (out.firstresp_n === 0) {
      out.firstresp_n = 1;
      out.firstresp_ms = l.createtime - servicetime;
    }
    if (waitingSince !== null) {
      out.resp_n += 1;
      out.resp_ms += Math.max(0, l.createtime - waitingSince);
      waitingSince = null;
    }
  }
  return out;
}

/** A browser/OS column that still holds a raw user agent (rows from before 0013) gives its name. */
const nameOf = (v: string, part: 'browser' | 'os'): string =>
  v.includes('/') ? userAgentOf(v)[part] : v.replace(/\s+[\d._]+$/, '');

/** The facts of ended conversations by id (those not ended, or gone, are absent). Set-wise: five queries. */
export async function conversationFacts(
  k: Kdb,
  ids: readonly string[],
  tz: string,
): Promise<Map<string, ConvFacts>> {
  const out = new Map<string, ConvFacts>();
  if (!ids.length) return out;
  const services = (await k
    .selectFrom('agent_service')
    .select(SERVICE_COLUMNS)
    .where('id', 'in', ids)
    .where('status', '=', 'end')
    .execute()) as ServiceRow[];
  if (!services.length) return out;
  const ended = services.map((s) => s.id);
  const traced = services.filter((s) => s.traceid);
  const [lines, tags, ratings, visits] = await Promise.all([
    sql<{ agentserviceid: string; createtime: number; reply: number }>`select m.agentserviceid, m.createtime,
        case when m.calltype = 'out' then 1 else 0 end as reply
      from chat_message m
      where m.agentserviceid in (${sql.join(ended)}) and m.type = 'message'
        and (m.calltype = 'in' or (m.calltype = 'out' and exists (select 1 from users u where u.id = m.sender)))
      order by m.agentserviceid, m.seq`.execute(k),
    k
      .selectFrom('agent_service_tag')
      .select(['agentserviceid', 'tagid'])
      .where('agentserviceid', 'in', ended)
      .execute(),
    k
      .selectFrom('satis_rating')
      .select(['agentserviceid', 'opinions'])
      .where('agentserviceid', 'in', ended)
      .execute(),
    traced.length
      ? k
          .selectFrom('visit')
          .select(['traceid', 'firsttime', 'engine', 'keyword'])
          .where('orgi', '=', services[0]!.orgi)
          .where('traceid', 'in', [...new Set(traced.map((s) => s.traceid))])
          .execute()
      : Promise.resolve([]),
  ]);
  const linesOf = group(lines.rows, (r) => r.agentserviceid);
  const tagsOf = group(tags, (r) => r.agentserviceid);
  const ratingOf = new Map(ratings.map((r) => [r.agentserviceid, r.opinions]));
  const visitsOf = group(visits, (r) => r.traceid);
  for (const s of services) {
    const timed = (linesOf.get(s.id) ?? []).map((r) => ({
      createtime: Number(r.createtime),
      reply: Number(r.reply) === 1,
    }));
    const createtime = Number(s.createtime);
    // The visit the conversation came from: the trace's latest visit begun before it.
    let visit: { engine: string; keyword: string } | undefined;
    let best = -Infinity;
    for (const v of visitsOf.get(s.traceid) ?? []) {
      const t = Number(v.firsttime);
      if (t <= createtime && t > best) {
        best = t;
        visit = v;
      }
    }
    out.set(
      s.id,
      factsOf(
        s,
        timed,
        (tagsOf.get(s.id) ?? []).map((t) => t.tagid),
        ratingOf.get(s.id),
        visit,
        tz,
      ),
    );
  }
  return out;
}

const SERVICE_COLUMNS = [
  'id',
  'orgi',
  'status',
  'organ',
  'agentno',
  'channel',
  'appid',
  'createtime',
  'servicetime',
  'endtime',
  'waittime',
  'trans',
  'invite',
  'satisfaction',
  'satislevel',
  'ai',
  'foragent',
  'traceid',
  'browser',
  'osname',
  'country',
  'province',
  'city',
] as const;

function group<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

function factsOf(
  s: ServiceRow,
  timed: TimedLine[],
  tagids: string[],
  opinions: string | undefined,
  visit: { engine: string; keyword: string } | undefined,
  tz: string,
): ConvFacts {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const createtime = Number(s.createtime);
  const servicetime = num(s.servicetime);
  const endtime = num(s.endtime);
  const sums = zeroSums();
  const served = servicetime !== null;
  const ai = Number(s.ai) === 1;
  const foragent = Number(s.foragent) === 1;
  sums.conversations = 1;
  sums.msg_in = timed.filter((l) => !l.reply).length;
  sums.msg_out = timed.length - sums.msg_in;
  sums.effective = sums.msg_out > 0 ? 1 : 0;
  sums.served = served ? 1 : 0;
  sums.abandoned = !served && !(ai && !foragent) ? 1 : 0;
  sums.transfers = Number(s.trans) > 0 ? 1 : 0;
  const rated = Number(s.satisfaction) === 1;
  sums.rated = rated ? 1 : 0;
  sums.asked = rated || Number(s.invite) === 1 ? 1 : 0;
  const level = rated ? Number(s.satislevel) : 0;
  if (level >= 1 && level <= 5) sums[`l${level}` as 'l1'] = 1;
  Object.assign(sums, responseTimes(timed, servicetime));
  if (servicetime !== null) {
    if (endtime !== null) sums.serve_ms = Math.max(0, endtime - servicetime);
    sums.wait_n = 1;
    sums.wait_ms = ai ? Number(s.waittime) : Math.max(0, servicetime - createtime);
  }
  sums.ai = ai ? 1 : 0;
  sums.ai_agent = ai && foragent ? 1 : 0;
  sums.ai_only = ai && !foragent ? 1 : 0;

  const region = s.province || s.country;
  const dims: ConvFacts['dims'] = [
    { kind: 'province', value: region },
    { kind: 'city', value: s.city || region },
    { kind: 'browser', value: nameOf(s.browser, 'browser') },
    { kind: 'os', value: nameOf(s.osname, 'os') },
    { kind: 'engine', value: visit?.engine ?? '' },
  ];
  if (visit?.engine) dims.push({ kind: 'keyword', value: visit.keyword });
  for (const t of new Set(tagids)) dims.push({ kind: 'tag', value: t });
  for (const o of opinionIds(opinions)) dims.push({ kind: 'opinion', value: o });
  const { day, hour } = localParts(createtime, tz);
  return {
    day,
    hour,
    organ: s.organ ?? '',
    agentno: s.agentno ?? '',
    channel: s.channel,
    appid: s.appid,
    sums,
    dims,
  };
}

function opinionIds(json: string | undefined): string[] {
  if (!json) return [];
  try {
    const list = JSON.parse(json) as Array<{ id?: unknown }>;
    return [...new Set(list.flatMap((o) => (typeof o.id === 'string' && o.id ? [o.id] : [])))];
  } catch {
    return [];
  }
}
