import type { FastifyInstance } from 'fastify';
import { loginLogQuery } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok, requestLang } from '../../platform/http/envelope.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './loginlog.service.js';

export const LOGIN_LOG_CODE = 'A06_A02_A08';

export function registerLoginLog(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(LOGIN_LOG_CODE) };
  app.get('/api/analyse/loginLogs', {
    ...guard,
    ...withInput(loginLogQuery.extend(pagingSchema.shape), async (req, q) =>
      ok(await service.page(db, principal(req), q, q)),
    ),
  });
  app.get('/api/analyse/exLoginLogs', {
    ...guard,
    ...withInput(loginLogQuery, async (req, q, reply) => {
      const buf = await service.exportXlsx(db, principal(req), q, requestLang(req));
      const name = `loginlog-${new Date().toISOString().slice(0, 10)}.xlsx`;
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(buf);
    }),
  });
}
