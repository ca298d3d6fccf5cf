import type { z } from 'zod';
import {
  hasPermission,
  type QuickReplyDto,
  type QuickScope,
  type QuickTypeDto,
  type quickRankSchema,
  type quickReplyListSchema,
  type quickReplySaveSchema,
  type quickReplyUpdateSchema,
  type quickTypeListSchema,
  type quickTypeSaveSchema,
  type quickTypeUpdateSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { nameRepeat, rethrowUnique } from '../../platform/db/unique.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import * as repo from './quickreply.repository.js';
import { presentReply, presentType } from './quickreply.presenter.js';

type Kdb = Db['kysely'];

/** Public quick replies and types are managed with this code; personal ones by their owner (A01). */
export const QUICKREPLY_ADMIN_CODE = 'A09_A03_A09';

const ownerFor = (p: Principal, scope: QuickScope) => (scope === 'pri' ? p.id : '');

/** Someone else's personal row is invisible (404); a public one needs the admin code (403). */
function assertManage(p: Principal, row: { owner: string }): void {
  if (row.owner === '') {
    if (!hasPermission(p.usertype, p.auth, QUICKREPLY_ADMIN_CODE)) throw forbidden();
  } else if (row.owner !== p.id) throw notFound();
}
const visible = (p: Principal, row: { owner: string }) => row.owner === '' || row.owner === p.id;

const categoryRepeat = () => badRequest('category_name_repeat', { name: 'category_name_repeat' });
const titleRepeat = () => nameRepeat('title');

// ---- types

export async function types(
  db: Db,
  p: Principal,
  f: z.infer<typeof quickTypeListSchema>,
): Promise<QuickTypeDto[]> {
  return (await repo.listTypes(db.kysely, p.orgi, p.id, f.type)).map(presentType);
}

/** A parent of the same owner, or none. */
async function parentOf(k: Kdb, p: Principal, owner: string, parentid: string | null | undefined) {
  if (!parentid) return '';
  const parent = await repo.findType(k, p.orgi, parentid);
  if (!parent || parent.owner !== owner) throw badRequest('invalid_field', { parentid: 'invalid_field' });
  return parent.id;
}

export async function typeSave(
  db: Db,
  p: Principal,
  input: z.infer<typeof quickTypeSaveSchema>,
): Promise<QuickTypeDto> {
  const owner = ownerFor(p, input.type);
  assertManage(p, { owner });
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const parentid = await parentOf(k, p, owner, input.parentid);
      if (await repo.typeNameTaken(k, { orgi: p.orgi, owner, parentid, name: input.name })) {
        throw categoryRepeat();
      }
      const now = Date.now();
      const row: repo.QuickTypeRow = {
        id: newId(),
        orgi: p.orgi,
        name: input.name,
        parentid,
        type: input.type,
        owner,
        creater: p.id,
        sortindex: await repo.nextIndex(k, 'quick_type', p.orgi),
        createtime: now,
        updatetime: now,
      };
      await k.insertInto('quick_type').values(row).execute();
      return presentType(row);
    })
    .catch(rethrowUnique(categoryRepeat));
}

export async function typeUpdate(
  db: Db,
  p: Principal,
  input: z.infer<typeof quickTypeUpdateSchema>,
): Promise<QuickTypeDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const cur = await repo.findType(k, p.orgi, input.id);
      if (!cur || !visible(p, cur)) throw notFound();
      assertManage(p, cur);
      if (input.parentid) {
        const below = await repo.subtreeIds(k, p.orgi, cur.owner, cur.id);
        if (below.includes(input.parentid)) {
          throw badRequest('category_parent_self', { parentid: 'category_parent_self' });
        }
      }
      const parentid = await parentOf(k, p, cur.owner, input.parentid);
      const key = { orgi: p.orgi, owner: cur.owner, parentid, name: input.name };
      if (await repo.typeNameTaken(k, key, cur.id)) throw categoryRepeat();
      const next = { name: input.name, parentid, updatetime: Date.now() };
      await k.updateTable('quick_type').set(next).where('id', '=', cur.id).execute();
      return presentType({ ...cur, ...next });
    })
    .catch(rethrowUnique(categoryRepeat));
}

/** Removes the type, the types below it and every reply filed under them. */
export async function typeRemove(
  db: Db,
  p: Principal,
  id: string,
): Promise<{ types: number; replies: number }> {
  return db.kysely.transaction().execute(async (k) => {
    const cur = await repo.findType(k, p.orgi, id);
    if (!cur || !visible(p, cur)) throw notFound();
    assertManage(p, cur);
    const ids = await repo.subtreeIds(k, p.orgi, cur.owner, cur.id);
    const r = await k
      .deleteFrom('quick_reply')
      .where('orgi', '=', p.orgi)
      .where('owner', '=', cur.owner)
      .where('cate', 'in', ids)
      .executeTakeFirst();
    await k.deleteFrom('quick_type').where('orgi', '=', p.orgi).where('id', 'in', ids).execute();
    return { types: ids.length, replies: Number(r.numDeletedRows) };
  });
}

