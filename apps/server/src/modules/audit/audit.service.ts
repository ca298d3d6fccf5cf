import type { z } from 'zod';
import type { AuditLogDto, Page, auditQuery } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { Principal } from '../../platform/auth/principal.js';
import { offsetOf, pageOf, type Paging } from '../../platform/http/paging.js';
import { presentAudit } from './audit.presenter.js';
import * as repo from './audit.repository.js';

export type AuditQuery = z.infer<typeof auditQuery>;

export const filterOf = (p: Principal, q: AuditQuery): repo.AuditFilter => ({
  orgi: p.orgi,
  q: q.q ?? undefined,
  userid: q.userid ?? undefined,
  action: q.action ?? undefined,
  begin: q.begin,
  end: q.end,
});

/** Records newest first; the log has no update or delete call (and the database refuses both). */
export async function page(db: Db, p: Principal, q: AuditQuery, pg: Paging): Promise<Page<AuditLogDto>> {
  const { rows, total } = await repo.page(db.kysely, filterOf(p, q), offsetOf(pg), pg.ps);
  return pageOf(rows.map(presentAudit), total, pg);
}
