/** Tables of migration 0012_compliance. Times are epoch ms; flags 0/1. */

/** A sensitive word of the agent or visitor list; `norm` (unique per list) and `pinyin` (forms, space-separated) are derived once. */
export interface SensitiveWordTable {
  id: string;
  orgi: string;
  kind: string;
  word: string;
  norm: string;
  pinyin: string;
  action: string;
  creater: string;
  createtime: number;
  updatetime: number;
}

/** A message that hit words (alert, mask or block; a blocked message has messageid ''). */
export interface SensitiveHitTable {
  id: string;
  orgi: string;
  agentserviceid: string;
  messageid: string;
  side: string;
  action: string;
  /** The words hit, newline-separated. */
  words: string;
  createtime: number;
}

/** A per-tenant setting document (JSON); `version` grows with every change so node caches can follow. */
export interface OrgSettingTable {
  orgi: string;
  name: string;
  value: string;
  version: number;
  updatetime: number;
}

/** Append-only record of an administrative action. */
export interface AuditLogTable {
  id: string;
  orgi: string;
  userid: string;
  username: string;
  action: string;
  method: string;
  path: string;
  target: string;
  before: string | null;
  after: string | null;
  ip: string;
  useragent: string;
  createtime: number;
}

export interface BusinessSystemTable {
  id: string;
  orgi: string;
  name: string;
  url: string;
  ticketurl: string;
  opentype: string;
  secret: string;
  mode: string;
  enabled: number;
  sortindex: number;
  creater: string;
  createtime: number;
  updatetime: number;
}

export interface CrmLinkTable {
  id: string;
  orgi: string;
  businessid: string;
  userid: string;
  contactid: string;
  crmid: string;
  agentserviceid: string;
  creater: string;
  createtime: number;
}

/** The tenant's API secret: only its hash (to check calls) and a key derived from it (to sign webhooks). */
export interface ApiSecretTable {
  orgi: string;
  prefix: string;
  hash: string;
  signkey: string;
  creater: string;
  createtime: number;
}

export interface WebhookDeliveryTable {
  id: string;
  orgi: string;
  event: string;
  url: string;
  payload: string;
  status: string;
  attempts: number;
  nextattempt: number;
  lastcode: number | null;
  lasterror: string;
  createtime: number;
  updatetime: number;
}

/** A reusable file; owner '' = public. */
export interface QuickFileTable {
  id: string;
  orgi: string;
  owner: string;
  name: string;
  mediaid: string;
  filesize: number;
  mime: string;
  sortindex: number;
  creater: string;
  createtime: number;
  updatetime: number;
}

export interface UserSettingTable {
  userid: string;
  name: string;
  orgi: string;
  value: string;
  updatetime: number;
}

export interface UserTotpTable {
  userid: string;
  orgi: string;
  secret: string;
  enabled: number;
  /** JSON array of sha256 hashes of the unused recovery codes. */
  recovery: string;
  /** The last accepted time step (a code is accepted once). */
  laststep: number;
  createtime: number;
  updatetime: number;
}

/** Where a login session (token) came from, for the active-sessions list. */
export interface SessionMetaTable {
  tokenid: string;
  userid: string;
  orgi: string;
  ip: string;
  useragent: string;
  createtime: number;
}

export interface MessageTranslationTable {
  messageid: string;
  orgi: string;
  agentserviceid: string;
  lang: string;
  text: string;
  provider: string;
  createtime: number;
}

export interface UserIdentityTable {
  provider: string;
  subject: string;
  userid: string;
  orgi: string;
  createtime: number;
}

/** Short-lived login steps (two-factor pending, OpenID Connect state, binding); id is a hash. */
export interface AuthTicketTable {
  id: string;
  kind: string;
  payload: string;
  expires: number;
}

export interface ComplianceTables {
  sensitive_word: SensitiveWordTable;
  sensitive_hit: SensitiveHitTable;
  org_setting: OrgSettingTable;
  audit_log: AuditLogTable;
  business_system: BusinessSystemTable;
  crm_link: CrmLinkTable;
  api_secret: ApiSecretTable;
  webhook_delivery: WebhookDeliveryTable;
  quick_file: QuickFileTable;
  user_setting: UserSettingTable;
  user_totp: UserTotpTable;
  session_meta: SessionMetaTable;
  message_translation: MessageTranslationTable;
  user_identity: UserIdentityTable;
  auth_ticket: AuthTicketTable;
}
