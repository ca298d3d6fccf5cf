import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { AuditLogTable } from '../../platform/db/schema-compliance.js';
import { containsText } from '../../platform/db/like.js';

type Kdb = Kysely<Database>;
export type AuditRow = Selectable<AuditLogTable>;

export interface AuditFilter {
  orgi: string;
  /** Words found in the action, the user name or the target. */
  q?: string;
  userid?: string;
  action?: string;
  begin?: number;
  end?: number;
}

export async function insert(k: Kdb, row: Insertable<AuditLogTable>): Promise<void> {
  await k.insertInto('audit_log').values(row).execute();
}

function filtered(k: Kdb, f: AuditFilter) {
  let q = k.selectFrom('audit_log').where('orgi', '=', f.orgi);
  if (f.userid) q = q.where('userid', '=', f.userid);
  if (f.action) q = q.where('action', '=', f.action);
  if (f.begin !== undefined) q = q.where('createtime', '>=', f.begin);
  if (f.end !== undefined) q = q.where('createtime', '<', f.end);
  if (f.q) {
    const text = f.q;
    q = q.where((eb) =>
      eb.or([containsText('action', text), containsText('username', text), containsText('target', text)]),
    );
  }
  return q;
}

export async function page(
  k: Kdb,
  f: AuditFilter,
  offset: number,
  limit: number,
): Promise<{ rows: AuditRow[]; total: number }> {
  const q = filtered(k, f);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('createtime', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function count(k: Kdb, f: AuditFilter): Promise<number> {
  const r = await filtered(k, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The next `limit` records older than `before` (newest first; keyset, so a long export reads each row once). */
export function olderThan(
  k: Kdb,
  f: AuditFilter,
  before: { createtime: number; id: string } | undefined,
  limit: number,
): Promise<AuditRow[]> {
  let q = filtered(k, f);
  if (before)
    q = q.where((eb) =>
      eb.or([
        eb('createtime', '<', before.createtime),
        eb.and([eb('createtime', '=', before.createtime), eb('id', '<', before.id)]),
      ]),
    );
  return q.selectAll().orderBy('createtime', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
