import type { FastifyInstance } from 'fastify';
import { idSchema, roleAuthSaveSchema, roleSaveSchema, roleUpdateSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { input } from '../../platform/http/input.js';
import { parse } from '../../platform/http/validate.js';
import * as service from './role.service.js';
import { ROLE_ADMIN_CODE } from './self-guard.js';

export function registerRole(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(ROLE_ADMIN_CODE) };
  app.get('/api/role/list', guard, async (req) => ok(await service.list(db, principal(req))));
  app.post('/api/role/save', guard, async (req) =>
    ok(await service.save(db, principal(req), parse(roleSaveSchema, input(req)))),
  );
  app.post('/api/role/update', guard, async (req) =>
    ok(await service.update(db, principal(req), parse(roleUpdateSchema, input(req)))),
  );
  app.route({
    method: ['GET', 'POST'],
    url: '/api/role/delete',
    ...guard,
    handler: async (req) => {
      await service.remove(db, principal(req), parse(idSchema, input(req)).id);
      return ok(null);
    },
  });
  app.get('/api/role/auth', guard, async (req) =>
    ok(await service.codes(db, principal(req), parse(idSchema, input(req)).id)),
  );
  app.post('/api/role/auth/save', guard, async (req) => {
    await service.saveCodes(db, principal(req), parse(roleAuthSaveSchema, input(req)));
    return ok(null);
  });
}
