import type { FastifyInstance } from 'fastify';
import {
  CODES,
  leaveMessageSchema,
  leavemsgAllocateSchema,
  leavemsgCompleteSchema,
  leavemsgListQuery,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { AppError } from '../../platform/http/errors.js';
import { input } from '../../platform/http/input.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { withInput } from '../../platform/http/route.js';
import { parse } from '../../platform/http/validate.js';
import * as service from './leavemsg.service.js';
import { windowLimiter } from './rate-limit.js';

/** Public posts per IP: at most LEAVEMSG_RATE.max in LEAVEMSG_RATE.windowMs (429 leavemsg_rate_limited). */
export const LEAVEMSG_RATE = { max: 5, windowMs: 10 * 60_000 } as const;

export function registerLeavemsg(app: FastifyInstance, { db }: AppContext): void {
  const limiter = windowLimiter(LEAVEMSG_RATE.max, LEAVEMSG_RATE.windowMs);
  app.post('/im/leavemsg', async (req) => {
    if (!limiter.hit(req.ip)) throw new AppError('leavemsg_rate_limited', CODES.tooManyRequests);
    return ok(await service.submit(db, parse(leaveMessageSchema, input(req)), req.ip));
  });

  const admin = { preHandler: requires(service.LEAVEMSG_ADMIN_CODE) };
  const agent = { preHandler: requires(service.LEAVEMSG_AGENT_CODE) };
  const listQuery = leavemsgListQuery.extend(pagingSchema.shape);

  app.get('/api/leavemsg/list', {
    ...admin,
    ...withInput(listQuery, async (req, q) => ok(await service.list(db, principal(req), q, q))),
  });
  app.get('/api/leavemsg/mylist', {
    ...agent,
    ...withInput(listQuery, async (req, q) => ok(await service.mylist(db, principal(req), q, q))),
  });
  app.get('/api/leavemsg/size', agent, async (req) => ok(await service.size(db, principal(req))));
  app.route({
    method: ['GET', 'POST'],
    url: '/api/leavemsg/allocation',
    ...admin,
    ...withInput(leavemsgAllocateSchema, async (req, body) =>
      ok(await service.allocate(db, principal(req), body)),
    ),
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/leavemsg/complet',
    ...agent,
    ...withInput(leavemsgCompleteSchema, async (req, body) =>
      ok(await service.complete(db, principal(req), body)),
    ),
  });
}
