import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import * as repo from './security.repository.js';
import { hashRecovery, verifyCode } from './totp.js';

/**
 * Accepts a code of the user's authenticator (once: its time step is remembered) or one of the unused
 * recovery codes (then spent). Two requests racing with the same code: one wins.
 */
export async function acceptCode(
  k: Kysely<Database>,
  userid: string,
  code: string,
  now: number,
): Promise<boolean> {
  const row = await repo.findTotp(k, userid);
  if (!row?.enabled) return false;
  const step = verifyCode(row.secret, code, now, Number(row.laststep));
  const before = { laststep: Number(row.laststep), recovery: row.recovery };
  if (step !== null) return repo.useTotp(k, userid, before, { laststep: step, recovery: row.recovery }, now);
  const left = JSON.parse(row.recovery) as string[];
  const i = left.indexOf(hashRecovery(code));
  if (i < 0) return false;
  left.splice(i, 1);
  return repo.useTotp(k, userid, before, { laststep: before.laststep, recovery: JSON.stringify(left) }, now);
}
