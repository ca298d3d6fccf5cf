/**
 * AI robots (console /setup/customerRobot and /setup/setupRobot, code A09_A05_A01; `/api/xiaoe/config/*`,
 * `/api/xiaoe/serviceai*`, `/api/webim/ai`). A robot answers a website access point's visitors first from
 * the knowledge base; each question gets one outcome by its normalised score: an answer, up to three
 * suggestions, or the fallback text. The chat goes to a human on the visitor's button or phrase, after N
 * fallbacks in a row, on one of the robot's own rules, or by a supervisor (GET /api/monitor/aiChange).
 * See docs/api.md "Robots" and docs/protocol.md "Robot".
 */
import { z } from 'zod';
import { flag, idField, optionalId, optionalText, requiredText, str } from './schemas/fields.js';
import { intField } from './schemas/channel.js';
import { WEAPP_CODE, WECHAT_CODE } from './messaging.js';

export const ROBOT_CODE = 'A09_A05_A01';
/** AI statistics (/dataAnalysis/aiStatistics). */
export const AI_STATS_CODE = 'A06_A04_A01';
/** Website access (its hidden `robot` route binds a robot to an access point). */
export const ROBOT_BIND_CODES = ['A09_A05_A01', 'A09_A01_A01'] as const;
/** Who reads the robots' list: whoever binds one (also the messaging-channel setup: WECHAT_CODE, WEAPP_CODE). */
export const ROBOT_LIST_CODES = [...ROBOT_BIND_CODES, WECHAT_CODE, WEAPP_CODE] as const;

export const ROBOT_LIMITS = {
  name: 50,
  text: 500,
  keywords: 50,
  keyword: 30,
  /** The longest question the robot reads; the test chat refuses longer ones (too_long). */
  question: 1000,
  maxFallbacks: 20,
} as const;

/** What the robot did with one question. */
export const ROBOT_ACTIONS = ['answer', 'suggest', 'fallback', 'handoff'] as const;
export type RobotAction = (typeof ROBOT_ACTIONS)[number];

/** Why a chat left the robot. */
export const HANDOFF_REASONS = ['button', 'phrase', 'fallbacks', 'rule', 'llm', 'supervisor'] as const;
export type HandoffReason = (typeof HANDOFF_REASONS)[number];

/** The visitor phrases that always ask for a human (besides a robot's own rules). */
export const HANDOFF_PHRASES = [
  '转人工',
  '人工',
  '人工客服',
  '人工服务',
  '找人工',
  '真人',
  '客服人员',
  '转接人工',
  'human',
  'agent',
  'real person',
] as const;

export const ROBOT_DEFAULTS = {
  answerThreshold: 0.45,
  suggestThreshold: 0.25,
  handoffFallbacks: 2,
  welcome: '您好，我是智能客服，请问有什么可以帮您？',
  fallback: '抱歉，我暂时无法回答这个问题。您可以换个说法，或点击“转人工”联系人工客服。',
  suggestmsg: '您是不是想问：',
  handoffmsg: '正在为您转接人工客服，请稍候…',
} as const;

export interface RobotDto {
  id: string;
  name: string;
  /** Image URL ('' = the default avatar). */
  avatar: string;
  welcome: string;
  fallback: string;
  /** Text before the suggestions ("您是不是想问："). */
  suggestmsg: string;
  /** Told to the visitor when the chat goes to a human. */
  handoffmsg: string;
  /** Normalised score (0–1) from which the best item is answered. */
  answerThreshold: number;
  /** From this score (below the answer threshold) up to three items are suggested; below: fallback. */
  suggestThreshold: number;
  /** Fallbacks in a row that hand the chat to a human (0 = never). */
  handoffFallbacks: number;
  /** The robot's own rule: a question containing one of these goes to a human. */
  handoffKeywords: string[];
  /** The widget shows a 转人工 button. */
  handoffButton: boolean;
  /** Knowledge types it answers from (with their subtypes); empty = all. */
  kbtypes: string[];
  enabled: boolean;
  /** Website access points bound to it. */
  appids: string[];
  createtime: number;
  updatetime: number;
}

