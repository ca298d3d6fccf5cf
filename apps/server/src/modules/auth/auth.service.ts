import type { z } from 'zod';
import { CODES, SUPER_USERTYPE, type ErrorKey, type loginSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { issueToken, revokeToken } from '../../platform/auth/tokens.js';
import { invalidateToken } from '../../platform/auth/cache.js';
import { decoyHash, verifyPassword } from '../../platform/auth/passwords.js';
import { AppError, badRequest, forbidden } from '../../platform/http/errors.js';
import { loadAgentUser } from '../agent/agent.service.js';
import * as repo from './auth.repository.js';
import { presentTokenInfo, type LoginDto, type TokenInfoDto } from './auth.presenter.js';
import type { LoginLimiter } from './login-limiter.js';
import { describeUserAgent } from './user-agent.js';
import { loginStep, recordSession } from '../security/login-step.js';
import { linkIdentity, type IdentityLink } from '../identity/identity.repository.js';

export interface LoginMeta {
  ip: string;
  useragent: string;
}

/**
 * Every attempt is logged, allowed or not. An unknown user and a wrong password get the same answer
 * (`login_failed`; the login log keeps `user_not_found` / `password_wrong` apart), and disabled accounts
 * are reported only after the password matched, so the answer never tells a guesser which names exist.
 */
export async function login(
  ctx: AppContext,
  limiter: LoginLimiter,
  input: z.infer<typeof loginSchema>,
  meta: LoginMeta,
): Promise<LoginDto> {
  return admit(ctx, await checkPassword(ctx, limiter, input, meta), input.username, meta);
}

/** The user whose name and password these are, or the login's refusal (rate limit, login_failed), logged. */
export async function checkPassword(
  ctx: AppContext,
  limiter: LoginLimiter,
  input: { username: string; password: string },
  meta: LoginMeta,
) {
  const k = ctx.db.kysely;
  const orgi = ctx.config.orgi;
  const log = loginLogger(ctx, input.username, meta);

  if (!(await limiter.hit(`${meta.ip}|${input.username.toLowerCase()}`))) {
    await log(null, 'login_rate_limited');
    throw new AppError('login_rate_limited', CODES.tooManyRequests);
  }
  const user = await repo.findUserForLogin(k, orgi, input.username);
  if (!user) {
    // Same work as a real check, so timing does not tell which usernames exist.
    await verifyPassword(await decoyHash(), input.password);
    await log(null, 'user_not_found');
    throw badRequest('login_failed');
  }
  if (!(await verifyPassword(user.password_hash, input.password))) {
    await log(user.id, 'password_wrong', user.orgi);
    throw badRequest('login_failed');
  }
  return user;
}

/**
 * The end of a login once the user proved who they are (a password, or a provider's identity): the
 * account's own checks, corporate security (IP allow-list, password expiry, two-factor), then the
 * session. `link`: an identity to bind once the login completes (now, or after its second step).
 */
export async function admit(
  ctx: AppContext,
  user: { id: string; orgi: string; username: string; disabled: number; usertype: string },
  username: string,
  meta: LoginMeta,
  link?: IdentityLink,
): Promise<LoginDto> {
  const k = ctx.db.kysely;
  const log = loginLogger(ctx, username, meta);
  if (user.disabled) {
    await log(user.id, 'user_disabled', user.orgi);
    throw badRequest('user_disabled');
  }
  // Without a single permission the console could only say so and log out again: refuse (and log it).
  if (user.usertype !== SUPER_USERTYPE && !(await repo.holdsAnyCode(k, user.id))) {
    await log(user.id, 'no_permission', user.orgi);
    throw forbidden('no_permission');
  }
  // Corporate security (modules/security): IP allow-list, password expiry, two-factor.
  const step = await loginStep(ctx, user, meta, link);
  if (step) {
    await log(user.id, step.key, user.orgi);
    throw step;
  }
  if (link) await linkIdentity(k, { ...link, userid: user.id, orgi: user.orgi });
  return openSession(ctx, user, username, meta);
}

/** Writes one login-log line per attempt (reason '' = success), in the user's tenant once it is known. */
export function loginLogger(ctx: AppContext, username: string, meta: LoginMeta) {
  return (userid: string | null, reason: ErrorKey | '', orgi = ctx.config.orgi) =>
    repo.insertLoginLog(ctx.db.kysely, {
      orgi,
      userid,
      username: username.slice(0, 64),
      ip: meta.ip,
      useragent: meta.useragent.slice(0, 512),
      ...describeUserAgent(meta.useragent),
      success: reason === '' ? 1 : 0,
      reason,
      createtime: Date.now(),
    });
}

/** The end of a successful login (also after a second step): a token, the last-login time, the log line. */
export async function openSession(
  ctx: AppContext,
  user: { id: string; orgi: string },
  username: string,
  meta: LoginMeta,
): Promise<LoginDto> {
  const k = ctx.db.kysely;
  const token = await issueToken(k, user.id, user.orgi, ctx.config.tokenTtlMs);
  await recordSession(k, token, user, meta);
  await repo.touchLastLogin(k, user.id, Date.now());
  await loginLogger(ctx, username, meta)(user.id, '', user.orgi);
  return { token, user: await loadAgentUser(k, user.id, token) };
}

export async function logout(db: Db, token: string): Promise<void> {
  if (!token) return;
  await revokeToken(db.kysely, token);
  invalidateToken(db, token);
}

export async function tokenInfo(db: Db, orgi: string): Promise<TokenInfoDto> {
  return presentTokenInfo(await repo.findOrganization(db.kysely, orgi));
}
