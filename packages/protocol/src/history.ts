import type { EndBy, MessageDto } from './realtime/dto.js';
import type { ContactDto } from './contacts.js';
import type { ConversationSummaryDto } from './tags.js';

/**
 * Conversation history (/history, A04): GET /api/agentService/* (docs/api.md "History"). Who sees what
 * (data scope): usertype 0 or the superuser flag — the whole organisation; a holder of A04 — their own
 * conversations and those of their departments (the conversation's skill group, or the agent's
 * department, including departments below); an agent with A01 only — the conversations they served.
 */
export const HISTORY_CODE = 'A04';
/** The history calls answer agents too (their own conversations), so either code opens them. */
export const HISTORY_CODES = ['A01', 'A04'] as const;

export const HISTORY_SORTS = ['createtime', 'endtime', 'waittime', 'servetime', 'relevance'] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];

export const HISTORY_LIMITS = {
  /**
   * A keyword search reads at most this many of the newest matching messages (bounded work whatever the
   * word); when it stops there the answer says `capped` and the oldest matches are left out: narrow the
   * date range to reach them.
   */
  searchHits: 50_000,
  /**
   * On the default order (newest first) a keyword search counts its conversations only up to this many:
   * past it the answer says `totalAtLeast` and `total` is this bound (the console shows "2,000+"), so a
   * common word costs a bounded read instead of every match. Pages within the bound work as usual.
   */
  searchCount: 2_000,
  /** Transcript page size. */
  messagePage: 50,
  /** Rows of expids. */
  exportIds: 1000,
} as const;

export interface HistoryTagDto {
  id: string;
  name: string;
  color: string;
}

/** One row of the history list. Durations in ms. */
export interface HistoryRowDto {
  id: string;
  userid: string;
  /** The visitor's display name. */
  username: string;
  /** What the visitor gave (information collection). */
  name: string;
  phone: string;
  email: string;
  channel: string;
  appid: string;
  appname: string;
  organ: string | null;
  organname: string;
  agentno: string | null;
  agentusername: string;
  createtime: number;
  servicetime: number | null;
  endtime: number | null;
  waittime: number;
  /** endtime − servicetime, null when never served. */
  servetime: number | null;
  endby: EndBy | null;
  satislevel: string | null;
  satiscomment: string | null;
  leavemsg: boolean;
  ai: boolean;
  userasks: number;
  agentreplys: number;
  /** First-reply delay in seconds. */
  firstreplytime: number | null;
  topicid: string | null;
  topicname: string;
  memo: string;
  tags: HistoryTagDto[];
  /** With a keyword: matching messages found (within the search window) and one of them. */
  hits?: number;
  snippet?: string;
}

export interface HistoryPage {
  list: HistoryRowDto[];
  total: number;
  page: number;
  size: number;
  /** Cursor of the next page (`before=`), null on the last page or when sorted by relevance. */
  next: string | null;
  /** The keyword search stopped at HISTORY_LIMITS.searchHits matching messages. */
  capped: boolean;
  /** `total` is a lower bound (HISTORY_LIMITS.searchCount): more conversations match. */
  totalAtLeast: boolean;
}

export interface HistoryVisitorDto {
  id: string;
  name: string;
  ip: string;
  browser: string;
  os: string;
  region: string;
  country: string;
  province: string;
  city: string;
  source: string;
  url: string;
  title: string;
  createtime: number;
}

export interface HistoryDetailDto {
  service: HistoryRowDto & {
    ipaddr: string;
    osname: string;
    browser: string;
    url: string;
    title: string;
    source: string;
    transmemo: string;
    trans: boolean;
    resion: string;
  };
  visitor: HistoryVisitorDto | null;
  summary: ConversationSummaryDto;
  contact: ContactDto | null;
  /** The user may edit the summary and tags, and blacklist the visitor. */
  writable: boolean;
}

export interface HistoryMessagePage {
  list: MessageDto[];
  hasMore: boolean;
}
