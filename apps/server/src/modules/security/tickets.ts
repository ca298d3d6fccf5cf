import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import * as repo from './security.repository.js';

/**
 * Short-lived login tickets (a pending second step, an OpenID Connect state, a pending binding): the
 * client holds a random value, the database only its sha256, so a leaked table opens nothing.
 */
const hash = (t: string) => createHash('sha256').update(t).digest('hex');

export async function issueTicket(
  k: Kysely<Database>,
  kind: string,
  payload: unknown,
  ttlMs: number,
  now = Date.now(),
): Promise<string> {
  const t = randomBytes(24).toString('base64url');
  await repo.insertTicket(k, hash(t), kind, payload, now + ttlMs);
  return t;
}

export async function readTicket<T>(
  k: Kysely<Database>,
  kind: string,
  ticket: string,
  now = Date.now(),
): Promise<{ id: string; payload: T } | undefined> {
  const row = await repo.findTicket(k, hash(ticket), kind, now);
  return row ? { id: row.id, payload: JSON.parse(row.payload) as T } : undefined;
}
