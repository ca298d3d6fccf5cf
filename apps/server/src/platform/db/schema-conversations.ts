import type { Generated } from 'kysely';

/** Tables of migration 0002_conversations. Times are epoch ms; booleans 0/1. */
export interface AgentStatusTable {
  userid: string;
  orgi: string;
  status: Generated<string>;
  users: Generated<number>;
  maxusers: Generated<number>;
  organ: string | null;
  lastping: number;
  /** When the agent last had no chat (idle-first tie-break: longest idle first). */
  lastidle: Generated<number>;
  logintime: number;
  updatetime: number;
  /** When the agent's last socket went away (migration 0011); null while one is connected. */
  offsince: Generated<number | null>;
}

export interface AgentStateLogTable {
  id: Generated<number>;
  orgi: string;
  userid: string;
  from_status: string;
  to_status: string;
  reason: string;
  createtime: number;
}

export interface AccessPointTable {
  id: string;
  orgi: string;
  name: string;
  domain: Generated<string>;
  organ: string | null;
  createtime: number;
  updatetime: number;
}

export interface VisitorTable {
  id: string;
  orgi: string;
  appid: string;
  token_hash: string;
  name: Generated<string>;
  phone: Generated<string>;
  email: Generated<string>;
  ip: Generated<string>;
  browser: Generated<string>;
  os: Generated<string>;
  country: Generated<string>;
  province: Generated<string>;
  city: Generated<string>;
  region: Generated<string>;
  source: Generated<string>;
  url: Generated<string>;
  title: Generated<string>;
  channel: Generated<string>;
  createtime: number;
  updatetime: number;
  /** The chat window is connected (migration 0011), and since when it is not. */
  online: Generated<number>;
  offtime: Generated<number | null>;
  /** The widget's language ('' = not told). */
  language: Generated<string>;
}

export interface AgentServiceTable {
  id: string;
  orgi: string;
  userid: string;
  username: Generated<string>;
  appid: string;
  channel: Generated<string>;
  status: string;
  organ: Generated<string | null>;
  requested_agent: Generated<string | null>;
  agentno: Generated<string | null>;
  agentusername: Generated<string>;
  initiator: Generated<string>;
  endby: Generated<string | null>;
  createtime: number;
  servicetime: Generated<number | null>;
  endtime: Generated<number | null>;
  waittime: Generated<number>;
  queneindex: Generated<number>;
  /** FIFO order of the queue (max + 1 at insert). */
  ordertime: Generated<number>;
  lastseq: Generated<number>;
  visitor_readseq: Generated<number>;
  lastmessage: Generated<number | null>;
  lastgetmessage: Generated<number | null>;
  idle_warned: Generated<number>;
  idle_warntime: Generated<number | null>;
  agent_warned: Generated<number>;
  firstreplytime: Generated<number | null>;
  agentreplys: Generated<number>;
  userasks: Generated<number>;
  trans: Generated<number>;
  transmemo: Generated<string>;
  transtime: Generated<number | null>;
  invite: Generated<number>;
  invitedate: Generated<number | null>;
  satisfaction: Generated<number>;
  satislevel: Generated<string | null>;
  satiscomment: Generated<string | null>;
  satistime: Generated<number | null>;
  leavemsg: Generated<number>;
  name: Generated<string>;
  phone: Generated<string>;
  email: Generated<string>;
  resion: Generated<string>;
  title: Generated<string>;
  url: Generated<string>;
  traceid: Generated<string>;
  ipaddr: Generated<string>;
  osname: Generated<string>;
  browser: Generated<string>;
  source: Generated<string>;
  country: Generated<string>;
  province: Generated<string>;
  city: Generated<string>;
  /** Handled by the AI robot (migration 0010); foragent = 1 once handed from the robot to a human. */
  ai: Generated<number>;
  foragent: Generated<number>;
  /** When it joined the human queue, if later than its creation (a robot chat handed over; migration 0016). */
  queuetime: number | null;
  /** Service summary (migration 0009): the service topic, the agent's memo and when it was last saved. */
  topicid: Generated<string | null>;
  summary: Generated<string>;
  summarytime: Generated<number | null>;
  /** The visitor's language when the conversation began (migration 0011): the texts it is sent. */
  language: Generated<string>;
}

