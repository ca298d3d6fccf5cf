import type { MessageDto } from './realtime/dto.js';

/**
 * Quality inspection with appeals (/quality, A11; scorecards at /setup/qualityLabel, A09_A03_A12).
 * docs/api.md "Quality inspection" describes every call; this file is the contract of the server and the
 * console.
 *
 * Vocabulary:
 * - a **label type** (质检标签类型) is a *scorecard*: a base score, a pass mark and a set of items; it has a
 *   version number that goes up whenever the card or one of its items changes. Every version is kept as a
 *   frozen snapshot, and an inspection records the version it was scored with (a finished inspection keeps
 *   its card whatever is edited later);
 * - a **quality label** (质检标签) is one *item* of a card: `deduct` items take 0..points off the base,
 *   `add` items (bonus, 加分项) add 0..points; a **fatal** item (致命项, deduct only) fails the conversation
 *   whatever the score when the inspector marks it (any score > 0 on it);
 * - a skill group (organ with skill = 1) is bound to one card (`imAgent skill/quality/save`); a
 *   conversation is scored with its skill group's card, else the tenant's default card (`isdefault`).
 */

/** The permission codes of spec section 2 (each is a code of PERMISSION_TREE, checked by a test). */
export const QUALITY_CODE = 'A11';
/** /quality/inspect: inspect conversations (an inspector sees the inspections allotted to them). */
export const QUALITY_INSPECT_CODE = 'A11_A01';
/** /quality/distribution: assignment (allot), exclusion (notQuality), arbitration of appeals. */
export const QUALITY_ALLOT_CODE = 'A11_A02';
/** /quality/staffInspect: an agent's own results and appeals. */
export const QUALITY_STAFF_CODE = 'A11_A03';
/** /setup/qualityLabel: scorecards (label types, labels), skill-group binding, quality settings. */
export const QUALITY_LABEL_CODE = 'A09_A03_A12';
/** Whoever may read an inspection's detail / transcript (each call narrows to what the caller may see). */
export const QUALITY_READ_CODES = [QUALITY_INSPECT_CODE, QUALITY_ALLOT_CODE, QUALITY_STAFF_CODE] as const;

