import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  idSchema,
  quickIdsSchema,
  quickRankSchema,
  quickReplyListSchema,
  quickReplySaveSchema,
  quickReplyUpdateSchema,
  quickTypeListSchema,
  quickTypeSaveSchema,
  quickTypeUpdateSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './quickreply.service.js';

/**
 * Quick replies. Reading and personal ones: any agent (A01) or quick-reply admin (A09_A03_A09);
 * public ones are changed only with A09_A03_A09 (checked per row in the service).
 */
export function registerQuickReply(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(['A01', service.QUICKREPLY_ADMIN_CODE]) };
  const both = <S extends z.ZodType>(
    url: string,
    schema: S,
    run: (req: FastifyRequest, body: z.output<S>) => Promise<unknown>,
  ) => app.route({ method: ['GET', 'POST'], url, ...guard, ...withInput(schema, run) });

  app.get('/api/quicktype', {
    ...guard,
    ...withInput(quickTypeListSchema, async (req, q) => ok(await service.types(db, principal(req), q))),
  });
  app.get('/api/quickreply', {
    ...guard,
    ...withInput(quickReplyListSchema, async (req, q) => ok(await service.replies(db, principal(req), q))),
  });

  both('/api/agent/quickreply/type/save', quickTypeSaveSchema, async (req, body) =>
    ok(await service.typeSave(db, principal(req), body)),
  );
  both('/api/agent/quickreply/type/update', quickTypeUpdateSchema, async (req, body) =>
    ok(await service.typeUpdate(db, principal(req), body)),
  );
  both('/api/agent/quickreply/deletetype', idSchema, async (req, { id }) =>
    ok(await service.typeRemove(db, principal(req), id)),
  );
  both('/api/agent/quickreply/save', quickReplySaveSchema, async (req, body) =>
    ok(await service.replySave(db, principal(req), body)),
  );
  both('/api/agent/quickreply/update', quickReplyUpdateSchema, async (req, body) =>
    ok(await service.replyUpdate(db, principal(req), body)),
  );
  both('/api/agent/quickreply/delete', idSchema, async (req, { id }) =>
    ok({ deleted: await service.replyRemove(db, principal(req), [id]) }),
  );
  both('/api/agent/quickreply/batdel/reply', quickIdsSchema, async (req, { ids }) =>
    ok({ deleted: await service.replyRemove(db, principal(req), ids) }),
  );
  app.post('/api/agent/quick/rank', {
    ...guard,
    ...withInput(quickRankSchema, async (req, body) => ok(await service.rank(db, principal(req), body))),
  });
}
