import {
  ONLINE_WINDOW_MS,
  type InviteAnswer,
  type OnlineTalkDto,
  type OnlineTraceDto,
  type OnlineVisitorDto,
  type Page,
  type PageViewAck,
  type PageViewReport,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError, badRequest, notFound } from '../../platform/http/errors.js';
import { pageOf, type Paging } from '../../platform/http/paging.js';
import { newId } from '../../platform/ids.js';
import { accessByAppid } from '../access/access.repository.js';
import { describeUserAgent } from '../auth/user-agent.js';
import * as repo from './online.repository.js';
import { presentPageView, presentVisitor } from './online.presenter.js';
import { inviteChanged, visitStarted } from '../analysis/hooks.js';

export const ONLINE_CODE = 'A02';
/** A pending invite not picked up by the loader within this time is dropped. */
export const INVITE_TTL_MS = 10 * 60_000;
/** At most this many page views in a trail answer. */
export const TRACE_LIMIT = 500;

export interface ReportMeta {
  ip: string;
  userAgent: string;
  now: number;
}

/** Seen within the window, and not since gone (pagehide) without coming back. */
export const isOnline = (v: Pick<repo.OnlineVisitorRow, 'lasttime' | 'lefttime'>, now: number): boolean =>
  v.lasttime >= now - ONLINE_WINDOW_MS && (v.lefttime === null || v.lefttime < v.lasttime);

const hostOf = (url: string): string => {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return '';
  }
};

/**
 * A page view (or heartbeat) from the embed loader. The first report of a trace, or the first one
 * after ONLINE_WINDOW_MS of silence, starts a visit. A heartbeat only refreshes "last seen" unless it
 * starts a visit. Answers a pending agent invite (and marks it delivered).
 */
export async function report(db: Db, r: PageViewReport, meta: ReportMeta): Promise<PageViewAck> {
  const k = db.kysely;
  const ap = await accessByAppid(k, r.appid);
  if (!ap) throw notFound('access_point_not_found');
  const { now } = meta;
  if (r.leave) {
    // The page is being left (closed, or a link followed): not online until the next report, so a
    // visitor who bounced is not listed for minutes with a 0 s stay. A reload reports again at once.
    await repo.updateVisitor(k, ap.orgi, r.traceid, { lefttime: now });
    return { invite: null };
  }
  const ua = describeUserAgent(meta.userAgent);
  const useragent = meta.userAgent.slice(0, 500);
  const browser = ua.browser.slice(0, 64);
  const os = ua.os.slice(0, 64);
  let existing = await repo.findVisitor(k, ap.orgi, r.traceid);
  if (!existing) {
    const inserted = await repo.insertVisitor(k, {
      orgi: ap.orgi,
      traceid: r.traceid,
      appid: ap.id,
      ip: meta.ip,
      useragent,
      browser,
      os,
      source: hostOf(r.referrer),
      url: r.url,
      title: r.title,
      firsttime: now,
      lasttime: now,
      pages: 1,
      visits: 1,
      createtime: now,
    });
    if (inserted) {
      await addPageView(db, ap.orgi, ap.id, r, meta.ip, browser, os, now);
      visitStarted(db, { ...visitOf(ap, r, meta), time: now });
      return { invite: null };
    }
    existing = await repo.findVisitor(k, ap.orgi, r.traceid);
    if (!existing) return { invite: null };
  }
  const newVisit = existing.lasttime < now - ONLINE_WINDOW_MS;
  const counts = !r.hb || newVisit;
  const pending =
    existing.invitestatus === 'invite' &&
    existing.inviteid !== null &&
    (existing.invitetime ?? 0) >= now - INVITE_TTL_MS &&
    !newVisit;
  await repo.updateVisitor(k, ap.orgi, r.traceid, {
    appid: ap.id,
    lasttime: now,
    ip: meta.ip,
    useragent,
    browser,
    os,
    ...(counts ? { url: r.url, title: r.title } : {}),
    ...(newVisit
      ? { firsttime: now, pages: 1, visits: existing.visits + 1, source: hostOf(r.referrer) }
      : counts
        ? { pages: existing.pages + 1 }
        : {}),
    ...(pending
      ? { invitestatus: 'sent' }
      : newVisit && existing.invitestatus === 'invite'
        ? { invitestatus: 'default' }
        : {}),
  });
  if (counts) await addPageView(db, ap.orgi, ap.id, r, meta.ip, browser, os, now);
  if (newVisit) visitStarted(db, { ...visitOf(ap, r, meta), time: now });
  return { invite: pending ? { id: existing.inviteid ?? '', agent: existing.inviteagent ?? '' } : null };
}

const visitOf = (ap: { orgi: string; id: string }, r: PageViewReport, meta: ReportMeta) => ({
  orgi: ap.orgi,
  appid: ap.id,
  traceid: r.traceid,
  ip: meta.ip,
  userAgent: meta.userAgent,
  referrer: r.referrer,
});

async function addPageView(
  db: Db,
  orgi: string,
  appid: string,
  r: PageViewReport,
  ip: string,
  browser: string,
  os: string,
  now: number,
): Promise<void> {
  await repo.insertPageView(db.kysely, {
    id: newId(),
    orgi,
    appid,
    traceid: r.traceid,
    url: r.url,
    title: r.title,
    referrer: r.referrer,
    ip,
    browser,
    os,
    createtime: now,
  });
}

