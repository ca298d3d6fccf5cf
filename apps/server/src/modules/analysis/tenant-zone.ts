import type { Db } from '../../platform/db/database.js';
import { validZone } from './zone.js';

export const DEFAULT_TIMEZONE = 'Asia/Shanghai';
const TTL_MS = 60_000;
const cache = new WeakMap<Db, Map<string, { tz: string; at: number }>>();

/**
 * The tenant's time zone (organization.timezone), cached a minute. Statistics count days in it; a change
 * takes effect for new facts at once and for stored ones after `npm run analysis:rebuild`.
 */
export async function tenantZone(db: Db, orgi: string): Promise<string> {
  let m = cache.get(db);
  if (!m) cache.set(db, (m = new Map()));
  const hit = m.get(orgi);
  const now = Date.now();
  if (hit && now - hit.at < TTL_MS) return hit.tz;
  const row = await db.kysely
    .selectFrom('organization')
    .select('timezone')
    .where('id', '=', orgi)
    .executeTakeFirst();
  const tz = row?.timezone && validZone(row.timezone) ? row.timezone : DEFAULT_TIMEZONE;
  m.set(orgi, { tz, at: now });
  return tz;
}

/** Forgets the cached zones (after a change of organization.timezone). */
export const forgetZones = (db: Db): void => void cache.delete(db);
