import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { ServiceTopicTable, TagTable } from '../../platform/db/schema-contacts.js';
import { taken } from '../../platform/db/unique.js';

type Kdb = Db['kysely'];
export type TagRow = Selectable<TagTable>;
export type TopicRow = Selectable<ServiceTopicTable>;

/** The relation table of each tag type: conversations carry `summary` tags, contacts `user` tags. */
const RELATION = { summary: 'agent_service_tag', user: 'contact_tag' } as const;
const relationOf = (tagtype: string) => (tagtype === 'user' ? RELATION.user : RELATION.summary);

export const listTags = (k: Kdb, orgi: string, tagtype?: string) => {
  let q = k.selectFrom('tag').selectAll().where('orgi', '=', orgi);
  if (tagtype) q = q.where('tagtype', '=', tagtype);
  return q.orderBy('tagtype').orderBy('sortindex').orderBy('createtime').execute();
};

export const findTag = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('tag').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export const tagsByIds = (k: Kdb, orgi: string, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([] as TagRow[])
    : k.selectFrom('tag').selectAll().where('orgi', '=', orgi).where('id', 'in', ids).execute();

/** Tag names are unique per organisation and type. */
export const tagNameTaken = (k: Kdb, t: { orgi: string; tagtype: string; name: string }, exceptId?: string) =>
  taken(k, 'tag', t, exceptId);

export { nextSortIndex } from '../../platform/db/rows.js';

/** How many conversations (summary tags) or contacts (user tags) carry each of the tags. */
export async function usage(k: Kdb, tags: readonly TagRow[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const tagtype of ['summary', 'user'] as const) {
    const ids = tags.filter((t) => relationOf(t.tagtype) === RELATION[tagtype]).map((t) => t.id);
    if (ids.length === 0) continue;
    const rows = await k
      .selectFrom(RELATION[tagtype])
      .select(['tagid', (eb) => eb.fn.countAll<number>().as('n')])
      .where('tagid', 'in', ids)
      .groupBy('tagid')
      .execute();
    for (const r of rows) out.set(r.tagid, Number(r.n));
  }
  return out;
}

/** The tag and every relation to it. */
export async function deleteTag(k: Kdb, tag: TagRow): Promise<void> {
  await k.deleteFrom(relationOf(tag.tagtype)).where('tagid', '=', tag.id).execute();
  await k.deleteFrom('tag').where('id', '=', tag.id).execute();
}

/** Tag ids on a conversation. */
export const conversationTagIds = async (k: Kdb, agentserviceid: string): Promise<string[]> =>
  (
    await k
      .selectFrom('agent_service_tag')
      .select('tagid')
      .where('agentserviceid', '=', agentserviceid)
      .orderBy('createtime')
      .execute()
  ).map((r) => r.tagid);

// ---- service topics

export const listTopics = (k: Kdb, orgi: string) =>
  k
    .selectFrom('service_topic')
    .selectAll()
    .where('orgi', '=', orgi)
    .orderBy('sortindex')
    .orderBy('createtime')
    .execute();

export const findTopic = (k: Kdb, orgi: string, id: string) =>
  k.selectFrom('service_topic').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

/** Topic names are unique among siblings. */
export const topicNameTaken = (
  k: Kdb,
  t: { orgi: string; parentid: string; name: string },
  exceptId?: string,
) => taken(k, 'service_topic', t, exceptId);

/** Removes topics and clears them from the conversations that named them (their memo stays). */
export async function deleteTopics(k: Kdb, orgi: string, ids: readonly string[]): Promise<void> {
  await k.updateTable('agent_service').set({ topicid: null }).where('topicid', 'in', ids).execute();
  await k.deleteFrom('service_topic').where('orgi', '=', orgi).where('id', 'in', ids).execute();
}
