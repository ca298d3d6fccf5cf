import type { FastifyInstance } from 'fastify';
import {
  idSchema,
  opinionSaveSchema,
  opinionSortSchema,
  opinionUpdateSchema,
  satisfactionEnabledSchema,
  satisfactionUpdateSchema,
  visitorRatingSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { input } from '../../platform/http/input.js';
import { parse } from '../../platform/http/validate.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './satisfaction.service.js';

export const SATISFACTION_CODE = 'A09_A03_A04';

export function registerSatisfaction(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(SATISFACTION_CODE) };
  app.get('/api/satisfaction/data', guard, async (req) =>
    ok({
      ...(await service.settings(db, principal(req).orgi)),
      opinions: await service.opinions(db, principal(req).orgi),
    }),
  );
  app.post('/api/satisfaction/enabled', {
    ...guard,
    ...withInput(satisfactionEnabledSchema, async (req, { enabled }) =>
      ok(await service.setEnabled(db, principal(req), enabled)),
    ),
  });
  app.post('/api/satisfaction/update', {
    ...guard,
    ...withInput(satisfactionUpdateSchema, async (req, body) =>
      ok(await service.update(db, principal(req), body)),
    ),
  });

  app.get('/api/opinion/list', guard, async (req) => ok(await service.opinions(db, principal(req).orgi)));
  app.get('/api/opinion/detail', {
    ...guard,
    ...withInput(idSchema, async (req, { id }) => ok(await service.opinionDetail(db, principal(req), id))),
  });
  app.post('/api/opinion/save', {
    ...guard,
    ...withInput(opinionSaveSchema, async (req, body) =>
      ok(await service.opinionSave(db, principal(req), body)),
    ),
  });
  app.post('/api/opinion/update', {
    ...guard,
    ...withInput(opinionUpdateSchema, async (req, body) =>
      ok(await service.opinionUpdate(db, principal(req), body)),
    ),
  });
  app.post('/api/opinion/sort', {
    ...guard,
    ...withInput(opinionSortSchema, async (req, body) =>
      ok(await service.opinionSort(db, principal(req), body)),
    ),
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/opinion/delete',
    ...guard,
    ...withInput(idSchema, async (req, { id }) => {
      await service.opinionRemove(db, principal(req), id);
      return ok(null);
    }),
  });

  // Public: the visitor's rating, authorised by the visitor credential.
  app.post('/im/satis', async (req) => ok(await service.rate(db, parse(visitorRatingSchema, input(req)))));
}
