import { sql } from 'kysely';
import type { StoredAgentState } from '@kefu/protocol';
import type { Kdb } from '../conversation/engine.js';
import { chatScopeSql, organAgentsSql, type Scope } from './monitor.scope.js';

/** SQL of the monitor: live chats and agents in a scope, counters, per-agent figures of the day. */

/** A conversation with its chat entry, as the monitor lists it. */
export interface ChatRow {
  id: string;
  orgi: string;
  username: string;
  status: string;
  organ: string | null;
  agentno: string | null;
  agentusername: string;
  ai: number;
  foragent: number;
  createtime: number;
  servicetime: number | null;
  waittime: number;
  channel: string;
  browser: string;
  source: string;
  country: string;
  province: string;
  city: string;
  name: string;
  phone: string;
  lastseq: number;
  lastmessage: number | null;
  lastgetmessage: number | null;
  au_id: string;
  au_userid: string;
  au_username: string;
  au_createtime: number;
  au_servicetime: number | null;
  au_lastmsg: string;
  au_tokenum: number;
  au_over: number;
  au_visible: number;
  au_langto: string;
}

const chatColumns = [
  's.id',
  's.orgi',
  's.username',
  's.status',
  's.organ',
  's.agentno',
  's.agentusername',
  's.ai',
  's.foragent',
  's.createtime',
  's.servicetime',
  's.waittime',
  's.channel',
  's.browser',
  's.source',
  's.country',
  's.province',
  's.city',
  's.name',
  's.phone',
  's.lastseq',
  's.lastmessage',
  's.lastgetmessage',
  'u.id as au_id',
  'u.userid as au_userid',
  'u.username as au_username',
  'u.createtime as au_createtime',
  'u.servicetime as au_servicetime',
  'u.lastmsg as au_lastmsg',
  'u.tokenum as au_tokenum',
  'u.over as au_over',
  'u.visible as au_visible',
  'u.langto as au_langto',
] as const;

const chats = (k: Kdb) =>
  k
    .selectFrom('agent_service as s')
    .innerJoin('agent_user as u', 'u.agentserviceid', 's.id')
    .select(chatColumns);

/** Queued and in-service conversations in scope (the queue's FIFO order first, then the rest). */
export async function liveChats(
  k: Kdb,
  scope: Scope,
  opts: { status?: 'inqueue' | 'inservice'; ai?: boolean } = {},
): Promise<ChatRow[]> {
  let q = chats(k)
    .where('s.orgi', '=', scope.orgi)
    .where('s.status', 'in', opts.status ? [opts.status] : ['inqueue', 'inservice'])
    .where(chatScopeSql(scope, 's'));
  if (opts.ai !== undefined) q = q.where('s.ai', '=', opts.ai ? 1 : 0);
  return (await q.orderBy('s.status').orderBy('s.ordertime').execute()) as ChatRow[];
}

/** The given conversations (any status), for the live feed. */
export async function chatsById(k: Kdb, ids: readonly string[]): Promise<ChatRow[]> {
  if (ids.length === 0) return [];
  return (await chats(k).where('s.id', 'in', ids).execute()) as ChatRow[];
}

/** Where a conversation belongs, for scoping a message patch. */
export interface ChatMeta {
  id: string;
  orgi: string;
  organ: string | null;
  agentno: string | null;
  status: string;
}
export async function chatMetas(k: Kdb, ids: readonly string[]): Promise<ChatMeta[]> {
  if (ids.length === 0) return [];
  return k
    .selectFrom('agent_service')
    .select(['id', 'orgi', 'organ', 'agentno', 'status'])
    .where('id', 'in', ids)
    .execute();
}

export interface AgentRow {
  userid: string;
  orgi: string;
  status: string;
  users: number;
  maxusers: number;
  organ: string | null;
  username: string;
  uname: string;
  nickname: string;
  updatetime: number;
}