/** Every call's path (method in the comment; GET calls that change state also accept POST). */
export const QUALITY_API = {
  // Scorecards (A09_A03_A12): label types = cards, labels = items.
  /** GET: every card of the tenant (QualityLabelTypeDto[]). */
  labelTypeList: '/api/quality/label/type/list',
  /** GET ?id=: one card with its items (QualityScorecardDto). */
  labelTypeForm: '/api/quality/label/type/form',
  /** POST qualityLabelTypeSaveSchema → QualityLabelTypeDto. */
  labelTypeSave: '/api/quality/label/type/save',
  /** POST qualityLabelTypeUpdateSchema → QualityLabelTypeDto (version + 1). */
  labelTypeUpdate: '/api/quality/label/type/update',
  /** GET|POST ?id= (the versions already used stay readable). */
  labelTypeDelete: '/api/quality/label/type/delete',
  /** GET ?typeid=: the items of a card (QualityLabelDto[]). */
  labelList: '/api/quality/label/list',
  /** GET ?id=: one item (QualityLabelDto). */
  labelForm: '/api/quality/label/form',
  /** POST qualityLabelSaveSchema → QualityLabelDto (the card's version + 1). */
  labelSave: '/api/quality/label/save',
  /** POST qualityLabelUpdateSchema → QualityLabelDto (the card's version + 1). */
  labelUpdate: '/api/quality/label/update',
  /** GET|POST ?id= (the card's version + 1). */
  labelDelete: '/api/quality/label/delete',
  /** POST qualitySkillSaveSchema: bind a skill group to a card (typeid null unbinds). */
  skillQualitySave: '/api/imAgent/skill/quality/save',
  /** GET: the skill groups with their card (QualitySkillCardDto[]). */
  skillQualityList: '/api/imAgent/skill/quality/list',
  /** GET: QualitySettingsDto (A09_A03_A12 or any A11 code). POST settings/save qualitySettingsSchema. */
  settings: '/api/quality/settings',
  settingsSave: '/api/quality/settings/save',

  // Assignment (A11_A02).
  /** GET qualityAllotListQuery → Page<QualityRowDto>: allotted inspections (any status). */
  allotList: '/api/quality/allot/list',
  /** GET qualityNotAllotQuery → Page<QualityCandidateDto>: ended conversations not allotted nor excluded. */
  notAllotList: '/api/quality/notAllot/list',
  /** GET|POST qualityNotQualitySchema: exclude conversations from inspection (or include them again). */
  notQuality: '/api/quality/notQuality',
  /** POST qualityAutomationSchema → QualityAllotResultDto: run a rule (and keep it as the tenant's rule). */
  allotAutomation: '/api/quality/allot/automation',
  /** POST qualityAutomationSchema: the same over conversations already allotted and not yet scored. */
  allotAutomationAgain: '/api/quality/allot/automation/again',
  /** POST qualityManualSchema → QualityAllotResultDto: given conversations to given inspectors. */
  allotManual: '/api/quality/allot/manual',
  /** POST qualityManualAgainSchema → QualityAllotResultDto: given inspections to other inspectors. */
  allotManualAgain: '/api/quality/allot/manual/again',
  /** GET: the tenant's saved automation rule (QualityAllotRuleDto | null). */
  allotRule: '/api/quality/allot/rule',
  /** GET: who may inspect (users holding A11_A01), for the inspector pickers. */
  inspectors: '/api/quality/inspectors',

  // Inspection (A11_A01).
  /** GET qualityListQuery → Page<QualityRowDto> (an inspector: their own; A11_A02: all in scope). */
  list: '/api/quality/list',
  /** GET ?id= → QualityDetailDto (conversation, transcript page, card, item results, findings, appeals). */
  detail: '/api/quality/detail',
  /** GET ?agentserviceid= → QualityRowDto | null: the inspection of a conversation. */
  get: '/api/quality/get',
  /** GET qualityReadQuery → QualityTranscriptDto: a page of the conversation's messages. */
  read: '/api/quality/read',
  /** GET ?id= → QualityTranscriptDto[]: the visitor's other conversations (up to QUALITY_LIMITS.multiterm). */
  readMultiterm: '/api/quality/read/multiterm',
  /** GET → QualityCountDto for the caller. */
  count: '/api/quality/count',
  /** POST qualitySaveSchema → QualityDetailDto: score one inspection (send: true sends it to the agent). */
  save: '/api/quality/save',
  /** POST qualitySaveBatchSchema → { saved: number }: the same item scores on several inspections. */
  saveBatch: '/api/quality/save/batch',
  /** GET ?ids= → QualityBatchFormDto: the card shared by those inspections (card_mismatch otherwise). */
  saveBatchForm: '/api/quality/save/batch/form',
  /** POST qualityListQuery + ids? → ExportJobDto (kind 'quality'). */
  expall: '/api/quality/expall',
  expIds: '/api/quality/expIds',

  // Agent view and appeals.
  /** GET qualityStaffQuery → Page<QualityRowDto>: the caller's own sent results (A11_A03). */
  staffList: '/api/quality/staff/list',
  /** POST qualityAppealSaveSchema → QualityAppealDto (draft, or submitted when submit = true). */
  appealSave: '/api/quality/appeal/save',
  /** POST qualityAppealMessageSchema → QualityAppealMessageDto (an inspector's or reviewer's → in_review). */
  appealMessageSave: '/api/quality/appeal/message/save',
  /** GET|POST qualityAppealEndSchema → QualityAppealDto (resolved). A11_A02, or the inspection's inspector. */
  appealEnd: '/api/quality/appeal/end',
  /** GET|POST qualityAppealBatchSchema → { ended: number } (A11_A02). */
  appealBatch: '/api/quality/appeal/batch',
  /** GET qualityAppealListQuery → Page<QualityAppealRowDto>: appeals the caller may see. */
  appealList: '/api/quality/appeal/list',

  // Optional LLM suggestions (A11_A01; off unless QualitySettingsDto.aiSuggest and the AI service are on).
  /** POST qualitySuggestSchema → QualitySuggestDto: suggested item scores with verbatim quotes (nothing saved). */
  suggest: '/api/quality/suggest',
} as const;
export type QualityApiName = keyof typeof QUALITY_API;

export const QUALITY_LIMITS = {
  /** Most items on one card. */
  itemsPerCard: 100,
  /** Highest points of one item and highest base score. */
  maxPoints: 1000,
  /** Comment length (item and overall) and appeal message length. */
  comment: 1000,
  /** Most conversations of one allot call / ids of one batch. */
  batch: 1000,
  /** Most conversations an automation run allots. */
  automationMax: 5000,
  /** Other conversations of the same visitor read/multiterm returns. */
  multiterm: 5,
  /** Transcript page size of read. */
  messagePage: 200,
} as const;

