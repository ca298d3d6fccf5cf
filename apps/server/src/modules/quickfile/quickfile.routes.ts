import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  QUICK_FILE_CODE,
  idSchema,
  quickFileListQuery,
  quickFileRankSchema,
  quickFileSaveSchema,
  shortcutsSaveSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal } from '../../platform/auth/guard.js';
import { guardedRoute } from '../../platform/http/guarded-route.js';
import * as service from './quickfile.service.js';

/** Quick files (/api/agent/quickFile/list|save|delete|send|rank) and keyboard shortcuts (/api/agent/shortcutsSave). */
export function registerQuickFile(app: FastifyInstance, { db }: AppContext): void {
  const route = guardedRoute(app, QUICK_FILE_CODE);
  const base = '/api/agent/quickFile';
  route('GET', `${base}/list`, quickFileListQuery, (req, q) => service.list(db, principal(req), q.scope));
  route('POST', `${base}/save`, quickFileSaveSchema, (req, b) => service.save(db, principal(req), b));
  // The spec calls delete and send with GET; POST works too.
  route(['GET', 'POST'], `${base}/delete`, idSchema, async (req, { id }) => {
    await service.remove(db, principal(req), id);
    return null;
  });
  route(['GET', 'POST'], `${base}/send`, idSchema, (req, { id }) =>
    service.prepareSend(db, principal(req), id),
  );
  route('POST', `${base}/rank`, quickFileRankSchema, (req, b) =>
    service.rank(db, principal(req), b.scope, b.ids),
  );
  route('GET', '/api/agent/shortcuts', z.object({}), (req) => service.shortcuts(db, principal(req)));
  route(['GET', 'POST'], '/api/agent/shortcutsSave', shortcutsSaveSchema, (req, b) =>
    service.saveShortcuts(db, principal(req), b),
  );
}
