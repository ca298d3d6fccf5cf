import type { z } from 'zod';
import { badRequest } from './errors.js';
import type { ErrorKey } from '@kefu/protocol';

/**
 * Parses an HTTP body / query / socket payload with a shared zod schema. Issue messages that are
 * error keys (e.g. 'required', 'email_format') become the envelope key; the first issue wins.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const fields: Record<string, string> = {};
  for (const issue of r.error.issues) fields[issue.path.join('.') || '_'] = issue.message;
  const first = r.error.issues[0];
  const key = (first && isKey(first.message) ? first.message : keyForIssue(first)) as ErrorKey;
  throw badRequest(key, fields);
}

const KNOWN = new Set([
  'required',
  'name_repeat',
  'username_repeat',
  'mobile_email_exists',
  'password_wrong',
  'email_format',
  'image_format',
  'username_empty',
  'group_bound',
  'time_range_invalid',
  'time_start_after_end',
  'priority_repeat',
  'sensitive_word_exists',
  'category_name_repeat',
  'category_parent_self',
  'phone_format',
  'ip_format',
  'too_long',
  'invalid_field',
  'password_weak',
]);
const isKey = (m: string) => KNOWN.has(m);

function keyForIssue(issue: z.core.$ZodIssue | undefined): ErrorKey {
  if (!issue) return 'invalid_body';
  if (issue.code === 'too_big') return 'too_long';
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'required';
  return 'invalid_field';
}
