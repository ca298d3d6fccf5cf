import type { FastifyInstance } from 'fastify';
import {
  QUICK_FILE_CODE,
  idSchema,
  quickFileListQuery,
  quickFileRankSchema,
  quickFileSaveSchema,
  shortcutsSaveSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './quickfile.service.js';

/** Quick files (/api/agent/quickFile/list|save|delete|send|rank) and keyboard shortcuts (/api/agent/shortcutsSave). */
export function registerQuickFile(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(QUICK_FILE_CODE) };
  const base = '/api/agent/quickFile';
  app.get(`${base}/list`, {
    ...guard,
    ...withInput(quickFileListQuery, async (req, q) => ok(await service.list(db, principal(req), q.scope))),
  });
  app.post(`${base}/save`, {
    ...guard,
    ...withInput(quickFileSaveSchema, async (req, b) => ok(await service.save(db, principal(req), b))),
  });
  app.route({
    method: ['GET', 'POST'],
    url: `${base}/delete`,
    ...guard,
    ...withInput(idSchema, async (req, { id }) => {
      await service.remove(db, principal(req), id);
      return ok(null);
    }),
  });
  app.route({
    method: ['GET', 'POST'],
    url: `${base}/send`,
    ...guard,
    ...withInput(idSchema, async (req, { id }) => ok(await service.prepareSend(db, principal(req), id))),
  });
  app.post(`${base}/rank`, {
    ...guard,
    ...withInput(quickFileRankSchema, async (req, b) =>
      ok(await service.rank(db, principal(req), b.scope, b.ids)),
    ),
  });
  app.get('/api/agent/shortcuts', guard, async (req) => ok(await service.shortcuts(db, principal(req))));
  // The spec calls it with GET; POST works too.
  app.route({
    method: ['GET', 'POST'],
    url: '/api/agent/shortcutsSave',
    ...guard,
    ...withInput(shortcutsSaveSchema, async (req, b) =>
      ok(await service.saveShortcuts(db, principal(req), b)),
    ),
  });
}
