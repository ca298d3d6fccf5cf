import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type {
  InviteRecordTable,
  OnlineVisitorTable,
  PageViewTable,
} from '../../platform/db/schema-online.js';
import { offsetOf, type Paging } from '../../platform/http/paging.js';

type Kdb = Kysely<Database>;
export type OnlineVisitorRow = Selectable<OnlineVisitorTable>;
export type PageViewRow = Selectable<PageViewTable>;

/** bigint columns come back as strings from PostgreSQL. */
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

export function normalizeVisitor(r: OnlineVisitorRow): OnlineVisitorRow {
  return {
    ...r,
    firsttime: num(r.firsttime),
    lasttime: num(r.lasttime),
    createtime: num(r.createtime),
    pages: num(r.pages),
    visits: num(r.visits),
    invitetimes: num(r.invitetimes),
    invitetime: r.invitetime === null ? null : num(r.invitetime),
    lefttime: r.lefttime === null ? null : num(r.lefttime),
  };
}

export const findVisitor = async (
  k: Kdb,
  orgi: string,
  traceid: string,
): Promise<OnlineVisitorRow | undefined> => {
  const r = await k
    .selectFrom('online_visitor')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('traceid', '=', traceid)
    .executeTakeFirst();
  return r && normalizeVisitor(r);
};

/** Inserts the first contact of a trace; false when a concurrent report inserted it first. */
export async function insertVisitor(k: Kdb, row: Insertable<OnlineVisitorTable>): Promise<boolean> {
  const r = await k
    .insertInto('online_visitor')
    .values(row)
    .onConflict((oc) => oc.columns(['orgi', 'traceid']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateVisitor(
  k: Kdb,
  orgi: string,
  traceid: string,
  patch: Updateable<OnlineVisitorTable>,
): Promise<void> {
  await k
    .updateTable('online_visitor')
    .set(patch)
    .where('orgi', '=', orgi)
    .where('traceid', '=', traceid)
    .execute();
}

/** Visitors seen since `since` (online), or all of them (history); most recently seen first. */
export async function pageVisitors(
  k: Kdb,
  orgi: string,
  since: number | null,
  pg: Paging,
): Promise<{ rows: OnlineVisitorRow[]; total: number }> {
  let q = k.selectFrom('online_visitor').where('orgi', '=', orgi);
  if (since !== null)
    q = q
      .where('lasttime', '>=', since)
      .where((eb) => eb.or([eb('lefttime', 'is', null), eb('lefttime', '<', eb.ref('lasttime'))]));
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('lasttime', 'desc').orderBy('traceid').limit(pg.ps).offset(offsetOf(pg)).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(normalizeVisitor), total: Number(total.n) };
}

export const insertPageView = (k: Kdb, row: Insertable<PageViewTable>) =>
  k.insertInto('page_view').values(row).execute();

/** The trail of a trace, newest first. */
export async function pageViews(
  k: Kdb,
  orgi: string,
  traceid: string,
  limit: number,
): Promise<PageViewRow[]> {
  const rows = await k
    .selectFrom('page_view')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('traceid', '=', traceid)
    .orderBy('createtime', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, createtime: num(r.createtime) }));
}

export interface OpenChat {
  id: string;
  traceid: string;
  userid: string;
  status: string;
  agentno: string | null;
  agentname: string;
}

/** Conversations started from these traces, newest first: every one, or only the open ones. */
async function chatsOf(k: Kdb, orgi: string, traceids: string[], open: boolean): Promise<OpenChat[]> {
  if (traceids.length === 0) return [];
  let q = k
    .selectFrom('agent_service as s')
    .leftJoin('users as u', 'u.id', 's.agentno')
    .select(['s.id', 's.traceid', 's.userid', 's.status', 's.agentno', 's.agentusername', 'u.uname'])
    .where('s.orgi', '=', orgi)
    .where('s.traceid', 'in', traceids);
  if (open) q = q.where('s.status', 'in', ['inqueue', 'inservice']);
  const rows = await q.orderBy('s.createtime', 'desc').execute();
  return rows.map((r) => ({
    id: r.id,
    traceid: r.traceid,
    userid: r.userid,
    status: r.status,
    agentno: r.agentno,
    agentname: r.uname || r.agentusername || '',
  }));
}

/** The conversations of these traces whatever their state (the first of a trace is its latest). */
export const latestChats = (k: Kdb, orgi: string, traceids: string[]) => chatsOf(k, orgi, traceids, false);

/** Open conversations (queued or in service) started from these traces, newest first. */
export const openChats = (k: Kdb, orgi: string, traceids: string[]) => chatsOf(k, orgi, traceids, true);

export async function accessNames(k: Kdb, orgi: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await k
    .selectFrom('access_point')
    .select(['id', 'name'])
    .where('orgi', '=', orgi)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export const insertInvite = (k: Kdb, row: Insertable<InviteRecordTable>) =>
  k.insertInto('invite_record').values(row).execute();

export async function answerInvite(
  k: Kdb,
  orgi: string,
  id: string,
  result: 'accept' | 'refuse',
  now: number,
): Promise<void> {
  await k
    .updateTable('invite_record')
    .set({ result, responsetime: now })
    .where('orgi', '=', orgi)
    .where('id', '=', id)
    .execute();
}
