import { z } from 'zod';
import { DISTRIBUTIONS, type Distribution } from '../realtime/dto.js';
import { LIMITS, flag, idField, optionalId, requiredText, str } from './fields.js';

/**
 * Session config setup (A09_A03_01/02/05/11) and quick replies (A09_A03_A09). Each save section owns a
 * fixed set of session-config keys; every field is optional (a partial save changes only what it sends).
 */
export const SESSION_TEXT_MAX = 500;

const sText = () => str().trim().max(SESSION_TEXT_MAX, 'too_long');
const seconds = (min: number, max: number) =>
  z.coerce
    .number({ error: 'invalid_field' })
    .int('invalid_field')
    .min(min, 'invalid_field')
    .max(max, 'invalid_field');

/** A09_A03_A01 prompts: visitor-facing texts and the agent tip. */
export const promptSaveSchema = z.object({
  servicename: str().trim().max(LIMITS.name, 'too_long').optional(),
  sessionmsg: sText().optional(),
  successmsg: sText().optional(),
  noagentmsg: sText().optional(),
  finessmsg: sText().optional(),
  enabletransmsg: flag().optional(),
  transmsg: sText().optional(),
  timeoutmsg: sText().optional(),
  retimeoutmsg: sText().optional(),
  agenttimeoutmsg: sText().optional(),
  tipagent: flag().optional(),
  tipagenttitle: str().trim().max(100, 'too_long').optional(),
  tipagenticon: str().trim().max(LIMITS.path, 'too_long').optional(),
});

/** A09_A03_A02 assignment rules. `maxusers` is the default seat count of agents created later. */
export const allocationSaveSchema = z.object({
  lastagent: flag().optional(),
  distribution: z.enum(DISTRIBUTIONS, { error: 'invalid_field' }).optional(),
  maxusers: seconds(1, 100).optional(),
});

/** A09_A03_A05 queueing: the queue timeout and the position text ({num} ahead, {index} place). */
export const lineUpSaveSchema = z.object({
  quene: flag().optional(),
  quenetimeout: seconds(10, 86_400).optional(),
  quenetimeoutmsg: sText().optional(),
  agentbusymsg: sText().optional(),
});

/** A09_A03_A11 other settings: transfer prompt, translation, idle / no-reply timers, sounds. */
export const otherSaveSchema = z.object({
  transtip: flag().optional(),
  transtiptimeout: seconds(1, 60).optional(),
  msgtranslate: flag().optional(),
  sessiontimeout: flag().optional(),
  timeout: seconds(10, 86_400).optional(),
  resessiontimeout: flag().optional(),
  retimeout: seconds(10, 86_400).optional(),
  agentreplaytimeout: flag().optional(),
  agenttimeout: seconds(10, 86_400).optional(),
  prompttone: flag().optional(),
});

export const SESSION_CONFIG_SECTIONS = {
  prompt: promptSaveSchema,
  allocation: allocationSaveSchema,
  lineUp: lineUpSaveSchema,
  other: otherSaveSchema,
} as const;
export type SessionConfigSection = keyof typeof SESSION_CONFIG_SECTIONS;

/**
 * Per-tenant conversation settings, stored as one JSON document in session_config (the setup screens
 * may add keys). Durations are seconds, as in the original.
 */
export interface SessionConfigValues {
  transtip: boolean;
  transtiptimeout: number;
  sessiontimeout: boolean;
  timeout: number;
  timeoutmsg: string;
  resessiontimeout: boolean;
  retimeout: number;
  retimeoutmsg: string;
  agentreplaytimeout: boolean;
  agenttimeout: number;
  agenttimeoutmsg: string;
  quene: boolean;
  quenetimeout: number;
  quenetimeoutmsg: string;
  lastagent: boolean;
  distribution: Distribution;
  /** Default seat count (users.maxusers) given to agents created without one. */
  maxusers: number;
  sessionmsg: string;
  successmsg: string;
  noagentmsg: string;
  agentbusymsg: string;
  finessmsg: string;
  transmsg: string;
  enabletransmsg: boolean;
  servicename: string;
  satisfaction: boolean;
  satisftext: string;
  msgtranslate: boolean;
  tipagent: boolean;
  tipagenttitle: string;
  tipagenticon: string;
  prompttone: boolean;
  agentautoleave: boolean;
  /** Skill groups' own routing policies by organ id (imAgent skill/save); absent keys follow the above. */
  skillpolicy?: Readonly<Record<string, { distribution?: Distribution; lastagent?: boolean }>>;
}

