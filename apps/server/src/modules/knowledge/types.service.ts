import type { z } from 'zod';
import type { KbTypeDto, kbTypeSaveSchema, kbTypeUpdateSchema } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { Db } from '../../platform/db/database.js';
import { rethrowUnique } from '../../platform/db/unique.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { subtreeIds } from '../../platform/tree.js';
import * as repo from './kb.repository.js';
import { presentType } from './kb.presenter.js';

type Kdb = Db['kysely'];
const nameRepeat = () => badRequest('category_name_repeat', { name: 'category_name_repeat' });

/** Every type of the tenant, flat (the tree is built from parentid), with its item count. */
export async function list(db: Db, p: Principal): Promise<KbTypeDto[]> {
  const [types, counts] = await Promise.all([
    repo.listTypes(db.kysely, p.orgi),
    repo.itemCountsByType(db.kysely, p.orgi),
  ]);
  return types.map((t) => presentType(t, counts.get(t.id) ?? 0));
}

/** The types and their subtypes (a robot answering "type A" answers from A's subtypes too). */
export async function withSubtypes(k: Kdb, orgi: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const all = await repo.listTypes(k, orgi);
  return [...new Set(ids.flatMap((id) => (all.some((t) => t.id === id) ? subtreeIds(all, id) : [])))];
}

async function checkParent(k: Kdb, orgi: string, parentid: string | null | undefined, self?: string) {
  if (!parentid) return '';
  const all = await repo.listTypes(k, orgi);
  if (!all.some((t) => t.id === parentid)) throw badRequest('invalid_field', { parentid: 'invalid_field' });
  if (self && subtreeIds(all, self).includes(parentid))
    throw badRequest('category_parent_self', { parentid: 'category_parent_self' });
  return parentid;
}

const nameTaken = async (k: Kdb, orgi: string, parentid: string, name: string, except?: string) => {
  let q = k
    .selectFrom('kb_type')
    .select('id')
    .where('orgi', '=', orgi)
    .where('parentid', '=', parentid)
    .where('name', '=', name);
  if (except) q = q.where('id', '!=', except);
  return (await q.executeTakeFirst()) !== undefined;
};

export async function save(
  db: Db,
  p: Principal,
  input: z.infer<typeof kbTypeSaveSchema>,
): Promise<KbTypeDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const parentid = await checkParent(k, p.orgi, input.parentid);
      if (await nameTaken(k, p.orgi, parentid, input.name)) throw nameRepeat();
      const now = Date.now();
      const row = {
        id: newId(),
        orgi: p.orgi,
        name: input.name,
        parentid,
        sortindex: await repo.nextTypeSort(k, p.orgi),
        createtime: now,
        updatetime: now,
      };
      await k.insertInto('kb_type').values(row).execute();
      return presentType(row, 0);
    })
    .catch(rethrowUnique(nameRepeat));
}

export async function update(
  db: Db,
  p: Principal,
  input: z.infer<typeof kbTypeUpdateSchema>,
): Promise<KbTypeDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const cur = (await repo.listTypes(k, p.orgi)).find((t) => t.id === input.id);
      if (!cur) throw notFound();
      const parentid = await checkParent(k, p.orgi, input.parentid, cur.id);
      if (await nameTaken(k, p.orgi, parentid, input.name, cur.id)) throw nameRepeat();
      const next = { name: input.name, parentid, updatetime: Date.now() };
      await k.updateTable('kb_type').set(next).where('id', '=', cur.id).execute();
      return presentType({ ...cur, ...next }, (await repo.itemCountsByType(k, p.orgi)).get(cur.id) ?? 0);
    })
    .catch(rethrowUnique(nameRepeat));
}

/** Deletes an empty type (no subtypes, no items): items are never deleted by removing a folder. */
export async function remove(db: Db, p: Principal, id: string): Promise<null> {
  return db.kysely.transaction().execute(async (k) => {
    const all = await repo.listTypes(k, p.orgi);
    if (!all.some((t) => t.id === id)) throw notFound();
    if (all.some((t) => t.parentid === id) || ((await repo.itemCountsByType(k, p.orgi)).get(id) ?? 0) > 0)
      throw badRequest('kb_type_not_empty');
    await k.deleteFrom('kb_type').where('id', '=', id).execute();
    return null;
  });
}
