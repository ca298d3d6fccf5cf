import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type Selectable,
  type SqlBool,
} from 'kysely';
import { HISTORY_LIMITS, type HistoryFilter, type HistoryListQuery } from '@kefu/protocol';
import type { Db, Dialect } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import type { AgentServiceTable } from '../../platform/db/schema-conversations.js';
import { containsPattern } from '../../platform/db/like.js';
import { ftsMatch, tsQuery } from '../../platform/search/tokens.js';
import type { ReadQuery } from '../../platform/search/reader.js';

/**
 * The history list as SQL: the filter, the data scope, the keyword (a subquery over the message search
 * index) and the order, compiled for the search reader. Every list call and expsearch goes through here.
 */

type Kdb = Db['kysely'];
type Eb = ExpressionBuilder<Database & { s: Database['agent_service'] }, 's'>;

/** Who sees which conversations (see HISTORY_CODE in @kefu/protocol). */
export type HistoryScope =
  | { kind: 'all' }
  | { kind: 'organ'; userid: string; organs: readonly string[]; agents: readonly string[] }
  | { kind: 'own'; userid: string };

export interface Keyword {
  words: string[];
}

/** What every history statement is built for: the database, the organisation, the scope, the keyword. */
export interface Where {
  k: Kdb;
  dialect: Dialect;
  orgi: string;
  scope: HistoryScope;
  kw: Keyword | null;
}

/** The matching-message window of a keyword: ≤ searchHits newest matches, grouped by conversation. */
export function hitsSubquery(
  dialect: Dialect,
  kw: Keyword,
  begin: number | undefined,
  rank: boolean,
): RawBuilder<unknown> {
  const limit = HISTORY_LIMITS.searchHits + 1;
  if (dialect === 'sqlite') {
    // FTS row ids are ms × 65,536 (migration 0008): the date range bounds the index scan, newest first.
    // bm25() only works in the FTS query itself, so the window count is one level up.
    return sql`(select agentserviceid as sid, min(score) as score, count(*) as hits, max(msgid) as msgid,
      max(n) as n from (select f.*, count(*) over () as n from (select agentserviceid, msgid,
      ${rank ? sql`bm25(chat_message_fts)` : sql`0`} as score from chat_message_fts where chat_message_fts match ${ftsMatch(kw.words)}
      and rowid >= ${(begin ?? 0) * 65536} order by rowid desc limit ${limit}) f) m group by agentserviceid)`;
  }
  return sql`(select agentserviceid as sid, min(score) as score, count(*) as hits, max(msgid) as msgid,
    max(n) as n from (select m.agentserviceid, m.id as msgid,
      ${rank ? sql`-ts_rank(to_tsvector('simple', m.tokens), q.q, 1)` : sql`0`} as score, count(*) over () as n
      from chat_message m, to_tsquery('simple', ${tsQuery(kw.words)}) as q(q)
      where to_tsvector('simple', m.tokens) @@ q.q and m.withdrawn = 0 and m.createtime >= ${begin ?? 0}
      order by m.id desc limit ${limit}) m group by agentserviceid)`;
}

const servetime = sql<number>`coalesce(s.endtime - s.servicetime, -1)`;

/** The column (or expression) a sort key orders by; relevance is the keyword's best score. */
function sortExpr(sort: HistoryListQuery['sort']): RawBuilder<number> {
  switch (sort) {
    case 'endtime':
      return sql<number>`coalesce(s.endtime, 0)`;
    case 'waittime':
      return sql<number>`s.waittime`;
    case 'servetime':
      return servetime;
    case 'relevance':
      return sql<number>`h.score`;
    default:
      return sql<number>`s.createtime`;
  }
}

