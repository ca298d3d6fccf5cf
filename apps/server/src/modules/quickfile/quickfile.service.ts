import type { z } from 'zod';
import {
  QUICK_FILE_PUBLIC_CODE,
  SHORTCUTS_DEFAULT,
  QUICK_KEYS,
  SEND_KEYS,
  hasPermission,
  type QuickFileDto,
  type QuickFileScope,
  type QuickFileSendDto,
  type ShortcutsDto,
  type quickFileSaveSchema,
  type shortcutsSaveSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';

type Row = {
  id: string;
  owner: string;
  name: string;
  mime: string;
  filesize: number;
  sortindex: number;
  createtime: number;
};

const present = (r: Row): QuickFileDto => ({
  id: r.id,
  name: r.name,
  scope: r.owner ? 'pri' : 'pub',
  mime: r.mime,
  filesize: Number(r.filesize),
  sortindex: Number(r.sortindex),
  createtime: Number(r.createtime),
});

const ownerOf = (p: Principal, scope: QuickFileScope) => (scope === 'pub' ? '' : p.id);

/** Public quick files are the tenant's: only holders of the canned-reply setup code change them. */
function mayManage(p: Principal, scope: QuickFileScope): void {
  if (scope === 'pub' && !hasPermission(p.usertype, p.auth, QUICK_FILE_PUBLIC_CODE)) throw forbidden();
}

/** The caller's own quick files and the public ones (or one scope), each in its order. */
export async function list(db: Db, p: Principal, scope?: QuickFileScope): Promise<QuickFileDto[]> {
  let q = db.kysely.selectFrom('quick_file').selectAll().where('orgi', '=', p.orgi);
  q = scope ? q.where('owner', '=', ownerOf(p, scope)) : q.where('owner', 'in', [p.id, '']);
  return (await q.orderBy('owner', 'desc').orderBy('sortindex').orderBy('createtime').execute()).map(present);
}

/** Keeps an upload of the caller's (it went through POST /api/upload: typed, checked, counted) as a quick file. */
export async function save(
  db: Db,
  p: Principal,
  input: z.infer<typeof quickFileSaveSchema>,
): Promise<QuickFileDto> {
  mayManage(p, input.scope);
  const k = db.kysely;
  const media = await k.selectFrom('media').selectAll().where('id', '=', input.mediaid).executeTakeFirst();
  if (!media || media.orgi !== p.orgi || media.owner !== p.id || media.owner_kind !== 'agent')
    throw badRequest('invalid_field', { mediaid: 'invalid_field' });
  const owner = ownerOf(p, input.scope);
  const count = await k
    .selectFrom('quick_file')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('orgi', '=', p.orgi)
    .where('owner', '=', owner)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const row = {
    id: newId(),
    orgi: p.orgi,
    owner,
    name: input.name || media.filename,
    mediaid: media.id,
    filesize: Number(media.size),
    mime: media.mime,
    sortindex: Number(count.n),
    creater: p.id,
    createtime: now,
    updatetime: now,
  };
  await k.insertInto('quick_file').values(row).execute();
  return present(row);
}

async function find(db: Db, p: Principal, id: string) {
  const r = await db.kysely
    .selectFrom('quick_file')
    .selectAll()
    .where('orgi', '=', p.orgi)
    .where('id', '=', id)
    .where('owner', 'in', [p.id, ''])
    .executeTakeFirst();
  if (!r) throw notFound();
  return r;
}

/** Removes a quick file (the file stays: sent messages still carry it). */
export async function remove(db: Db, p: Principal, id: string): Promise<void> {
  const r = await find(db, p, id);
  mayManage(p, r.owner ? 'pri' : 'pub');
  await db.kysely.deleteFrom('quick_file').where('id', '=', r.id).execute();
}

/** Puts the given quick files first, in that order (the others keep theirs after them). */
export async function rank(
  db: Db,
  p: Principal,
  scope: QuickFileScope,
  ids: string[],
): Promise<QuickFileDto[]> {
  mayManage(p, scope);
  const owner = ownerOf(p, scope);
  const all = await list(db, p, scope);
  const order = [
    ...ids.filter((id) => all.some((f) => f.id === id)),
    ...all.map((f) => f.id).filter((id) => !ids.includes(id)),
  ];
  await db.kysely.transaction().execute(async (trx) => {
    for (const [i, id] of order.entries())
      await trx
        .updateTable('quick_file')
        .set({ sortindex: i })
        .where('id', '=', id)
        .where('owner', '=', owner)
        .execute();
  });
  return list(db, p, scope);
}

const msgtypeOf = (mime: string, kind: string): QuickFileSendDto['msgtype'] =>
  kind === 'image' ? 'image' : mime.startsWith('video/') ? 'video' : kind === 'voice' ? 'voice' : 'file';

/**
 * Prepares a quick file to be sent: an attachment row of the caller's pointing at the same stored file (a
 * message may only carry its sender's uploads); the console then sends it as a file message.
 */
export async function prepareSend(db: Db, p: Principal, id: string): Promise<QuickFileSendDto> {
  const qf = await find(db, p, id);
  const k = db.kysely;
  const media = await k.selectFrom('media').selectAll().where('id', '=', qf.mediaid).executeTakeFirst();
  if (!media) throw notFound();
  const copy = {
    ...media,
    id: newId(),
    owner: p.id,
    owner_kind: 'agent',
    filename: qf.name,
    createtime: Date.now(),
  };
  await k.insertInto('media').values(copy).execute();
  return {
    attachmentid: copy.id,
    msgtype: msgtypeOf(media.mime, media.kind),
    filename: qf.name,
    filesize: Number(media.size),
  };
}

const SHORTCUTS = 'shortcuts';

export async function shortcuts(db: Db, p: Principal): Promise<ShortcutsDto> {
  const r = await db.kysely
    .selectFrom('user_setting')
    .select('value')
    .where('userid', '=', p.id)
    .where('name', '=', SHORTCUTS)
    .executeTakeFirst();
  const v = (r ? JSON.parse(r.value) : {}) as Partial<ShortcutsDto>;
  return {
    send: (SEND_KEYS as readonly string[]).includes(v.send ?? '')
      ? (v.send as ShortcutsDto['send'])
      : SHORTCUTS_DEFAULT.send,
    quick: (QUICK_KEYS as readonly string[]).includes(v.quick ?? '')
      ? (v.quick as ShortcutsDto['quick'])
      : SHORTCUTS_DEFAULT.quick,
  };
}

export async function saveShortcuts(
  db: Db,
  p: Principal,
  input: z.infer<typeof shortcutsSaveSchema>,
): Promise<ShortcutsDto> {
  const next = {
    ...(await shortcuts(db, p)),
    ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
  };
  const now = Date.now();
  await db.kysely
    .insertInto('user_setting')
    .values({ userid: p.id, orgi: p.orgi, name: SHORTCUTS, value: JSON.stringify(next), updatetime: now })
    .onConflict((oc) =>
      oc.columns(['userid', 'name']).doUpdateSet({ value: JSON.stringify(next), updatetime: now }),
    )
    .execute();
  return next;
}
