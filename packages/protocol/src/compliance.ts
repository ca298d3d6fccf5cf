/**
 * Records (audit log), secret key and webhooks, business systems and CRM links, quick files and shortcuts,
 * personal and corporate security, message translation, skill groups' routing policy (issue 14): permission
 * codes, DTOs, constants.
 */
import type { Distribution } from './realtime/dto.js';

// ---------------------------------------------------------------- records (audit log), A09_A06_A01
export const AUDIT_CODE = 'A09_A06_A01';
/** Most rows one export writes. */
export const AUDIT_EXPORT_MAX = 50_000;

export interface AuditLogDto {
  id: string;
  userid: string;
  username: string;
  /** The call, as a dotted path: 'sensitive.agent.save'. */
  action: string;
  method: string;
  path: string;
  target: string;
  /** JSON text (secrets replaced by ***), or null. */
  before: string | null;
  after: string | null;
  ip: string;
  useragent: string;
  createtime: number;
}

// ---------------------------------------------------------------- security, A09_A07_A01 / A09_A07_A02
export const PERSONAL_SECURITY_CODE = 'A09_A07_A01';
export const CORPORATE_SECURITY_CODE = 'A09_A07_A02';

/** Corporate security policy (per tenant), enforced by the server at login, on password changes and per request. */
export interface SecurityPolicy {
  /** Shortest password. */
  minLength: number;
  /** How many of the four character classes (upper, lower, digit, symbol) a password needs. */
  classes: number;
  /** Days a password lasts; 0 = never expires. */
  expireDays: number;
  /** Addresses / CIDR ranges allowed to sign in; empty = anywhere. */
  ipAllow: string[];
  /** Minutes without activity after which a session ends; 0 = never. */
  idleMinutes: number;
  /** Role ids whose holders must use two-factor authentication. */
  twofactorRoles: string[];
}

export const SECURITY_POLICY_DEFAULT: SecurityPolicy = {
  minLength: 8,
  classes: 2,
  expireDays: 0,
  ipAllow: [],
  idleMinutes: 0,
  twofactorRoles: [],
};

export const SECURITY_LIMITS = {
  minLength: [8, 64],
  classes: [1, 4],
  expireDays: [0, 3650],
  idleMinutes: [0, 1440],
  ipAllow: 200,
} as const;

