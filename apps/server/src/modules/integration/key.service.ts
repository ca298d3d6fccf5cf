import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SecretKeyInfoDto } from '@kefu/protocol';
import type { Database } from '../../platform/db/schema.js';
import type { Principal } from '../../platform/auth/principal.js';

type Kdb = Kysely<Database>;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** The webhook signing key derived from the secret: the receiver derives it the same way (docs/api.md). */
export const signKeyOf = (secret: string): string =>
  createHmac('sha256', secret).update('kefu-webhook').digest('hex');

/**
 * Generates a new secret for the tenant (the old one stops working at once) and answers it: the only
 * time it is ever shown. Stored: its sha256 (to check calls) and the derived signing key.
 */
export async function rotate(k: Kdb, p: Principal): Promise<SecretKeyInfoDto & { secret: string }> {
  const secret = `kfs_${randomBytes(24).toString('base64url')}`;
  const row = {
    orgi: p.orgi,
    prefix: secret.slice(0, 8),
    hash: sha256(secret),
    signkey: signKeyOf(secret),
    creater: p.username,
    createtime: Date.now(),
  };
  await k
    .insertInto('api_secret')
    .values(row)
    .onConflict((oc) =>
      oc.column('orgi').doUpdateSet({
        prefix: row.prefix,
        hash: row.hash,
        signkey: row.signkey,
        creater: row.creater,
        createtime: row.createtime,
      }),
    )
    .execute();
  return { secret, prefix: row.prefix, creater: row.creater, createtime: row.createtime };
}

export async function info(k: Kdb, orgi: string): Promise<SecretKeyInfoDto | null> {
  const r = await k
    .selectFrom('api_secret')
    .select(['prefix', 'creater', 'createtime'])
    .where('orgi', '=', orgi)
    .executeTakeFirst();
  return r ? { prefix: r.prefix, creater: r.creater, createtime: Number(r.createtime) } : null;
}

/** The tenant whose secret this is, or null (compared by hash, in constant time). */
export async function tenantOfSecret(k: Kdb, secret: string): Promise<string | null> {
  if (!secret.startsWith('kfs_') || secret.length > 100) return null;
  const h = sha256(secret);
  const r = await k
    .selectFrom('api_secret')
    .select(['orgi', 'hash'])
    .where('hash', '=', h)
    .executeTakeFirst();
  return r && timingSafeEqual(Buffer.from(r.hash), Buffer.from(h)) ? r.orgi : null;
}

export async function signKey(k: Kdb, orgi: string): Promise<string | null> {
  const r = await k.selectFrom('api_secret').select('signkey').where('orgi', '=', orgi).executeTakeFirst();
  return r?.signkey ?? null;
}

/** X-Kefu-Signature: sha256=hex(HMAC-SHA256(signing key, `${timestamp}.${body}`)). */
export const signature = (key: string, timestamp: string, body: string): string =>
  `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;
