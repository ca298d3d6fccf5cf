import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { input } from '../../platform/http/input.js';
import { parse } from '../../platform/http/validate.js';
import * as service from './quickreply.service.js';

/**
 * Quick replies. Reading and personal ones: any agent (A01) or quick-reply admin (A09_A03_A09);
 * public ones are changed only with A09_A03_A09 (checked per row in the service).
 */
export function registerQuickReply(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(['A01', service.QUICKREPLY_ADMIN_CODE]) };
  const both = (url: string, handler: (req: FastifyRequest) => Promise<unknown>) =>
    app.route({ method: ['GET', 'POST'], url, ...guard, handler });

  app.get('/api/quicktype', guard, async (req) =>
    ok(await service.types(db, principal(req), parse(quickTypeListSchema, input(req)))),
  );
  app.get('/api/quickreply', guard, async (req) =>
    ok(await service.replies(db, principal(req), parse(quickReplyListSchema, input(req)))),
  );

  both('/api/agent/quickreply/type/save', async (req) =>
    ok(await service.typeSave(db, principal(req), parse(quickTypeSaveSchema, input(req)))),
  );
  both('/api/agent/quickreply/type/update', async (req) =>
    ok(await service.typeUpdate(db, principal(req), parse(quickTypeUpdateSchema, input(req)))),
  );
  both('/api/agent/quickreply/deletetype', async (req) =>
    ok(await service.typeRemove(db, principal(req), parse(idSchema, input(req)).id)),
  );
  both('/api/agent/quickreply/save', async (req) =>
    ok(await service.replySave(db, principal(req), parse(quickReplySaveSchema, input(req)))),
  );
  both('/api/agent/quickreply/update', async (req) =>
    ok(await service.replyUpdate(db, principal(req), parse(quickReplyUpdateSchema, input(req)))),
  );
  both('/api/agent/quickreply/delete', async (req) =>
    ok({ deleted: await service.replyRemove(db, principal(req), [parse(idSchema, input(req)).id]) }),
  );
  both('/api/agent/quickreply/batdel/reply', async (req) =>
    ok({ deleted: await service.replyRemove(db, principal(req), parse(quickIdsSchema, input(req)).ids) }),
  );
  app.post('/api/agent/quick/rank', guard, async (req) =>
    ok(await service.rank(db, principal(req), parse(quickRankSchema, input(req)))),
  );
}
