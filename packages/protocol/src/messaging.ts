/**
 * Messaging-platform channels (issue 16): WeChat customer service (`wechat`, 微信客服 / WeCom KF),
 * official accounts (`weixin`), mini-programs (`weapp`), Douyin direct messages (`douyin`) and `bcp`
 * (read as Baidu smart-program customer service, see docs/api.md "Messaging channels"). Their users
 * chat through the same conversation engine as website visitors; what each platform can do is stated
 * once here (the capability descriptor) and read by the server (sends) and the console (composer).
 */
import { z } from 'zod';
import type { MsgType } from './realtime/dto.js';
import { flag, idField, optionalId, optionalText, requiredText, str } from './schemas/fields.js';

export const PLATFORM_CHANNELS = ['wechat', 'weixin', 'weapp', 'douyin', 'bcp'] as const;
export type PlatformChannel = (typeof PLATFORM_CHANNELS)[number];
export const isPlatformChannel = (c: string): c is PlatformChannel =>
  (PLATFORM_CHANNELS as readonly string[]).includes(c);

/** WeChat KF and official accounts (spec /setup/wechat, /setup/officialAccount). */
export const WECHAT_CODE = 'A09_A01_A02';
/** Mini-programs (spec /setup/weapp). */
export const WEAPP_CODE = 'A09_A01_A03';
/** The all-accounts list (`/api/snsAccount/*`): any of the channel setup codes. */
export const SNS_CODES = ['A09_A01_A01', 'A09_A01_A02', 'A09_A01_A03'] as const;

/**
 * A platform user chats as a visitor whose id is `<channel>:<32 chars>`. Website visitors' ids are exactly
 * 32 characters of [A-Za-z0-9_-], so the colon tells the two apart without a lookup.
 */
export const PLATFORM_USER_SEP = ':';
export const isPlatformUser = (userid: string): boolean => userid.includes(PLATFORM_USER_SEP);
export const channelOfUser = (userid: string): PlatformChannel | null => {
  const c = userid.slice(0, userid.indexOf(PLATFORM_USER_SEP));
  return isPlatformChannel(c) ? c : null;
};

export interface ReplyWindow {
  /** Hours after the user's last message in which the business may answer. */
  hours: number;
  /** Messages the business may send in that window. */
  quota: number;
}

/** What a channel can carry and allow; actions it cannot do are disabled in the console with a reason. */
export interface ChannelCapabilities {
  /** Message kinds received from the platform (others arrive as a text placeholder). */
  in: readonly MsgType[];
  /** Message kinds that can be sent; the composer disables the others. */
  out: readonly MsgType[];
  /** Whether a sent message can be recalled on the platform (withdraw keeps our record either way). */
  recall: boolean;
  /** Whether the platform reports that the user read a message. */
  readReceipts: boolean;
  /** The reply window after a user message, or null when unlimited. */
  window: ReplyWindow | null;
  /** Longest text, in UTF-8 bytes; longer texts are split into several messages. */
  maxTextBytes: number;
}

const MEDIA: readonly MsgType[] = ['text', 'image', 'voice', 'video', 'file'];

export const CHANNEL_CAPABILITIES: Record<PlatformChannel, ChannelCapabilities> = {
  wechat: {
    in: MEDIA,
    out: MEDIA,
    recall: false,
    readReceipts: false,
    window: { hours: 48, quota: 5 },
    maxTextBytes: 2048,
  },
  weixin: {
    in: ['text', 'image', 'voice', 'video'],
    out: ['text', 'image', 'voice', 'video'],
    recall: false,
    readReceipts: false,
    window: { hours: 48, quota: 5 },
    maxTextBytes: 2048,
  },
  weapp: {
    in: ['text', 'image'],
    out: ['text', 'image'],
    recall: false,
    readReceipts: false,
    window: { hours: 48, quota: 5 },
    maxTextBytes: 2048,
  },
  douyin: {
    in: ['text', 'image', 'video', 'emoticon'],
    out: ['text'],
    recall: false,
    readReceipts: false,
    window: { hours: 24, quota: 6 },
    maxTextBytes: 1500,
  },
  bcp: {
    in: ['text', 'image'],
    // Baidu sends images by public URL only (pic_url); kefu's media is not public, so text only.
    out: ['text'],
    recall: false,
    readReceipts: false,
    window: { hours: 48, quota: 5 },
    maxTextBytes: 2048,
  },
};

