import type { FastifyInstance } from 'fastify';
import { blackIpSchema, blackListQuery, blackSaveSchema, idSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { input } from '../../platform/http/input.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { parse } from '../../platform/http/validate.js';
import * as service from './black.service.js';

export const BLACK_CODE = 'A09_A03_A10';

export function registerBlack(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(BLACK_CODE) };
  app.get('/api/black/list', guard, async (req) => {
    const q = input(req);
    return ok(await service.list(db, principal(req), parse(pagingSchema, q), parse(blackListQuery, q).kind));
  });
  app.post('/api/black/save', guard, async (req) =>
    ok(await service.saveUser(db, principal(req), parse(blackSaveSchema, input(req)))),
  );
  app.post('/api/black/addIp', guard, async (req) =>
    ok(await service.saveIp(db, principal(req), parse(blackIpSchema, input(req)))),
  );
  app.route({
    method: ['GET', 'POST'],
    url: '/api/black/delete',
    ...guard,
    handler: async (req) => {
      await service.remove(db, principal(req), parse(idSchema, input(req)).id);
      return ok(null);
    },
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/black/clean',
    ...guard,
    handler: async (req) => ok(await service.clean(db, principal(req))),
  });
}