const text = (max: number = ROBOT_LIMITS.text) => optionalText(max).transform((v) => v ?? undefined);
const score = () =>
  z.coerce.number({ error: 'invalid_field' }).min(0, 'invalid_field').max(1, 'invalid_field').optional();
const list = (max: number, maxLen: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(/[\n,，、;；]+/) : v),
    z
      .array(str().trim().max(maxLen, 'too_long'), { error: 'invalid_field' })
      .transform((l) => [...new Set(l.filter((s) => s !== ''))])
      .refine((l) => l.length <= max, 'too_long'),
  );

const robotFields = {
  name: requiredText(ROBOT_LIMITS.name),
  avatar: text(500),
  welcome: text(),
  fallback: text(),
  suggestmsg: text(100),
  handoffmsg: text(),
  answerThreshold: score(),
  suggestThreshold: score(),
  handoffFallbacks: intField(0, ROBOT_LIMITS.maxFallbacks).optional(),
  handoffKeywords: list(ROBOT_LIMITS.keywords, ROBOT_LIMITS.keyword).optional(),
  handoffButton: flag().optional(),
  kbtypes: list(200, 64).optional(),
  enabled: flag().optional(),
};
const thresholdsInOrder = (v: { answerThreshold?: number; suggestThreshold?: number }) =>
  v.answerThreshold === undefined ||
  v.suggestThreshold === undefined ||
  v.suggestThreshold <= v.answerThreshold;

export const robotSaveSchema = z
  .object(robotFields)
  .refine(thresholdsInOrder, { message: 'robot_thresholds', path: ['suggestThreshold'] });
/** Update: absent fields keep their value. */
export const robotUpdateSchema = z
  .object({ ...robotFields, name: requiredText(ROBOT_LIMITS.name).optional(), id: idField() })
  .refine(thresholdsInOrder, { message: 'robot_thresholds', path: ['suggestThreshold'] });
export type RobotSaveInput = z.infer<typeof robotSaveSchema>;

/** GET/POST /api/webim/ai: the robot of a website access point (robotid '' or null = none). */
export const webimAiQuery = z.object({ appid: idField() });
export const webimAiSaveSchema = z.object({ appid: idField(), robotid: optionalId() });
export interface WebimAiDto {
  appid: string;
  robotid: string | null;
  robotname: string;
}

/** The robot test chat (/setup/setupRobot): one question, answered as a visitor would be. */
export const robotChatSchema = z.object({
  id: idField(),
  question: str().trim().min(1, 'required').max(ROBOT_LIMITS.question, 'too_long'),
});

export interface RobotItemRef {
  id: string;
  question: string;
}

export interface RobotSuggestion extends RobotItemRef {
  score: number;
}

/** One question answered (test chat, and what the conversation flow records). */
export interface RobotAnswerDto {
  action: RobotAction;
  /** What the visitor is shown (rich text for an answer). */
  text: string;
  /** The best item's normalised score (0–1; 0 when nothing matched). */
  score: number;
  /** The answered item (action answer), else the best match below the threshold or null. */
  item: RobotItemRef | null;
  suggestions: RobotSuggestion[];
  /** Items a generated answer is grounded on (LLM mode), else the answered item. */
  cites: RobotItemRef[];
  /** retrieval: the knowledge base alone; llm: a generated answer; the provider failed → retrieval. */
  source: 'retrieval' | 'llm';
  handoff: HandoffReason | null;
  /** Server time spent on the question. */
  ms: number;
}

/**
 * A robot line as the visitor and the agents get it (MessageDto.robot on messages of type `robot`): what
 * the widget needs to draw clickable suggestions and the citations.
 */
