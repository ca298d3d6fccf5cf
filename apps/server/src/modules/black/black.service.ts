import type { z } from 'zod';
import type { BlackEntryDto, Page, blackIpSchema, blackSaveSchema } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { pageOf, offsetOf, type Paging } from '../../platform/http/paging.js';
import * as repo from './black.repository.js';

const endOf = (now: number, hours: number): number | null => (hours > 0 ? now + hours * 3_600_000 : null);

interface Entry {
  id: string;
  description: string;
  controltime: number;
  endtime: number | null;
  creater: string;
  createtime: number;
}

const present = (kind: 'user' | 'ip', value: string, r: Entry, now: number): BlackEntryDto => ({
  id: r.id,
  kind,
  value,
  description: r.description,
  controltime: r.controltime,
  endtime: r.endtime === null ? null : Number(r.endtime),
  expired: r.endtime !== null && Number(r.endtime) <= now,
  creater: r.creater,
  createtime: Number(r.createtime),
});

/** Both lists, newest first. */
export async function list(
  db: Db,
  p: Principal,
  pg: Paging,
  kind?: 'user' | 'ip',
): Promise<Page<BlackEntryDto>> {
  const now = Date.now();
  const k = db.kysely;
  const users =
    kind === 'ip' ? [] : (await repo.userEntries(k, p.orgi)).map((r) => present('user', r.userid, r, now));
  const ips =
    kind === 'user' ? [] : (await repo.ipEntries(k, p.orgi)).map((r) => present('ip', r.ip, r, now));
  const all = [...users, ...ips].sort((a, b) => b.createtime - a.createtime || a.id.localeCompare(b.id));
  const start = offsetOf(pg);
  return pageOf(all.slice(start, start + pg.ps), all.length, pg);
}

/** One entry per visitor id: saving again replaces the term and description. */
export async function saveUser(
  db: Db,
  p: Principal,
  input: z.infer<typeof blackSaveSchema>,
): Promise<BlackEntryDto> {
  const now = Date.now();
  const k = db.kysely;
  const endtime = endOf(now, input.controltime);
  const values = {
    creater: p.id,
    description: input.description,
    controltime: input.controltime,
    endtime,
    createtime: now,
  };
  const id = newId();
  await k
    .insertInto('blacklist')
    .values({ id, orgi: p.orgi, userid: input.userid, agentserviceid: null, ...values })
    .onConflict((oc) => oc.columns(['orgi', 'userid']).doUpdateSet(values))
    .execute();
  const row = await k
    .selectFrom('blacklist')
    .selectAll()
    .where('orgi', '=', p.orgi)
    .where('userid', '=', input.userid)
    .executeTakeFirstOrThrow();
  return present('user', row.userid, row, now);
}

export async function saveIp(
  db: Db,
  p: Principal,
  input: z.infer<typeof blackIpSchema>,
): Promise<BlackEntryDto> {
  const now = Date.now();
  const k = db.kysely;
  const values = {
    creater: p.id,
    description: input.description,
    controltime: input.controltime,
    endtime: endOf(now, input.controltime),
    createtime: now,
  };
  await k
    .insertInto('blacklist_ip')
    .values({ id: newId(), orgi: p.orgi, ip: input.ip, ...values })
    .onConflict((oc) => oc.columns(['orgi', 'ip']).doUpdateSet(values))
    .execute();
  const row = await k
    .selectFrom('blacklist_ip')
    .selectAll()
    .where('orgi', '=', p.orgi)
    .where('ip', '=', input.ip)
    .executeTakeFirstOrThrow();
  return present('ip', row.ip, row, now);
}

export async function remove(db: Db, p: Principal, id: string): Promise<void> {
  const k = db.kysely;
  const a = await k
    .deleteFrom('blacklist')
    .where('orgi', '=', p.orgi)
    .where('id', '=', id)
    .executeTakeFirst();
  const b = await k
    .deleteFrom('blacklist_ip')
    .where('orgi', '=', p.orgi)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(a.numDeletedRows) + Number(b.numDeletedRows) === 0) throw notFound();
}

export async function clean(db: Db, p: Principal): Promise<{ removed: number }> {
  return { removed: await repo.deleteExpired(db.kysely, p.orgi, Date.now()) };
}
