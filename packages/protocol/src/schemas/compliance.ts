import { z } from 'zod';
import { DISTRIBUTIONS } from '../realtime/dto.js';
import { LIMITS, epochMs, flag, idField, idList, optionalText, str } from './fields.js';
import {
  BUSINESS_OPENTYPES,
  QUICK_FILE_SCOPES,
  QUICK_KEYS,
  SECURITY_LIMITS,
  SEND_KEYS,
  SKILL_LASTAGENT,
  TRANSLATE_PROVIDERS,
  TRANSLATE_TIMEOUT_MS,
  WEBHOOK_EVENTS,
  WEBHOOK_STATUSES,
} from '../compliance.js';

/** GET /api/records/list and /api/records/export: words (action, user name, target), user, action, time range. */
export const auditQuery = z.object({
  q: optionalText(100),
  userid: optionalText(64),
  action: optionalText(200),
  begin: epochMs(),
  end: epochMs(),
});

const int = (min: number, max: number) =>
  z.coerce
    .number({ error: 'invalid_field' })
    .int('invalid_field')
    .min(min, 'invalid_field')
    .max(max, 'invalid_field');

/** One address or CIDR range: IPv4 a.b.c.d[/0-32] or IPv6 [/0-128]. */
export const cidrField = () =>
  z
    .string()
    .trim()
    .refine((v) => isCidr(v), 'ip_format');

export function isCidr(v: string): boolean {
  const [addr = '', bits, extra] = v.split('/');
  if (extra !== undefined) return false;
  const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(addr);
  const v6 =
    !v4 && /^[0-9a-fA-F:.]+$/.test(addr) && addr.includes(':') && (addr.match(/::/g)?.length ?? 0) <= 1;
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (v4 ? 32 : 128);
}

/** POST /api/security/policy/save (A09_A07_A02): any subset; the list fields replace the stored ones. */
export const securityPolicySchema = z.object({
  minLength: int(...SECURITY_LIMITS.minLength).optional(),
  classes: int(...SECURITY_LIMITS.classes).optional(),
  expireDays: int(...SECURITY_LIMITS.expireDays).optional(),
  ipAllow: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.split(/[\r\n,]+/).filter((s) => s.trim() !== '') : v),
      z.array(cidrField(), { error: 'invalid_field' }).max(SECURITY_LIMITS.ipAllow, 'too_long'),
    )
    .optional(),
  idleMinutes: int(...SECURITY_LIMITS.idleMinutes).optional(),
  twofactorRoles: idList().optional(),
});

export const totpCodeSchema = z.object({ code: str().trim().min(1, 'required').max(32, 'too_long') });

/** POST /tokens/step: the ticket of the pending login and what this step supplies. */
export const loginStepSchema = z.object({
  ticket: str().min(1, 'required').max(128, 'too_long'),
  code: str().trim().max(32, 'too_long').optional(),
  password: str().max(LIMITS.password, 'too_long').optional(),
});

/** POST /api/webhook/save: an http(s) URL (required when enabled) and the events to send. */
export const webhookSaveSchema = z.object({
  enabled: flag().optional(),
  url: str()
    .trim()
    .max(LIMITS.path * 2, 'too_long')
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'invalid_field')
    .optional(),
  events: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
      z.array(z.enum(WEBHOOK_EVENTS, 'invalid_field')),
    )
    .optional(),
});

export const webhookDeliveryQuery = z.object({
  status: z.enum(WEBHOOK_STATUSES, 'invalid_field').optional(),
});

const httpUrl = () =>
  str()
    .trim()
    .min(1, 'required')
    .max(1000, 'too_long')
    .refine((v) => /^https?:\/\/[^\s]+$/i.test(v), 'invalid_field');

/** POST /api/business/save: without id a new system, with id an update. */
export const businessSaveSchema = z.object({
  id: optionalText(LIMITS.id),
  name: str().trim().min(1, 'required').max(LIMITS.name, 'too_long'),
  url: httpUrl(),
  ticketurl: z.union([z.literal(''), httpUrl()]).optional(),
  opentype: z.enum(BUSINESS_OPENTYPES, 'invalid_field').default('panel'),
  enabled: flag().optional(),
});
export const businessEncryptionQuery = z.object({ id: idField(), rotate: flag().optional() });
export const businessLinksQuery = z.object({ agentserviceid: idField() });
export const crmAddSchema = z.object({
  agentserviceid: idField(),
  crmid: str().trim().min(1, 'required').max(100, 'too_long'),
});
export const crmViewQuery = z.object({ agentserviceid: idField() });

export const quickFileListQuery = z.object({ scope: z.enum(QUICK_FILE_SCOPES, 'invalid_field').optional() });
/** POST /api/agent/quickFile/save: an upload of the caller's (POST /api/upload) kept as a quick file. */
export const quickFileSaveSchema = z.object({
  mediaid: idField(),
  name: optionalText(200),
  scope: z.enum(QUICK_FILE_SCOPES, 'invalid_field').default('pri'),
});
export const quickFileRankSchema = z.object({
  scope: z.enum(QUICK_FILE_SCOPES, 'invalid_field').default('pri'),
  ids: idList(),
});
export const shortcutsSaveSchema = z.object({
  send: z.enum(SEND_KEYS, 'invalid_field').optional(),
  quick: z.enum(QUICK_KEYS, 'invalid_field').optional(),
});

/** POST /api/translateMessage/translate: the spec's payload; the text translated is the stored message's. */
export const translateSchema = z.object({
  messageid: idField(),
  orgi: optionalText(LIMITS.id),
  message: optionalText(5000),
  userid: optionalText(LIMITS.id),
  type: z.enum(['agent'], 'invalid_field').optional(),
});
/** POST /api/translateMessage/config/save: a key left out (or null) keeps the stored one, '' clears it. */
export const translateConfigSaveSchema = z
  .object({
    provider: z.enum(TRANSLATE_PROVIDERS, 'invalid_field'),
    url: str()
      .trim()
      .max(1000, 'too_long')
      .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'invalid_field')
      .default(''),
    key: str().max(500, 'too_long').nullish(),
    model: str().trim().max(100, 'too_long').default(''),
    timeoutMs: z.coerce
      .number({ error: 'invalid_field' })
      .int('invalid_field')
      .min(TRANSLATE_TIMEOUT_MS.min, 'invalid_field')
      .max(TRANSLATE_TIMEOUT_MS.max, 'invalid_field')
      .default(TRANSLATE_TIMEOUT_MS.default),
  })
  .superRefine((v, ctx) => {
    if (v.provider !== 'none' && !v.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'required' });
    if (v.provider === 'openai' && !v.model)
      ctx.addIssue({ code: 'custom', path: ['model'], message: 'required' });
  });

/** POST /api/imAgent/skill/save: a skill group's routing policy ('inherit': the tenant's assignment rules). */
export const skillSaveSchema = z.object({
  organid: idField(),
  distribution: z.enum(['inherit', ...DISTRIBUTIONS], 'invalid_field').default('inherit'),
  lastagent: z.enum(SKILL_LASTAGENT, 'invalid_field').default('inherit'),
});
export const skillPolicyQuery = z.object({ organid: idField() });
