import type { FastifyInstance } from 'fastify';
import {
  BUSINESS_CODE,
  BUSINESS_USE_CODE,
  businessEncryptionQuery,
  businessLinksQuery,
  businessSaveSchema,
  crmAddSchema,
  crmViewQuery,
  idSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import { auditBefore } from '../audit/audit.hook.js';
import * as service from './business.service.js';

/**
 * Business systems (A09_A06_A03): list, save, delete, encryption (the signing key); opened from /dialogue
 * (A01) through signed links; CRM records per visitor at /api/{product}/customservice/addCrm|viewCrm|viewTicket
 * ({product} = the system's id).
 */
export function registerBusiness(app: FastifyInstance, { db }: AppContext): void {
  const admin = { preHandler: requires(BUSINESS_CODE) };
  const use = { preHandler: requires(BUSINESS_USE_CODE) };
  app.get('/api/business/list', admin, async (req) => ok(await service.list(db, principal(req))));
  app.post('/api/business/save', {
    ...admin,
    ...withInput(businessSaveSchema, async (req, body) => {
      const { before, after } = await service.save(db, principal(req), body);
      if (before) auditBefore(req, before, before.id);
      return ok(after);
    }),
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/business/delete',
    ...admin,
    ...withInput(idSchema, async (req, { id }) => {
      await service.remove(db, principal(req), id);
      return ok(null);
    }),
  });
  // Reading the key is recorded in the audit log (an 'encryption' call), rotating it too.
  app.get('/api/business/encryption', {
    ...admin,
    ...withInput(businessEncryptionQuery, async (req, q) =>
      ok(await service.encryption(db, principal(req), q.id, q.rotate)),
    ),
  });
  app.get('/api/business/links', {
    ...use,
    ...withInput(businessLinksQuery, async (req, q) =>
      ok(await service.links(db, principal(req), q.agentserviceid)),
    ),
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/:product/customservice/addCrm',
    ...use,
    ...withInput(crmAddSchema, async (req, b) =>
      ok(await service.addCrm(db, principal(req), productOf(req.params), b.agentserviceid, b.crmid)),
    ),
  });
  app.get('/api/:product/customservice/viewCrm', {
    ...use,
    ...withInput(crmViewQuery, async (req, q) =>
      ok(await service.viewCrm(db, principal(req), productOf(req.params), q.agentserviceid)),
    ),
  });
  app.get('/api/:product/customservice/viewTicket', {
    ...use,
    ...withInput(crmViewQuery, async (req, q) =>
      ok(await service.viewTicket(db, principal(req), productOf(req.params), q.agentserviceid)),
    ),
  });
}

const productOf = (params: unknown): string =>
  String((params as { product?: unknown }).product ?? '').slice(0, 64);
