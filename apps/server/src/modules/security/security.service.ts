import type { z } from 'zod';
import type {
  MySecurityDto,
  SecurityPolicy,
  SessionDto,
  TotpSetupDto,
  securityPolicySchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { hashToken, revokeAllForUser } from '../../platform/auth/tokens.js';
import { invalidateUser } from '../../platform/auth/cache.js';
import { badRequest } from '../../platform/http/errors.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import { describeUserAgent } from '../auth/user-agent.js';
import { acceptCode } from './codes.js';
import { ipAllowed, policyOf, POLICY_SETTING } from './policy.js';
import { ISSUER, hashRecovery, newRecoveryCodes, newSecret, otpauthUri, verifyCode } from './totp.js';
import * as repo from './security.repository.js';

async function totpRequired(db: Db, p: Principal, policy: SecurityPolicy): Promise<boolean> {
  if (!policy.twofactorRoles.length) return false;
  return (await repo.roleIdsOf(db.kysely, p.id)).some((r) => policy.twofactorRoles.includes(r));
}

export async function mySecurity(db: Db, p: Principal): Promise<MySecurityDto> {
  const k = db.kysely;
  const policy = await policyOf(db, p.orgi);
  const totp = await repo.findTotp(k, p.id);
  const changed = await repo.passwordChanged(k, p.id);
  const since = changed ?? Number((await repo.userCreated(k, p.id))?.createtime ?? 0);
  return {
    totp: !!totp?.enabled,
    totpRequired: await totpRequired(db, p, policy),
    recoveryLeft: totp?.enabled ? (JSON.parse(totp.recovery) as string[]).length : 0,
    passwordChanged: changed,
    passwordExpires: policy.expireDays > 0 ? since + policy.expireDays * 86_400_000 : null,
    policy: { minLength: policy.minLength, classes: policy.classes },
  };
}

export async function sessions(db: Db, p: Principal): Promise<SessionDto[]> {
  const mine = hashToken(p.token);
  const rows = await repo.liveSessions(db.kysely, p.id, Date.now());
  return rows.map((r) => ({
    id: r.id,
    current: r.id === mine,
    ip: r.ip ?? '',
    useragent: r.useragent ?? '',
    ...describeUserAgent(r.useragent ?? ''),
    createtime: Number(r.createtime),
    expires: Number(r.expires),
  }));
}

/** Signs out every other session of the user (their sockets go too, see platform/auth/cache). */
export async function revokeOthers(db: Db, p: Principal): Promise<{ revoked: number }> {
  const before = await repo.liveSessions(db.kysely, p.id, Date.now());
  await revokeAllForUser(db.kysely, p.id, p.token);
  invalidateUser(db, p.id);
  return { revoked: before.filter((s) => s.id !== hashToken(p.token)).length };
}

/** Starts an enrolment (a new secret, not in force until confirmed); refused while one is on. */
export async function totpSetup(db: Db, p: Principal): Promise<TotpSetupDto> {
  const now = Date.now();
  if ((await repo.findTotp(db.kysely, p.id))?.enabled)
    throw badRequest('invalid_field', { totp: 'invalid_field' });
  const secret = newSecret();
  await repo.putPendingTotp(db.kysely, p.id, p.orgi, secret, now);
  return { secret, uri: otpauthUri(secret, p.username, ISSUER) };
}

/** Confirms the enrolment with a code of the app; answers the recovery codes (shown once). */
export async function totpEnable(db: Db, p: Principal, code: string): Promise<{ recovery: string[] }> {
  const now = Date.now();
  const pending = await repo.findTotp(db.kysely, p.id);
  if (!pending || pending.enabled) throw badRequest('invalid_field', { totp: 'invalid_field' });
  const step = verifyCode(pending.secret, code, now);
  if (step === null) throw badRequest('totp_invalid', { code: 'totp_invalid' });
  const recovery = newRecoveryCodes();
  await repo.enableTotp(db.kysely, p.id, step, recovery.map(hashRecovery), now);
  return { recovery };
}

/** Turns two-factor off with a code or a recovery code, unless a role of the user requires it. */
export async function totpDisable(db: Db, p: Principal, code: string): Promise<void> {
  const policy = await policyOf(db, p.orgi);
  if (await totpRequired(db, p, policy)) throw badRequest('totp_enrol_required');
  if (!(await acceptCode(db.kysely, p.id, code, Date.now())))
    throw badRequest('totp_invalid', { code: 'totp_invalid' });
  await repo.deleteTotp(db.kysely, p.id);
}

export const policy = (db: Db, p: Principal): Promise<SecurityPolicy> => policyOf(db, p.orgi);

/**
 * Saves the corporate policy (the fields sent). An allow-list that would lock out the address the admin
 * is saving from is refused (ip_not_allowed on ipAllow).
 */
export async function savePolicy(
  db: Db,
  p: Principal,
  input: z.infer<typeof securityPolicySchema>,
  ip: string,
): Promise<{ before: SecurityPolicy; after: SecurityPolicy }> {
  const before = await policyOf(db, p.orgi);
  const after: SecurityPolicy = { ...before };
  for (const key of Object.keys(input) as Array<keyof SecurityPolicy>) {
    const v = input[key];
    if (v !== undefined) (after as unknown as Record<string, unknown>)[key] = v;
  }
  if (!ipAllowed(ip, after.ipAllow)) throw badRequest('ip_not_allowed', { ipAllow: 'ip_not_allowed' });
  if (after.twofactorRoles.length) {
    const known = await db.kysely
      .selectFrom('role')
      .select('id')
      .where('orgi', '=', p.orgi)
      .where('id', 'in', after.twofactorRoles)
      .execute();
    if (known.length !== new Set(after.twofactorRoles).size)
      throw badRequest('invalid_field', { twofactorRoles: 'invalid_field' });
  }
  await orgSettings(db).save(p.orgi, POLICY_SETTING, after);
  return { before, after };
}
