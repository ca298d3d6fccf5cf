import type { z } from 'zod';
import type { SkillPolicyDto, skillSaveSchema } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { notFound } from '../../platform/http/errors.js';
import { loadSessionConfig, saveSessionConfig } from '../conversation/session-config.js';
import { presentPolicy } from './skill-policy.js';

async function skillGroup(db: Db, p: Principal, organid: string): Promise<void> {
  const o = await db.kysely
    .selectFrom('organ')
    .select('id')
    .where('orgi', '=', p.orgi)
    .where('id', '=', organid)
    .executeTakeFirst();
  if (!o) throw notFound();
}

export async function policy(db: Db, p: Principal, organid: string): Promise<SkillPolicyDto> {
  await skillGroup(db, p, organid);
  return presentPolicy(await loadSessionConfig(db, p.orgi), organid);
}

/** Sets (or, all 'inherit', removes) the group's own policy; live at once on every node (see routingOf). */
export async function save(
  db: Db,
  p: Principal,
  input: z.infer<typeof skillSaveSchema>,
): Promise<SkillPolicyDto> {
  await skillGroup(db, p, input.organid);
  const cfg = await loadSessionConfig(db, p.orgi);
  const { [input.organid]: _old, ...others } = cfg.skillpolicy ?? {};
  const own = {
    ...(input.distribution !== 'inherit' ? { distribution: input.distribution } : {}),
    ...(input.lastagent !== 'inherit' ? { lastagent: input.lastagent === 'on' } : {}),
  };
  const skillpolicy = Object.keys(own).length ? { ...others, [input.organid]: own } : others;
  return presentPolicy(await saveSessionConfig(db, p.orgi, { skillpolicy }, Date.now()), input.organid);
}
