import type { Generated } from 'kysely';

/** Tables of migration 0017_messaging_channels. Times are epoch ms; booleans 0/1; payloads JSON text. */
export interface ChannelAppTable {
  id: string;
  orgi: string;
  channel: string;
  name: string;
  /** Corp id, appid, Douyin client_key, Baidu app key. */
  platform_appid: string;
  secret: Generated<string>;
  /** Push verification token and EncodingAESKey. */
  token: Generated<string>;
  aeskey: Generated<string>;
  /** plain | compat | safe */
  mode: Generated<string>;
  /** xml | json (mini-programs may push JSON). */
  format: Generated<string>;
  /** Douyin: the business account's open_id. */
  extid: Generated<string>;
  createtime: number;
  updatetime: number;
}

export interface ChannelAccountTable {
  id: string;
  orgi: string;
  appid: string;
  channel: string;
  /** open_kfid, gh_ id, Douyin open_id, Baidu app key. */
  extid: string;
  name: string;
  avatar: Generated<string>;
  /** Skill group its users are routed to. */
  organ: string | null;
  enabled: Generated<number>;
  createtime: number;
  updatetime: number;
}

export interface ChannelUserTable {
  /** The visitor id the engine knows the user by: `<channel>:<32 chars>`. */
  id: string;
  orgi: string;
  accountid: string;
  channel: string;
  /** external_userid, openid, Douyin open_id. */
  extuserid: string;
  unionid: Generated<string>;
  nickname: Generated<string>;
  /** The user's last message (the reply window starts there) and the sends since. */
  lastin: number | null;
  sent: Generated<number>;
  /** Douyin: the conversation and the last message id a reply must name. */
  convid: Generated<string>;
  lastmsgid: Generated<string>;
  /** The conversation awaiting a rating by a text reply, if any. */
  satis: string | null;
  createtime: number;
  updatetime: number;
}

export interface ChannelInboundTable {
  id: string;
  orgi: string;
  appid: string;
  /** The platform's message id (or event key): unique per app, so a push is processed once. */
  msgkey: string;
  channel: string;
  payload: string;
  /** new | done | ignored | failed */
  status: Generated<string>;
  detail: Generated<string>;
  createtime: number;
  updatetime: number;
}

export interface ChannelCursorTable {
  appid: string;
  /** The KF account (open_kfid) the cursor reads. */
  scope: string;
  cursor: string;
  updatetime: number;
}

export interface ChannelOutboxTable {
  id: string;
  orgi: string;
  userid: string;
  agentserviceid: string | null;
  /** The chat message sent, or null for a notice (queue place, end, rating prompt, auto-reply). */
  messageid: string | null;
  payload: string;
  /** pending | sending | sent | failed */
  status: Generated<string>;
  attempts: Generated<number>;
  next_at: number;
  /** A node sending it holds it until then (a node that died lets it go). */
  lease: number | null;
  error: string | null;
  detail: Generated<string>;
  platform_msgid: Generated<string>;
  createtime: number;
  updatetime: number;
}

export interface ChannelSessionTable {
  agentserviceid: string;
  orgi: string;
  userid: string;
  outseq: Generated<number>;
  createtime: number;
}

export interface ChannelTokenTable {
  key: string;
  token: string;
  expires: number;
  refresh: Generated<string>;
  refresh_expires: number | null;
  updatetime: number;
}

export interface ChannelImrTable {
  id: string;
  orgi: string;
  accountid: string;
  kind: string;
  keyword: Generated<string>;
  contains: Generated<number>;
  reply: string;
  createtime: number;
  updatetime: number;
}

export interface MessagingTables {
  channel_app: ChannelAppTable;
  channel_account: ChannelAccountTable;
  channel_user: ChannelUserTable;
  channel_inbound: ChannelInboundTable;
  channel_cursor: ChannelCursorTable;
  channel_outbox: ChannelOutboxTable;
  channel_session: ChannelSessionTable;
  channel_token: ChannelTokenTable;
  channel_imr: ChannelImrTable;
}
