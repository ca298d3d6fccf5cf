import { runFixed, type Sql } from '../conversation/hot-sql.js';
import type { Db } from '../../platform/db/database.js';

type Kdb = Db['kysely'];

const live = (endtime: number | null, now: number) => endtime === null || Number(endtime) > now;

export const userEntries = (k: Kdb, orgi: string) =>
  k.selectFrom('blacklist').selectAll().where('orgi', '=', orgi).orderBy('createtime', 'desc').execute();

export const ipEntries = (k: Kdb, orgi: string) =>
  k.selectFrom('blacklist_ip').selectAll().where('orgi', '=', orgi).orderBy('createtime', 'desc').execute();

/**
 * Blocked when the visitor id, or the IP the visitor last connected from (either spelling of an IPv4
 * address, as isIpBlocked), has an unexpired entry. One statement: it runs for every new chat.
 */
export async function isVisitorBlocked(k: Sql, orgi: string, userid: string, now: number): Promise<boolean> {
  const r = await runFixed<{ byuser: unknown; byip: unknown }>(k, BLOCKED, [
    orgi,
    userid,
    now,
    userid,
    orgi,
    now,
  ]);
  const row = r.rows[0];
  // SQLite answers 0/1, PostgreSQL booleans.
  return !!row && (Number(row.byuser) === 1 || Number(row.byip) === 1);
}
const BLOCKED = `select
  exists (select 1 from blacklist where orgi = ? and userid = ?
    and (endtime is null or endtime > ?)) as byuser,
  exists (select 1 from blacklist_ip b join visitor v on v.id = ?
    where b.orgi = ? and v.ip <> ''
      and b.ip in (v.ip, case when v.ip like '::ffff:%' then substr(v.ip, 8) else '::ffff:' || v.ip end)
      and (b.endtime is null or b.endtime > ?)) as byip`;

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
