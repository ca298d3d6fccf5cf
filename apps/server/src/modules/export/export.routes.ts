import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { EXPORT_ANY_CODES, exportJobQuery, exportListQuery } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { withInput } from '../../platform/http/route.js';
import { exportRunner } from './export.service.js';
import * as jobs from './jobs.service.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name (Chinese file names). */
const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * The user's export jobs: the list (spec: /api/agent/history/excelList), one job's progress, the download
 * (fetched with the authorization header like any call; the console saves the blob) and delete. Jobs are started by
 * the exporting modules (export.service.ts).
 */
export function registerExport(app: FastifyInstance, ctx: AppContext): void {
  const guard = { preHandler: requires(EXPORT_ANY_CODES) };
  const runner = exportRunner(ctx);
  app.addHook('onClose', async () => runner.stop());

  app.get('/api/agent/history/excelList', {
    ...guard,
    ...withInput(exportListQuery.extend(pagingSchema.shape), async (req, q) =>
      ok(await jobs.list(ctx, principal(req), q, q.kind)),
    ),
  });
  app.get('/api/export/job', {
    ...guard,
    ...withInput(exportJobQuery, async (req, { id }) => ok(await jobs.job(ctx, principal(req), id))),
  });
  app.get('/api/export/download', {
    ...guard,
    ...withInput(exportJobQuery, async (req, { id }, reply) => {
      const f = await jobs.download(ctx, principal(req), id);
      return reply
        .type(XLSX)
        .header('content-disposition', disposition(f.filename))
        .send(createReadStream(f.path));
    }),
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/export/delete',
    ...guard,
    ...withInput(exportJobQuery, async (req, { id }) => {
      await jobs.remove(ctx, principal(req), id);
      return ok(null);
    }),
  });
}
