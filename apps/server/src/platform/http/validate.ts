import type { z } from 'zod';
import { badRequest } from './errors.js';
import { ERROR_MESSAGES, type ErrorKey } from '@kefu/protocol';

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
  const key = first && isKey(first.message) ? first.message : keyForIssue(first);
  throw badRequest(key, fields);
}

// Every key of the shared error table counts, so a schema message naming a newer key is not lost.
const isKey = (m: string): m is ErrorKey => Object.hasOwn(ERROR_MESSAGES, m);

function keyForIssue(issue: z.core.$ZodIssue | undefined): ErrorKey {
  if (!issue) return 'invalid_body';
  if (issue.code === 'too_big') return 'too_long';
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'required';
  return 'invalid_field';
}
