import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { SatisOpinionTable, SatisRatingTable } from '../../platform/db/schema-channel.js';

type Kdb = Db['kysely'];
export type OpinionRow = Selectable<SatisOpinionTable>;
export type RatingRow = Selectable<SatisRatingTable>;

export const listOpinions = (k: Kdb, orgi: string): Promise<OpinionRow[]> =>
  k
    .selectFrom('satis_opinion')
    .selectAll()
    .where('orgi', '=', orgi)
    .orderBy('sortindex')
    .orderBy('createtime')
    .orderBy('id')
    .execute();

export const findOpinion = (k: Kdb, orgi: string, id: string): Promise<OpinionRow | undefined> =>
  k.selectFrom('satis_opinion').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

export async function opinionNameTaken(
  k: Kdb,
  orgi: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let q = k.selectFrom('satis_opinion').select('id').where('orgi', '=', orgi).where('name', '=', name);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function nextOpinionIndex(k: Kdb, orgi: string): Promise<number> {
  const r = await k
    .selectFrom('satis_opinion')
    .select((eb) => eb.fn.max<number | null>('sortindex').as('m'))
    .where('orgi', '=', orgi)
    .executeTakeFirst();
  return Number(r?.m ?? 0) + 1;
}

export const findRating = (k: Kdb, agentserviceid: string): Promise<RatingRow | undefined> =>
  k.selectFrom('satis_rating').selectAll().where('agentserviceid', '=', agentserviceid).executeTakeFirst();
