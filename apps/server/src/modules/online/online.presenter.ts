import type { OnlineChatState, OnlineInviteStatus, OnlineVisitorDto, PageViewDto } from '@kefu/protocol';
import type { OnlineVisitorRow, OpenChat, PageViewRow } from './online.repository.js';

export function presentVisitor(
  r: OnlineVisitorRow,
  chat: OpenChat | undefined,
  appname: string,
  online: boolean,
  now: number,
): OnlineVisitorDto {
  return {
    traceid: r.traceid,
    appid: r.appid,
    appname,
    url: r.url,
    title: r.title,
    source: r.source,
    ip: r.ip,
    browser: r.browser,
    os: r.os,
    firsttime: r.firsttime,
    lasttime: r.lasttime,
    // Still on the site: the stay runs until now, not only until the last heartbeat (a minute apart),
    // so a visitor who arrived 50 s ago does not show 0 s.
    duration: Math.max(0, (online ? now : r.lasttime) - r.firsttime),
    pages: r.pages,
    visits: r.visits,
    online,
    chat: (chat?.status ?? 'none') as OnlineChatState,
    agentserviceid: chat?.id ?? null,
    agentno: chat?.agentno ?? null,
    agentname: chat?.agentname ?? '',
    invitestatus: r.invitestatus as OnlineInviteStatus,
    invitetimes: r.invitetimes,
  };
}

export const presentPageView = (r: PageViewRow): PageViewDto => ({
  id: r.id,
  url: r.url,
  title: r.title,
  referrer: r.referrer,
  ip: r.ip,
  browser: r.browser,
  os: r.os,
  createtime: r.createtime,
});
