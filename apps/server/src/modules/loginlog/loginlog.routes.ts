import type { FastifyInstance } from 'fastify';
import { loginLogQuery } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok, requestLang } from '../../platform/http/envelope.js';
import { input } from '../../platform/http/input.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { parse } from '../../platform/http/validate.js';
import * as service from './loginlog.service.js';

export const LOGIN_LOG_CODE = 'A06_A02_A08';

export function registerLoginLog(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(LOGIN_LOG_CODE) };
  app.get('/api/analyse/loginLogs', guard, async (req) => {
    const all = input(req);
    return ok(await service.page(db, principal(req), parse(loginLogQuery, all), parse(pagingSchema, all)));
  });
  app.get('/api/analyse/exLoginLogs', guard, async (req, reply) => {
    const buf = await service.exportXlsx(
      db,
      principal(req),
      parse(loginLogQuery, input(req)),
      requestLang(req),
    );
    const name = `loginlog-${new Date().toISOString().slice(0, 10)}.xlsx`;
    return reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(buf);
  });
}
