import type { Generated } from 'kysely';

/** Tables of migration 0002_conversations. Times are epoch ms; booleans 0/1. */
export interface AgentStatusTable {
  userid: string;
  orgi: string;
  status: string;
  users: number;
  maxusers: number;
  organ: string | null;
  lastping: number;
  /** When the agent last had no chat (idle-first tie-break: longest idle first). */
  lastidle: number;
  logintime: number;
  updatetime: number;
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
  domain: string;
  organ: string | null;
  createtime: number;
  updatetime: number;
}

export interface VisitorTable {
  id: string;
  orgi: string;
  appid: string;
  token_hash: string;
  name: string;
  phone: string;
  email: string;
  ip: string;
  browser: string;
  os: string;
  country: string;
  province: string;
  city: string;
  region: string;
  source: string;
  url: string;
  title: string;
  channel: string;
  createtime: number;
  updatetime: number;
}

export interface AgentServiceTable {
  id: string;
  orgi: string;
  userid: string;
  username: string;
  appid: string;
  channel: string;
  status: string;
  organ: string | null;
  requested_agent: string | null;
  agentno: string | null;
  agentusername: string;
  initiator: string;
  endby: string | null;
  createtime: number;
  servicetime: number | null;
  endtime: number | null;
  waittime: number;
  queneindex: number;
  lastseq: number;
  visitor_readseq: number;
  lastmessage: number | null;
  lastgetmessage: number | null;
  idle_warned: number;
  idle_warntime: number | null;
  agent_warned: number;
  firstreplytime: number | null;
  agentreplys: number;
  userasks: number;
  trans: number;
  transmemo: string;
  transtime: number | null;
  invite: number;
  invitedate: number | null;
  satisfaction: number;
  satislevel: string | null;
  satiscomment: string | null;
  satistime: number | null;
  leavemsg: number;
  name: string;
  phone: string;
  email: string;
  resion: string;
  title: string;
  url: string;
  traceid: string;
  ipaddr: string;
  osname: string;
  browser: string;
  source: string;
  country: string;
  province: string;
  city: string;
}

export interface AgentUserTable {
  id: string;
  orgi: string;
  agentserviceid: string;
  userid: string;
  username: string;
  agentno: string | null;
  status: string;
  tokenum: number;
  over: number;
  visible: number;
  lastmsg: string;
  lastmessage: number | null;
  lastgetmessage: number | null;
  agent_readseq: number;
  langto: string;
  createtime: number;
  servicetime: number | null;
  updatetime: number;
}

export interface ChatMessageTable {
  id: string;
  orgi: string;
  agentserviceid: string;
  seq: number;
  sender: string;
  client_id: string;
  username: string;
  touser: string;
  usession: string;
  type: string;
  msgtype: string;
  calltype: string;
  message: string;
  attachmentid: string | null;
  filename: string | null;
  filesize: number | null;
  withdrawn: number;
  withdrawn_at: number | null;
  readstatus: number;
  createtime: number;
}

export interface TransferRequestTable {
  id: string;
  orgi: string;
  agentserviceid: string;
  agentuserid: string;
  from_agent: string;
  to_agent: string;
  to_organ: string | null;
  memo: string;
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
  description: string;
  controltime: number;
  endtime: number | null;
  createtime: number;
}

/** One JSON document per tenant (see modules/conversation/session-config.ts for keys and defaults). */
export interface SessionConfigTable {
  orgi: string;
  config: string;
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
  media: MediaTable;
}