const agentQuery = (k: Kdb) =>
  k
    .selectFrom('agent_status as a')
    .innerJoin('users as u', 'u.id', 'a.userid')
    .select([
      'a.userid',
      'a.orgi',
      'a.status',
      'a.users',
      'a.maxusers',
      'u.organ',
      'u.username',
      'u.uname',
      'u.nickname',
      'a.updatetime',
    ]);

/** Agents with a state row in scope (an organ scope: primary department or members of the group). */
export async function scopeAgents(k: Kdb, scope: Scope): Promise<AgentRow[]> {
  let q = agentQuery(k).where('a.orgi', '=', scope.orgi);
  if (scope.kind === 'organ') q = q.where(sql<boolean>`a.userid in ${organAgentsSql(scope.organ)}`);
  return (await q.orderBy('u.uname').execute()) as AgentRow[];
}

export async function agentsById(k: Kdb, ids: readonly string[]): Promise<AgentRow[]> {
  if (ids.length === 0) return [];
  return (await agentQuery(k).where('a.userid', 'in', ids).execute()) as AgentRow[];
}

/** Skill-group memberships of agents (userid → organ ids, the primary one not included). */
export async function memberships(k: Kdb, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const rows = await k
    .selectFrom('user_organ')
    .select(['userid', 'organid'])
    .where('userid', 'in', ids)
    .execute();
  for (const r of rows) out.set(r.userid, [...(out.get(r.userid) ?? []), r.organid]);
  return out;
}

/** When each agent entered its current state: the last state-log row (index userid, createtime). */
export async function stateTimes(k: Kdb, ids: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (ids.length === 0) return out;
  const rows = await k
    .selectFrom('agent_state_log')
    .select(['userid', (eb) => eb.fn.max('createtime').as('t')])
    .where('userid', 'in', ids)
    .groupBy('userid')
    .execute();
  for (const r of rows) out.set(r.userid, Number(r.t));
  return out;
}

export interface OrganRow {
  id: string;
  name: string;
  parentid: string | null;
  skill: number;
}
export const organsOf = (k: Kdb, orgi: string): Promise<OrganRow[]> =>
  k
    .selectFrom('organ')
    .select(['id', 'name', 'parentid', 'skill'])
    .where('orgi', '=', orgi)
    .orderBy('sortindex')
    .orderBy('name')
    .execute();

