import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Opaque bearer tokens: 32 random bytes handed to the client, only their sha256 stored (revocable). */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export async function issueToken(
  db: Kysely<Database>,
  userid: string,
  orgi: string,
  ttlMs: number,
): Promise<string> {
  const token = randomBytes(32).toString('hex');
  const now = Date.now();
  await db
    .insertInto('tokens')
    .values({
      id: hashToken(token),
      userid,
      orgi,
      createtime: now,
      expires: now + ttlMs,
      lastused: now,
      revoked: 0,
    })
    .execute();
  return token;
}

export type TokenCheck =
  { ok: true; userid: string; orgi: string } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' };

export async function checkToken(db: Kysely<Database>, token: string): Promise<TokenCheck> {
  if (!token || token.length > 200) return { ok: false, reason: 'unknown' };
  const row = await db.selectFrom('tokens').selectAll().where('id', '=', hashToken(token)).executeTakeFirst();
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revoked) return { ok: false, reason: 'revoked' };
  if (row.expires < Date.now()) return { ok: false, reason: 'expired' };
  return { ok: true, userid: row.userid, orgi: row.orgi };
}

export async function revokeToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.updateTable('tokens').set({ revoked: 1 }).where('id', '=', hashToken(token)).execute();
}

export async function revokeAllForUser(
  db: Kysely<Database>,
  userid: string,
  exceptToken?: string,
): Promise<void> {
  let q = db.updateTable('tokens').set({ revoked: 1 }).where('userid', '=', userid);
  if (exceptToken) q = q.where('id', '!=', hashToken(exceptToken));
  await q.execute();
}
