import { sql } from 'kysely';
import type { z } from 'zod';
import { CODES, type registerSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import { AppError, badRequest } from '../../platform/http/errors.js';
import { isUniqueViolation } from '../../platform/db/unique.js';
import type { LoginLimiter } from '../auth/login-limiter.js';
import { seedTenant } from '../seed/seed.service.js';
import { insertAdmin } from '../seed/seed.repository.js';
import { checkPasswordPolicy } from '../security/policy.js';
import { usernameTaken } from '../user/user.repository.js';
import { companyTaken } from './identity.repository.js';

export interface RegisteredDto {
  orgi: string;
  username: string;
}

/**
 * /register: a company becomes a tenant of its own with its first administrator, seeded like the default
 * tenant (organisation, default skill group, the administrator and agent roles). Off unless
 * KEFU_SELF_REGISTER is set; rate-limited per address. The administrator then logs in like anyone else.
 */
export async function register(
  ctx: AppContext,
  limiter: LoginLimiter,
  input: z.output<typeof registerSchema>,
  ip: string,
): Promise<RegisteredDto> {
  if (!ctx.config.selfRegister) throw new AppError('register_disabled', CODES.forbidden);
  if (!(await limiter.hit(ip))) throw new AppError('register_rate_limited', CODES.tooManyRequests);
  const orgi = newId();
  // The new tenant has no policy of its own yet: the corporate defaults apply.
  await checkPasswordPolicy(ctx.db, orgi, input.password);
  const passwordHash = await hashPassword(input.password);
  const { db } = ctx;
  await db.kysely
    .transaction()
    .execute(async (k) => {
      // Two registrations of one name at once: the second waits, then sees the first.
      if (db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(727015)`.execute(k);
      if (await companyTaken(k, input.company))
        throw badRequest('company_repeat', { company: 'company_repeat' });
      if (await usernameTaken(k, input.username))
        throw badRequest('username_repeat', { username: 'username_repeat' });
      const now = Date.now();
      const { organ, adminRole } = await seedTenant(k, orgi, input.company, now, input.language ?? 'zh');
      await insertAdmin(k, {
        id: newId(),
        orgi,
        username: input.username,
        passwordHash,
        organ,
        role: adminRole,
        now,
        email: input.email ?? null,
        mobile: input.mobile ?? null,
      });
    })
    .catch((e: unknown) => {
      // SQLite serialises writers; a unique index is the last word anyway.
      if (isUniqueViolation(e)) throw badRequest('username_repeat', { username: 'username_repeat' });
      throw e;
    });
  return { orgi, username: input.username };
}