/** Outbound delivery of one message to the platform. */
export const DELIVERY_STATES = ['pending', 'sent', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** Why a send failed for good (error keys of errors.ts); transient failures are retried instead. */
export const DELIVERY_ERRORS = [
  'channel_window_closed',
  'channel_quota_exhausted',
  'channel_user_blocked',
  'channel_session_invalid',
  'channel_unsupported',
  'channel_send_failed',
  'channel_config',
] as const;
export type DeliveryError = (typeof DELIVERY_ERRORS)[number];

/** Agent socket `delivery`: a message's state on the platform changed. */
export interface DeliveryNotice {
  /** The chat message id (for a notice that is no chat line, such as the queue place: its own id). */
  id: string;
  agentserviceid: string;
  state: DeliveryState;
  error: DeliveryError | null;
  /** The platform's own code and text, for support. */
  detail: string;
}

/** The reply window of a platform conversation as the composer shows it. */
export interface ChannelWindowDto {
  channel: PlatformChannel;
  capabilities: ChannelCapabilities;
  /** When the window closes (epoch ms), null when the channel has none or the user never wrote. */
  closes: number | null;
  /** Messages left in the window (null: unlimited). */
  remaining: number | null;
  /** Delivery states of this conversation's messages that are not simply sent. */
  deliveries: Array<{ id: string; state: DeliveryState; error: DeliveryError | null; detail: string }>;
}

/**
 * Satisfaction on a channel without a widget: the invitation goes out as text followed by the levels, one
 * per line as `<value> <name>` after this hint; a reply that is only a level's number, within
 * CHANNEL_SATIS_REPLY_MS of the invitation, rates the conversation and is answered with the thanks.
 */
export const CHANNEL_SATIS_HINT = '回复数字评价：';
export const CHANNEL_SATIS_THANKS = '感谢您的评价！';
export const CHANNEL_SATIS_REPLY_MS = 24 * 3_600_000;

/** Retry schedule of transient send failures (ms after each attempt); then the message fails. */
export const DELIVERY_BACKOFF_MS = [1_000, 2_000, 5_000, 15_000, 60_000, 300_000] as const;

// ---- accounts

/** Encryption of platform pushes: plaintext, compatible (both) or safe (AES only). */
export const PUSH_MODES = ['plain', 'compat', 'safe'] as const;
export type PushMode = (typeof PUSH_MODES)[number];

/** One channel account as `/api/snsAccount` lists them (statistics read the same list). */
export interface SnsAccountDto {
  id: string;
  channel: PlatformChannel;
  name: string;
  /** The platform's id of the account: open_kfid, gh_ id / appid, Douyin open_id, Baidu app key. */
  extid: string;
  /** The credentials it belongs to (WeChat KF: the corp). */
  appid: string;
  /** The platform app id (corp id, appid, client_key). */
  platformAppId: string;
  /** The skill group (department) its users are routed to. */
  organ: string | null;
  organname: string;
  /** The robot that answers the account's users first (handing over on request), null: humans only. */
  robotid: string | null;
  robotname: string;
  enabled: boolean;
  createtime: number;
  updatetime: number;
}

/** The credentials of a platform app, as shown for editing: the secret is never sent back. */
export interface ChannelAppDto {
  id: string;
  channel: PlatformChannel;
  name: string;
  platformAppId: string;
  secretSet: boolean;
  token: string;
  aeskey: string;
  mode: PushMode;
  format: 'xml' | 'json';
  /** Douyin: the business account's open_id. */
  extid: string;
  organ: string | null;
  /** The robot of its account (every channel but WeChat KF has one account per app). */
  robotid: string | null;
  createtime: number;
  updatetime: number;
}

/** getCallbackConfig: what to paste into the platform's console. */
export interface CallbackConfigDto {
  id: string;
  url: string;
  token: string;
  aeskey: string;
  /** The app itself, for editing (never its secret). */
  app: ChannelAppDto;
}

/** getKfWay: the contact-way link (the console draws its QR code). */
export interface KfWayDto {
  url: string;
}

export const IMR_KINDS = ['keyword', 'menu', 'subscribe'] as const;
export type ImrKind = (typeof IMR_KINDS)[number];

/**
 * Auto-replies of an official account or mini-program (spec `imr`): `keyword` answers a user text that
 * equals (or, with `contains`, includes) the keyword; `menu` answers a menu click whose key is the
 * keyword; `subscribe` answers a follow. A rule that answers a message still lets it reach an agent.
 */
export interface ImrRuleDto {
  id: string;
  accountid: string;
  kind: ImrKind;
  keyword: string;
  contains: boolean;
  reply: string;
  createtime: number;
}

// ---- request schemas

const channelField = z.enum(PLATFORM_CHANNELS, 'invalid_field');
const secretText = (max: number) => optionalText(max).transform((v) => v ?? '');
/** An EncodingAESKey: 43 characters of base64 (32 bytes once decoded). */
export const AESKEY_RE = /^[A-Za-z0-9+/]{43}$/;
const aesField = () =>
  optionalText(43)
    .transform((v) => v ?? '')
    .refine((v) => v === '' || AESKEY_RE.test(v), 'invalid_field');

const appFields = {
  name: requiredText(50),
  platformAppId: requiredText(64),
  secret: secretText(256),
  token: optionalText(64).transform((v) => v ?? ''),
  aeskey: aesField(),
  mode: z.enum(PUSH_MODES, 'invalid_field').default('safe'),
  format: z.enum(['xml', 'json'], 'invalid_field').default('xml'),
  extid: optionalText(128).transform((v) => v ?? ''),
  organ: optionalId(),
  /** Absent: left as it is; blank: no robot. */
  robotid: optionalId(),
};
export const snsSaveSchema = z.object({ channel: channelField, ...appFields });
export const snsUpdateSchema = z.object({
  id: idField(),
  ...appFields,
  enabled: flag().optional(),
});
export const snsPageQuery = z.object({
  channel: channelField.optional(),
  name: optionalText(50),
});
export const channelAppSaveSchema = z.object(appFields);
export const channelAppUpdateSchema = z.object({ id: idField(), ...appFields });

export const kfAccountAddSchema = z.object({
  id: idField(),
  name: requiredText(16),
  /** An uploaded image (media id) for the avatar. */
  avatar: optionalId(),
});
export const kfAccountUpdateSchema = z.object({
  accountid: idField(),
  name: requiredText(16),
  avatar: optionalId(),
});
export const kfAccountRef = z.object({ accountid: idField() });
/** Routes a KF account to a skill group; `robotid` (absent: unchanged, blank: none) answers its users first. */
export const kfAssociationSchema = z.object({
  accountid: idField(),
  organ: idField(),
  robotid: optionalId(),
});
export const kfWayQuery = z.object({
  accountid: idField(),
  scene: str()
    .trim()
    .max(32, 'too_long')
    .regex(/^[0-9A-Za-z_-]*$/, 'invalid_field')
    .default(''),
});
export const imrSaveSchema = z.object({
  id: optionalId(),
  accountid: idField(),
  kind: z.enum(IMR_KINDS, 'invalid_field'),
  keyword: optionalText(64).transform((v) => v ?? ''),
  contains: flag().default(false),
  reply: requiredText(600),
});
export const windowQuery = z.object({ agentserviceid: idField() });
