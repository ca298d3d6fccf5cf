import { z } from 'zod';
import { PHONE_RE, isEmailList } from '../validators.js';

/**
 * Field building blocks for request schemas shared by the server (validation) and the console (forms).
 * Issue messages are error keys of errors.ts, so the server's envelope carries a meaningful `key`.
 */
export const LIMITS = {
  name: 50,
  username: 32,
  description: 255,
  path: 255,
  email: 255,
  mobile: 20,
  password: 128,
  id: 64,
} as const;

export const USERNAME_RE = /^[A-Za-z0-9_.@-]+$/;

/** ≥ 8 characters with at least one letter and one digit (key password_weak). */
export const isStrongPassword = (password: string): boolean =>
  password.length >= 8 && /[A-Za-z]/.test(password) && /\d/.test(password);

/** A string whose absence reads as `required` and wrong type as `invalid_field`. */
export const str = () =>
  z.string({
    error: (iss) => (iss.input === undefined || iss.input === null ? 'required' : 'invalid_field'),
  });

export const requiredText = (max: number) => str().trim().min(1, 'required').max(max, 'too_long');
export const optionalText = (max: number) => str().trim().max(max, 'too_long').nullish();

export const idField = () => requiredText(LIMITS.id);
/** Absent stays undefined ("keep"); '' or null mean "none" (null). */
const noneIfBlank = (v: string | null | undefined): string | null | undefined =>
  v === undefined ? undefined : v || null;

export const optionalId = () => optionalText(LIMITS.id).transform(noneIfBlank);

/** true/false, 1/0 or their string forms (form-encoded posts send strings). */
export const flag = () =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])], {
      error: 'invalid_field',
    })
    .transform((v) => v === true || v === 1 || v === '1' || v === 'true');

/** 0 | 1 as a number (sound switches). */
export const tone = () => flag().transform((v) => (v ? 1 : 0));

/** A list of ids: a JSON array, a repeated form field, or a comma-separated string. */
export const idList = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : v),
    z
      .array(str().trim().min(1, 'required').max(LIMITS.id, 'too_long'), { error: 'invalid_field' })
      .max(1000, 'too_long'),
  );

/** Optional mobile, 11 digits starting 1[2-9]; '' or null clear it. */
export const mobileField = () =>
  optionalText(LIMITS.mobile)
    .refine((v) => !v || PHONE_RE.test(v), 'phone_format')
    .transform(noneIfBlank);

/** Optional comma-separated email list; '' or null clear it. */
export const emailField = () =>
  optionalText(LIMITS.email)
    .refine((v) => !v || isEmailList(v), 'email_format')
    .transform(noneIfBlank);

/** Epoch milliseconds from a query string. */
export const epochMs = () =>
  z.coerce.number({ error: 'invalid_field' }).int('invalid_field').min(0, 'invalid_field').optional();
