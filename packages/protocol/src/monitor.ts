/**
 * Monitor and supervision (console route /monitor, code A03; spec sections 3 "Monitor data", 4 "Monitor
 * and collaboration", 6 monitor scope, 7 "Get monitor desktop/index"). Times are epoch ms.
 */
import type { AckFn, AgentUserDto, MessageDto, StoredAgentState } from './realtime/dto.js';

/** Monitor tabs; 'lastmessage' is the spec's default. The chosen tab is kept as chatMonitorActive. */
export const MONITOR_TABS = ['lastmessage', 'agents', 'queue', 'timeout'] as const;
export type MonitorTab = (typeof MONITOR_TABS)[number];
export const DEFAULT_MONITOR_TAB: MonitorTab = 'lastmessage';
/** Browser storage key of the chosen tab (spec section 3 "Kept in the browser"). */
export const MONITOR_TAB_STORAGE_KEY = 'chatMonitorActive';

/** Monitor filter by service (spec section 4): 'ai' only AI chats, 'service' only the others. */
export const MONITOR_SERVICES = ['ai', 'service'] as const;
export type MonitorService = (typeof MONITOR_SERVICES)[number];

/** Live monitor updates are coalesced like the `status` reports: at most one per window per node. */
export const MONITOR_UPDATE_INTERVAL_MS = 250;
/** How often alerts (reply, queue, busy) and ring-no-answer are checked. */
export const MONITOR_SWEEP_MS = 5_000;

/** Spec section 6: A03_A01 all groups; without it (and not superuser) A03_A02 limits to the own organ. */
export type MonitorScopeKind = 'all' | 'organ' | 'none';

/** A conversation as the monitor shows it: the chat entry plus its group, serving agent and waiting. */
export interface MonitorChatDto extends AgentUserDto {
  /** The conversation's skill group (null = none requested). */
  organ: string | null;
  organname: string;
  /** The serving agent's display name ('' in the queue or with the robot). */
  agentname: string;
  /** ms the visitor has waited for an agent reply (0 when the last line was answered). */
  waitreply: number;
  /** 1 when waitreply is over the reply-time limit (the timeouts view). */
  timeout: 0 | 1;
  /** Handed from the robot to a human. */
  foragent: 0 | 1;
}

export interface MonitorAgentDto {
  userid: string;
  username: string;
  uname: string;
  /** Primary department and every group the agent is a member of. */
  organ: string | null;
  organs: string[];
  status: StoredAgentState;
  users: number;
  maxusers: number;
  /** When the agent entered its current state. */
  statetime: number;
}

export interface MonitorSkillDto {
  id: string;
  name: string;
  parentid: string | null;
  agentList: MonitorAgentDto[];
  /** Chats of the group in service / waiting in the queue. */
  serviceNum: number;
  inqueneNum: number;
}

export interface MonitorCounters {
  inqueneNum: number;
  leavemsgNum: number;
  /** Chats in service whose visitor waits for a reply longer than the limit. */
  timeoutNum: number;
  /** Chats in service (human and AI). */
  serviceNum: number;
  aiNum: number;
}

/** GET /api/monitor/desktop. */
export interface MonitorDesktopDto extends MonitorCounters {
  scope: Exclude<MonitorScopeKind, 'none'>;
  /** The department an organ-limited supervisor sees (null for 'all'). */
  organ: string | null;
  skillList: MonitorSkillDto[];
  agentList: MonitorAgentDto[];
  agentServiceList: MonitorChatDto[];
  /** The reply-time limit (s) the timeout flags use. */
  replylimit: number;
  now: number;
}

/** A message seen by the monitor feed: what changes in the chat row (no read-back needed). */
export interface MonitorMessagePatch {
  agentserviceid: string;
  lastmsg: string;
  lastmessage: number | null;
  lastgetmessage: number | null;
}

