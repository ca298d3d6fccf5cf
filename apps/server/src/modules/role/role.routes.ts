import type { FastifyInstance } from 'fastify';
import { idSchema, roleAuthSaveSchema, roleSaveSchema, roleUpdateSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './role.service.js';
import { ROLE_ADMIN_CODE } from './self-guard.js';

export function registerRole(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(ROLE_ADMIN_CODE) };
  app.get('/api/role/list', guard, async (req) => ok(await service.list(db, principal(req))));
  app.post('/api/role/save', {
    ...guard,
    ...withInput(roleSaveSchema, async (req, body) => ok(await service.save(db, principal(req), body))),
  });
  app.post('/api/role/update', {
    ...guard,
    ...withInput(roleUpdateSchema, async (req, body) => ok(await service.update(db, principal(req), body))),
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/role/delete',
    ...guard,
    ...withInput(idSchema, async (req, { id }) => {
      await service.remove(db, principal(req), id);
      return ok(null);
    }),
  });
  app.get('/api/role/auth', {
    ...guard,
    ...withInput(idSchema, async (req, { id }) => ok(await service.codes(db, principal(req), id))),
  });
  app.post('/api/role/auth/save', {
    ...guard,
    ...withInput(roleAuthSaveSchema, async (req, body) => {
      await service.saveCodes(db, principal(req), body);
      return ok(null);
    }),
  });
}
