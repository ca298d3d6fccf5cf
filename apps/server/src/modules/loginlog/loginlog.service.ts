import type { z } from 'zod';
import type { Page, loginLogQuery } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { pageOf, type Paging } from '../../platform/http/paging.js';
import * as repo from './loginlog.repository.js';
import { presentLoginLog, type LoginLogDto } from './loginlog.presenter.js';
import { loginLogWorkbook } from './loginlog.export.js';

export const EXPORT_MAX_ROWS = 50_000;

type Query = z.infer<typeof loginLogQuery>;

const filterOf = (p: Principal, q: Query): repo.LoginLogFilter => ({
  orgi: p.orgi,
  username: q.username,
  begin: q.begin,
  end: q.end,
});

export async function page(db: Db, p: Principal, q: Query, pg: Paging): Promise<Page<LoginLogDto>> {
  const { rows, total } = await repo.pageLogs(db.kysely, filterOf(p, q), pg);
  return pageOf(rows.map(presentLoginLog), total, pg);
}

export async function exportXlsx(db: Db, p: Principal, q: Query, lang: string): Promise<Buffer> {
  const rows = await repo.allLogs(db.kysely, filterOf(p, q), EXPORT_MAX_ROWS);
  return loginLogWorkbook(rows.map(presentLoginLog), lang);
}
