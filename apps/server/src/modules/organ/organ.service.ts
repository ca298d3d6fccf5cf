import type { z } from 'zod';
import type { organSaveSchema, organUpdateSchema } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { foundOr404 } from '../../platform/db/rows.js';
import { nameRepeat, rethrowUnique } from '../../platform/db/unique.js';
import { badRequest } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import * as repo from './organ.repository.js';
import { presentOrgan, type OrganDto } from './organ.presenter.js';

type Kdb = Db['kysely'];

export async function list(db: Db, p: Principal): Promise<OrganDto[]> {
  const [organs, members] = await Promise.all([
    repo.listOrgans(db.kysely, p.orgi),
    repo.membersByOrgan(db.kysely, p.orgi),
  ]);
  return organs.map((o) => presentOrgan(o, members.get(o.id)?.size ?? 0));
}

/**
 * The parent must exist in the same organisation, and must not be the department itself or one of its
 * descendants (that would cut the subtree off the tree).
 */
async function checkParent(k: Kdb, orgi: string, id: string | null, parentid: string | null): Promise<void> {
  if (!parentid) return;
  if (parentid === id) throw badRequest('category_parent_self', { parentid: 'category_parent_self' });
  const organs = await repo.listOrgans(k, orgi);
  const byId = new Map(organs.map((o) => [o.id, o]));
  if (!byId.has(parentid)) throw badRequest('organ_parent_invalid', { parentid: 'organ_parent_invalid' });
  const seen = new Set<string>();
  for (let cur: string | null = parentid; cur; cur = byId.get(cur)?.parentid ?? null) {
    if (cur === id) throw badRequest('category_parent_self', { parentid: 'category_parent_self' });
    if (seen.has(cur)) break; // a cycle already stored (should not exist) must not hang the request
    seen.add(cur);
  }
}

async function checkName(k: Kdb, orgi: string, name: string, exceptId?: string): Promise<void> {
  if (await repo.nameTaken(k, orgi, name, exceptId)) throw nameRepeat();
}

/** A concurrent insert that slipped past checkName hits the unique index: same answer. */
const mapUnique = rethrowUnique(nameRepeat);

export async function save(db: Db, p: Principal, input: z.infer<typeof organSaveSchema>): Promise<OrganDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const parentid = input.parentid ?? null;
      await checkName(k, p.orgi, input.name);
      await checkParent(k, p.orgi, null, parentid);
      const now = Date.now();
      const row: repo.OrganRow = {
        id: newId(),
        orgi: p.orgi,
        name: input.name,
        parentid,
        skill: input.skill ? 1 : 0,
        sortindex: await repo.nextSortindex(k, p.orgi),
        createtime: now,
        updatetime: now,
      };
      await repo.insertOrgan(k, row);
      return presentOrgan(row, 0);
    })
    .catch(mapUnique);
}

export async function update(
  db: Db,
  p: Principal,
  input: z.infer<typeof organUpdateSchema>,
): Promise<OrganDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const cur = foundOr404(await repo.findOrgan(k, p.orgi, input.id));
      // An absent parentid keeps the current parent; '' or null moves the department to the top.
      const parentid = input.parentid === undefined ? cur.parentid : input.parentid;
      await checkName(k, p.orgi, input.name, cur.id);
      await checkParent(k, p.orgi, cur.id, parentid);
      const set = {
        name: input.name,
        parentid,
        skill: input.skill === undefined ? cur.skill : input.skill ? 1 : 0,
        updatetime: Date.now(),
      };
      await repo.updateOrgan(k, cur.id, set);
      const members = await repo.membersByOrgan(k, p.orgi);
      return presentOrgan({ ...cur, ...set }, members.get(cur.id)?.size ?? 0);
    })
    .catch(mapUnique);
}

export async function remove(db: Db, p: Principal, id: string): Promise<void> {
  await db.kysely.transaction().execute(async (k) => {
    foundOr404(await repo.findOrgan(k, p.orgi, id));
    if (await repo.hasUsers(k, id)) throw badRequest('organ_has_users');
    if (await repo.hasChildren(k, p.orgi, id)) throw badRequest('organ_has_children');
    await repo.deleteOrgan(k, id);
  });
}
