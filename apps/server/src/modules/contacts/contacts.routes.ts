import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  CONTACTS_CODE,
  CONTACT_LIMITS,
  contactIdsSchema,
  contactListQuery,
  contactMergeSchema,
  contactPutSchema,
  contactSaveSchema,
  contactUpdateSchema,
  contactViewQuery,
  exportOptions,
  idSchema,
  uploadFormSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok, requestLang } from '../../platform/http/envelope.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { takes, withInput } from '../../platform/http/route.js';
import { readUpload } from '../../platform/http/upload.js';
import { engineOf } from '../conversation/index.js';
import { followed } from '../conversation/talk.service.js';
import * as service from './contacts.service.js';
import { importContacts } from './contacts.import.js';
import { exportContacts } from './contacts.export.js';

/**
 * /api/contacts/* (code A05, data scope of platform/auth/data-scope.ts). PUT /api/contacts is the chat
 * panel's call: A01 or A05, for the contact of a conversation the caller follows.
 */
export async function registerContacts(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  const guard = { preHandler: requires(CONTACTS_CODE) };
  const route = <S extends z.ZodType>(
    method: 'GET' | 'POST' | Array<'GET' | 'POST'>,
    path: string,
    schema: S,
    run: (req: FastifyRequest, input: z.output<S>) => Promise<unknown>,
  ) =>
    app.route({
      method,
      url: `/api/contacts/${path}`,
      ...guard,
      ...withInput(schema, async (req, input) => ok(await run(req, input))),
    });

  route('GET', 'index', contactListQuery.extend(pagingSchema.shape), (req, q) =>
    service.list(db, principal(req), q, q),
  );
  route('GET', 'view', contactViewQuery, (req, q) => service.view(db, principal(req), q));
  route(['GET', 'POST'], 'delete', idSchema, (req, { id }) => service.remove(db, principal(req), id));
  route('POST', 'save', contactSaveSchema, (req, b) => service.save(db, principal(req), b));
  route('POST', 'update', contactUpdateSchema, (req, b) => service.update(db, principal(req), b));
  route('POST', 'merge', contactMergeSchema, (req, b) => service.merge(db, principal(req), b));

  // Background .xlsx exports (followed through /api/export/*): the selected rows, or the whole filter.
  const lang = (req: FastifyRequest) => (requestLang(req).startsWith('en') ? 'en' : 'zh');
  route('GET', 'expids', contactIdsSchema.extend(exportOptions.shape), (req, q) =>
    exportContacts(ctx, principal(req), { ids: q.ids }, lang(req), q.tz),
  );
  route('GET', 'expsearch', contactListQuery.extend(exportOptions.shape), (req, q) =>
    exportContacts(ctx, principal(req), { filter: q }, lang(req), q.tz),
  );

  app.put('/api/contacts', {
    preHandler: requires(['A01', CONTACTS_CODE]),
    ...withInput(contactPutSchema, async (req, b) => {
      const e = engineOf(app);
      if (!e) throw new Error('conversation module not registered');
      const p = principal(req);
      const { agentserviceid, ...fields } = b;
      const s = await followed(e, p, agentserviceid);
      return ok(await service.fromConversation(db, p, s, fields));
    }),
  });

  await app.register(async (child) => {
    await child.register(multipart, { limits: { fileSize: CONTACT_LIMITS.importBytes, files: 1 } });
    child.post(
      '/api/contacts/import',
      { ...guard, ...takes(uploadFormSchema, 'multipart/form-data') },
      async (req) => ok(await importContacts(db, principal(req), (await readUpload(req)).data)),
    );
  });
}