export interface AgentUserTable {
  id: string;
  orgi: string;
  agentserviceid: string;
  userid: string;
  username: Generated<string>;
  agentno: string | null;
  status: string;
  tokenum: Generated<number>;
  over: Generated<number>;
  visible: Generated<number>;
  lastmsg: Generated<string>;
  lastmessage: Generated<number | null>;
  lastgetmessage: Generated<number | null>;
  agent_readseq: Generated<number>;
  langto: Generated<string>;
  createtime: number;
  servicetime: Generated<number | null>;
  updatetime: number;
}

export interface ChatMessageTable {
  id: string;
  orgi: string;
  agentserviceid: string;
  seq: number;
  sender: string;
  client_id: string;
  username: Generated<string>;
  touser: Generated<string>;
  usession: string;
  type: string;
  msgtype: string;
  calltype: string;
  message: string;
  attachmentid: string | null;
  filename: string | null;
  filesize: number | null;
  withdrawn: Generated<number>;
  withdrawn_at: number | null;
  readstatus: Generated<number>;
  createtime: number;
  /**
   * The words search finds the message by (migration 0008, search/tokens.ts): '' when none, null only for
   * rows stored before 0008 that the backfill has not reached yet.
   */
  tokens: string | null;
}

export interface TransferRequestTable {
  id: string;
  orgi: string;
  agentserviceid: string;
  agentuserid: string;
  from_agent: string;
  to_agent: string;
  to_organ: string | null;
  memo: Generated<string>;
  status: string;
  createtime: number;
  expires: number;
  decidedtime: number | null;
}

export interface AgentCollaboratorTable {
  agentserviceid: string;
  userid: string;
  orgi: string;
  inviter: string;
  createtime: number;
}

export interface AgentServiceTagTable {
  agentserviceid: string;
  tagid: string;
  orgi: string;
  creater: string;
  createtime: number;
}

export interface BlacklistTable {
  id: string;
  orgi: string;
  userid: string;
  agentserviceid: string | null;
  creater: string;
  description: Generated<string>;
  controltime: Generated<number>;
  endtime: number | null;
  createtime: number;
}

/** One JSON document per tenant (see modules/conversation/session-config.ts for keys and defaults). */
export interface SessionConfigTable {
  orgi: string;
  config: string;
  updatetime: number;
}

/** Visitor-facing texts in one language for one scope (migration 0011): `texts` is JSON {key: text}. */
export interface VisitorTextTable {
  orgi: string;
  scope: string;
  lang: string;
  texts: string;
  updatetime: number;
}

export interface MediaTable {
  id: string;
  orgi: string;
  owner: string;
  owner_kind: string;
  kind: string;
  mime: string;
  size: number;
  filename: string;
  path: string;
  createtime: number;
  /** The uploader's address (migration 0007; null for rows stored before it). */
  ip: Generated<string | null>;
}

/** Bytes of media stored per tenant (migration 0007), reserved before an upload is kept. */
export interface MediaUsageTable {
  orgi: string;
  bytes: number;
}

export interface ConversationTables {
  agent_status: AgentStatusTable;
  agent_state_log: AgentStateLogTable;
  access_point: AccessPointTable;
  visitor: VisitorTable;
  agent_service: AgentServiceTable;
  agent_user: AgentUserTable;
  chat_message: ChatMessageTable;
  transfer_request: TransferRequestTable;
  agent_collaborator: AgentCollaboratorTable;
  agent_service_tag: AgentServiceTagTable;
  blacklist: BlacklistTable;
  session_config: SessionConfigTable;
  visitor_text: VisitorTextTable;
  media: MediaTable;
  media_usage: MediaUsageTable;
}
