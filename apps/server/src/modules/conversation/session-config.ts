import { DEFAULT_SESSION_CONFIG, type SessionConfigValues } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';

/**
 * Per-tenant conversation settings: the keys and their defaults live in @kefu/protocol (one source for
 * the setup API and the engine). Not cached: every engine step reads the row, so a save
 * (modules/sessionconfig) takes effect at once on every node.
 */
export type SessionConfig = SessionConfigValues;
export { DEFAULT_SESSION_CONFIG };

export async function loadSessionConfig(db: Db, orgi: string): Promise<SessionConfig> {
  const row = await db.kysely
    .selectFrom('session_config')
    .select('config')
    .where('orgi', '=', orgi)
    .executeTakeFirst();
  if (!row) return DEFAULT_SESSION_CONFIG;
  try {
    return { ...DEFAULT_SESSION_CONFIG, ...(JSON.parse(row.config) as Partial<SessionConfig>) };
  } catch {
    return DEFAULT_SESSION_CONFIG;
  }
}

export async function saveSessionConfig(
  db: Db,
  orgi: string,
  patch: Partial<SessionConfig>,
  now: number,
): Promise<SessionConfig> {
  const next = { ...(await loadSessionConfig(db, orgi)), ...patch };
  const config = JSON.stringify(next);
  const updated = await db.kysely
    .updateTable('session_config')
    .set({ config, updatetime: now })
    .where('orgi', '=', orgi)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await db.kysely.insertInto('session_config').values({ orgi, config, updatetime: now }).execute();
  }
  return next;
}

/** Fills {agent}, {num}, {index}. */
export function fillText(text: string, vars: { agent?: string; num?: number }): string {
  return text
    .replaceAll('{agent}', vars.agent ?? '')
    .replaceAll('{num}', String(vars.num ?? 0))
    .replaceAll('{index}', String((vars.num ?? 0) + 1));
}