/** The session config of a tenant that has saved none (and the base every saved document is laid over). */
export const DEFAULT_SESSION_CONFIG: SessionConfigValues = {
  transtip: true,
  transtiptimeout: 5,
  sessiontimeout: false,
  timeout: 120,
  timeoutmsg: '您已经很久没有说话了，如果没有其他问题，会话将自动结束。',
  resessiontimeout: false,
  retimeout: 120,
  retimeoutmsg: '由于您长时间没有回复，本次会话已结束。',
  agentreplaytimeout: false,
  agenttimeout: 120,
  agenttimeoutmsg: '坐席正忙，请稍候，马上为您服务。',
  quene: false,
  quenetimeout: 600,
  quenetimeoutmsg: '当前排队人数较多，请您留言，我们会尽快联系您。',
  lastagent: true,
  distribution: 'idle-first',
  maxusers: 10,
  sessionmsg: '您好，欢迎咨询！',
  successmsg: '坐席分配成功，{agent}为您服务。',
  noagentmsg: '当前没有在线坐席，请您留言。',
  agentbusymsg: '正在排队，请稍候,在您之前，还有 {num} 位等待用户。',
  finessmsg: '坐席已断开和您的对话',
  transmsg: '已为你转接给坐席{agent}',
  enabletransmsg: true,
  servicename: '系统',
  satisfaction: true,
  satisftext: '请对{agent}的服务进行评价',
  msgtranslate: false,
  tipagent: false,
  tipagenttitle: '',
  tipagenticon: '',
  prompttone: true,
  agentautoleave: true,
};

/** GET /api/sessionConfig: every key of the tenant's session config, with defaults filled. */
export interface SessionConfigDto extends SessionConfigValues {
  /** The tenant (orgi). */
  id: string;
  /** The spec's prompttoneState: 1 when the tenant plays prompt tones. */
  prompttoneState: number;
  updatetime: number | null;
}

// ---- quick replies (A09_A03_A09 for public ones; any A01 agent for personal ones)
export const QUICK_SCOPES = ['pub', 'pri'] as const;
export type QuickScope = (typeof QUICK_SCOPES)[number];
export const QUICK_TITLE_MAX = 100;
export const QUICK_CONTENT_MAX = 2000;

const scope = z.enum(QUICK_SCOPES, { error: 'invalid_field' });

export const quickTypeSaveSchema = z.object({
  name: requiredText(LIMITS.name),
  parentid: optionalId(),
  type: scope.default('pub'),
});
export const quickTypeUpdateSchema = z.object({
  id: idField(),
  name: requiredText(LIMITS.name),
  parentid: optionalId(),
});
export const quickTypeListSchema = z.object({ type: scope.optional() });

export const quickReplySaveSchema = z.object({
  title: requiredText(QUICK_TITLE_MAX),
  content: requiredText(QUICK_CONTENT_MAX),
  /** The quick type id; '' or absent = uncategorised. */
  cate: optionalId(),
  type: scope.default('pub'),
});
export const quickReplyUpdateSchema = z.object({
  id: idField(),
  title: requiredText(QUICK_TITLE_MAX),
  content: requiredText(QUICK_CONTENT_MAX),
  cate: optionalId(),
});
export const quickReplyListSchema = z.object({
  type: scope.optional(),
  cate: optionalId(),
  q: str().trim().max(LIMITS.name, 'too_long').optional(),
});
/** A list of reply ids (batch delete; rank: the new order). JSON array, repeated field or comma list. */
export const quickIdsSchema = z.object({
  ids: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : v),
    z.array(idField(), { error: 'invalid_field' }).min(1, 'required').max(1000, 'too_long'),
  ),
});

export const quickRankSchema = quickIdsSchema;

export interface QuickTypeDto {
  id: string;
  name: string;
  parentid: string | null;
  type: QuickScope;
  creater: string;
  sortindex: number;
}

export interface QuickReplyDto {
  id: string;
  title: string;
  content: string;
  cate: string | null;
  type: QuickScope;
  creater: string;
  sortindex: number;
  createtime: number;
  updatetime: number;
}
