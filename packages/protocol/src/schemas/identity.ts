import { z } from 'zod';
import {
  LIMITS,
  USERNAME_RE,
  emailField,
  flag,
  idField,
  mobileField,
  optionalText,
  requiredText,
  str,
} from './fields.js';
import { IDENTITY_KINDS, TOKEN_STYLES, REGISTER_LIMITS } from '../identity.js';

/** Inputs of self-registration, third-party login and its settings (routes in ../identity.ts). */
const urlField = () =>
  str()
    .trim()
    .max(LIMITS.path * 2, 'too_long')
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'url_format');

/** POST /tokens/register: the company (a new tenant) and its first administrator. */
export const registerSchema = z.object({
  company: requiredText(REGISTER_LIMITS.company),
  username: requiredText(LIMITS.username).regex(USERNAME_RE, 'invalid_field'),
  password: str().min(1, 'required').max(LIMITS.password, 'too_long'),
  email: emailField(),
  mobile: mobileField(),
  /** The language the new tenant's stock rows (department, roles) are named in: the registrant's. */
  language: z.enum(['zh', 'en'], { error: 'invalid_field' }).optional(),
});

export const providerSaveSchema = z
  .object({
    id: optionalText(LIMITS.id),
    name: requiredText(LIMITS.name),
    kind: z.enum(IDENTITY_KINDS, { error: 'invalid_field' }),
    enabled: flag().optional(),
    issuer: urlField().optional(),
    clientid: requiredText(200),
    /** Absent or '' keeps the stored secret. */
    clientsecret: str().max(500, 'too_long').optional(),
    scope: optionalText(200),
    authorizeurl: urlField().optional(),
    tokenurl: urlField().optional(),
    userinfourl: urlField().optional(),
    idfield: optionalText(100),
    namefield: optionalText(100),
    tokenstyle: z.enum(TOKEN_STYLES, { error: 'invalid_field' }).optional(),
  })
  .superRefine((v, ctx) => {
    const need = (field: keyof typeof v) => {
      if (!v[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'required' });
    };
    if (v.kind === 'oidc') need('issuer');
    else ['authorizeurl', 'tokenurl', 'userinfourl'].forEach((f) => need(f as keyof typeof v));
  });

export const providerIdSchema = z.object({ id: idField() });

export const thirdStartSchema = z.object({ provider: idField() });

export const thirdCallbackSchema = z.object({
  code: requiredText(2000),
  state: requiredText(128),
});

export const thirdBindSchema = z.object({
  ticket: requiredText(128),
  username: requiredText(LIMITS.username),
  password: str().min(1, 'required').max(LIMITS.password, 'too_long'),
  code: str().trim().max(32, 'too_long').optional(),
});

export const loginOptionsQuery = z.object({ orgi: optionalText(LIMITS.id) });

export const unbindSchema = z.object({ provider: idField() });
