import type { AppContext } from '../../platform/context.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import { revokeAllForUser } from '../../platform/auth/tokens.js';
import { invalidateUser } from '../../platform/auth/cache.js';
import { markPasswordChanged } from './security.repository.js';

/** Sets a user's password (already checked against the policy): every session ends, the time is kept. */
export async function setPassword(ctx: AppContext, user: { id: string; orgi: string }, password: string) {
  const hash = await hashPassword(password);
  const now = Date.now();
  await ctx.db.kysely.transaction().execute(async (k) => {
    await k
      .updateTable('users')
      .set({ password_hash: hash, updatetime: now })
      .where('id', '=', user.id)
      .execute();
    await revokeAllForUser(k, user.id);
    await markPasswordChanged(k, user.id, user.orgi, now);
  });
  invalidateUser(ctx.db, user.id);
}
