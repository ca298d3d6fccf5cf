import type { z } from 'zod';
import type { skillAgentSaveSchema } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import * as repo from './user.repository.js';

/**
 * POST /api/imAgent/skill/agent/save: the listed users become exactly the group's members. A removed
 * member whose primary department was this group falls back to another membership (or none); an added
 * member without a primary department gets this one.
 */
export async function saveSkillMembers(
  db: Db,
  p: Principal,
  input: z.infer<typeof skillAgentSaveSchema>,
): Promise<void> {
  const userids = [...new Set(input.userids)];
  await db.kysely.transaction().execute(async (k) => {
    if ((await repo.existingIds(k, 'organ', p.orgi, [input.organid])).size === 0) throw notFound();
    if ((await repo.existingIds(k, 'users', p.orgi, userids)).size !== userids.length) {
      throw badRequest('invalid_field', { userids: 'invalid_field' });
    }
    await repo.setOrganMembers(k, p.orgi, input.organid, userids);
    const listed = new Set(userids);
    const now = Date.now();
    // Unlisted users whose primary department was this group (with or without a membership row).
    const stale = (await repo.primaryMembers(k, p.orgi, input.organid)).filter((id) => !listed.has(id));
    const memberships = await repo.organsOf(k, stale);
    for (const id of stale)
      await repo.updateUser(k, id, { organ: memberships.get(id)?.[0] ?? null, updatetime: now });
    for (const id of userids) {
      const u = await repo.findUser(k, p.orgi, id);
      if (u && !u.organ) await repo.updateUser(k, id, { organ: input.organid, updatetime: now });
    }
  });
}
