import type { Generated } from 'kysely';

/** Tables of migration 0010_monitor (the two agent_service columns live in schema-conversations.ts). */
export interface ChatWhisperTable {
  id: string;
  orgi: string;
  agentserviceid: string;
  /** The conversation's last seq when it was written: where it sits among the chat's messages. */
  afterseq: number;
  sender: string;
  username: Generated<string>;
  client_id: string;
  message: string;
  createtime: number;
}

export interface MonitorAuditTable {
  id: string;
  orgi: string;
  /** The supervisor, or 'system' for ring-no-answer. */
  userid: string;
  username: Generated<string>;
  action: string;
  agentserviceid: string | null;
  /** The agent acted on or handed the chat (takeover, transfer, forced state, reroute). */
  target: string | null;
  /** The conversation's (or agent's) skill group, so organ-limited supervisors see their own records. */
  organ: string | null;
  detail: Generated<string>;
  createtime: number;
}

/** Per skill group ('' = tenant default); every threshold in seconds, 0 = off. */
export interface MonitorRuleTable {
  orgi: string;
  organ: string;
  ringtimeout: Generated<number>;
  ringmisses: Generated<number>;
  replyalert: Generated<number>;
  queuealert: Generated<number>;
  busyalert: Generated<number>;
  updatetime: number;
}

export interface AgentRingTable {
  userid: string;
  orgi: string;
  misses: Generated<number>;
  lastmiss: Generated<number>;
}

export interface MonitorTables {
  chat_whisper: ChatWhisperTable;
  monitor_audit: MonitorAuditTable;
  monitor_rule: MonitorRuleTable;
  agent_ring: AgentRingTable;
}
