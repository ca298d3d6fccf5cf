import type { Generated } from 'kysely';

/** Tables of migration 0004_online. Times are epoch ms. */
export interface OnlineVisitorTable {
  orgi: string;
  /** The embed loader's trace id (host page localStorage); one row per (orgi, traceid). */
  traceid: string;
  appid: string;
  ip: Generated<string>;
  useragent: Generated<string>;
  browser: Generated<string>;
  os: Generated<string>;
  /** Referrer host of the visit's first page ('' = direct). */
  source: Generated<string>;
  url: Generated<string>;
  title: Generated<string>;
  /** The loader reported that the visitor left the page (migration 0011); a later report counts again. */
  lefttime: Generated<number | null>;
  /** Start of the current visit (reset when the visitor comes back after being offline). */
  firsttime: number;
  lasttime: number;
  /** Page views of the current visit. */
  pages: Generated<number>;
  /** Visits so far (1 on first contact). */
  visits: Generated<number>;
  /** default | invite (pending) | sent (shown by the loader) | accept | refuse */
  invitestatus: Generated<string>;
  inviteid: Generated<string | null>;
  inviteagent: Generated<string | null>;
  invitetimes: Generated<number>;
  invitetime: Generated<number | null>;
  createtime: number;
}

export interface PageViewTable {
  id: string;
  orgi: string;
  appid: string;
  traceid: string;
  url: string;
  title: string;
  referrer: string;
  ip: string;
  browser: string;
  os: string;
  createtime: number;
}

export interface InviteRecordTable {
  id: string;
  orgi: string;
  appid: string;
  traceid: string;
  agentno: string;
  url: Generated<string>;
  title: Generated<string>;
  /** pending | accept | refuse */
  result: Generated<string>;
  createtime: number;
  responsetime: Generated<number | null>;
}

export interface OnlineTables {
  online_visitor: OnlineVisitorTable;
  page_view: PageViewTable;
  invite_record: InviteRecordTable;
}
