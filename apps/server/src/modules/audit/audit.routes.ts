import type { FastifyInstance } from 'fastify';
import { AUDIT_CODE, auditQuery, exportOptions } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok, requestLang } from '../../platform/http/envelope.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { withInput } from '../../platform/http/route.js';
import { installAuditHook } from './audit.hook.js';
import * as service from './audit.service.js';
import { exportRecords } from './audit.export.js';

/** Records (A09_A06_A01): the audit hook for every module, and the log's search. */
export function registerAudit(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  installAuditHook(app, db);
  const guard = { preHandler: requires(AUDIT_CODE) };
  app.get('/api/records/list', {
    ...guard,
    ...withInput(auditQuery.extend(pagingSchema.shape), async (req, q) =>
      ok(await service.page(db, principal(req), q, q)),
    ),
  });
  // A background .xlsx job (the export module); starting it is itself recorded (an export).
  app.get('/api/records/export', {
    ...guard,
    ...withInput(auditQuery.extend(exportOptions.shape), async (req, q) => {
      const p = principal(req);
      const lang = requestLang(req).startsWith('en') ? 'en' : 'zh';
      return ok(await exportRecords(ctx, p, service.filterOf(p, q), lang, q.tz));
    }),
  });
}
