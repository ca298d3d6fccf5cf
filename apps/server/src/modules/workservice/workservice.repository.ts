import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { WorkServiceTable } from '../../platform/db/schema-channel.js';
import { runFixed, type Sql } from '../conversation/hot-sql.js';

type Kdb = Db['kysely'];
export type WorkRow = Selectable<WorkServiceTable>;

/** organ: undefined = all; '' = only the organisation-wide schedule; 'dept' = only department schedules. */
export function listWork(k: Kdb, orgi: string, organ?: string | 'dept') {
  let q = k
    .selectFrom('work_service')
    .leftJoin('organ', 'organ.id', 'work_service.organ')
    .selectAll('work_service')
    .select('organ.name as organname')
    .where('work_service.orgi', '=', orgi);
  if (organ === 'dept') q = q.where('work_service.organ', '!=', '');
  else if (organ !== undefined) q = q.where('work_service.organ', '=', organ);
  return q.orderBy('work_service.organ').orderBy('work_service.createtime').execute();
}

export const findWork = (k: Kdb, orgi: string, id: string): Promise<WorkRow | undefined> =>
  k.selectFrom('work_service').selectAll().where('orgi', '=', orgi).where('id', '=', id).executeTakeFirst();

/** Fixed SQL: read for every new chat (see conversation/hot-sql). */
export const workOfOrgan = async (k: Sql, orgi: string, organ: string): Promise<WorkRow | undefined> =>
  (await runFixed<WorkRow>(k, WORK_OF_ORGAN, [orgi, organ])).rows[0];
const WORK_OF_ORGAN = 'select * from work_service where orgi = ? and organ = ?';

export const organName = async (k: Kdb, orgi: string, id: string): Promise<string | null> =>
  (
    await k
      .selectFrom('organ')
      .select('name')
      .where('orgi', '=', orgi)
      .where('id', '=', id)
      .executeTakeFirst()
  )?.name ?? null;
