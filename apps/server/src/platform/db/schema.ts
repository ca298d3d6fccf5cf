import type { Generated } from 'kysely';
import type { ConversationTables } from './schema-conversations.js';
import type { ChannelTables } from './schema-channel.js';
import type { OnlineTables } from './schema-online.js';
import type { QuickReplyTables } from './schema-quickreply.js';
import type { ContactTables } from './schema-contacts.js';
import type { ComplianceTables } from './schema-compliance.js';
import type { HistoryTables } from './schema-history.js';
import type { MonitorTables } from './schema-monitor.js';
import type { KnowledgeTables } from './schema-knowledge.js';
import type { AnalysisTables } from './schema-analysis.js';
import type { MessagingTables } from './schema-messaging.js';
import type { QualityTables } from './schema-quality.js';
import type { IdentityTables } from './schema-identity.js';

/** Times are epoch milliseconds (bigint in PostgreSQL, parsed back to number). Booleans are 0/1. */
export interface OrganizationTable {
  id: string;
  name: string;
  title: string;
  favlogo: string;
  createtime: number;
  /** IANA time zone the statistics count days in (migration 0013). */
  timezone: Generated<string>;
}

/** Department tree (spec: organ, parentid). skill=1 marks a skill group that can take chats. */
export interface OrganTable {
  id: string;
  orgi: string;
  name: string;
  parentid: string | null;
  skill: number;
  sortindex: number;
  createtime: number;
  updatetime: number;
}

export interface UserTable {
  id: string;
  orgi: string;
  username: string;
  password_hash: string;
  uname: string;
  nickname: string;
  email: string | null;
  mobile: string | null;
  /** '0' is the all-powerful account. */
  usertype: string;
  superuser: number;
  /** Primary department id. */
  organ: string | null;
  /** Max concurrent chats. */
  maxusers: number;
  disabled: number;
  language: string;
  warningtone: number;
  messagetone: number;
  warningpath: string;
  messagepath: string;
  createtime: number;
  updatetime: number;
  lastlogin: number | null;
}

/** Membership of users in departments / skill groups. */
export interface UserOrganTable {
  userid: string;
  organid: string;
  orgi: string;
}

export interface RoleTable {
  id: string;
  orgi: string;
  name: string;
  description: string;
  createtime: number;
  updatetime: number;
}

export interface UserRoleTable {
  userid: string;
  roleid: string;
  orgi: string;
}

export interface RoleAuthTable {
  roleid: string;
  code: string;
  orgi: string;
}

export interface TokenTable {
  /** sha256 of the opaque token; the token itself is never stored. */
  id: string;
  userid: string;
  orgi: string;
  createtime: number;
  expires: number;
  lastused: number;
  revoked: number;
}

export interface LoginLogTable {
  id: Generated<number>;
  orgi: string;
  userid: string | null;
  username: string;
  ip: string;
  useragent: string;
  browser: string;
  os: string;
  success: number;
  reason: string;
  createtime: number;
}

export interface Database
  extends
    ConversationTables,
    KnowledgeTables,
    ChannelTables,
    OnlineTables,
    QuickReplyTables,
    ContactTables,
    ComplianceTables,
    HistoryTables,
    MonitorTables,
    AnalysisTables,
    MessagingTables,
    QualityTables,
    IdentityTables {
  organization: OrganizationTable;
  organ: OrganTable;
  users: UserTable;
  user_organ: UserOrganTable;
  role: RoleTable;
  user_role: UserRoleTable;
  role_auth: RoleAuthTable;
  tokens: TokenTable;
  login_log: LoginLogTable;
}
