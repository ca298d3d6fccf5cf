import type { z } from 'zod';
import {
  ALL_PERMISSION_CODES,
  SUPER_USERTYPE,
  type AuthMap,
  passwordChangeSchema,
  profileSchema,
  soundSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { hashToken, revokeAllForUser } from '../../platform/auth/tokens.js';
import { invalidateUser } from '../../platform/auth/cache.js';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.js';
import { badRequest, unauthorized } from '../../platform/http/errors.js';
import { ADMIN_USERNAME, forgetGeneratedAdminPassword } from '../seed/seed.service.js';
import * as repo from './agent.repository.js';
import { presentAgentUser, presentOrgan, type AgentInfoDto, type AgentUserDto } from './agent.presenter.js';
import { getOnState } from './on-state.js';
import { checkPasswordPolicy } from '../security/policy.js';
import { markPasswordChanged } from '../security/security.repository.js';

type Kdb = Db['kysely'];

/** The session user as every session call returns it. `sessionid` is the token's hash, never the token. */
export async function loadAgentUser(k: Kdb, userid: string, token: string): Promise<AgentUserDto> {
  const u = await repo.findUser(k, userid);
  if (!u) throw unauthorized('token_expired');
  const organ = u.organ ? await repo.findOrgan(k, u.orgi, u.organ) : undefined;
  return presentAgentUser(u, organ, await repo.skillIdsOf(k, u.id), await getOnState(u.id), hashToken(token));
}

/** usertype '0' holds every right; saying so in the map spares clients a special case. */
export const effectiveAuth = (p: Pick<Principal, 'usertype' | 'auth'>): AuthMap =>
  p.usertype === SUPER_USERTYPE
    ? Object.fromEntries(ALL_PERMISSION_CODES.map((c) => [c, true as const]))
    : p.auth;

export interface RequestOrigin {
  schema: string;
  hostname: string;
  port: number;
}

export async function agentInfo(db: Db, p: Principal, origin: RequestOrigin): Promise<AgentInfoDto> {
  const user = await loadAgentUser(db.kysely, p.id, p.token);
  const organ = user.organ ? await repo.findOrgan(db.kysely, p.orgi, user.organ) : undefined;
  return { user, organ: presentOrgan(organ), auth: effectiveAuth(p), superuser: user.superuser, ...origin };
}

export async function updateProfile(
  db: Db,
  p: Principal,
  input: z.infer<typeof profileSchema>,
): Promise<AgentUserDto> {
  const set: Parameters<typeof repo.updateUser>[2] = {};
  if (input.uname !== undefined) set.uname = input.uname;
  if (input.nickname !== undefined) set.nickname = input.nickname ?? '';
  if (input.language !== undefined) set.language = input.language;
  if (Object.keys(set).length) {
    await repo.updateUser(db.kysely, p.id, set);
    invalidateUser(db, p.id); // name and language live in the principal
  }
  return loadAgentUser(db.kysely, p.id, p.token);
}

export async function updateSound(db: Db, p: Principal, input: z.infer<typeof soundSchema>): Promise<void> {
  const set: Parameters<typeof repo.updateUser>[2] = {
    warningtone: input.warningtone,
    messagetone: input.messagetone,
  };
  if (input.warningpath) set.warningpath = input.warningpath;
  if (input.messagepath) set.messagepath = input.messagepath;
  await repo.updateUser(db.kysely, p.id, set);
}

/** Checks the old password, stores the new one and ends every session of the user (this one too). */
export async function changePassword(
  ctx: AppContext,
  p: Principal,
  input: z.infer<typeof passwordChangeSchema>,
): Promise<void> {
  const u = await repo.findUser(ctx.db.kysely, p.id);
  if (!u) throw unauthorized('token_expired');
  if (!(await verifyPassword(u.password_hash, input.oldpassword))) throw badRequest('password_wrong');
  await checkPasswordPolicy(ctx.db, p.orgi, input.password);
  const passwordHash = await hashPassword(input.password);
  await ctx.db.kysely.transaction().execute(async (k) => {
    await repo.updateUser(k, p.id, { password_hash: passwordHash });
    await revokeAllForUser(k, p.id);
    await markPasswordChanged(k, p.id, p.orgi, Date.now());
  });
  invalidateUser(ctx.db, p.id);
  if (u.username === ADMIN_USERNAME) forgetGeneratedAdminPassword(ctx.config);
}

export const skillList = (db: Db, p: Principal) => repo.skillGroups(db.kysely, p.orgi);

export const userList = (db: Db, p: Principal, organ: string | null | undefined) =>
  repo.enabledUsers(db.kysely, p.orgi, organ);
