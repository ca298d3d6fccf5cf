import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { MediaTable } from '../../platform/db/schema-conversations.js';
import type { Database } from '../../platform/db/schema.js';

type Kdb = Db['kysely'];
export type MediaRow = Selectable<MediaTable>;

export const findMedia = (k: Kdb, id: string): Promise<MediaRow | undefined> =>
  k.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertMedia(k: Kdb, row: Insertable<MediaTable>): Promise<void> {
  await k.insertInto('media').values(row).execute();
}

/**
 * Adds `bytes` to the tenant's stored total unless that would pass `cap`: one conditional UPDATE, so
 * uploads racing on several nodes never take the total over the cap together.
 */
export async function reserveBytes(k: Kdb, orgi: string, bytes: number, cap: number): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const r = await k
      .updateTable('media_usage')
      .set((eb) => ({ bytes: eb('bytes', '+', bytes) }))
      .where('orgi', '=', orgi)
      .where((eb) => eb(eb('bytes', '+', bytes), '<=', cap))
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 1) return true;
    const row = await k.selectFrom('media_usage').select('bytes').where('orgi', '=', orgi).executeTakeFirst();
    if (row) return false;
    await k
      .insertInto('media_usage')
      .values({ orgi, bytes: 0 })
      .onConflict((oc) => oc.column('orgi').doNothing())
      .execute();
  }
  return false;
}

export async function releaseBytes(k: Kdb, orgi: string, bytes: number): Promise<void> {
  await k
    .updateTable('media_usage')
    .set((eb) => ({ bytes: eb('bytes', '-', bytes) }))
    .where('orgi', '=', orgi)
    .execute();
}

export const storedBytes = async (k: Kdb, orgi: string): Promise<number> =>
  Number(
    (await k.selectFrom('media_usage').select('bytes').where('orgi', '=', orgi).executeTakeFirst())?.bytes ??
      0,
  );

/** Files and bytes a visitor (by id) or a visitor address (by ip) uploaded since `since`. */
export async function uploadedSince(
  k: Kdb,
  by: { owner: string } | { ip: string },
  since: number,
): Promise<{ files: number; bytes: number }> {
  let q = k
    .selectFrom('media')
    .select((eb) => [eb.fn.countAll<number>().as('files'), eb.fn.sum<number>('size').as('bytes')])
    .where('createtime', '>', since);
  q =
    'owner' in by
      ? q.where('owner', '=', by.owner)
      : q.where('ip', '=', by.ip).where('owner_kind', '=', 'visitor');
  const r = await q.executeTakeFirstOrThrow();
  return { files: Number(r.files), bytes: Number(r.bytes ?? 0) };
}

/** The conversations whose messages carry this file (a file may be sent more than once). */
export async function conversationsWith(k: Kdb, mediaId: string): Promise<string[]> {
  const rows = await k
    .selectFrom('chat_message')
    .select('agentserviceid')
    .distinct()
    .where('attachmentid', '=', mediaId)
    .limit(50)
    .execute();
  return rows.map((r) => r.agentserviceid);
}

export async function visitorMessageWith(k: Kdb, visitorId: string, mediaId: string): Promise<boolean> {
  const hit = await k
    .selectFrom('chat_message')
    .select('id')
    .where('attachmentid', '=', mediaId)
    .where('usession', '=', visitorId)
    .executeTakeFirst();
  return hit !== undefined;
}

/** No message carries the media row in scope. */
const unattached = (eb: ExpressionBuilder<Database, 'media'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('chat_message')
        .select('chat_message.id')
        .whereRef('chat_message.attachmentid', '=', 'media.id'),
    ),
  );

/** Visitor uploads older than `before` that no message carries (oldest first, at most `limit`). */
export function orphans(k: Kdb, before: number, limit: number): Promise<MediaRow[]> {
  return k
    .selectFrom('media')
    .selectAll()
    .where('owner_kind', '=', 'visitor')
    .where('createtime', '<', before)
    .where(unattached)
    .orderBy('createtime')
    .limit(limit)
    .execute();
}

/** Deletes a media row unless a message carries it by now; true when this call deleted it. */
export async function deleteUnattached(k: Kdb, id: string): Promise<boolean> {
  const r = await k.deleteFrom('media').where('id', '=', id).where(unattached).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

export async function deleteMedia(k: Kdb, id: string): Promise<void> {
  await k.deleteFrom('media').where('id', '=', id).execute();
}
