import type { z } from 'zod';
import type { roleAuthSaveSchema, roleSaveSchema, roleUpdateSchema } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { invalidateAllPrincipals } from '../../platform/auth/cache.js';
import { uniqueViolationColumns } from '../../platform/db/unique.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import * as repo from './role.repository.js';
import { presentRole, type RoleDto } from './role.presenter.js';
import { assertKeepsRoleAdmin, assertMayGrant } from './self-guard.js';

type Kdb = Db['kysely'];

export async function list(db: Db, p: Principal): Promise<RoleDto[]> {
  const [roles, counts] = await Promise.all([
    repo.listRoles(db.kysely, p.orgi),
    repo.userCounts(db.kysely, p.orgi),
  ]);
  return roles.map((r) => presentRole(r, counts.get(r.id) ?? 0));
}

async function checkName(k: Kdb, orgi: string, name: string, exceptId?: string): Promise<void> {
  if (await repo.nameTaken(k, orgi, name, exceptId)) throw badRequest('name_repeat', { name: 'name_repeat' });
}

function mapUnique(err: unknown): never {
  if (uniqueViolationColumns(err)) throw badRequest('name_repeat', { name: 'name_repeat' });
  throw err;
}

async function mustFind(k: Kdb, orgi: string, id: string): Promise<repo.RoleRow> {
  const role = await repo.findRole(k, orgi, id);
  if (!role) throw notFound();
  return role;
}

export async function save(db: Db, p: Principal, input: z.infer<typeof roleSaveSchema>): Promise<RoleDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      await checkName(k, p.orgi, input.name);
      const now = Date.now();
      const row = {
        id: newId(),
        orgi: p.orgi,
        name: input.name,
        description: input.description ?? '',
        createtime: now,
        updatetime: now,
      };
      await repo.insertRole(k, row);
      return presentRole(row, 0);
    })
    .catch(mapUnique);
}

export async function update(
  db: Db,
  p: Principal,
  input: z.infer<typeof roleUpdateSchema>,
): Promise<RoleDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const cur = await mustFind(k, p.orgi, input.id);
      await checkName(k, p.orgi, input.name, cur.id);
      const set = {
        name: input.name,
        description: input.description === undefined ? cur.description : (input.description ?? ''),
        updatetime: Date.now(),
      };
      await repo.updateRole(k, cur.id, set);
      return presentRole({ ...cur, ...set }, (await repo.userCounts(k, p.orgi)).get(cur.id) ?? 0);
    })
    .catch(mapUnique);
}

export async function remove(db: Db, p: Principal, id: string): Promise<void> {
  await db.kysely.transaction().execute(async (k) => {
    await mustFind(k, p.orgi, id);
    await assertKeepsRoleAdmin(k, p.id, { drop: id });
    if (await repo.hasUsers(k, id)) throw badRequest('role_has_users');
    await repo.deleteRole(k, id);
  });
  invalidateAllPrincipals(db);
}

export async function codes(db: Db, p: Principal, id: string): Promise<string[]> {
  await mustFind(db.kysely, p.orgi, id);
  return repo.roleCodes(db.kysely, id);
}

export async function saveCodes(
  db: Db,
  p: Principal,
  input: z.infer<typeof roleAuthSaveSchema>,
): Promise<void> {
  const unique = [...new Set(input.codes)];
  await db.kysely.transaction().execute(async (k) => {
    await mustFind(k, p.orgi, input.id);
    const held = new Set(await repo.roleCodes(k, input.id));
    assertMayGrant(
      p,
      unique.filter((c) => !held.has(c)),
    );
    await assertKeepsRoleAdmin(k, p.id, { replace: { roleid: input.id, codes: unique } });
    await repo.setRoleCodes(k, p.orgi, input.id, unique);
  });
  // Every holder of the role sees the new rights on their next request, on every node.
  invalidateAllPrincipals(db);
}
