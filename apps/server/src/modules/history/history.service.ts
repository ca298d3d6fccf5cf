import type { z } from 'zod';
import {
  HISTORY_CODE,
  HISTORY_LIMITS,
  type HistoryDetailDto,
  type HistoryListQuery,
  type HistoryMessagePage,
  type HistoryPage,
  type MessageDto,
  type historyBlackSchema,
  type historyUpdateSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Principal } from '../../platform/auth/principal.js';
import { dataScope } from '../../platform/auth/data-scope.js';
import { forbidden, notFound } from '../../platform/http/errors.js';
import { keywordWords } from '../../platform/search/tokens.js';
import { searchReader, type ReadQuery } from '../../platform/search/reader.js';
import { presentMessage, type AgentServiceRow } from '../conversation/presenter.js';
import * as srepo from '../conversation/service.repository.js';
import * as black from '../black/black.service.js';
import { checkedTags } from '../tags/tags.service.js';
import { saveSummary, summaryOf } from '../tags/summary.service.js';
import { contactOfConversation } from '../contacts/contacts.service.js';
import {
  countQuery,
  cursorOf,
  pageQuery,
  parseCursor,
  readPage,
  type HistoryScope,
  type Keyword,
  type ListRow,
  type Where,
} from './history.query.js';
import { withTranslations } from '../translate/translate.service.js';
import { presentRow, rowContext } from './history.presenter.js';

type Ctx = Pick<AppContext, 'db' | 'config'>;
type Kdb = Ctx['db']['kysely'];

/** The data scope of history (see HISTORY_CODE): with the department scope, the agents of those departments. */
export async function historyScope(k: Kdb, p: Principal): Promise<HistoryScope> {
  const s = await dataScope(k, p, HISTORY_CODE);
  if (s.kind !== 'organ') return s;
  if (s.organs.length === 0) return { ...s, agents: [] };
  const [primary, members] = await Promise.all([
    k.selectFrom('users').select('id').where('orgi', '=', p.orgi).where('organ', 'in', s.organs).execute(),
    k.selectFrom('user_organ').select('userid as id').where('organid', 'in', s.organs).execute(),
  ]);
  return { ...s, agents: [...new Set([...primary, ...members].map((u) => u.id))] };
}

export function inScope(s: HistoryScope, row: Pick<AgentServiceRow, 'agentno' | 'organ'>): boolean {
  if (s.kind === 'all') return true;
  if (row.agentno === s.userid) return true;
  if (s.kind === 'own') return false;
  return (!!row.organ && s.organs.includes(row.organ)) || (!!row.agentno && s.agents.includes(row.agentno));
}

/** A conversation of the caller's organisation within their scope (history shows ended ones only). */
export async function visibleService(ctx: Ctx, p: Principal, id: string): Promise<AgentServiceRow> {
  const k = ctx.db.kysely;
  const s = await srepo.findService(k, id);
  if (!s || s.orgi !== p.orgi || s.status !== 'end') throw notFound('conversation_not_found');
  if (!inScope(await historyScope(k, p), s)) throw forbidden();
  return s;
}

/** The keyword's words, or null when there is none (blank); a bad keyword is refused here. */
export const keywordOf = (keyword: string | undefined): Keyword | null =>
  keyword && keyword.trim() ? { words: keywordWords(keyword) } : null;

export async function list(ctx: Ctx, p: Principal, q: HistoryListQuery): Promise<HistoryPage> {
  const k = ctx.db.kysely;
  const kw = keywordOf(q.keyword);
  const scope = await historyScope(k, p);
  const cursor = q.sort === 'relevance' ? null : parseCursor(q.before);
  const reader = searchReader(ctx);
  const w: Where = { k, dialect: ctx.db.dialect, orgi: p.orgi, scope, kw };
  const run = (x: ReadQuery) => reader.rows<ListRow>(x);
  // A keyword page counts in its own statement, up to a bound (readPage); a cursor page's total is the first
  // page's. A list without a keyword counts beside its page.
  const [read, first, counted] = await Promise.all([
    kw
      ? readPage(run, w, q, cursor)
      : run(pageQuery(w, q, cursor)).then((rows) => ({ rows, total: 0, atLeast: false })),
    kw && cursor ? readPage(run, w, { ...q, p: 1 }, null) : null,
    kw ? null : reader.rows<{ n: number }>(countQuery(w, q)),
  ]);
  const counts = first ?? read;
  const { rows } = read;
  const more = rows.length > q.ps;
  const page = more ? rows.slice(0, q.ps) : rows;
  const c = await rowContext(k, p.orgi, page);
  return {
    list: page.map((r) => presentRow(r, c)),
    total: counted ? Number(counted[0]?.n ?? 0) : counts.total,
    totalAtLeast: counts.atLeast,
    page: q.p,
    size: q.ps,
    next: more && q.sort !== 'relevance' ? cursorOf(page[page.length - 1]!) : null,
    capped: rows.some((r) => Number(r.n ?? 0) > HISTORY_LIMITS.searchHits),
  };
}

