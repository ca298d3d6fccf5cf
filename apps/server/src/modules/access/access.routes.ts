import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  accessSaveSchema,
  accessUpdateSchema,
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
  const any = (url: string, handler: (req: FastifyRequest) => Promise<unknown>, code = ACCESS_CODE) =>
    app.route({ method: ['GET', 'POST'], url, preHandler: requires(code), handler });

  app.get('/api/dialogue/access/list', guard, async (req) => ok(await service.list(db, principal(req))));
  app.post('/api/dialogue/access/save', guard, async (req) =>
    ok(await service.save(db, principal(req), parse(accessSaveSchema, input(req)))),
  );
  app.post('/api/dialogue/access/update', guard, async (req) =>
    ok(await service.update(db, principal(req), parse(accessUpdateSchema, input(req)))),
  );
  any('/api/dialogue/access/delete', async (req) => {
    await service.remove(db, principal(req), parse(idSchema, input(req)).id);
    return ok(null);
  });
  app.get('/api/webim/accesscode', guard, async (req) => {
    const q = input(req);
    const id = parse(idSchema, { id: q.id ?? q.appid }).id;
    return ok(await service.accessCode(db, principal(req), id, originOf(req)));
  });

  for (const name of Object.keys(SECTIONS) as SectionName[]) {
    const def = SECTIONS[name];
    const sguard = { preHandler: requires(def.code) };
    app.get(`${def.prefix}/detail`, sguard, async (req) =>
      ok(await service.getSection(db, principal(req), name, parse(appidQuery, input(req)).appid)),
    );
    for (const verb of ['save', 'update']) {
      app.post(`${def.prefix}/${verb}`, sguard, async (req) => {
        const body = parse(def.save, input(req)) as Record<string, unknown> & { appid: string };
        return ok(await service.saveSection(db, principal(req), name, body));
      });
    }
    any(
      `${def.prefix}/delete`,
      async (req) =>
        ok(await service.resetSection(db, principal(req), name, parse(appidQuery, input(req)).appid)),
      def.code,
    );
  }

  const fguard = { preHandler: requires(FAQ_CODE) };
  app.get('/api/problem/list', fguard, async (req) =>
    ok(await service.faqList(db, principal(req), parse(appidQuery, input(req)).appid)),
  );
  app.post('/api/problem/save', fguard, async (req) =>
    ok(await service.faqSave(db, principal(req), parse(problemSaveSchema, input(req)))),
  );
  app.post('/api/problem/update', fguard, async (req) =>
    ok(await service.faqUpdate(db, principal(req), parse(problemUpdateSchema, input(req)))),
  );
  app.post('/api/problem/sort', fguard, async (req) =>
    ok(await service.faqSort(db, principal(req), parse(problemSortSchema, input(req)))),
  );
  any(
    '/api/problem/delete',
    async (req) => {
      await service.faqRemove(db, principal(req), parse(idSchema, input(req)).id);
      return ok(null);
    },
    FAQ_CODE,
  );

  // Public: no login; an unknown or forged appid is 404 access_point_not_found.
  app.get('/im/config', async (req) => ok(await widgetConfig(db, parse(appidQuery, input(req)).appid)));
}
