import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CODES } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { AppError, badRequest } from '../../platform/http/errors.js';
import { input } from '../../platform/http/input.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { parse } from '../../platform/http/validate.js';
import { withInput } from '../../platform/http/route.js';
import { windowLimiter } from '../leavemsg/rate-limit.js';
import * as service from './online.service.js';

/** Public reports per IP (page views, heartbeats, invite answers): a shared office NAT stays well below. */
export const PAGEVIEW_RATE = { max: 120, windowMs: 60_000 } as const;

const appid = z.string('required').trim().min(1, 'required').max(64, 'too_long');
const traceid = z
  .string('required')
  .min(1, 'required')
  .max(64, 'too_long')
  .regex(/^[A-Za-z0-9_-]+$/, 'invalid_field');
const httpUrl = (max: number) =>
  z
    .string('required')
    .max(max, 'too_long')
    .refine((u) => /^https?:\/\//i.test(u), 'invalid_field');

export const pageViewSchema = z.object({
  appid,
  traceid,
  url: httpUrl(2000),
  title: z.string().max(500, 'too_long').default(''),
  referrer: z.union([z.literal(''), httpUrl(2000)]).default(''),
  hb: z.literal(1).optional(),
  /** pagehide: the visitor leaves the page (sendBeacon). */
  leave: z.literal(1).optional(),
});

export const inviteAnswerSchema = z.object({
  appid,
  traceid,
  id: z.string('required').min(1, 'required').max(64, 'too_long'),
  result: z.enum(['accept', 'refuse'], 'invalid_field'),
});

const traceQuery = z.object({ traceid });

/** sendBeacon / no-cors fetch post text/plain JSON; JSON and form posts are accepted too. */
function jsonBody(req: FastifyRequest): Record<string, unknown> {
  if (typeof req.body !== 'string') return input(req);
  try {
    const v: unknown = JSON.parse(req.body);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  throw badRequest('invalid_body');
}

export function registerOnline(app: FastifyInstance, { db }: AppContext): void {
  const limiter = windowLimiter(PAGEVIEW_RATE.max, PAGEVIEW_RATE.windowMs);
  const limited = (req: FastifyRequest) => {
    if (!limiter.hit(req.ip)) throw new AppError('pageview_rate_limited', CODES.tooManyRequests);
  };
  const ua = (req: FastifyRequest) => {
    const h = req.headers['user-agent'];
    return typeof h === 'string' ? h : '';
  };

  app.post('/im/pageview', { bodyLimit: 16 * 1024 }, async (req) => {
    limited(req);
    const r = parse(pageViewSchema, jsonBody(req));
    return ok(await service.report(db, r, { ip: req.ip, userAgent: ua(req), now: Date.now() }));
  });
  app.post('/im/invite', { bodyLimit: 4 * 1024 }, async (req) => {
    limited(req);
    return ok(await service.answer(db, parse(inviteAnswerSchema, jsonBody(req))));
  });

  const guard = { preHandler: requires(service.ONLINE_CODE) };
  app.get('/api/online/onlineUser', {
    ...guard,
    ...withInput(pagingSchema, async (req, pg) => ok(await service.online(db, principal(req), pg))),
  });
  app.get('/api/online/onlineUserHis', {
    ...guard,
    ...withInput(pagingSchema, async (req, pg) => ok(await service.history(db, principal(req), pg))),
  });
  app.get('/api/online/trace', {
    ...guard,
    ...withInput(traceQuery, async (req, { traceid }) =>
      ok(await service.trace(db, principal(req), traceid)),
    ),
  });
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/api/online/invite',
      ...guard,
      ...withInput(traceQuery, async (req, { traceid }) =>
        ok(await service.invite(db, principal(req), traceid)),
      ),
    });
    app.route({
      method,
      url: '/api/online/talk',
      ...guard,
      ...withInput(traceQuery, async (req, { traceid }) =>
        ok(await service.talk(db, principal(req), traceid)),
      ),
    });
  }
}