// ---- replies

export async function replies(
  db: Db,
  p: Principal,
  f: z.infer<typeof quickReplyListSchema>,
): Promise<QuickReplyDto[]> {
  return (await repo.listReplies(db.kysely, p.orgi, p.id, f)).map(presentReply);
}

/** The reply's type: one of the same owner, or none (''). */
async function cateOf(k: Kdb, p: Principal, owner: string, cate: string | null | undefined) {
  if (!cate) return '';
  const t = await repo.findType(k, p.orgi, cate);
  if (!t || t.owner !== owner) throw badRequest('invalid_field', { cate: 'invalid_field' });
  return t.id;
}

export async function replySave(
  db: Db,
  p: Principal,
  input: z.infer<typeof quickReplySaveSchema>,
): Promise<QuickReplyDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      // Filed under a type: the reply takes the type's scope.
      let scope: QuickScope = input.type;
      if (input.cate) {
        const t = await repo.findType(k, p.orgi, input.cate);
        if (t && visible(p, t)) scope = t.type as QuickScope;
      }
      const owner = ownerFor(p, scope);
      assertManage(p, { owner });
      const cate = await cateOf(k, p, owner, input.cate);
      if (await repo.replyTitleTaken(k, { orgi: p.orgi, owner, cate, title: input.title }))
        throw titleRepeat();
      const now = Date.now();
      const row: repo.QuickReplyRow = {
        id: newId(),
        orgi: p.orgi,
        title: input.title,
        content: input.content,
        cate,
        type: scope,
        owner,
        creater: p.id,
        sortindex: await repo.nextIndex(k, 'quick_reply', p.orgi),
        createtime: now,
        updatetime: now,
      };
      await k.insertInto('quick_reply').values(row).execute();
      return presentReply(row);
    })
    .catch(rethrowUnique(titleRepeat));
}

export async function replyUpdate(
  db: Db,
  p: Principal,
  input: z.infer<typeof quickReplyUpdateSchema>,
): Promise<QuickReplyDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const cur = await repo.findReply(k, p.orgi, input.id);
      if (!cur || !visible(p, cur)) throw notFound();
      assertManage(p, cur);
      const cate = input.cate === undefined ? cur.cate : await cateOf(k, p, cur.owner, input.cate);
      const key = { orgi: p.orgi, owner: cur.owner, cate, title: input.title };
      if (await repo.replyTitleTaken(k, key, cur.id)) throw titleRepeat();
      const next = { title: input.title, content: input.content, cate, updatetime: Date.now() };
      await k.updateTable('quick_reply').set(next).where('id', '=', cur.id).execute();
      return presentReply({ ...cur, ...next });
    })
    .catch(rethrowUnique(titleRepeat));
}

/** Deletes the given replies, all or none: one that is missing or not the caller's to manage stops it. */
export async function replyRemove(db: Db, p: Principal, ids: string[]): Promise<number> {
  const unique = [...new Set(ids)];
  return db.kysely.transaction().execute(async (k) => {
    const rows = await repo.findReplies(k, p.orgi, unique);
    if (rows.length !== unique.length || rows.some((r) => !visible(p, r))) throw notFound();
    rows.forEach((r) => assertManage(p, r));
    await k.deleteFrom('quick_reply').where('orgi', '=', p.orgi).where('id', 'in', unique).execute();
    return rows.length;
  });
}

/**
 * New order of the given replies: they swap among the positions they already hold (sorted), in the
 * order sent, so other rows (someone else's, or public ones the caller may not manage) never move.
 */
export async function rank(
  db: Db,
  p: Principal,
  input: z.infer<typeof quickRankSchema>,
): Promise<QuickReplyDto[]> {
  const ids = [...new Set(input.ids)];
  return db.kysely.transaction().execute(async (k) => {
    const rows = await repo.findReplies(k, p.orgi, ids);
    if (rows.length !== ids.length || rows.some((r) => !visible(p, r))) {
      throw badRequest('invalid_field', { ids: 'invalid_field' });
    }
    rows.forEach((r) => assertManage(p, r));
    const slots = rows.map((r) => Number(r.sortindex)).sort((a, b) => a - b);
    // Equal positions (never saved in order) are spread out so the new order sticks.
    for (let i = 1; i < slots.length; i++) if (slots[i]! <= slots[i - 1]!) slots[i] = slots[i - 1]! + 1;
    for (const [i, id] of ids.entries()) {
      await k.updateTable('quick_reply').set({ sortindex: slots[i]! }).where('id', '=', id).execute();
    }
    return (await repo.listReplies(k, p.orgi, p.id, {})).map(presentReply);
  });
}