export const QUALITY_DEFAULTS = {
  /** Days after the result is sent during which the agent may appeal. */
  appealDays: 7,
  /** The agent is reminded (socket event) this many hours before the window closes. */
  remindHours: 24,
  passMark: 60,
  base: 100,
  /** Automatic rules' thresholds (seconds). */
  firstResponseSec: 60,
  silenceSec: 180,
  longWaitSec: 120,
} as const;

/** deduct: 0..points taken off the base; add: a bonus of 0..points. */
export const QUALITY_ITEM_KINDS = ['deduct', 'add'] as const;
export type QualityItemKind = (typeof QUALITY_ITEM_KINDS)[number];

export interface QualityLabelTypeDto {
  id: string;
  name: string;
  /** Starting score before deductions and bonuses. */
  base: number;
  /** Pass when final score ≥ passmark and no fatal item is marked. */
  passmark: number;
  /** The tenant's fallback card for skill groups without one (exactly one card at most). */
  isdefault: boolean;
  /** Current version: + 1 at every change of the card or its items. */
  version: number;
  sort: number;
  /** Items on the card now. */
  items: number;
  createtime: number;
  updatetime: number;
}

export interface QualityLabelDto {
  id: string;
  typeid: string;
  /** Heading the item is grouped under on the card ('' = none), e.g. 服务态度. */
  groupname: string;
  name: string;
  description: string;
  kind: QualityItemKind;
  /** The item's range is 0..points. */
  points: number;
  /** Deduct items only: any score > 0 on it fails the conversation. */
  fatal: boolean;
  sort: number;
  createtime: number;
  updatetime: number;
}

/** A card as it was at one version: what an inspection is scored (and later shown) with. */
export interface QualityScorecardDto {
  typeid: string;
  /** Id of the frozen version row (inspections point at it). */
  versionid: string;
  version: number;
  name: string;
  base: number;
  passmark: number;
  items: QualityLabelDto[];
}

/** A skill group and the card its conversations are scored with (null: the default card). */
export interface QualitySkillCardDto {
  organ: string;
  name: string;
  typeid: string | null;
}

/** Tenant settings of quality inspection (A09_A03_A12). */
export interface QualitySettingsDto {
  appealDays: number;
  remindHours: number;
  /** Automatic rules (seconds; 0 turns a rule off). */
  firstResponseSec: number;
  silenceSec: number;
  /** "Long waiting" of the automation filter and the abandoned-queue rule. */
  longWaitSec: number;
  /** A rated level at or above this one counts as low (1 = very satisfied … 5 = very dissatisfied; 0 = off). */
  lowSatisfaction: number;
  /** The agent must say one of these in the first agent messages / last agent messages ([] = rule off). */
  greetings: string[];
  closings: string[];
  /**
   * The configured LLM provider (the AI service of /api/xiaoe/serviceai) may suggest item scores with
   * quotes on request ("AI suggest" on the inspection screen). Off by default; nothing is saved until the
   * inspector accepts a suggestion.
   */
  aiSuggest: boolean;
}

// ---------------------------------------------------------------- automatic pre-scoring

/** The machine rules (each finding names one). */
export const QUALITY_RULES = [
  'first_response',
  'silence',
  'sensitive',
  'satisfaction',
  'transfer',
  'greeting',
  'closing',
  'abandoned',
  'ai_handoff',
] as const;
export type QualityRule = (typeof QUALITY_RULES)[number];

/** One automatic finding on an ended conversation, kept apart from the inspector's scores. */
export interface QualityFindingDto {
  id: string;
  agentserviceid: string;
  rule: QualityRule;
  /** The messages it is about (e.g. the visitor's question and the late answer); [] when none exists. */
  messageids: string[];
  /** Measured value: ms for times, level for satisfaction, count for hits/transfers, 0 otherwise. */
  value: number;
  /** Human detail (the words hit, the missing phrase…). */
  detail: string;
  /** Points the rule suggests deducting (0: informational). */
  points: number;
  createtime: number;
}

/**
 * The inspector's decision on an automatic finding, recorded at every save of an inspection: confirmed
 * (the rule's points stand) or overridden (the inspector's points, an optional reason). The finding itself
 * never changes; a finding saved without an explicit decision is recorded as confirmed.
 */
export const QUALITY_FINDING_DECISIONS = ['confirmed', 'overridden'] as const;
export type QualityFindingDecision = (typeof QUALITY_FINDING_DECISIONS)[number];

