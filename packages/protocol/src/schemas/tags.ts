import { z } from 'zod';
import { TAG_LIMITS, TAG_TYPES } from '../tags.js';
import { colorField } from './channel.js';
import { idField, optionalId, requiredText, str } from './fields.js';

/** Request schemas of tags (A09_A03_A07), service topics (A09_A03_A08) and the conversation summary. */
const tagtype = z.enum(TAG_TYPES, { error: 'invalid_field' });

export const tagListQuery = z.object({ tagtype: tagtype.optional() });
export const tagPageQuery = z.object({
  tagtype: tagtype.optional(),
  q: str().trim().max(50, 'too_long').optional(),
});
export const tagSaveSchema = z.object({
  name: requiredText(TAG_LIMITS.name),
  color: colorField().optional(),
  tagtype: tagtype.optional().default('summary'),
});
/** The type of a tag is fixed once saved (its relations are of that kind). */
export const tagUpdateSchema = z.object({
  id: idField(),
  name: requiredText(TAG_LIMITS.name).optional(),
  color: colorField().optional(),
});

/** `topic save`: with `id` it renames / moves the topic, without it creates one. */
export const topicSaveSchema = z.object({
  id: optionalId(),
  name: requiredText(TAG_LIMITS.topicName),
  parentid: optionalId(),
});

/** The service summary of a conversation: absent keeps, '' / null clear. */
export const summarySaveSchema = z.object({
  agentserviceid: idField(),
  topicid: optionalId(),
  memo: str().trim().max(TAG_LIMITS.memo, 'too_long').optional(),
});
export type SummarySaveInput = z.infer<typeof summarySaveSchema>;
