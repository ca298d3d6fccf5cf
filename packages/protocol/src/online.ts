/** Online visitors (`/api/online/*`, console route /tourist, code A02). Times are epoch ms. */

/** A visitor seen in the last ONLINE_WINDOW_MS is online (the loader re-reports every 60 s). */
export const ONLINE_WINDOW_MS = 3 * 60_000;
/** The loader's heartbeat period while the page is visible. */
export const ONLINE_HEARTBEAT_MS = 60_000;

/** The trace's latest conversation: none ever, waiting, being served, or over (the visitor chatted). */
export type OnlineChatState = 'none' | 'inqueue' | 'inservice' | 'end';
export type OnlineInviteStatus = 'default' | 'invite' | 'sent' | 'accept' | 'refuse';

export interface OnlineVisitorDto {
  traceid: string;
  appid: string;
  /** The access point's name. */
  appname: string;
  url: string;
  title: string;
  /** Referrer host of the visit ('' = direct). */
  source: string;
  ip: string;
  browser: string;
  os: string;
  firsttime: number;
  lasttime: number;
  /** lasttime − firsttime of the current visit, ms. */
  duration: number;
  pages: number;
  visits: number;
  online: boolean;
  chat: OnlineChatState;
  /** The open conversation, when chatting. */
  agentserviceid: string | null;
  /** Serving agent's id and name, when in service. */
  agentno: string | null;
  agentname: string;
  invitestatus: OnlineInviteStatus;
  invitetimes: number;
}

export interface PageViewDto {
  id: string;
  url: string;
  title: string;
  referrer: string;
  ip: string;
  browser: string;
  os: string;
  createtime: number;
}

export interface OnlineTraceDto {
  visitor: OnlineVisitorDto | null;
  list: PageViewDto[];
}

/** `/api/online/talk`: the visitor's open conversation served by the caller. */
export interface OnlineTalkDto {
  agentserviceid: string;
  userid: string;
}

/** `POST /im/pageview` answer (read by the loader's heartbeat): a pending agent invite, if any. */
export interface PageViewAck {
  invite: { id: string; agent: string } | null;
}

/** `POST /im/invite` (loader → server): the visitor's answer to an agent invite. */
export interface InviteAnswer {
  appid: string;
  traceid: string;
  id: string;
  result: 'accept' | 'refuse';
}
