import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ANALYSIS_CALL_NAMES,
  ANALYSIS_CALLS,
  analysisExportBody,
  analysisOptionsQuery,
  analysisQuery,
  hasPermission,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok, requestLang } from '../../platform/http/envelope.js';
import { forbidden } from '../../platform/http/errors.js';
import { withInput } from '../../platform/http/route.js';
import { analyse, options } from './analysis.service.js';
import { exportAnalysis } from './analysis.export.js';

/** GET /api/analyse/<call> (spec section 7 Analysis), each under its screen's code; POST /api/analyse/export. */
export function analysisRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const call of ANALYSIS_CALL_NAMES) {
    app.get(`/api/analyse/${call}`, {
      preHandler: requires(ANALYSIS_CALLS[call].code),
      ...withInput(analysisQuery, async (req, q) => ok(await analyse(ctx.db, principal(req), call, q))),
    });
  }
  const lang = (req: FastifyRequest) => (requestLang(req).startsWith('en') ? 'en' : 'zh');
  const codes = [...new Set(Object.values(ANALYSIS_CALLS).map((c) => c.code as string))];
  app.get('/api/analyse/options', {
    preHandler: requires(codes),
    ...withInput(analysisOptionsQuery, async (req, q) => {
      const p = principal(req);
      if (!hasPermission(p.usertype, p.auth, ANALYSIS_CALLS[q.call].code)) throw forbidden();
      return ok(await options(ctx.db, p, q.call));
    }),
  });
  app.post('/api/analyse/export', {
    preHandler: requires(codes),
    ...withInput(analysisExportBody, async (req, b) => {
      const p = principal(req);
      // The route admits any analysis code; the table needs the code of its own screen.
      if (!hasPermission(p.usertype, p.auth, ANALYSIS_CALLS[b.call].code)) throw forbidden();
      const { call, tz, lang: asked, ...q } = b;
      const result = await analyse(ctx.db, p, call, q);
      return ok(await exportAnalysis(ctx, p, call, result, asked ?? lang(req), tz));
    }),
  });
}