export interface RobotReplyMeta {
  action: RobotAction;
  itemid: string | null;
  /** The text before the suggestions (action suggest). */
  lead: string;
  suggestions: RobotItemRef[];
  cites: RobotItemRef[];
  score: number;
}

// ----------------------------------------------------------------------------------- AI service (LLM)

/** GET /api/xiaoe/serviceai: the optional OpenAI-compatible provider. Off by default. */
export interface AiServiceDto {
  enabled: boolean;
  /** e.g. http://127.0.0.1:11434/v1 (the calls are {baseUrl}/embeddings and {baseUrl}/chat/completions). */
  baseUrl: string;
  /** Whether a key is stored (the key itself is never sent back). */
  hasKey: boolean;
  model: string;
  embeddingModel: string;
  /** Re-rank retrieved items by embeddings (needs embeddingModel). */
  rerank: boolean;
  /** Generated answers grounded in the retrieved items, with citations (needs model). */
  generate: boolean;
  /** Per call; past it the robot answers from retrieval alone. */
  timeoutMs: number;
}

export const AI_SERVICE_DEFAULTS: AiServiceDto = {
  enabled: false,
  baseUrl: '',
  hasKey: false,
  model: '',
  embeddingModel: '',
  rerank: false,
  generate: false,
  timeoutMs: 8000,
};

export const aiServiceSaveSchema = z.object({
  enabled: flag().optional(),
  baseUrl: optionalText(500)
    .refine((v) => !v || /^https?:\/\/[^\s]+$/i.test(v), 'url_format')
    .transform((v) => (v == null ? undefined : v.replace(/\/+$/, ''))),
  /** Absent keeps the stored key; '' removes it. */
  apiKey: optionalText(500),
  model: text(100),
  embeddingModel: text(100),
  rerank: flag().optional(),
  generate: flag().optional(),
  timeoutMs: intField(500, 60_000).optional(),
});
export type AiServiceSaveInput = z.infer<typeof aiServiceSaveSchema>;

/** POST /api/xiaoe/serviceai/test: one embeddings and/or chat call with the stored settings. */
export interface AiServiceTestDto {
  embeddings: { ok: boolean; ms: number; error: string } | null;
  chat: { ok: boolean; ms: number; error: string } | null;
}

// --------------------------------------------------------------------------------- AI statistics

/** GET /api/analyse/aiDegree/robot (A06_A04_A01): the robot's questions by day, from its question log. */
export const aiDegreeRobotQuery = z.object({
  begin: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid_field'),
  end: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid_field'),
  robotid: optionalText(64),
  /** The reader's offset (minutes, as Date.getTimezoneOffset()): days are its calendar days. */
  tz: intField(-840, 840).optional().default(0),
});

export interface AiDegreeDay {
  day: string;
  questions: number;
  answered: number;
  suggested: number;
  fallback: number;
  handoffs: number;
  /** Robot conversations of the day. */
  conversations: number;
  /** …that ended without a human. */
  resolved: number;
}

export interface AiUnansweredDto {
  /** The latest log entry of this question (turned into an item with `learn`). */
  id: string;
  question: string;
  times: number;
  lastTime: number;
  action: RobotAction;
}

export interface AiDegreeRobotDto {
  days: AiDegreeDay[];
  totals: Omit<AiDegreeDay, 'day'>;
  /** Per robot over the range. */
  robots: Array<Omit<AiDegreeDay, 'day'> & { robotid: string; name: string }>;
  /** Most asked questions that got a fallback (or only suggestions) and were not turned into items yet. */
  unanswered: AiUnansweredDto[];
}

/** POST /api/analyse/aiDegree/learn: an unanswered question becomes a knowledge item (A06_A04_A01 + A09_A05_A02). */
export const aiLearnSchema = z.object({
  id: idField(),
  typeid: optionalId(),
  question: requiredText(200),
  answer: requiredText(5000),
});
