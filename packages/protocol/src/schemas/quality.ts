import { z } from 'zod';
import {
  QUALITY_APPEAL_OUTCOMES,
  QUALITY_APPEAL_STATES,
  QUALITY_FINDING_DECISIONS,
  QUALITY_ITEM_KINDS,
  QUALITY_LIMITS,
  QUALITY_PERIODS,
  QUALITY_STATUSES,
} from '../quality.js';
import {
  LIMITS,
  epochMs,
  flag,
  idField,
  idList,
  optionalId,
  optionalText,
  requiredText,
  str,
} from './fields.js';

/** Request schemas of the quality calls (QUALITY_API in quality.ts). Issue messages are error keys. */

const points = () =>
  z.coerce
    .number({ error: 'invalid_field' })
    .int('invalid_field')
    .min(0, 'invalid_field')
    .max(QUALITY_LIMITS.maxPoints, 'invalid_field');
const count = (max: number) =>
  z.coerce
    .number({ error: 'invalid_field' })
    .int('invalid_field')
    .min(0, 'invalid_field')
    .max(max, 'invalid_field');
const comment = () => str().max(QUALITY_LIMITS.comment, 'too_long').default('');
const batchIds = () => idList().refine((l) => l.length > 0, 'required');
/** A list of strings: JSON array or one per line. */
const phrases = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(/\r?\n/) : v),
    z
      .array(str().trim().max(LIMITS.name, 'too_long'), { error: 'invalid_field' })
      .max(50, 'too_long')
      .transform((l) => l.filter((s) => s !== '')),
  );

/** A JSON array sent as a string (form posts); unparsable text is left for the array check to refuse. */
const jsonList = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};

export const qualityIdQuery = z.object({ id: idField() });
export const qualityNoInput = z.object({});

// Scorecards.
export const qualityLabelTypeSaveSchema = z.object({
  name: requiredText(LIMITS.name),
  base: points().default(100),
  passmark: points().default(60),
  isdefault: flag().optional(),
  sort: count(9999).default(0),
});
export const qualityLabelTypeUpdateSchema = qualityLabelTypeSaveSchema.partial().extend({ id: idField() });

export const qualityLabelListQuery = z.object({ typeid: idField() });
export const qualityLabelSaveSchema = z.object({
  typeid: idField(),
  groupname: optionalText(LIMITS.name).transform((v) => v ?? ''),
  name: requiredText(LIMITS.name),
  description: optionalText(LIMITS.description).transform((v) => v ?? ''),
  kind: z.enum(QUALITY_ITEM_KINDS, 'invalid_field').default('deduct'),
  points: points().refine((n) => n > 0, 'invalid_field'),
  fatal: flag().default(false),
  sort: count(9999).default(0),
});
export const qualityLabelUpdateSchema = qualityLabelSaveSchema
  .omit({ typeid: true })
  .partial()
  .extend({ id: idField() });

/** Bind a skill group (organ with skill = 1) to a card; typeid '' / null unbinds (the default card applies). */
export const qualitySkillSaveSchema = z.object({ organ: idField(), typeid: optionalId() });

export const qualitySettingsSchema = z.object({
  appealDays: count(365).optional(),
  remindHours: count(24 * 30).optional(),
  firstResponseSec: count(86_400).optional(),
  silenceSec: count(86_400).optional(),
  longWaitSec: count(86_400).optional(),
  lowSatisfaction: count(5).optional(),
  greetings: phrases().optional(),
  closings: phrases().optional(),
  aiSuggest: flag().optional(),
});

// Assignment.
const range = {
  /** Conversation end time, epoch ms. */
  begin: epochMs(),
  end: epochMs(),
};
export const qualityNotAllotQuery = z.object({
  ...range,
  organ: optionalText(LIMITS.id),
  agentno: optionalText(LIMITS.id),
  /** Only conversations with an automatic finding of this rule. */
  rule: optionalText(32),
});
export const qualityAllotListQuery = z.object({
  ...range,
  organ: optionalText(LIMITS.id),
  agentno: optionalText(LIMITS.id),
  inspector: optionalText(LIMITS.id),
  status: z.enum(QUALITY_STATUSES, 'invalid_field').optional(),
});
/** exclude: false puts excluded conversations back into notAllot/list. */
export const qualityNotQualitySchema = z.object({ ids: batchIds(), exclude: flag().default(true) });

export const qualityAllotFiltersSchema = z.object({
  lowSatisfaction: flag().optional(),
  longWait: flag().optional(),
  sensitive: flag().optional(),
  transfer: flag().optional(),
  aiHandoff: flag().optional(),
  organs: idList().optional(),
  agents: idList().optional(),
});
export const qualityAutomationSchema = z.object({
  /** The conversations ended in [begin, end] (epoch ms) are considered; default: the current period. */
  ...range,
  share: count(QUALITY_LIMITS.automationMax).refine((n) => n > 0, 'invalid_field'),
  percent: flag().default(false),
  period: z.enum(QUALITY_PERIODS, 'invalid_field').default('week'),
  filters: qualityAllotFiltersSchema.default({}),
  inspectors: batchIds(),
  /** Keep it as the tenant's rule (allot/rule). */
  save: flag().default(true),
});
/** Conversations (agentservice ids) to inspectors, round-robin. */
export const qualityManualSchema = z.object({ ids: batchIds(), inspectors: batchIds() });
/** Inspections (ids) not yet scored, moved to other inspectors, round-robin. */
export const qualityManualAgainSchema = qualityManualSchema;

