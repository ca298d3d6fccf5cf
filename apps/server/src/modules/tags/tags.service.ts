import type { z } from 'zod';
import {
  TAG_COLORS,
  type TagDto,
  type TagType,
  type Page,
  type tagPageQuery,
  type tagSaveSchema,
  type tagUpdateSchema,
} from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { nameRepeat, rethrowUnique } from '../../platform/db/unique.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { offsetOf, pageOf, type Paging } from '../../platform/http/paging.js';
import { newId } from '../../platform/ids.js';
import * as repo from './tags.repository.js';
import { presentTag } from './tags.presenter.js';

type Kdb = Db['kysely'];

export async function list(db: Db, p: Principal, tagtype?: TagType): Promise<TagDto[]> {
  return (await repo.listTags(db.kysely, p.orgi, tagtype)).map((t) => presentTag(t));
}

/** The setup list: a page, with how many conversations / contacts carry each tag. */
export async function page(
  db: Db,
  p: Principal,
  f: z.infer<typeof tagPageQuery>,
  pg: Paging,
): Promise<Page<TagDto>> {
  const k = db.kysely;
  let all = await repo.listTags(k, p.orgi, f.tagtype);
  if (f.q) {
    const q = f.q.toLowerCase();
    all = all.filter((t) => t.name.toLowerCase().includes(q));
  }
  const rows = all.slice(offsetOf(pg), offsetOf(pg) + pg.ps);
  const times = await repo.usage(k, rows);
  return pageOf(
    rows.map((t) => presentTag(t, times.get(t.id) ?? 0)),
    all.length,
    pg,
  );
}

export async function save(db: Db, p: Principal, input: z.infer<typeof tagSaveSchema>): Promise<TagDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      if (await repo.tagNameTaken(k, { orgi: p.orgi, tagtype: input.tagtype, name: input.name }))
        throw nameRepeat();
      const now = Date.now();
      const sortindex = await repo.nextSortIndex(k, 'tag', p.orgi);
      const row: repo.TagRow = {
        id: newId(),
        orgi: p.orgi,
        name: input.name,
        // Without a colour a tag takes the next preset, so neighbours differ.
        color: input.color ?? TAG_COLORS[sortindex % TAG_COLORS.length]!,
        tagtype: input.tagtype,
        sortindex,
        creater: p.id,
        createtime: now,
        updatetime: now,
      };
      await k.insertInto('tag').values(row).execute();
      return presentTag(row, 0);
    })
    .catch(rethrowUnique(() => nameRepeat()));
}

export async function update(db: Db, p: Principal, input: z.infer<typeof tagUpdateSchema>): Promise<TagDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const cur = await repo.findTag(k, p.orgi, input.id);
      if (!cur) throw notFound();
      const name = input.name ?? cur.name;
      if (await repo.tagNameTaken(k, { orgi: p.orgi, tagtype: cur.tagtype, name }, cur.id))
        throw nameRepeat();
      const next = { name, color: input.color ?? cur.color, updatetime: Date.now() };
      await k.updateTable('tag').set(next).where('id', '=', cur.id).execute();
      const row = { ...cur, ...next };
      return presentTag(row, (await repo.usage(k, [row])).get(row.id) ?? 0);
    })
    .catch(rethrowUnique(() => nameRepeat()));
}

/** Deletes the tag and takes it off every conversation or contact. */
export async function remove(db: Db, p: Principal, id: string): Promise<null> {
  await db.kysely.transaction().execute(async (k) => {
    const cur = await repo.findTag(k, p.orgi, id);
    if (!cur) throw notFound();
    await repo.deleteTag(k, cur);
  });
  return null;
}

/**
 * The tags of `ids` that exist in the organisation with type `tagtype`; anything else is refused with
 * `invalid_field` on `field` (an unknown id, or a contact tag put on a conversation).
 */
export async function checkedTags(
  k: Kdb,
  orgi: string,
  tagtype: TagType,
  ids: readonly string[],
  field = 'tags',
): Promise<repo.TagRow[]> {
  const unique = [...new Set(ids)];
  const rows = await repo.tagsByIds(k, orgi, unique);
  if (rows.length !== unique.length || rows.some((t) => t.tagtype !== tagtype))
    throw badRequest('invalid_field', { [field]: 'invalid_field' });
  return rows;
}
