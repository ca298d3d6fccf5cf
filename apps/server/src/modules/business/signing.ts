import { createHmac, randomBytes } from 'node:crypto';
import { BUSINESS_PLACEHOLDERS } from '@kefu/protocol';

export const newBusinessKey = (): string => randomBytes(32).toString('hex');

export interface OpenContext {
  visitorid: string;
  contactid: string;
  conversationid: string;
  agent: string;
  /** A CRM record id, for the CRM calls ({crmid} in the template). */
  crmid?: string;
}

/**
 * The string a system's key signs: the kefu_* parameters (not sign), sorted by name, `name=value` joined
 * with '&', values not URL-encoded. docs/api.md shows how a partner checks it.
 */
export const canonical = (params: Record<string, string>): string =>
  Object.keys(params)
    .filter((k) => k.startsWith('kefu_') && k !== 'kefu_sign')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');

export const sign = (key: string, params: Record<string, string>): string =>
  createHmac('sha256', key).update(canonical(params)).digest('hex');

/**
 * Fills a URL template ({visitorid}, {contactid}, {conversationid}, {agent}, {crmid}; URL-encoded) and
 * appends the signed parameters: kefu_visitor, kefu_contact, kefu_conversation, kefu_agent, kefu_crmid
 * (CRM calls), kefu_ts (unix seconds), kefu_sign.
 */
export function signedUrl(template: string, key: string, ctx: OpenContext, now: number): string {
  let url = template;
  for (const p of [...BUSINESS_PLACEHOLDERS, 'crmid'] as const)
    url = url.split(`{${p}}`).join(encodeURIComponent(ctx[p] ?? ''));
  const params: Record<string, string> = {
    kefu_visitor: ctx.visitorid,
    kefu_contact: ctx.contactid,
    kefu_conversation: ctx.conversationid,
    kefu_agent: ctx.agent,
    kefu_ts: String(Math.floor(now / 1000)),
  };
  if (ctx.crmid !== undefined) params.kefu_crmid = ctx.crmid;
  params.kefu_sign = sign(key, params);
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
