import type { FastifyInstance } from 'fastify';
import { idSchema, organSaveSchema, organUpdateSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './organ.service.js';

/** Departments and skill groups: either code suffices (spec: /setup/section). */
export const ORGAN_CODES = ['A09_A02_A01', 'A09_A03_A13'] as const;

export function registerOrgan(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(ORGAN_CODES) };
  app.get('/api/organ/list', guard, async (req) => ok(await service.list(db, principal(req))));
  app.post('/api/organ/save', {
    ...guard,
    ...withInput(organSaveSchema, async (req, body) => ok(await service.save(db, principal(req), body))),
  });
  app.post('/api/organ/update', {
    ...guard,
    ...withInput(organUpdateSchema, async (req, body) => ok(await service.update(db, principal(req), body))),
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/organ/delete',
    ...guard,
    ...withInput(idSchema, async (req, { id }) => {
      await service.remove(db, principal(req), id);
      return ok(null);
    }),
  });
}
