import type { z } from 'zod';
import type { TopicDto, topicSaveSchema } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { rethrowUnique } from '../../platform/db/unique.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { subtreeIds as subtree } from '../../platform/tree.js';
import * as repo from './tags.repository.js';
import { presentTopic } from './tags.presenter.js';

const categoryRepeat = () => badRequest('category_name_repeat', { name: 'category_name_repeat' });

/** Every topic of the organisation, flat (the tree is built from parentid). */
export async function list(db: Db, p: Principal): Promise<TopicDto[]> {
  return (await repo.listTopics(db.kysely, p.orgi)).map(presentTopic);
}

/** Creates a topic, or (with `id`) renames / moves one; a topic cannot move below itself. */
export async function save(db: Db, p: Principal, input: z.infer<typeof topicSaveSchema>): Promise<TopicDto> {
  return db.kysely
    .transaction()
    .execute(async (k) => {
      const all = await repo.listTopics(k, p.orgi);
      const cur = input.id ? all.find((t) => t.id === input.id) : undefined;
      if (input.id && !cur) throw notFound();
      let parentid = '';
      if (input.parentid) {
        if (!all.some((t) => t.id === input.parentid))
          throw badRequest('invalid_field', { parentid: 'invalid_field' });
        if (cur && subtree(all, cur.id).includes(input.parentid))
          throw badRequest('category_parent_self', { parentid: 'category_parent_self' });
        parentid = input.parentid;
      }
      const key = { orgi: p.orgi, parentid, name: input.name };
      if (await repo.topicNameTaken(k, key, cur?.id)) throw categoryRepeat();
      const now = Date.now();
      if (cur) {
        const next = { name: input.name, parentid, updatetime: now };
        await k.updateTable('service_topic').set(next).where('id', '=', cur.id).execute();
        return presentTopic({ ...cur, ...next });
      }
      const row: repo.TopicRow = {
        id: newId(),
        orgi: p.orgi,
        name: input.name,
        parentid,
        sortindex: await repo.nextSortIndex(k, 'service_topic', p.orgi),
        creater: p.id,
        createtime: now,
        updatetime: now,
      };
      await k.insertInto('service_topic').values(row).execute();
      return presentTopic(row);
    })
    .catch(rethrowUnique(categoryRepeat));
}

/** Deletes the topic with its subtree; conversations filed under them keep their memo, lose the topic. */
export async function remove(db: Db, p: Principal, id: string): Promise<{ deleted: number }> {
  return db.kysely.transaction().execute(async (k) => {
    const all = await repo.listTopics(k, p.orgi);
    if (!all.some((t) => t.id === id)) throw notFound();
    const ids = subtree(all, id);
    await repo.deleteTopics(k, p.orgi, ids);
    return { deleted: ids.length };
  });
}
