import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { AccessFaqTable } from '../../platform/db/schema-channel.js';
import type { AccessPointTable } from '../../platform/db/schema-conversations.js';

type Kdb = Db['kysely'];
export type AccessRow = Selectable<AccessPointTable>;
export type FaqRow = Selectable<AccessFaqTable>;

export const listAccess = (k: Kdb, orgi: string) =>
  k
    .selectFrom('access_point')
    .leftJoin('organ', 'organ.id', 'access_point.organ')
    .selectAll('access_point')
    .select('organ.name as organname')
    .where('access_point.orgi', '=', orgi)
    .orderBy('access_point.createtime')
    .orderBy('access_point.id')
    .execute();

export const findAccess = (k: Kdb, orgi: string, id: string): Promise<AccessRow | undefined> =>
  k.selectFrom('access_point').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

/** Public lookup by appid alone (the widget knows no tenant). */
export const accessByAppid = (k: Kdb, id: string): Promise<AccessRow | undefined> =>
  k.selectFrom('access_point').selectAll().where('id', '=', id).executeTakeFirst();

export async function nameTaken(k: Kdb, orgi: string, name: string, exceptId?: string): Promise<boolean> {
  let q = k.selectFrom('access_point').select('id').where('orgi', '=', orgi).where('name', '=', name);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export const organExists = async (k: Kdb, orgi: string, id: string): Promise<boolean> =>
  (await k
    .selectFrom('organ')
    .select('id')
    .where('orgi', '=', orgi)
    .where('id', '=', id)
    .executeTakeFirst()) !== undefined;

export const listFaq = (k: Kdb, orgi: string, appid: string): Promise<FaqRow[]> =>
  k
    .selectFrom('access_faq')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('appid', '=', appid)
    .orderBy('sortindex')
    .orderBy('createtime')
    .orderBy('id')
    .execute();

export const findFaq = (k: Kdb, orgi: string, id: string): Promise<FaqRow | undefined> =>
  k.selectFrom('access_faq').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export async function nextFaqIndex(k: Kdb, appid: string): Promise<number> {
  const r = await k
    .selectFrom('access_faq')
    .select((eb) => eb.fn.max<number | null>('sortindex').as('m'))
    .where('appid', '=', appid)
    .executeTakeFirst();
  return Number(r?.m ?? 0) + 1;
}