function filterConditions(eb: Eb, orgi: string, f: HistoryFilter, scope: HistoryScope): Expression<SqlBool> {
  const c: Array<Expression<SqlBool>> = [eb('s.orgi', '=', orgi), eb('s.status', '=', 'end')];
  if (f.begin !== undefined) c.push(eb('s.createtime', '>=', f.begin));
  if (f.end !== undefined) c.push(eb('s.createtime', '<=', f.end));
  if (f.organ) c.push(eb('s.organ', '=', f.organ));
  if (f.agentno) c.push(eb('s.agentno', '=', f.agentno));
  if (f.channel) c.push(eb('s.channel', '=', f.channel));
  if (f.appid) c.push(eb('s.appid', '=', f.appid));
  if (f.visitor) {
    const like = containsPattern(f.visitor);
    c.push(
      eb.or([
        eb('s.userid', '=', f.visitor),
        sql<SqlBool>`lower(s.username) like ${like} escape '\\'`,
        sql<SqlBool>`lower(s.name) like ${like} escape '\\'`,
      ]),
    );
  }
  if (f.contactid)
    c.push(
      eb(
        's.userid',
        'in',
        eb
          .selectFrom('contact_identity')
          .select('value')
          .where('orgi', '=', orgi)
          .where('contactid', '=', f.contactid),
      ),
    );
  if (f.tagid)
    c.push(
      eb.exists(
        eb
          .selectFrom('agent_service_tag as t')
          .select('t.tagid')
          .whereRef('t.agentserviceid', '=', 's.id')
          .where('t.tagid', '=', f.tagid),
      ),
    );
  if (f.topicid) c.push(eb('s.topicid', '=', f.topicid));
  if (f.satislevel !== undefined)
    c.push(f.satislevel === 0 ? eb('s.satisfaction', '=', 0) : eb('s.satislevel', '=', String(f.satislevel)));
  if (f.endby) c.push(eb('s.endby', '=', f.endby));
  if (f.waitMin !== undefined) c.push(eb('s.waittime', '>=', f.waitMin * 1000));
  if (f.waitMax !== undefined) c.push(eb('s.waittime', '<=', f.waitMax * 1000));
  if (f.serveMin !== undefined || f.serveMax !== undefined) c.push(eb('s.servicetime', 'is not', null));
  if (f.serveMin !== undefined) c.push(sql<SqlBool>`s.endtime - s.servicetime >= ${f.serveMin * 1000}`);
  if (f.serveMax !== undefined) c.push(sql<SqlBool>`s.endtime - s.servicetime <= ${f.serveMax * 1000}`);
  if (f.leavemsg !== undefined) c.push(eb('s.leavemsg', '=', f.leavemsg ? 1 : 0));
  if (f.ai !== undefined) c.push(eb('s.ai', '=', f.ai ? 1 : 0));
  if (scope.kind === 'own') c.push(eb('s.agentno', '=', scope.userid));
  else if (scope.kind === 'organ') {
    const any: Array<Expression<SqlBool>> = [eb('s.agentno', '=', scope.userid)];
    if (scope.organs.length) any.push(eb('s.organ', 'in', scope.organs));
    if (scope.agents.length) any.push(eb('s.agentno', 'in', scope.agents));
    c.push(eb.or(any));
  }
  return eb.and(c);
}

/** The filtered conversations (joined to the keyword's hits when there is one). */
function base({ k, dialect, orgi, scope, kw }: Where, f: HistoryFilter, rank = false) {
  const from = k.selectFrom('agent_service as s');
  const joined = kw
    ? from.innerJoin(hitsSubquery(dialect, kw, f.begin, rank).as('h'), (j) =>
        j.on(sql<SqlBool>`h.sid = s.id`),
      )
    : from;
  return joined.where((eb) => filterConditions(eb as unknown as Eb, orgi, f, scope));
}

/** The columns a list row is presented from. */
export const ROW_COLUMNS = [
  's.id',
  's.userid',
  's.username',
  's.name',
  's.phone',
  's.email',
  's.channel',
  's.appid',
  's.organ',
  's.agentno',
  's.agentusername',
  's.createtime',
  's.servicetime',
  's.endtime',
  's.waittime',
  's.endby',
  's.satislevel',
  's.satiscomment',
  's.leavemsg',
  's.ai',
  's.userasks',
  's.agentreplys',
  's.firstreplytime',
  's.topicid',
  's.summary',
] as const;
type ColumnName = (typeof ROW_COLUMNS)[number] extends `s.${infer C}` ? C : never;

