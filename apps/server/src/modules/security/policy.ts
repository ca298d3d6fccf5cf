import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { SECURITY_POLICY_DEFAULT, meetsPolicy, type SecurityPolicy } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { orgSettings } from '../../platform/settings/org-settings.js';

/** org_setting name of the corporate security policy. */
export const POLICY_SETTING = 'security.policy';

const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function readPolicy(raw: unknown): SecurityPolicy {
  const v = (raw ?? {}) as Partial<Record<keyof SecurityPolicy, unknown>>;
  const d = SECURITY_POLICY_DEFAULT;
  return {
    minLength: num(v.minLength, d.minLength),
    classes: num(v.classes, d.classes),
    expireDays: num(v.expireDays, d.expireDays),
    ipAllow: strs(v.ipAllow),
    idleMinutes: num(v.idleMinutes, d.idleMinutes),
    twofactorRoles: strs(v.twofactorRoles),
  };
}

export async function policyOf(db: Db, orgi: string): Promise<SecurityPolicy> {
  return (await orgSettings(db).get(orgi, POLICY_SETTING, readPolicy)).value;
}

const lists = new WeakMap<readonly string[], BlockList>();

/** Whether an address may sign in under the allow-list (empty list: anywhere). IPv4-mapped IPv6 counts as IPv4. */
export function ipAllowed(ip: string, allow: readonly string[]): boolean {
  if (allow.length === 0) return true;
  let list = lists.get(allow);
  if (!list) {
    list = new BlockList();
    for (const entry of allow) {
      const [addr = '', bits] = entry.split('/');
      const type = isIPv4(addr) ? 'ipv4' : 'ipv6';
      if (bits === undefined) list.addAddress(addr, type);
      else list.addSubnet(addr, Number(bits), type);
    }
    lists.set(allow, list);
  }
  const plain = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(plain)) return list.check(plain, 'ipv4');
  return isIPv6(plain) && list.check(plain, 'ipv6');
}

/** Refuses a new password that does not meet the tenant's policy (key password_policy on `password`). */
export async function checkPasswordPolicy(db: Db, orgi: string, password: string): Promise<void> {
  const p = await policyOf(db, orgi);
  if (!meetsPolicy(password, p)) throw badRequest('password_policy', { password: 'password_policy' });
}