/** Characters classes present in a password: upper case, lower case, digits, others. */
export function passwordClasses(password: string): number {
  return [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
}

/** 0 (very weak) … 4 (very strong): length and variety, for the strength meter. */
export function passwordStrength(password: string): 0 | 1 | 2 | 3 | 4 {
  if (!password) return 0;
  const classes = passwordClasses(password);
  let score =
    (password.length >= 8 ? 1 : 0) + (password.length >= 12 ? 1 : 0) + (password.length >= 16 ? 1 : 0);
  score += classes - 1;
  if (/^(.)\1+$/.test(password) || password.length < 6) score = 0;
  return Math.max(0, Math.min(4, score)) as 0 | 1 | 2 | 3 | 4;
}

/** Whether a password meets the policy's length and classes. */
export const meetsPolicy = (password: string, p: Pick<SecurityPolicy, 'minLength' | 'classes'>): boolean =>
  password.length >= p.minLength && passwordClasses(password) >= p.classes;

/** The signed-in user's security state (personal security screen). */
export interface MySecurityDto {
  totp: boolean;
  /** A role of the user requires two-factor authentication. */
  totpRequired: boolean;
  /** Recovery codes left. */
  recoveryLeft: number;
  passwordChanged: number | null;
  /** When the password expires under the policy, or null. */
  passwordExpires: number | null;
  policy: Pick<SecurityPolicy, 'minLength' | 'classes'>;
}

export interface SessionDto {
  /** Hash of the token (never the token). */
  id: string;
  current: boolean;
  ip: string;
  useragent: string;
  browser: string;
  os: string;
  createtime: number;
  expires: number;
}

/** A two-factor enrolment in progress: the secret and its otpauth:// URI (shown as a QR code). */
export interface TotpSetupDto {
  secret: string;
  uri: string;
}

/** Steps a login may need after the password: error keys whose `fields.ticket` continues at POST /tokens/step. */
export const LOGIN_STEP_KEYS = ['totp_required', 'totp_enrol_required', 'password_expired'] as const;
export type LoginStepKey = (typeof LOGIN_STEP_KEYS)[number];

/** What POST /tokens/step answers: the session, or the enrolment to show. */
export type LoginStepResult = { token: string; user: unknown; recovery?: string[] } | { enrol: TotpSetupDto };

// ---------------------------------------------------------------- secret key and webhooks, A09_A06_A02
export const SECRET_KEY_CODE = 'A09_A06_A02';

export interface SecretKeyInfoDto {
  /** The first characters of the secret, to tell keys apart; the secret itself is never shown again. */
  prefix: string;
  creater: string;
  createtime: number;
}

export const WEBHOOK_EVENTS = [
  'conversation.created',
  'conversation.assigned',
  'conversation.ended',
  'message.created',
  'leavemsg.created',
  'satisfaction.created',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookConfig {
  enabled: boolean;
  url: string;
  events: WebhookEvent[];
}
export const WEBHOOK_CONFIG_DEFAULT: WebhookConfig = { enabled: false, url: '', events: [...WEBHOOK_EVENTS] };

/** Attempts before a delivery is given up, and the pause before attempt n+1: 10 s · 2^(n−1), at most 1 h. */
export const WEBHOOK_MAX_ATTEMPTS = 8;
export const webhookBackoffMs = (attempts: number): number =>
  Math.min(10_000 * 2 ** (attempts - 1), 3_600_000);

export const WEBHOOK_STATUSES = ['pending', 'success', 'failed'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export interface WebhookDeliveryDto {
  id: string;
  event: WebhookEvent | 'webhook.test';
  url: string;
  status: WebhookStatus;
  attempts: number;
  nextattempt: number | null;
  lastcode: number | null;
  lasterror: string;
  createtime: number;
  updatetime: number;
}

// ---------------------------------------------------------------- business systems and CRM, A09_A06_A03
export const BUSINESS_CODE = 'A09_A06_A03';
/** Opening a system from /dialogue and the CRM calls: whoever chats. */
export const BUSINESS_USE_CODE = 'A01';
export const BUSINESS_OPENTYPES = ['panel', 'tab'] as const;
export type BusinessOpenType = (typeof BUSINESS_OPENTYPES)[number];
/** Placeholders a URL template may use (replaced URL-encoded). */
export const BUSINESS_PLACEHOLDERS = ['visitorid', 'contactid', 'conversationid', 'agent'] as const;
export const BUSINESS_SIGN_MODE = 'hmac-sha256';

export interface BusinessSystemDto {
  id: string;
  name: string;
  url: string;
  ticketurl: string;
  opentype: BusinessOpenType;
  enabled: boolean;
  sortindex: number;
  createtime: number;
  updatetime: number;
}

/** The signing key of a system (GET /api/business/encryption): the partner verifies `sign` with it. */
export interface BusinessEncryptionDto {
  id: string;
  mode: typeof BUSINESS_SIGN_MODE;
  key: string;
}

/** A system as opened for one conversation: its URL filled in and signed. */
export interface BusinessLinkDto {
  id: string;
  name: string;
  opentype: BusinessOpenType;
  url: string;
}

export interface CrmLinkDto {
  businessid: string;
  userid: string;
  crmid: string;
  /** The system's URL for this record (signed), with {crmid} filled in. */
  url: string;
  createtime: number;
}

// ---------------------------------------------------------------- quick files and shortcuts
/** Personal quick files and shortcuts: whoever chats; public quick files are managed with the canned-reply code. */
export const QUICK_FILE_CODE = 'A01';
export const QUICK_FILE_PUBLIC_CODE = 'A09_A03_A09';
export const QUICK_FILE_SCOPES = ['pri', 'pub'] as const;
export type QuickFileScope = (typeof QUICK_FILE_SCOPES)[number];

export interface QuickFileDto {
  id: string;
  name: string;
  scope: QuickFileScope;
  mime: string;
  filesize: number;
  sortindex: number;
  createtime: number;
}

/** What quickFile/send answers: an attachment of the caller's, ready to go out as a message. */
export interface QuickFileSendDto {
  attachmentid: string;
  msgtype: 'file' | 'image' | 'video' | 'voice';
  filename: string;
  filesize: number;
}

export const SEND_KEYS = ['enter', 'ctrlEnter'] as const;
export type SendKey = (typeof SEND_KEYS)[number];
export const QUICK_KEYS = ['none', 'ctrl+/', 'ctrl+k', 'alt+q'] as const;
export type QuickKey = (typeof QUICK_KEYS)[number];
export interface ShortcutsDto {
  send: SendKey;
  quick: QuickKey;
}
export const SHORTCUTS_DEFAULT: ShortcutsDto = { send: 'enter', quick: 'ctrl+/' };

// ---------------------------------------------------------------- message translation
/** Translating a chat's message is chat work; the provider is set up with the "other settings" code. */
export const TRANSLATE_CODE = 'A01';
export const TRANSLATE_SETUP_CODE = 'A09_A03_A11';
export const TRANSLATE_PROVIDERS = ['none', 'libre', 'openai'] as const;
export type TranslateProvider = (typeof TRANSLATE_PROVIDERS)[number];
export const TRANSLATE_TIMEOUT_MS = { min: 1_000, max: 60_000, default: 10_000 } as const;

/** GET /api/translateMessage/config: the key is never sent back, only whether one is stored. */
export interface TranslateConfigDto {
  provider: TranslateProvider;
  /** LibreTranslate: the server's base URL (POST {url}/translate); OpenAI-compatible: the API base (…/v1). */
  url: string;
  model: string;
  timeoutMs: number;
  hasKey: boolean;
}

/** POST /api/translateMessage/translate (spec: data.messageid and translateMessage.translatemsg). */
export interface TranslateResultDto {
  messageid: string;
  translateMessage: { messageid: string; translatemsg: string };
}

/** 'zh-CN' → 'zh': languages are compared by their primary subtag. */
export const baseLanguage = (l: string): string => l.trim().toLowerCase().split(/[-_]/)[0] ?? '';

/**
 * Spec section 5: a message is translated only when it is incoming, not seen from the monitor, of type
 * message with msgtype text, the visitor's language is known and differs from the agent's, and the
 * session flag msgtranslate is set. The console asks by this rule; the server checks it again.
 */
export function translationApplies(
  m: { calltype: string; type: string; msgtype: string },
  c: { visitorLang: string; agentLang: string; msgtranslate: boolean; monitor: boolean },
): boolean {
  const from = baseLanguage(c.visitorLang);
  return (
    c.msgtranslate &&
    !c.monitor &&
    m.calltype === 'in' &&
    m.type === 'message' &&
    m.msgtype === 'text' &&
    from !== '' &&
    from !== baseLanguage(c.agentLang)
  );
}

// ---------------------------------------------------------------- skill groups' routing policy
/**
 * imAgent skill/save: a skill group's own routing policy, laid over the tenant's assignment rules
 * (/setup/allocation) for chats routed to that group. 'inherit' keeps the tenant's value.
 */
export const SKILL_LASTAGENT = ['inherit', 'on', 'off'] as const;
export type SkillLastAgent = (typeof SKILL_LASTAGENT)[number];
export type SkillDistribution = 'inherit' | Distribution;
export interface SkillPolicyDto {
  organid: string;
  distribution: SkillDistribution;
  lastagent: SkillLastAgent;
}
