import type { RobotReplyMeta } from '../robot.js';

/**
 * Data shapes exchanged over the realtime namespaces and /api/talk. Times are epoch milliseconds.
 * Field names follow the spec (section 3: chat entry, message) so the console can bind them directly.
 */

/** `robot`: a robot's line (answer, suggestions, fallback); it counts as no agent reply. */
export const MESSAGE_TYPES = ['message', 'writing', 'problem', 'over', 'system', 'robot'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export const MSG_TYPES = ['text', 'image', 'file', 'voice', 'video', 'emoticon', 'tips'] as const;
export type MsgType = (typeof MSG_TYPES)[number];

export const CALL_TYPES = ['in', 'out', 'system'] as const;
export type CallType = (typeof CALL_TYPES)[number];

export const SERVICE_STATUSES = ['inqueue', 'inservice', 'end'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

/** Who or what ended a conversation. */
export const END_BY = ['agent', 'user', 'timeout', 'queue', 'system', 'blacklist'] as const;
export type EndBy = (typeof END_BY)[number];

/** Agent work state as stored server side (spec values leave/notbusy are only pushed, never stored). */
export const STORED_AGENT_STATES = ['ready', 'notready', 'busy'] as const;
export type StoredAgentState = (typeof STORED_AGENT_STATES)[number];

export const DISTRIBUTIONS = ['idle-first', 'least-busy'] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];

/** Time window in which the sender may withdraw a message. */
export const WITHDRAW_WINDOW_MS = 2 * 60_000;
/** Longest text message, in characters. */
export const MESSAGE_MAX_CHARS = 5_000;
export const UPLOAD_LIMITS = {
  image: 10 * 1024 * 1024,
  file: 20 * 1024 * 1024,
  voice: 20 * 1024 * 1024,
} as const;
export const VOICE_MIME_TYPES = ['audio/mp3', 'audio/mpeg', 'audio/ogg'] as const;
/** Agent heartbeat: a ping every 30 s; two missed (60 s) → notready; checked every 15 s. */
export const HEARTBEAT_TIMEOUT_MS = 60_000;

/** The conversation part of a chat entry. */
export interface AgentServiceBrief {
  id: string;
  channel: string;
  chattype: string;
  browser: string;
  source: string;
  country: string;
  province: string;
  city: string;
  username: string;
  mobile: string;
}

/** A chat entry (spec "agent user"): one per visitor and agent; `userid` is the visitor id. */
export interface AgentUserDto {
  id: string;
  userid: string;
  /** The visitor id again (messages carry it as usession). */
  usession: string;
  username: string;
  agentserviceid: string;
  status: ServiceStatus;
  createtime: number;
  servicetime: number | null;
  /** ms the visitor waited (for a queued chat: so far). */
  waitingtime: number;
  lastmsg: string;
  /** Last visitor message time. */
  lastmessage: number | null;
  /** Last agent message time. */
  lastgetmessage: number | null;
  /** Unread count for the agent. */
  tokenum: number;
  /** 1 once the conversation is over (visitor left, timeout); the entry stays until the agent closes it. */
  over: 0 | 1;
  visible: 0 | 1;
  /** 1 when the receiving agent is a collaborator/supervisor, not the owner. */
  collabora: 0 | 1;
  ai: 0 | 1;
  agentno: string | null;
  langto: string;
  curagentuser: { id: string };
  agentservice: AgentServiceBrief;
  /** Highest message seq of the conversation (for catch-up). */
  lastseq: number;
  /** The visitor's chat window is connected (absent: not known, taken as online). */
  online?: boolean;
  /** Since when it is not (with online false). */
  offtime?: number | null;
}

export interface MessageDto {
  id: string;
  agentserviceid: string;
  /** The visitor id of the conversation. */
  usession: string;
  /** Per-conversation sequence number, 1-based, gap-free. */
  seq: number;
  /** The sender's idempotency key. */
  clientId: string;
  type: MessageType;
  msgtype: MsgType;
  calltype: CallType;
  /** Sender id (agent user id, visitor id, or 'system'). */
  userid: string;
  username: string;
  touser: string;
  /** Rendered text (withdrawn messages keep their original server side; clients get '' here). */
  message: string;
  puremsg: string;
  translatemsg: string;
  attachmentid: string | null;
  filename: string | null;
  filesize: number | null;
  /** 1 once withdrawn (spec: datastatus is the withdrawn flag). */
  datastatus: 0 | 1;
  withdrawn: boolean;
  readstatus: 0 | 1;
  /** Unread count of the chat entry after this message (agent side). */
  tokenum: number;
  collabora: 0 | 1;
  /** 1: a supervisor's whisper (monitor), shown to the agents of the chat only, never to the visitor. */
  whisper?: 0 | 1;
  /** A whisper's place: it follows the message of this seq (a whisper's own seq is 0, it takes none). */
  afterseq?: number;
  /** A robot line's outcome, suggestions and citations (type `robot`, robot.ts). */
  robot?: RobotReplyMeta;
  createtime: number;
}

/** Monitor counters pushed as `status` on every routing change (reference: AgentReport). */
export interface AgentReportDto {
  orgi: string;
  agents: number;
  readyagents: number;
  busy: number;
  users: number;
  inquene: number;
  worktype: string;
  workresult: string;
  dataid: string;
  createtime: number;
}

export interface TransferPromptDto {
  /** Transfer request id. */
  id: string;
  agentuserid: string;
  agentserviceid: string;
  userid: string;
  username: string;
  from: { id: string; uname: string };
  memo: string;
  /** ms after which the request times out (the chat stays with the source agent). */
  timeout: number;
  createtime: number;
}

export interface TransferResultDto {
  id: string;
  agentuserid: string;
  agentserviceid: string;
  result: 'accepted' | 'refused' | 'timeout';
  to: string;
}

/** Result passed to every socket acknowledgement callback. */
export type Ack<T> =
  | { success: true; data: T; msg: string; code: number }
  | { success: false; msg: string; code: number; key?: string; fields?: Record<string, string> };
export type AckFn<T> = (res: Ack<T>) => void;