/** A list row as read: the conversation's columns of ROW_COLUMNS, the sort key, and the keyword's hits. */
export type ListRow = Pick<Selectable<AgentServiceTable>, ColumnName> & {
  sortkey: number;
  /** With a keyword: matching messages, one of them, the window's size, the count of all matches. */
  hits?: number;
  msgid?: string;
  n?: number;
  total?: number;
};

export interface Cursor {
  value: number;
  id: string;
}

export const cursorOf = (r: Pick<ListRow, 'sortkey' | 'id'>): string => `${Number(r.sortkey)}:${r.id}`;

export function parseCursor(before: string | undefined): Cursor | null {
  if (!before) return null;
  const cut = before.indexOf(':');
  const value = Number(before.slice(0, cut));
  const id = before.slice(cut + 1);
  return cut > 0 && Number.isFinite(value) && id ? { value, id } : null;
}

/**
 * One page of the list: the filter, order and paging over narrow rows (id, sort key, the keyword's hits),
 * then the page's full rows by id — a keyword can match tens of thousands of conversations, and carrying
 * all their columns through the join and the sort cost more than the search itself. With a keyword the
 * same statement also counts every match (`total`, a window over the filtered hits, computed once by both
 * databases); without one, countQuery counts.
 */
export function pageQuery(w: Where, q: HistoryListQuery, cursor: Cursor | null): ReadQuery {
  const { k, kw } = w;
  const key = sortExpr(kw ? q.sort : q.sort === 'relevance' ? 'createtime' : q.sort);
  // bm25 / -ts_rank: lower is more relevant, so "most relevant first" is ascending.
  const desc = q.sort === 'relevance' ? q.order === 'asc' : q.order === 'desc';
  const dir = desc ? 'desc' : 'asc';
  let page = base(w, q, q.sort === 'relevance').select(['s.id', key.as('sortkey')]);
  if (kw)
    page = page
      .select(sql<number>`h.hits`.as('hits'))
      .select(sql<string>`h.msgid`.as('msgid'))
      .select(sql<number>`h.n`.as('n'));
  if (kw && !cursor) page = page.select(sql<number>`count(*) over ()`.as('total'));
  if (cursor)
    page = page.where(
      desc
        ? sql<SqlBool>`(${key} < ${cursor.value} or (${key} = ${cursor.value} and s.id < ${cursor.id}))`
        : sql<SqlBool>`(${key} > ${cursor.value} or (${key} = ${cursor.value} and s.id > ${cursor.id}))`,
    );
  else if (q.p > 1) page = page.offset((q.p - 1) * q.ps);
  const narrow = page
    .orderBy(key, dir)
    .orderBy('s.id', dir)
    .limit(q.ps + 1);
  // The narrow page's extra columns are added conditionally above, so they are named here as SQL.
  const extra = kw ? ['hits', 'msgid', 'n', ...(cursor ? [] : ['total'])] : [];
  const full = k
    .selectFrom(narrow.as('p'))
    .innerJoin('agent_service as s', 's.id', 'p.id')
    .select(ROW_COLUMNS)
    .select('p.sortkey')
    .select(extra.map((c) => sql.ref(`p.${c}`).as(c)));
  return full.orderBy('p.sortkey', dir).orderBy('s.id', dir).compile();
}

/** One page as read: its rows (≤ ps + 1) and, without a cursor, the total (a lower bound when `atLeast`). */
export interface PageRead {
  rows: ListRow[];
  total: number;
  atLeast: boolean;
}

const DAY_MS = 86_400_000;
/** The first window of the early stop: the newest week. */
const FIRST_WINDOW_MS = 7 * DAY_MS;

