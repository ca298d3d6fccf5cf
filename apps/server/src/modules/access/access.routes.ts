import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  accessSaveSchema,
  accessUpdateSchema,
  accessCodeQuery,
  widgetConfigQuery,
  appidQuery,
  idSchema,
  problemSaveSchema,
  problemSortSchema,
  problemUpdateSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { input } from '../../platform/http/input.js';
import { parse } from '../../platform/http/validate.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './access.service.js';
import { SECTIONS, type SectionName } from './sections.js';
import { widgetConfig } from './widget.service.js';

export const ACCESS_CODE = 'A09_A01_A01';
export const FAQ_CODE = 'A09_A04_A05';

/** Origin the visitor's browser reaches this server at (behind a proxy: X-Forwarded-Proto/Host). */
const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** Website access points, their widget settings sections and FAQ, and the public widget config. */
export function registerAccess(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(ACCESS_CODE) };
  const any = <S extends z.ZodType>(
    url: string,
    schema: S,
    run: (req: FastifyRequest, body: z.output<S>) => Promise<unknown>,
    code = ACCESS_CODE,
  ) => app.route({ method: ['GET', 'POST'], url, preHandler: requires(code), ...withInput(schema, run) });

  app.get('/api/dialogue/access/list', guard, async (req) => ok(await service.list(db, principal(req))));
  app.post('/api/dialogue/access/save', {
    ...guard,
    ...withInput(accessSaveSchema, async (req, body) => ok(await service.save(db, principal(req), body))),
  });
  app.post('/api/dialogue/access/update', {
    ...guard,
    ...withInput(accessUpdateSchema, async (req, body) => ok(await service.update(db, principal(req), body))),
  });
  any('/api/dialogue/access/delete', idSchema, async (req, { id }) => {
    await service.remove(db, principal(req), id);
    return ok(null);
  });
  app.get('/api/webim/accesscode', {
    ...guard,
    ...withInput(accessCodeQuery, async (req, q) =>
      ok(await service.accessCode(db, principal(req), q.id ?? q.appid ?? '', originOf(req))),
    ),
  });

  for (const name of Object.keys(SECTIONS) as SectionName[]) {
    const def = SECTIONS[name];
    const sguard = { preHandler: requires(def.code) };
    app.get(`${def.prefix}/detail`, {
      ...sguard,
      ...withInput(appidQuery, async (req, { appid }) =>
        ok(await service.getSection(db, principal(req), name, appid)),
      ),
    });
    for (const verb of ['save', 'update']) {
      app.post(`${def.prefix}/${verb}`, {
        ...sguard,
        ...withInput(def.save, async (req, body) =>
          ok(
            await service.saveSection(
              db,
              principal(req),
              name,
              body as Record<string, unknown> & { appid: string },
            ),
          ),
        ),
      });
    }
    any(
      `${def.prefix}/delete`,
      appidQuery,
      async (req, { appid }) => ok(await service.resetSection(db, principal(req), name, appid)),
      def.code,
    );
  }

  const fguard = { preHandler: requires(FAQ_CODE) };
  app.get('/api/problem/list', {
    ...fguard,
    ...withInput(appidQuery, async (req, { appid }) => ok(await service.faqList(db, principal(req), appid))),
  });
  app.post('/api/problem/save', {
    ...fguard,
    ...withInput(problemSaveSchema, async (req, body) => ok(await service.faqSave(db, principal(req), body))),
  });
  app.post('/api/problem/update', {
    ...fguard,
    ...withInput(problemUpdateSchema, async (req, body) =>
      ok(await service.faqUpdate(db, principal(req), body)),
    ),
  });
  app.post('/api/problem/sort', {
    ...fguard,
    ...withInput(problemSortSchema, async (req, body) => ok(await service.faqSort(db, principal(req), body))),
  });
  any(
    '/api/problem/delete',
    idSchema,
    async (req, { id }) => {
      await service.faqRemove(db, principal(req), id);
      return ok(null);
    },
    FAQ_CODE,
  );

  // Public: no login; an unknown or forged appid is 404 access_point_not_found.
  app.get('/im/config', async (req) => {
    const q = parse(widgetConfigQuery, input(req));
    return ok(await widgetConfig(db, q.appid, q.l));
  });
}