// Inspection.
export const qualityListQuery = z.object({
  ...range,
  organ: optionalText(LIMITS.id),
  agentno: optionalText(LIMITS.id),
  inspector: optionalText(LIMITS.id),
  status: z.enum(QUALITY_STATUSES, 'invalid_field').optional(),
  pass: flag().optional(),
  fatal: flag().optional(),
  appeal: z.enum(QUALITY_APPEAL_STATES, 'invalid_field').optional(),
  /** Score range (inclusive). */
  minscore: count(100_000).optional(),
  maxscore: count(100_000).optional(),
  typeid: optionalText(LIMITS.id),
});
export const qualityGetQuery = z.object({ agentserviceid: idField() });
export const qualityReadQuery = z.object({
  id: idField(),
  /** Messages after this seq (paging forward). */
  after: z.coerce.number({ error: 'invalid_field' }).int('invalid_field').min(0, 'invalid_field').default(0),
});

export const qualityItemResultSchema = z.object({
  labelid: idField(),
  score: z.coerce.number({ error: 'invalid_field' }).int('invalid_field'),
  messageids: idList().default([]),
  comment: comment(),
});
/** Confirm or override one automatic finding of the inspected conversation (overridden needs points). */
export const qualityFindingDecisionSchema = z
  .object({
    findingid: idField(),
    decision: z.enum(QUALITY_FINDING_DECISIONS, 'invalid_field'),
    points: points().optional(),
    reason: comment(),
  })
  .refine((d) => d.decision === 'confirmed' || d.points !== undefined, {
    message: 'required',
    path: ['points'],
  });
export const qualitySaveSchema = z.object({
  id: idField(),
  /**
   * Decisions on the conversation's automatic findings; a finding not listed keeps its earlier decision,
   * else is recorded as confirmed.
   */
  decisions: z
    .preprocess(
      jsonList,
      z
        .array(qualityFindingDecisionSchema, { error: 'invalid_field' })
        .max(QUALITY_LIMITS.itemsPerCard, 'too_long'),
    )
    .default([]),
  /** Items not listed score 0. Each score is checked against its item's range (quality_score_range). */
  items: z
    .array(qualityItemResultSchema, { error: 'invalid_field' })
    .max(QUALITY_LIMITS.itemsPerCard, 'too_long'),
  comment: comment(),
  /** Send the result to the agent now (otherwise it stays `done` until saved with send). */
  send: flag().default(false),
});
export const qualitySaveBatchSchema = qualitySaveSchema
  .omit({ id: true, decisions: true })
  .extend({ ids: batchIds() });
/** Ask the configured LLM for suggested item scores of one inspection. */
export const qualitySuggestSchema = z.object({ id: idField() });
export const qualityBatchFormQuery = z.object({ ids: batchIds() });
export const qualityExpIdsSchema = z.object({ ids: batchIds() });

/** The agent's own results. */
export const qualityStaffQuery = z.object({
  ...range,
  appeal: z.enum(QUALITY_APPEAL_STATES, 'invalid_field').optional(),
});

// Appeals.
export const qualityAppealSaveSchema = z.object({
  /** The inspection (a new appeal), or… */
  inspectionid: optionalText(LIMITS.id),
  /** …the draft being edited / submitted. */
  id: optionalText(LIMITS.id),
  reason: comment(),
  items: z
    .array(z.object({ labelid: idField(), reason: requiredText(QUALITY_LIMITS.comment) }), {
      error: 'invalid_field',
    })
    .min(1, 'required')
    .max(QUALITY_LIMITS.itemsPerCard, 'too_long'),
  /** false keeps a draft; true submits it (draft → submitted). */
  submit: flag().default(true),
});
export const qualityAppealMessageSchema = z.object({
  appealid: idField(),
  text: requiredText(QUALITY_LIMITS.comment),
});
export const qualityAppealEndSchema = z.object({
  id: idField(),
  outcome: z.enum(QUALITY_APPEAL_OUTCOMES, 'invalid_field'),
  /** partly: the new score of each contested item (others keep theirs); checked against the item's range. */
  items: z
    .preprocess(
      jsonList,
      z.array(
        z.object({
          labelid: idField(),
          score: z.coerce.number({ error: 'invalid_field' }).int('invalid_field'),
        }),
        {
          error: 'invalid_field',
        },
      ),
    )
    .default([]),
  comment: comment(),
});
export const qualityAppealBatchSchema = z.object({
  ids: batchIds(),
  /** Bulk closing: upheld or rejected (partly needs per-item scores). */
  outcome: z.enum(['upheld', 'rejected'], 'invalid_field'),
  comment: comment(),
});
export const qualityAppealListQuery = z.object({
  state: z.enum(QUALITY_APPEAL_STATES, 'invalid_field').optional(),
  agentno: optionalText(LIMITS.id),
});
