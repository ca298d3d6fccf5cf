import type { z } from 'zod';
import { SESSION_CONFIG_SECTIONS, type SessionConfigDto, type SessionConfigSection } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { loadSessionConfig, saveSessionConfig, type SessionConfig } from '../conversation/session-config.js';
import { presentSessionConfig } from './sessionconfig.presenter.js';

/**
 * The tenant's session config as the setup screens and the console see it. No cache here or in the
 * engine (loadSessionConfig reads the row each time), so a save is live at once on every node.
 */
export async function get(db: Db, orgi: string): Promise<SessionConfigDto> {
  const cfg = await loadSessionConfig(db, orgi);
  const row = await db.kysely
    .selectFrom('session_config')
    .select('updatetime')
    .where('orgi', '=', orgi)
    .executeTakeFirst();
  return presentSessionConfig(orgi, cfg, row ? Number(row.updatetime) : null);
}

type SectionInput<S extends SessionConfigSection> = z.infer<(typeof SESSION_CONFIG_SECTIONS)[S]>;

/**
 * Saves one section: only that section's keys that were sent (the schema already dropped the others),
 * merged into the stored document in one write.
 */
export async function saveSection<S extends SessionConfigSection>(
  db: Db,
  orgi: string,
  section: S,
  input: SectionInput<S>,
): Promise<SessionConfigDto> {
  const allowed = Object.keys(SESSION_CONFIG_SECTIONS[section].shape);
  const patch: Partial<SessionConfig> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value !== undefined && allowed.includes(key)) Object.assign(patch, { [key]: value });
  }
  if (Object.keys(patch).length > 0) await saveSessionConfig(db, orgi, patch, Date.now());
  return get(db, orgi);
}
