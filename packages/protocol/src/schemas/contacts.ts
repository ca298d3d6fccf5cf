import { z } from 'zod';
import { CONTACT_LIMITS, GENDERS } from '../contacts.js';
import { DATE_RE } from '../worktime.js';
import {
  emailField,
  epochMs,
  idField,
  idList,
  mobileField,
  optionalId,
  requiredText,
  str,
} from './fields.js';

/** Request schemas of the contacts calls (A05; PUT /api/contacts also A01). */
const text = (max: number) => str().trim().max(max, 'too_long');

/** A real calendar day (YYYY-MM-DD, not 02-30) or '' (none). */
export const isCalendarDate = (v: string): boolean => {
  if (!DATE_RE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/** Every field but the name, each optional: absent keeps the stored value, '' clears it. */
const optionalFields = {
  phone: mobileField().transform((v) => (v === undefined ? undefined : (v ?? ''))),
  email: emailField().transform((v) => (v === undefined ? undefined : v === null ? '' : normaliseEmails(v))),
  company: text(CONTACT_LIMITS.company).optional(),
  gender: z.enum(GENDERS, { error: 'invalid_field' }).optional(),
  region: text(CONTACT_LIMITS.region).optional(),
  address: text(CONTACT_LIMITS.address).optional(),
  birthday: text(10)
    .refine((v) => v === '' || isCalendarDate(v), 'invalid_field')
    .optional(),
  memo: text(CONTACT_LIMITS.memo).optional(),
  /** Contact (`user`) tag ids; the list replaces the contact's tags. */
  tags: idList().optional(),
  /** A user of the organisation; '' or null = none. */
  owner: optionalId(),
};

/** Addresses trimmed, lower-cased (uniqueness is case-blind) and de-duplicated, joined by ','. */
export function normaliseEmails(v: string): string {
  const list = v
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(list)].join(',');
}

export const contactSaveSchema = z.object({ name: requiredText(CONTACT_LIMITS.name), ...optionalFields });
export const contactUpdateSchema = z.object({
  id: idField(),
  name: requiredText(CONTACT_LIMITS.name).optional(),
  ...optionalFields,
});
export type ContactSaveInput = z.infer<typeof contactSaveSchema>;
export type ContactFieldsInput = z.infer<typeof contactUpdateSchema>;

/**
 * PUT /api/contacts, from a conversation: `contactid` links the conversation's visitor to that contact;
 * without it the visitor's contact is updated, or created (name defaulting to the visitor's) and linked.
 */
export const contactPutSchema = z.object({
  agentserviceid: idField(),
  contactid: optionalId(),
  name: requiredText(CONTACT_LIMITS.name).optional(),
  ...optionalFields,
});

export const contactListQuery = z.object({
  /** Name, mobile, email or company (contains); a whole mobile or email is found by its key. */
  q: text(50).optional(),
  tag: optionalId(),
  owner: optionalId(),
  gender: z.enum(GENDERS, { error: 'invalid_field' }).optional(),
  /** Created between (epoch ms, inclusive; begin after end is `time_start_after_end`). */
  begin: epochMs(),
  end: epochMs(),
});
export type ContactListQuery = z.infer<typeof contactListQuery>;

export const contactViewQuery = z.object({
  id: idField(),
  p: z.coerce.number().int('invalid_field').min(1, 'invalid_field').default(1),
  ps: z.coerce.number().int('invalid_field').min(1, 'invalid_field').max(100, 'invalid_field').default(20),
});

export const contactIdsSchema = z.object({ ids: idList().refine((l) => l.length > 0, 'required') });

/** Merge `source` into `target`: target stays (its fields win), source goes; both histories are kept. */
export const contactMergeSchema = z
  .object({ target: idField(), source: idField() })
  .refine((b) => b.target !== b.source, { message: 'invalid_field', path: ['source'] });
