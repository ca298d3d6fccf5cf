import { z } from 'zod';
import { LANGUAGES } from '../i18n/index.js';
import { LIMITS, isStrongPassword, optionalText, requiredText, str, tone } from './fields.js';

/** POST /tokens. The password is never trimmed; the username is looked up as typed (trimmed). */
export const loginSchema = z.object({
  username: requiredText(64),
  password: str().min(1, 'required').max(LIMITS.password, 'too_long'),
});

const languageCodes = LANGUAGES.map((l) => l.language) as string[];

/** POST /api/agent */
export const profileSchema = z.object({
  uname: requiredText(LIMITS.name).optional(),
  nickname: optionalText(LIMITS.name),
  language: str()
    .trim()
    .refine((v) => languageCodes.includes(v), 'invalid_field')
    .optional(),
});

/** POST /api/agent/my/sound */
export const soundSchema = z.object({
  warningtone: tone(),
  messagetone: tone(),
  warningpath: optionalText(LIMITS.path),
  messagepath: optionalText(LIMITS.path),
});

/** A new password: required, bounded, and strong. */
export const newPassword = () =>
  str().min(1, 'required').max(LIMITS.password, 'too_long').refine(isStrongPassword, 'password_weak');

/** GET|POST /api/agent/my/updatePassword */
export const passwordChangeSchema = z.object({
  oldpassword: str().min(1, 'required').max(LIMITS.password, 'too_long'),
  password: newPassword(),
});

/** GET /api/language: the language of the texts (any code; unknown ones fall back, see language.service). */
export const languageQuery = z.object({ l: z.string().max(20, 'too_long').optional() });

/** POST /api/upload, /api/file/upload, /api/voice/upload: multipart form data with one file field. */
export const uploadFormSchema = z.object({
  file: z.string().meta({ format: 'binary', description: 'the file (field name `file`)' }),
});
