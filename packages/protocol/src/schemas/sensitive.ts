import { z } from 'zod';
import {
  PII_RULES,
  SENSITIVE_ACTIONS,
  SENSITIVE_BATCH_MAX,
  SENSITIVE_KINDS,
  SENSITIVE_WORD_MAX,
} from '../sensitive.js';
import { MESSAGE_MAX_CHARS } from '../realtime/dto.js';
import { flag, idField, idList, requiredText, str } from './fields.js';

/** Sensitive-word setup (A09_A03_A06). The list (agent / user) is part of the path. */
export const sensitiveKindParam = z.object({ kind: z.enum(SENSITIVE_KINDS, 'invalid_field') });
const action = z.enum(SENSITIVE_ACTIONS, 'invalid_field');

export const sensitiveWordField = () => requiredText(SENSITIVE_WORD_MAX);

export const sensitivePageQuery = z.object({
  q: str().trim().max(SENSITIVE_WORD_MAX, 'too_long').optional(),
  action: action.optional(),
});
export const sensitiveSaveSchema = z.object({ word: sensitiveWordField(), action: action.default('mask') });
export const sensitiveUpdateSchema = z.object({
  id: idField(),
  word: sensitiveWordField().optional(),
  action: action.optional(),
});

/** One word per line (or a JSON array); blank lines are skipped, each line is checked on its own. */
export const sensitiveBatchSchema = z.object({
  words: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(/\r?\n/) : v),
    z
      .array(str(), { error: 'invalid_field' })
      .max(SENSITIVE_BATCH_MAX, 'too_long')
      .transform((l) => l.map((w) => w.trim()).filter((w) => w !== '')),
  ),
  action: action.default('mask'),
});
export const sensitiveBatdelSchema = z.object({ ids: idList() });

/** The agent's draft, checked against the agent list while typing. */
export const sensitiveCheckSchema = z.object({ text: str().max(MESSAGE_MAX_CHARS, 'too_long') });

export const piiRulesSchema = z.object(
  Object.fromEntries(PII_RULES.map((r) => [r, flag().optional()])) as Record<
    (typeof PII_RULES)[number],
    z.ZodOptional<ReturnType<typeof flag>>
  >,
);

export const sensitiveHitQuery = z.object({
  action: action.optional(),
  agentserviceid: str().max(64, 'too_long').optional(),
});
