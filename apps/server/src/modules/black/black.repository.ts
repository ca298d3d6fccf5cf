import type { Db } from '../../platform/db/database.js';

type Kdb = Db['kysely'];

const live = (endtime: number | null, now: number) => endtime === null || Number(endtime) > now;

export const userEntries = (k: Kdb, orgi: string) =>
  k.selectFrom('blacklist').selectAll().where('orgi', '=', orgi).orderBy('createtime', 'desc').execute();

export const ipEntries = (k: Kdb, orgi: string) =>
  k.selectFrom('blacklist_ip').selectAll().where('orgi', '=', orgi).orderBy('createtime', 'desc').execute();

/** Blocked when the visitor id, or the IP the visitor last connected from, has an unexpired entry. */
export async function isVisitorBlocked(k: Kdb, orgi: string, userid: string, now: number): Promise<boolean> {
  const byUser = await k
    .selectFrom('blacklist')
    .select('endtime')
    .where('orgi', '=', orgi)
    .where('userid', '=', userid)
    .executeTakeFirst();
  if (byUser && live(byUser.endtime, now)) return true;
  const v = await k.selectFrom('visitor').select('ip').where('id', '=', userid).executeTakeFirst();
  return v?.ip ? isIpBlocked(k, orgi, v.ip, now) : false;
}

export async function isIpBlocked(k: Kdb, orgi: string, ip: string, now: number): Promise<boolean> {
  const candidates = ip.startsWith('::ffff:') ? [ip, ip.slice(7)] : [ip, `::ffff:${ip}`];
  const rows = await k
    .selectFrom('blacklist_ip')
    .select('endtime')
    .where('orgi', '=', orgi)
    .where('ip', 'in', candidates)
    .execute();
  return rows.some((r) => live(r.endtime, now));
}

/** Removes expired entries of both lists; returns how many. */
export async function deleteExpired(k: Kdb, orgi: string, now: number): Promise<number> {
  const a = await k
    .deleteFrom('blacklist')
    .where('orgi', '=', orgi)
    .where('endtime', 'is not', null)
    .where('endtime', '<=', now)
    .executeTakeFirst();
  const b = await k
    .deleteFrom('blacklist_ip')
    .where('orgi', '=', orgi)
    .where('endtime', 'is not', null)
    .where('endtime', '<=', now)
    .executeTakeFirst();
  return Number(a.numDeletedRows) + Number(b.numDeletedRows);
}