export interface QualityFindingDecisionDto {
  findingid: string;
  rule: QualityRule;
  decision: QualityFindingDecision;
  /** The finding's suggested points when decided (a copy: the automatic value is kept as it was). */
  autopoints: number;
  /** overridden: the inspector's points (0..QUALITY_LIMITS.maxPoints); confirmed: null. */
  points: number | null;
  reason: string;
  userid: string;
  username: string;
  createtime: number;
}

// ---------------------------------------------------------------- LLM suggestions

/** One suggested item score: the quote occurs verbatim in the message `messageid` of the transcript. */
export interface QualitySuggestionDto {
  labelid: string;
  /** 0..the item's points. */
  points: number;
  /** Verbatim from the transcript ('' only when points = 0: nothing to cite). */
  quote: string;
  messageid: string | null;
}

export interface QualitySuggestDto {
  items: QualitySuggestionDto[];
  /** Suggestions left out: an item not on the card, points out of range, or a quote not in the transcript. */
  dropped: number;
}

// ---------------------------------------------------------------- assignment

export const QUALITY_PERIODS = ['day', 'week', 'month'] as const;
export type QualityPeriod = (typeof QUALITY_PERIODS)[number];

/** What an automation rule picks from the ended conversations of its range. */
export interface QualityAllotFilters {
  lowSatisfaction?: boolean;
  longWait?: boolean;
  sensitive?: boolean;
  transfer?: boolean;
  aiHandoff?: boolean;
  /** Limit to these skill groups / departments ([] = all). */
  organs?: string[];
  /** Limit to these agents ([] = all). */
  agents?: string[];
}

export interface QualityAllotRuleDto {
  /** Conversations per agent per period; with `percent`, a share 1..100 of each agent's conversations. */
  share: number;
  percent: boolean;
  period: QualityPeriod;
  /** Any filter set: a conversation matching at least one of them qualifies (none set: all do). */
  filters: QualityAllotFilters;
  /** Round-robin over these (users holding A11_A01); an inspector never gets their own conversations. */
  inspectors: string[];
  updatetime: number;
  updater: string;
}

export interface QualityAllotResultDto {
  /** Inspections created (or moved, for the again variants). */
  allotted: number;
  /** Per inspector: how many they got. */
  perInspector: Array<{ inspector: string; count: number }>;
  /** Conversations left out because the only inspectors were their own agents. */
  skipped: number;
}

/** An ended conversation waiting to be allotted (notAllot/list). */
export interface QualityCandidateDto {
  agentserviceid: string;
  agentno: string | null;
  agentusername: string;
  organ: string | null;
  username: string;
  channel: string;
  createtime: number;
  endtime: number | null;
  /** Automatic pre-score: sum of the findings' suggested points. */
  autopoints: number;
  /** The rules with findings. */
  rules: QualityRule[];
  satislevel: string | null;
  trans: number;
}

// ---------------------------------------------------------------- inspections

/** allotted: waiting for the inspector; done: scored, not sent; sent: the agent sees it. */
export const QUALITY_STATUSES = ['allotted', 'done', 'sent'] as const;
export type QualityStatus = (typeof QUALITY_STATUSES)[number];

export const QUALITY_APPEAL_STATES = ['draft', 'submitted', 'in_review', 'resolved'] as const;
export type QualityAppealState = (typeof QUALITY_APPEAL_STATES)[number];
/** upheld: the contested items are withdrawn; partly: new scores given; rejected: unchanged. */
export const QUALITY_APPEAL_OUTCOMES = ['upheld', 'partly', 'rejected'] as const;
export type QualityAppealOutcome = (typeof QUALITY_APPEAL_OUTCOMES)[number];

export interface QualityRowDto {
  id: string;
  agentserviceid: string;
  /** The inspected agent. */
  agentno: string;
  agentusername: string;
  organ: string | null;
  organname: string;
  inspector: string;
  inspectorname: string;
  status: QualityStatus;
  /** null until scored. */
  score: number | null;
  pass: boolean | null;
  /** A fatal item is marked. */
  fatal: boolean;
  /** Sum of the automatic findings' suggested points (kept apart from `score`). */
  autopoints: number;
  typeid: string;
  version: number;
  cardname: string;
  /** Conversation facts for the list. */
  username: string;
  channel: string;
  convtime: number;
  allottime: number;
  scoretime: number | null;
  sendtime: number | null;
  /** Last day (epoch ms) an appeal may be opened; null until sent. */
  appealuntil: number | null;
  /** State of the open or last appeal, null when none. */
  appeal: QualityAppealState | null;
  /** The agent has opened the result (staffInspect). */
  seen: boolean;
}

