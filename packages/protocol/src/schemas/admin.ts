import { z } from 'zod';
import { ALL_PERMISSION_CODES } from '../permissions.js';
import {
  LIMITS,
  USERNAME_RE,
  emailField,
  epochMs,
  flag,
  idField,
  idList,
  mobileField,
  optionalId,
  optionalText,
  requiredText,
} from './fields.js';
import { newPassword } from './session.js';

/** Request schemas of the organisation-admin calls of docs/api.md. */
export const idSchema = z.object({ id: idField() });

export const organSaveSchema = z.object({
  name: requiredText(LIMITS.name),
  parentid: optionalId(),
  skill: flag().optional(),
});
export const organUpdateSchema = organSaveSchema.extend({ id: idField() });

const usertype = z.enum(['0', '1'], { error: 'invalid_field' });
const maxusers = z.coerce
  .number({ error: 'invalid_field' })
  .int('invalid_field')
  .min(0, 'invalid_field')
  .max(1000, 'too_long');

const userFields = {
  username: requiredText(LIMITS.username).regex(USERNAME_RE, 'invalid_field'),
  uname: requiredText(LIMITS.name),
  nickname: optionalText(LIMITS.name),
  email: emailField(),
  mobile: mobileField(),
  usertype: usertype.optional(),
  organ: optionalId(),
  organs: idList().optional(),
  roles: idList().optional(),
  maxusers: maxusers.optional(),
  disabled: flag().optional(),
};

export const userSaveSchema = z.object({ ...userFields, password: newPassword() });

/** A blank password keeps the current one. */
export const userUpdateSchema = z.object({
  ...userFields,
  id: idField(),
  password: z
    .union([z.literal(''), z.null(), newPassword()])
    .optional()
    .transform((v) => (v ? v : undefined)),
});

export const userPageQuery = z.object({
  organ: optionalId(),
  q: optionalText(64),
});

export const skillAgentSaveSchema = z.object({ organid: idField(), userids: idList() });

export const roleSaveSchema = z.object({
  name: requiredText(LIMITS.name),
  description: optionalText(LIMITS.description),
});
export const roleUpdateSchema = roleSaveSchema.extend({ id: idField() });

const codeSet = new Set(ALL_PERMISSION_CODES);
/** Unknown permission codes are refused rather than silently dropped. */
export const roleAuthSaveSchema = z.object({
  id: idField(),
  codes: idList().refine((codes) => codes.every((c) => codeSet.has(c)), 'invalid_field'),
});

export const loginLogQuery = z.object({
  username: optionalText(64),
  begin: epochMs(),
  end: epochMs(),
});