/** Open leave messages in scope: of the scope's access points, or allocated to its agents. */
export async function openLeaveMessages(k: Kdb, scope: Scope): Promise<number> {
  let q = k
    .selectFrom('leave_message as m')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('m.orgi', '=', scope.orgi)
    .where('m.status', '!=', 'done');
  if (scope.kind === 'organ') {
    const organ = scope.organ;
    q = q.where(
      sql<boolean>`(m.appid in (select id from access_point where organ = ${organ})
        or m.agentno in ${organAgentsSql(organ)})`,
    );
  }
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/** Per-agent figures of the day (conversations served since `since`). */
export interface DayFigures {
  served: number;
  firstreply: number | null;
  avgreply: number | null;
}
export async function dayFigures(
  k: Kdb,
  orgi: string,
  ids: readonly string[],
  since: number,
): Promise<Map<string, DayFigures>> {
  const out = new Map<string, DayFigures>();
  if (ids.length === 0) return out;
  const served = await k
    .selectFrom('agent_service')
    .select([
      'agentno',
      (eb) => eb.fn.countAll<number>().as('n'),
      // firstreplytime is the time of the first agent line; minus servicetime, the first response.
      sql<number | null>`avg(case when firstreplytime is not null and servicetime is not null
        then firstreplytime - servicetime end)`.as('first'),
    ])
    .where('orgi', '=', orgi)
    .where('agentno', 'in', ids)
    .where('servicetime', '>=', since)
    .groupBy('agentno')
    .execute();
  for (const r of served)
    if (r.agentno)
      out.set(r.agentno, {
        served: Number(r.n),
        firstreply: r.first === null ? null : Number(r.first) / 1000,
        avgreply: null,
      });
  // Response time: each agent line that follows a visitor line, minus that line's time (window function,
  // SQLite ≥ 3.25 and PostgreSQL), over today's conversations of these agents only.
  const replies = await sql<{ agentno: string; avg: number | null }>`
    select s.agentno, avg(x.gap) as avg from (
      select agentserviceid, createtime - lag(createtime) over w as gap, calltype,
        lag(calltype) over w as prevcall
      from chat_message
      where agentserviceid in (select id from agent_service where orgi = ${orgi} and servicetime >= ${since}
        and agentno in (${sql.join(ids)}))
      window w as (partition by agentserviceid order by seq)
    ) x join agent_service s on s.id = x.agentserviceid
    where x.calltype = 'out' and x.prevcall = 'in'
    group by s.agentno`.execute(k);
  for (const r of replies.rows) {
    const f = out.get(r.agentno) ?? { served: 0, firstreply: null, avgreply: null };
    f.avgreply = r.avg === null ? null : Number(r.avg) / 1000;
    out.set(r.agentno, f);
  }
  return out;
}

export const toStoredState = (s: string): StoredAgentState =>
  s === 'ready' || s === 'busy' ? s : 'notready';

/** Live conversations in scope by status and AI flag (the counters, without reading the rows). */
export async function chatCounts(
  k: Kdb,
  scope: Scope,
): Promise<{ inqueue: number; service: number; ai: number }> {
  const rows = await k
    .selectFrom('agent_service')
    .select(['status', 'ai', (eb) => eb.fn.countAll<number>().as('n')])
    .where('orgi', '=', scope.orgi)
    .where('status', 'in', ['inqueue', 'inservice'])
    .where(chatScopeSql(scope))
    .groupBy(['status', 'ai'])
    .execute();
  const out = { inqueue: 0, service: 0, ai: 0 };
  for (const r of rows) {
    const n = Number(r.n);
    if (r.status === 'inqueue') out.inqueue += n;
    else out.service += n;
    if (r.ai) out.ai += n;
  }
  return out;
}

/** A conversation whose visitor waits (for a reply, or in the queue) since `since`. */
export interface Waiting {
  id: string;
  organ: string | null;
  agentno: string | null;
  agentusername: string;
  username: string;
  since: number;
}

/**
 * Chats in scope whose visitor waits since before `before`: `reply` — in-service human chats whose
 * visitor's last line is unanswered (since = that line); `queue` — queued chats (since = creation).
 */
export async function waitingBefore(
  k: Kdb,
  scope: Scope,
  kind: 'reply' | 'queue',
  before: number,
): Promise<Waiting[]> {
  const since = kind === 'reply' ? 'lastmessage' : 'createtime';
  let q = k
    .selectFrom('agent_service')
    .select(['id', 'organ', 'agentno', 'agentusername', 'username', `${since} as since`])
    .where('orgi', '=', scope.orgi)
    .where('status', '=', kind === 'reply' ? 'inservice' : 'inqueue')
    .where(since, '<', before)
    .where(chatScopeSql(scope));
  if (kind === 'reply')
    q = q
      .where('ai', '=', 0)
      .where((eb) =>
        eb.or([eb('lastgetmessage', 'is', null), eb('lastgetmessage', '<', eb.ref('lastmessage'))]),
      );
  return (await q.execute()).map((r) => ({ ...r, since: Number(r.since) }));
}

/** In-service human chats whose agent has not replied since it got them, assigned before `before`. */
export async function unrepliedSince(
  k: Kdb,
  orgi: string,
  before: number,
): Promise<Array<{ id: string; organ: string | null; agentno: string; assigned: number }>> {
  const rows = await sql<{ id: string; organ: string | null; agentno: string; assigned: number }>`
    select id, organ, agentno, coalesce(transtime, servicetime) as assigned from agent_service
    where orgi = ${orgi} and status = 'inservice' and ai = 0 and agentno is not null
      and coalesce(transtime, servicetime) < ${before}
      and (lastgetmessage is null or lastgetmessage < coalesce(transtime, servicetime))`.execute(k);
  return rows.rows.map((r) => ({ ...r, assigned: Number(r.assigned) }));
}
