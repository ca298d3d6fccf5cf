import type { FastifyInstance } from 'fastify';
import { blackIpSchema, blackListQuery, blackSaveSchema, idSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './black.service.js';

export const BLACK_CODE = 'A09_A03_A10';

export function registerBlack(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(BLACK_CODE) };
  app.get('/api/black/list', {
    ...guard,
    ...withInput(blackListQuery.extend(pagingSchema.shape), async (req, q) =>
      ok(await service.list(db, principal(req), q, q.kind)),
    ),
  });
  app.post('/api/black/save', {
    ...guard,
    ...withInput(blackSaveSchema, async (req, body) => ok(await service.saveUser(db, principal(req), body))),
  });
  app.post('/api/black/addIp', {
    ...guard,
    ...withInput(blackIpSchema, async (req, body) => ok(await service.saveIp(db, principal(req), body))),
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/black/delete',
    ...guard,
    ...withInput(idSchema, async (req, { id }) => {
      await service.remove(db, principal(req), id);
      return ok(null);
    }),
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/black/clean',
    ...guard,
    handler: async (req) => ok(await service.clean(db, principal(req))),
  });
}