/**
 * `monitor_update` (to supervisors who asked for `monitor` with watch: true), at most one per
 * MONITOR_UPDATE_INTERVAL_MS per node: chats whose state changed (new, assigned, transferred, AI switch),
 * chats that ended (`removed`), message patches, agents whose state or load changed, fresh counters.
 * Each supervisor receives only what is in its scope.
 */
export interface MonitorUpdateDto {
  chats: MonitorChatDto[];
  removed: string[];
  messages: MonitorMessagePatch[];
  agents: MonitorAgentDto[];
  counters: MonitorCounters | null;
  createtime: number;
}

export const MONITOR_ALERT_TYPES = ['reply', 'queue', 'busy', 'ring'] as const;
export type MonitorAlertType = (typeof MONITOR_ALERT_TYPES)[number];

/** `monitor_alert`: a chat waits for an agent reply / a visitor waits in the queue / an agent stuck busy. */
export interface MonitorAlertDto {
  type: MonitorAlertType;
  agentserviceid: string | null;
  /** The agent concerned (busy, reply, ring) . */
  agentno: string | null;
  agentname: string;
  username: string;
  organ: string | null;
  /** Since when the condition holds. */
  since: number;
  /** The threshold crossed, seconds. */
  limit: number;
  createtime: number;
}

/** GET /api/monitor/staticagent: per-agent live figures (today = since local midnight of the server). */
export interface StaticAgentDto extends MonitorAgentDto {
  /** ms in the current state. */
  stateduration: number;
  /** Conversations served today and ended today. */
  servedToday: number;
  /** Average first response today, seconds (null = none). */
  firstreply: number | null;
  /** Average response today (agent line after a visitor line), seconds. */
  avgreply: number | null;
}

export const MONITOR_ACTIONS = [
  'join',
  'whisper',
  'barge',
  'takeover',
  'transfer',
  'end',
  'endAgent',
  'aiToHuman',
  'humanToAi',
  'ringReroute',
  'ringNotready',
  'rules',
] as const;
export type MonitorAction = (typeof MONITOR_ACTIONS)[number];

export interface MonitorAuditDto {
  id: string;
  userid: string;
  username: string;
  action: MonitorAction;
  agentserviceid: string | null;
  target: string | null;
  organ: string | null;
  detail: string;
  createtime: number;
}

/** Ring-no-answer and alert thresholds of a skill group ('' = tenant default), seconds; 0 = off. */
export interface MonitorRuleDto {
  organ: string;
  /** Re-route a chat whose assigned agent has not replied within this time. */
  ringtimeout: number;
  /** After this many misses in a row the agent is set notready (0 = never). */
  ringmisses: number;
  /** Alert when a visitor waits for a reply this long (0 = the session config's agenttimeout). */
  replyalert: number;
  /** Alert when a visitor waits in the queue this long. */
  queuealert: number;
  /** Alert when an agent stays busy this long. */
  busyalert: number;
  updatetime: number | null;
}

/** Defaults of a group without its own rule. */
export const MONITOR_RULE_DEFAULTS: Omit<MonitorRuleDto, 'organ' | 'updatetime'> = {
  ringtimeout: 0,
  ringmisses: 0,
  replyalert: 0,
  queuealert: 120,
  busyalert: 1_800,
};

/** A whisper as the agents receive it: a `message` with whisper: 1 that never reaches the visitor. */
export type WhisperDto = MessageDto & { whisper: 1; afterseq: number };

export interface MonitorWatchResult {
  scope: Exclude<MonitorScopeKind, 'none'>;
  organ: string | null;
}

/** Monitor events of /im/agent (merged into the agent namespace's event maps). */
export interface MonitorServerToClientEvents {
  monitor_update: (p: MonitorUpdateDto) => void;
  monitor_alert: (p: MonitorAlertDto) => void;
}
export interface MonitorClientToServerEvents {
  /** Start (watch: true) or stop the live monitor feed of this socket; needs A03 and a scope. */
  monitor: (p: { watch: boolean }, ack?: AckFn<MonitorWatchResult | null>) => void;
}
