import type { z } from 'zod';
import { CODES, meetsPolicy, type LoginStepResult, type loginStepSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { AppError, badRequest } from '../../platform/http/errors.js';
import { loginLogger, openSession, type LoginMeta } from '../auth/auth.service.js';
import { acceptCode } from './codes.js';
import { nextStage, stepError, STEP_ATTEMPTS, STEP_TICKET, type StepPayload } from './login-step.js';
import { ipAllowed, policyOf } from './policy.js';
import { readTicket } from './tickets.js';
import { setPassword } from './password.js';
import { ISSUER, hashRecovery, newRecoveryCodes, newSecret, otpauthUri, verifyCode } from './totp.js';
import * as repo from './security.repository.js';
import { linkIdentity } from '../identity/identity.repository.js';

/**
 * POST /tokens/step: one step of a login the password opened (see login-step.ts). A new password under
 * the policy, an authenticator enrolment (first call: the secret to scan; then its code), or a code (or a
 * recovery code). Each wrong code counts; after STEP_ATTEMPTS the ticket is gone and the login starts over.
 */
export async function continueLogin(
  ctx: AppContext,
  input: z.infer<typeof loginStepSchema>,
  meta: LoginMeta,
): Promise<LoginStepResult> {
  const k = ctx.db.kysely;
  const now = Date.now();
  const t = await readTicket<StepPayload>(k, STEP_TICKET, input.ticket, now);
  if (!t) throw badRequest('ticket_invalid');
  const p = t.payload;
  const log = loginLogger(ctx, p.username, meta);
  const policy = await policyOf(ctx.db, p.orgi);
  if (!ipAllowed(meta.ip, policy.ipAllow)) {
    await log(p.userid, 'ip_not_allowed', p.orgi);
    throw new AppError('ip_not_allowed', CODES.forbidden);
  }
  const wrong = async (): Promise<never> => {
    await log(p.userid, 'totp_invalid', p.orgi);
    if (++p.attempts >= STEP_ATTEMPTS) {
      await repo.deleteTicket(k, t.id);
      throw badRequest('ticket_invalid');
    }
    await repo.updateTicket(k, t.id, p);
    throw badRequest('totp_invalid', { code: 'totp_invalid' });
  };
  let recovery: string[] | undefined;

  if (p.stage === 'password') {
    if (!input.password) throw badRequest('required', { password: 'required' });
    if (!meetsPolicy(input.password, policy))
      throw badRequest('password_policy', { password: 'password_policy' });
    await setPassword(ctx, { id: p.userid, orgi: p.orgi }, input.password);
    const next = await nextStage(k, { id: p.userid }, policy, now, true);
    if (next) {
      await repo.updateTicket(k, t.id, { ...p, stage: next, attempts: 0 });
      throw stepError(next, input.ticket);
    }
  } else if (p.stage === 'enrol') {
    const pending = await repo.findTotp(k, p.userid);
    if (!input.code || !pending || pending.enabled) {
      const secret = newSecret();
      await repo.putPendingTotp(k, p.userid, p.orgi, secret, now);
      return { enrol: { secret, uri: otpauthUri(secret, p.username, ISSUER) } };
    }
    const step = verifyCode(pending.secret, input.code, now);
    if (step === null) return wrong();
    recovery = newRecoveryCodes();
    await repo.enableTotp(k, p.userid, step, recovery.map(hashRecovery), now);
  } else {
    if (!input.code) throw badRequest('totp_required', { code: 'required' });
    if (!(await acceptCode(k, p.userid, input.code, now))) return wrong();
  }
  await repo.deleteTicket(k, t.id);
  if (p.link) await linkIdentity(k, { ...p.link, userid: p.userid, orgi: p.orgi });
  const session = await openSession(ctx, { id: p.userid, orgi: p.orgi }, p.username, meta);
  return recovery ? { ...session, recovery } : session;
}
