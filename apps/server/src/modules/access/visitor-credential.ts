import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../platform/db/database.js';

type Kdb = Db['kysely'];

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The visitor credential issued in `welcome` (stored hashed on the visitor row): true only when the
 * visitor exists in the tenant and the token matches.
 */
export async function visitorTokenValid(
  k: Kdb,
  orgi: string,
  userid: string,
  token: string,
): Promise<boolean> {
  const v = await k
    .selectFrom('visitor')
    .select(['orgi', 'token_hash'])
    .where('id', '=', userid)
    .executeTakeFirst();
  if (!v || v.orgi !== orgi || !token) return false;
  const a = Buffer.from(sha(token));
  const b = Buffer.from(v.token_hash);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const visitorExists = async (k: Kdb, userid: string): Promise<boolean> =>
  (await k.selectFrom('visitor').select('id').where('id', '=', userid).executeTakeFirst()) !== undefined;
