import type { z } from 'zod';
import type { Db } from '../../platform/db/database.js';

type Kdb = Db['kysely'];

/**
 * Settings documents in channel_setting: one JSON per (orgi, scope, section). A document is read
 * merged over its default, key by key; a stored key that no longer validates falls back to the default.
 */
export async function loadSection<T extends Record<string, unknown>>(
  k: Kdb,
  orgi: string,
  scope: string,
  section: string,
  schema: z.ZodObject,
  fallback: T,
): Promise<T> {
  const row = await k
    .selectFrom('channel_setting')
    .select('config')
    .where('orgi', '=', orgi)
    .where('scope', '=', scope)
    .where('section', '=', section)
    .executeTakeFirst();
  return mergeValid(row?.config, schema, fallback);
}

export function mergeValid<T extends Record<string, unknown>>(
  json: string | undefined,
  schema: z.ZodObject,
  fallback: T,
): T {
  if (!json) return structuredClone(fallback);
  let stored: Record<string, unknown>;
  try {
    stored = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return structuredClone(fallback);
  }
  const out: Record<string, unknown> = structuredClone(fallback);
  for (const [key, field] of Object.entries(schema.shape)) {
    if (!(key in stored)) continue;
    const r = (field as z.ZodType).safeParse(stored[key]);
    if (r.success) out[key] = r.data;
  }
  return out as T;
}

export async function storeSection(
  k: Kdb,
  orgi: string,
  scope: string,
  section: string,
  config: Record<string, unknown>,
  now: number,
): Promise<void> {
  const json = JSON.stringify(config);
  await k
    .insertInto('channel_setting')
    .values({ orgi, scope, section, config: json, updatetime: now })
    .onConflict((oc) =>
      oc.columns(['orgi', 'scope', 'section']).doUpdateSet({ config: json, updatetime: now }),
    )
    .execute();
}

export async function removeSection(k: Kdb, orgi: string, scope: string, section?: string): Promise<void> {
  let q = k.deleteFrom('channel_setting').where('orgi', '=', orgi).where('scope', '=', scope);
  if (section) q = q.where('section', '=', section);
  await q.execute();
}
