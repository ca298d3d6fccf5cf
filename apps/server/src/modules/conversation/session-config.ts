import { DEFAULT_SESSION_CONFIG, type SessionConfigValues } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { runFixed, type Sql } from './hot-sql.js';

/**
 * Per-tenant conversation settings: the keys and their defaults live in @kefu/protocol (one source for
 * the setup API and the engine). Not cached: every engine step reads the row, so a save
 * (modules/sessionconfig) takes effect at once on every node.
 */
export type SessionConfig = SessionConfigValues;
export { DEFAULT_SESSION_CONFIG };

export const loadSessionConfig = (db: Db, orgi: string): Promise<SessionConfig> =>
  sessionConfigOn(db.kysely, orgi);

/** loadSessionConfig on a given connection (see hot-sql withConnection). */
export async function sessionConfigOn(k: Sql, orgi: string): Promise<SessionConfig> {
  const row = (await runFixed<{ config: string }>(k, CONFIG, [orgi])).rows[0];
  if (!row) return DEFAULT_SESSION_CONFIG;
  return parsed(row.config);
}
const CONFIG = 'select config from session_config where orgi = ?';

/*
 * The row is read every time (a save on any node counts at once); only the parse of an unchanged text is
 * reused. Callers get a shared object and must not change it (they spread it to derive a new one).
 */
const parsedTexts = new Map<string, SessionConfig>();
const PARSED_MAX = 100;

function parsed(text: string): SessionConfig {
  const hit = parsedTexts.get(text);
  if (hit) return hit;
  let cfg: SessionConfig;
  try {
    cfg = Object.freeze({ ...DEFAULT_SESSION_CONFIG, ...(JSON.parse(text) as Partial<SessionConfig>) });
  } catch {
    cfg = DEFAULT_SESSION_CONFIG;
  }
  if (parsedTexts.size >= PARSED_MAX) parsedTexts.delete(parsedTexts.keys().next().value as string);
  parsedTexts.set(text, cfg);
  return cfg;
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