export interface QualityItemResultDto {
  labelid: string;
  /** 0..points of the item (deduct: points taken off; add: bonus given). */
  score: number;
  /** Messages of the transcript the score refers to. */
  messageids: string[];
  comment: string;
}

export interface QualityTranscriptDto {
  agentserviceid: string;
  createtime: number;
  endtime: number | null;
  agentusername: string;
  messages: MessageDto[];
  /** More messages after this page (read with after = last seq). */
  more: boolean;
}

export interface QualityDetailDto {
  row: QualityRowDto;
  /** The card of `row.version` (frozen). */
  card: QualityScorecardDto;
  items: QualityItemResultDto[];
  comment: string;
  findings: QualityFindingDto[];
  /** The inspector's decision on each automatic finding (recorded at save; [] before the first save). */
  decisions: QualityFindingDecisionDto[];
  transcript: QualityTranscriptDto;
  appeals: QualityAppealDto[];
  /** Who changed what and when (allotted, scored, sent, appeal states, score changes). */
  events: QualityEventDto[];
  /** What the caller may do with it. */
  can: { score: boolean; appeal: boolean; arbitrate: boolean };
}

export interface QualityEventDto {
  /** allot, reallot, score, send, appeal_draft, appeal_submitted, appeal_in_review, appeal_resolved, rescore. */
  action: string;
  userid: string;
  username: string;
  /** e.g. 'score 85 → 95'. */
  detail: string;
  createtime: number;
}

export interface QualityCountDto {
  /** For the caller as inspector. */
  allotted: number;
  done: number;
  sent: number;
  /** Appeals waiting for the caller's answer (as inspector, or all open ones for A11_A02). */
  appealsOpen: number;
  /** The caller's own results (as agent): not yet seen, and open appeals. */
  mineUnseen: number;
  mineAppeals: number;
  /** Ended conversations not yet allotted (A11_A02 only, else 0). */
  notAllotted: number;
}

export interface QualityBatchFormDto {
  card: QualityScorecardDto;
  ids: string[];
}

// ---------------------------------------------------------------- appeals

export interface QualityAppealItemDto {
  labelid: string;
  reason: string;
  /** The score before the appeal and, once resolved, after it. */
  before: number;
  after: number | null;
}

export interface QualityAppealMessageDto {
  id: string;
  appealid: string;
  userid: string;
  username: string;
  /** agent: the appellant; inspector; reviewer: an A11_A02 holder. */
  role: 'agent' | 'inspector' | 'reviewer';
  text: string;
  createtime: number;
}

export interface QualityAppealDto {
  id: string;
  inspectionid: string;
  agentno: string;
  state: QualityAppealState;
  outcome: QualityAppealOutcome | null;
  /** Overall reason. */
  reason: string;
  items: QualityAppealItemDto[];
  messages: QualityAppealMessageDto[];
  /** Score before / after (after null until resolved). */
  scorebefore: number;
  scoreafter: number | null;
  resolver: string | null;
  resolvecomment: string;
  createtime: number;
  submittime: number | null;
  reviewtime: number | null;
  resolvetime: number | null;
}

export interface QualityAppealRowDto {
  id: string;
  inspectionid: string;
  agentserviceid: string;
  agentno: string;
  agentusername: string;
  inspector: string;
  inspectorname: string;
  state: QualityAppealState;
  outcome: QualityAppealOutcome | null;
  items: number;
  scorebefore: number;
  scoreafter: number | null;
  createtime: number;
  submittime: number | null;
  resolvetime: number | null;
}

// ---------------------------------------------------------------- notification

/**
 * Socket event `quality` on the agent socket (AgentServerToClientEvents): a result was sent to the agent,
 * an appeal of theirs changed state or got an answer, or the appeal window closes soon. The console shows
 * a notice and refreshes /quality/staffInspect; GET count (mineUnseen) covers agents who were offline.
 */
export interface QualityNotice {
  type: 'result' | 'appeal' | 'appeal_message' | 'remind';
  inspectionid: string;
  agentserviceid: string;
  score: number | null;
  pass: boolean | null;
  appealid?: string;
  state?: QualityAppealState;
  appealuntil?: number | null;
}

/** The export kind of expall / expIds (exports.ts). */
export const QUALITY_EXPORT_KIND = 'quality';
