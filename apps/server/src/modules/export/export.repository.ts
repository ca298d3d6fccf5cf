import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { ExportJobTable } from '../../platform/db/schema-history.js';

type Kdb = Db['kysely'];
export type ExportJobRow = Selectable<ExportJobTable>;

export const insertJob = (k: Kdb, row: Insertable<ExportJobTable>) =>
  k.insertInto('export_job').values(row).execute();

export const findJob = (k: Kdb, id: string) =>
  k.selectFrom('export_job').selectAll().where('id', '=', id).executeTakeFirst();

export const updateJob = (k: Kdb, id: string, set: Partial<Omit<ExportJobRow, 'id'>>) =>
  k.updateTable('export_job').set(set).where('id', '=', id).execute();

/** The heartbeat of the jobs a node runs or holds queued. */
export const touchJobs = (k: Kdb, ids: readonly string[], now: number) =>
  ids.length
    ? k.updateTable('export_job').set({ updatetime: now }).where('id', 'in', ids).execute()
    : Promise.resolve();

/** Queued or running jobs of a user (the per-user limit); stale ones do not count. */
export async function activeCount(k: Kdb, userid: string, since: number): Promise<number> {
  const r = await k
    .selectFrom('export_job')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userid', '=', userid)
    .where('status', 'in', ['queued', 'running'])
    .where('updatetime', '>=', since)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function userJobs(
  k: Kdb,
  userid: string,
  kinds: readonly string[],
  limit: number,
  offset: number,
): Promise<{ rows: ExportJobRow[]; total: number }> {
  if (kinds.length === 0) return { rows: [], total: 0 };
  const base = k.selectFrom('export_job').where('userid', '=', userid).where('kind', 'in', kinds);
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('createtime', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** Finished jobs past their keeping time, and jobs whose node went away long ago. */
export const expiredJobs = (k: Kdb, finishedBefore: number, staleBefore: number) =>
  k
    .selectFrom('export_job')
    .select(['id', 'path'])
    .where((eb) =>
      eb.or([
        eb('finishtime', '<', finishedBefore),
        eb.and([eb('status', 'in', ['queued', 'running']), eb('updatetime', '<', staleBefore)]),
      ]),
    )
    .limit(500)
    .execute();

export const deleteJobs = (k: Kdb, ids: readonly string[]) =>
  ids.length ? k.deleteFrom('export_job').where('id', 'in', ids).execute() : Promise.resolve();