export async function detail(ctx: Ctx, p: Principal, id: string): Promise<HistoryDetailDto> {
  const k = ctx.db.kysely;
  const s = await visibleService(ctx, p, id);
  const row: ListRow = { ...s, sortkey: s.createtime } as ListRow;
  const [c, visitor, summary, contact] = await Promise.all([
    rowContext(k, p.orgi, [row]),
    k
      .selectFrom('visitor')
      .select([
        'id',
        'name',
        'ip',
        'browser',
        'os',
        'region',
        'country',
        'province',
        'city',
        'source',
        'url',
        'title',
        'createtime',
      ])
      .where('id', '=', s.userid)
      .executeTakeFirst(),
    summaryOf(k, s),
    contactOfConversation(k, s),
  ]);
  return {
    service: {
      ...presentRow(row, c),
      ipaddr: s.ipaddr,
      osname: s.osname,
      browser: s.browser,
      url: s.url,
      title: s.title,
      source: s.source,
      transmemo: s.transmemo,
      trans: s.trans === 1,
      resion: s.resion,
    },
    visitor: visitor ? { ...visitor, createtime: Number(visitor.createtime) } : null,
    summary,
    contact,
    writable: true,
  };
}

/**
 * The transcript in seq order, a page at a time: `after` a seq (0: from the start) reading forward, or the
 * newest page before `before` (none: the newest) reading back; `hasMore` says whether that direction goes on.
 */
export async function messages(
  ctx: Ctx,
  p: Principal,
  q: { agentserviceid: string; after?: number; before?: number; ps: number },
): Promise<HistoryMessagePage> {
  const s = await visibleService(ctx, p, q.agentserviceid);
  let page = ctx.db.kysely.selectFrom('chat_message').selectAll().where('agentserviceid', '=', s.id);
  const forward = q.after !== undefined;
  if (forward) page = page.where('seq', '>', q.after!);
  else if (q.before !== undefined) page = page.where('seq', '<', q.before);
  const rows = await page
    .orderBy('seq', forward ? 'asc' : 'desc')
    .limit(q.ps + 1)
    .execute();
  const hasMore = rows.length > q.ps;
  const kept = hasMore ? rows.slice(0, q.ps) : rows;
  if (!forward) kept.reverse();
  return {
    list: await withTranslations(
      ctx.db,
      kept.map((m) => presentMessage(m)),
    ),
    hasMore,
  };
}

export async function messageDetail(ctx: Ctx, p: Principal, id: string): Promise<MessageDto> {
  const m = await ctx.db.kysely
    .selectFrom('chat_message')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!m || m.orgi !== p.orgi) throw notFound('not_found');
  await visibleService(ctx, p, m.agentserviceid);
  return presentMessage(m);
}

export async function contact(ctx: Ctx, p: Principal, id: string) {
  return contactOfConversation(ctx.db.kysely, await visibleService(ctx, p, id));
}

/** Blacklists the conversation's visitor (the black module's entry: one per visitor id). */
export async function blacklist(ctx: Ctx, p: Principal, input: z.infer<typeof historyBlackSchema>) {
  const s = await visibleService(ctx, p, input.agentserviceid);
  return black.saveUser(ctx.db, p, {
    userid: s.userid,
    controltime: input.controltime,
    description: input.description,
  });
}

/** The service summary: topic and memo (tags module), and the conversation's tag set when given. */
export async function update(ctx: Ctx, p: Principal, input: z.infer<typeof historyUpdateSchema>) {
  const s = await visibleService(ctx, p, input.agentserviceid);
  const now = Date.now();
  if (input.tagids !== undefined) {
    const ids = input.tagids;
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await checkedTags(trx, s.orgi, 'summary', ids, 'tagids');
      await trx.deleteFrom('agent_service_tag').where('agentserviceid', '=', s.id).execute();
      if (ids.length)
        await trx
          .insertInto('agent_service_tag')
          .values(
            [...new Set(ids)].map((tagid) => ({
              agentserviceid: s.id,
              tagid,
              orgi: s.orgi,
              creater: p.id,
              createtime: now,
            })),
          )
          .execute();
    });
  }
  if (input.topicid !== undefined || input.memo !== undefined)
    await saveSummary(ctx.db, s, { topicid: input.topicid, memo: input.memo }, now);
  return detail(ctx, p, s.id);
}
