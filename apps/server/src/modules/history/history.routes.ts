import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  HISTORY_CODES,
  historyBlackSchema,
  historyExpIdsSchema,
  historyExpSearchSchema,
  historyIdQuery,
  historyListQuery,
  historyMessageDetailQuery,
  historyMessageQuery,
  historyUpdateSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok, requestLang } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import { closeSearchReader } from '../../platform/search/reader.js';
import * as history from './history.service.js';
import { exportHistory } from './history.export.js';
import { startTokenBackfill } from './backfill.js';

/** /api/agentService/* — conversation history (A04; agents with A01 see their own). Thin: parse, call, envelope. */
export function registerHistory(app: FastifyInstance, ctx: AppContext): void {
  const guard = { preHandler: requires([...HISTORY_CODES]) };
  const route = <S extends z.ZodType>(
    methods: Array<'GET' | 'POST'>,
    path: string,
    schema: S,
    run: (req: FastifyRequest, input: z.output<S>) => Promise<unknown>,
  ) =>
    app.route({
      method: methods,
      url: `/api/agentService/${path}`,
      ...guard,
      ...withInput(schema, async (req, input) => ok(await run(req, input))),
    });
  const lang = (req: FastifyRequest) => (requestLang(req).startsWith('en') ? 'en' : 'zh');

  route(['GET'], 'list', historyListQuery, (req, q) => history.list(ctx, principal(req), q));
  route(['GET'], 'detail', historyIdQuery, (req, q) => history.detail(ctx, principal(req), q.agentserviceid));
  route(['GET'], 'message/list', historyMessageQuery, (req, q) => history.messages(ctx, principal(req), q));
  route(['GET'], 'message/detail', historyMessageDetailQuery, (req, q) =>
    history.messageDetail(ctx, principal(req), q.id),
  );
  route(['GET'], 'contacts/detail', historyIdQuery, (req, q) =>
    history.contact(ctx, principal(req), q.agentserviceid),
  );
  route(['GET', 'POST'], 'black', historyBlackSchema, (req, b) => history.blacklist(ctx, principal(req), b));
  route(['POST'], 'update', historyUpdateSchema, (req, b) => history.update(ctx, principal(req), b));
  route(['GET', 'POST'], 'expids', historyExpIdsSchema, (req, b) =>
    exportHistory(ctx, principal(req), { ids: b.ids }, lang(req), b.tz),
  );
  route(['GET', 'POST'], 'expsearch', historyExpSearchSchema, (req, b) => {
    const { tz, ...filter } = b;
    return exportHistory(ctx, principal(req), { filter }, lang(req), tz);
  });

  const backfill = { stop: () => undefined as void };
  app.addHook('onReady', async () => {
    Object.assign(backfill, startTokenBackfill(ctx.db));
  });
  app.addHook('onClose', async () => {
    backfill.stop();
    await closeSearchReader(ctx.db);
  });
}
