import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database, LoginLogTable } from '../../platform/db/schema.js';
import { offsetOf, type Paging } from '../../platform/http/paging.js';

export type LoginLogRow = Selectable<LoginLogTable>;

export interface LoginLogFilter {
  orgi: string;
  username?: string | null;
  begin?: number;
  end?: number;
}

function where(f: LoginLogFilter) {
  return (eb: ExpressionBuilder<Database, 'login_log'>) => {
    const conds = [eb('orgi', '=', f.orgi)];
    if (f.username) conds.push(eb('username', '=', f.username));
    if (f.begin !== undefined) conds.push(eb('createtime', '>=', f.begin));
    if (f.end !== undefined) conds.push(eb('createtime', '<=', f.end));
    return eb.and(conds);
  };
}

export async function pageLogs(
  k: Kysely<Database>,
  f: LoginLogFilter,
  pg: Paging,
): Promise<{ rows: LoginLogRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    k
      .selectFrom('login_log')
      .selectAll()
      .where(where(f))
      .orderBy('createtime', 'desc')
      .orderBy('id', 'desc')
      .limit(pg.ps)
      .offset(offsetOf(pg))
      .execute(),
    k
      .selectFrom('login_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(where(f))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Newest first, at most `limit` rows (an export is a report, not a backup). */
export const allLogs = (k: Kysely<Database>, f: LoginLogFilter, limit: number): Promise<LoginLogRow[]> =>
  k
    .selectFrom('login_log')
    .selectAll()
    .where(where(f))
    .orderBy('createtime', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
