import type { Kysely } from 'kysely';
import { CODES, type LoginStepKey, type SecurityPolicy } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Database } from '../../platform/db/schema.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { AppError, badRequest } from '../../platform/http/errors.js';
import { ipAllowed, policyOf } from './policy.js';
import { issueTicket } from './tickets.js';
import * as repo from './security.repository.js';
import type { IdentityLink } from '../identity/identity.repository.js';

/** What a login still needs after the password: a new password, an authenticator enrolment, a code. */
export type Stage = 'password' | 'enrol' | 'totp';

const KEY: Record<Stage, LoginStepKey> = {
  password: 'password_expired',
  enrol: 'totp_enrol_required',
  totp: 'totp_required',
};

export const STEP_TICKET = 'login-step';
export const STEP_TTL_MS = 10 * 60_000;
/** Wrong codes one ticket takes before it is dropped (the login starts over, rate-limited there). */
export const STEP_ATTEMPTS = 5;

export interface StepPayload {
  userid: string;
  orgi: string;
  username: string;
  stage: Stage;
  attempts: number;
  /** A provider identity to bind when this login completes (third-party login's binding variant). */
  link?: IdentityLink;
}

/** The next stage for this user under the policy; `passwordSet`: the password was just set in this login. */
export async function nextStage(
  k: Kysely<Database>,
  user: { id: string },
  policy: SecurityPolicy,
  now: number,
  passwordSet = false,
): Promise<Stage | null> {
  if (policy.expireDays > 0 && !passwordSet) {
    const changed =
      (await repo.passwordChanged(k, user.id)) ?? (await repo.userCreated(k, user.id))?.createtime;
    if (changed !== undefined && Number(changed) + policy.expireDays * 86_400_000 <= now) return 'password';
  }
  const totp = await repo.findTotp(k, user.id);
  if (totp?.enabled) return 'totp';
  if (policy.twofactorRoles.length) {
    const roles = await repo.roleIdsOf(k, user.id);
    if (roles.some((r) => policy.twofactorRoles.includes(r))) return 'enrol';
  }
  return null;
}

/** The error that asks the client for a stage, carrying the ticket that continues the login. */
export const stepError = (stage: Stage, ticket: string): AppError =>
  badRequest(KEY[stage], { ticket, stage });

/**
 * Called by the login after the password matched: refuses an address outside the allow-list, or answers
 * the stage still needed (with a ticket for POST /tokens/step); null when the login may finish.
 */
export async function loginStep(
  ctx: AppContext,
  user: { id: string; orgi: string; username: string },
  meta: { ip: string },
  link?: IdentityLink,
): Promise<AppError | null> {
  const k = ctx.db.kysely;
  const policy = await policyOf(ctx.db, user.orgi);
  if (!ipAllowed(meta.ip, policy.ipAllow)) return new AppError('ip_not_allowed', CODES.forbidden);
  const now = Date.now();
  const stage = await nextStage(k, user, policy, now);
  if (!stage) return null;
  const payload: StepPayload = {
    userid: user.id,
    orgi: user.orgi,
    username: user.username,
    stage,
    attempts: 0,
    link,
  };
  return stepError(stage, await issueTicket(k, STEP_TICKET, payload, STEP_TTL_MS, now));
}

/** Where a new session came from, for the signed-in devices list. */
export async function recordSession(
  k: Kysely<Database>,
  token: string,
  user: { id: string; orgi: string },
  meta: { ip: string; useragent: string },
): Promise<void> {
  await repo.insertSession(k, {
    tokenid: hashToken(token),
    userid: user.id,
    orgi: user.orgi,
    ip: meta.ip,
    useragent: meta.useragent.slice(0, 512),
    createtime: Date.now(),
  });
}