/** Whether a list call can stop early: a keyword, newest first by start time (the console's default). */
export const stopsEarly = (w: Where, q: HistoryListQuery): boolean =>
  !!w.kw && q.sort === 'createtime' && q.order === 'desc';

/**
 * A keyword's page newest first, without reading every match when the newest ones are enough. All of a
 * conversation's messages are stored at or after its start, so the matches of the last stretch of time
 * [T, …) hold every matching conversation that started at or after T, and those come first in this order:
 * the statement of a narrower window (begin = T) returns the same leading rows as the full one. A window
 * is widened (extrapolated from what the last one found, ×2 to ×64) until it holds the page and
 * `bound` + 1 conversations (then `total` = `bound`, `atLeast`), or reaches the filter's own begin (then
 * it is the full statement: exact total). A cursor page needs only its rows. Other orders read everything.
 * `run` executes a compiled statement (the search reader in the app).
 */
export async function readPage(
  run: (q: ReadQuery) => Promise<ListRow[]>,
  w: Where,
  q: HistoryListQuery,
  cursor: Cursor | null,
  opts: { bound?: number; now?: number } = {},
): Promise<PageRead> {
  const bound = opts.bound ?? HISTORY_LIMITS.searchCount;
  const full = async (): Promise<PageRead> => {
    const rows = await run(pageQuery(w, q, cursor));
    return { rows, total: Number(rows[0]?.total ?? 0), atLeast: false };
  };
  if (!stopsEarly(w, q)) return full();
  const floor = q.begin ?? 0;
  const top = Math.min(cursor?.value ?? Infinity, q.end ?? Infinity, opts.now ?? Date.now());
  const need = cursor ? q.ps + 1 : Math.max(bound + 1, (q.p - 1) * q.ps + q.ps + 1);
  let span = FIRST_WINDOW_MS;
  for (;;) {
    const begin = Math.floor(top - span);
    if (begin <= floor) return full();
    const rows = await run(pageQuery(w, { ...q, begin }, cursor));
    // Conversations in the window: every row carries the window's count (none without a cursor page).
    const found = cursor ? rows.length : Number(rows[0]?.total ?? 0);
    const enough = cursor ? rows.length > q.ps : found >= need && rows.length > 0;
    if (enough)
      return { rows, total: cursor ? 0 : Math.min(found, bound), atLeast: !cursor && found > bound };
    // The window already holds the search's whole message window (searchHits): the full read is next.
    if (rows.some((r) => Number(r.n ?? 0) > HISTORY_LIMITS.searchHits)) return full();
    // Few found: a rough rate, so at most ×16; enough to extrapolate from: up to ×64.
    span *= Math.min(found >= 20 ? 64 : 16, Math.max(2, (1.3 * need) / Math.max(found, 1)));
  }
}

/** The number of conversations a filter matches (the list's total without a keyword; expsearch). */
export function countQuery(w: Where, f: HistoryFilter): ReadQuery {
  return base(w, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .compile();
}

/** The export's walk over the filter (or the selected `ids` within it): by id, after `afterId`. */
export function chunkQuery(
  w: Where,
  f: HistoryFilter,
  afterId: string,
  limit: number,
  ids: readonly string[] | null,
): ReadQuery {
  let q = base(w, f)
    .select([...ROW_COLUMNS, sql<number>`s.createtime`.as('sortkey')])
    .where('s.id', '>', afterId);
  if (ids) q = q.where('s.id', 'in', ids.length ? ids : ['']);
  return q.orderBy('s.id').limit(limit).compile();
}

/** Conversations and messages an export will write (its progress total). */
export function exportCountQuery(w: Where, f: HistoryFilter, ids: readonly string[] | null): ReadQuery {
  let convs = base(w, f).select('s.id');
  if (ids) convs = convs.where('s.id', 'in', ids.length ? ids : ['']);
  return w.k
    .selectNoFrom((eb) => [
      eb
        .selectFrom(convs.as('c'))
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('convs'),
      eb
        .selectFrom('chat_message')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('agentserviceid', 'in', convs)
        .as('msgs'),
    ])
    .compile();
}