async function present(
  db: Db,
  orgi: string,
  rows: repo.OnlineVisitorRow[],
  now: number,
): Promise<OnlineVisitorDto[]> {
  const k = db.kysely;
  const [chats, names] = await Promise.all([
    repo.latestChats(
      k,
      orgi,
      rows.map((r) => r.traceid),
    ),
    repo.accessNames(k, orgi, [...new Set(rows.map((r) => r.appid))]),
  ]);
  const byTrace = new Map<string, repo.OpenChat>();
  for (const c of chats) if (!byTrace.has(c.traceid)) byTrace.set(c.traceid, c);
  return rows.map((r) =>
    presentVisitor(r, byTrace.get(r.traceid), names.get(r.appid) ?? r.appid, isOnline(r, now), now),
  );
}

/** Online now (seen within ONLINE_WINDOW_MS), most recently seen first. */
export async function online(
  db: Db,
  me: Principal,
  pg: Paging,
  now = Date.now(),
): Promise<Page<OnlineVisitorDto>> {
  const { rows, total } = await repo.pageVisitors(db.kysely, me.orgi, now - ONLINE_WINDOW_MS, pg);
  return pageOf(await present(db, me.orgi, rows, now), total, pg);
}

/** Every visitor ever seen (online or not), most recently seen first. */
export async function history(
  db: Db,
  me: Principal,
  pg: Paging,
  now = Date.now(),
): Promise<Page<OnlineVisitorDto>> {
  const { rows, total } = await repo.pageVisitors(db.kysely, me.orgi, null, pg);
  return pageOf(await present(db, me.orgi, rows, now), total, pg);
}

export async function trace(
  db: Db,
  me: Principal,
  traceid: string,
  now = Date.now(),
): Promise<OnlineTraceDto> {
  const [v, views] = await Promise.all([
    repo.findVisitor(db.kysely, me.orgi, traceid),
    repo.pageViews(db.kysely, me.orgi, traceid, TRACE_LIMIT),
  ]);
  const [visitor] = v ? await present(db, me.orgi, [v], now) : [];
  return { visitor: visitor ?? null, list: views.map(presentPageView) };
}

async function visitorState(db: Db, me: Principal, traceid: string, now: number) {
  const v = await repo.findVisitor(db.kysely, me.orgi, traceid);
  if (!v) throw notFound('online_visitor_not_found');
  const [chat] = await repo.openChats(db.kysely, me.orgi, [traceid]);
  return { v, chat, online: isOnline(v, now) };
}

/** The agent invites an online visitor; the loader shows the invite on its next report. */
export async function invite(
  db: Db,
  me: Principal,
  traceid: string,
  now = Date.now(),
): Promise<{ id: string }> {
  const { v, chat, online: isOnline } = await visitorState(db, me, traceid, now);
  if (chat) throw badRequest('online_visitor_in_chat');
  if (!isOnline) throw badRequest('online_visitor_offline');
  const id = newId();
  await db.kysely.transaction().execute(async (tx) => {
    await repo.insertInvite(tx, {
      id,
      orgi: me.orgi,
      appid: v.appid,
      traceid,
      agentno: me.id,
      url: v.url,
      title: v.title,
      createtime: now,
    });
    await repo.updateVisitor(tx, me.orgi, traceid, {
      invitestatus: 'invite',
      inviteid: id,
      inviteagent: me.id,
      invitetimes: v.invitetimes + 1,
      invitetime: now,
    });
  });
  inviteChanged(db, me.orgi, id, null);
  return { id };
}

/** The visitor's answer to an invite (public, from the loader). */
export async function answer(db: Db, a: InviteAnswer, now = Date.now()): Promise<{ result: string }> {
  const k = db.kysely;
  const ap = await accessByAppid(k, a.appid);
  if (!ap) throw notFound('access_point_not_found');
  const v = await repo.findVisitor(k, ap.orgi, a.traceid);
  if (!v || v.inviteid !== a.id || (v.invitestatus !== 'sent' && v.invitestatus !== 'invite'))
    throw notFound('invite_not_found');
  await repo.answerInvite(k, ap.orgi, a.id, a.result, now);
  inviteChanged(db, ap.orgi, a.id, a.result);
  await repo.updateVisitor(k, ap.orgi, a.traceid, { invitestatus: a.result });
  return { result: a.result };
}

/**
 * Talk to the visitor: the conversation they opened, when the caller serves it. A visitor who has not
 * opened the chat cannot be pulled into one (the widget's socket only exists once they do): invite them.
 */
export async function talk(db: Db, me: Principal, traceid: string, now = Date.now()): Promise<OnlineTalkDto> {
  const { chat, online: isOnline } = await visitorState(db, me, traceid, now);
  if (!chat) throw badRequest(isOnline ? 'online_not_in_chat' : 'online_visitor_offline');
  if (chat.status === 'inqueue') throw badRequest('online_in_queue');
  if (chat.agentno !== me.id) throw new AppError('online_other_agent', 400);
  return { agentserviceid: chat.id, userid: chat.userid };
}
