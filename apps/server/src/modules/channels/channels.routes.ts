import type { FastifyInstance } from 'fastify';
import { windowQuery } from '@kefu/protocol';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import type { ChannelRuntime } from './runtime.js';
import { windowOf } from './window.service.js';

/** Channel calls of the chat console. Setup calls live in setup.routes.ts. */
export function channelRoutes(app: FastifyInstance, rt: ChannelRuntime): void {
  // The composer of a platform conversation: reply window, quota, capabilities and failed deliveries.
  app.get('/api/channel/window', {
    preHandler: requires('A01'),
    ...withInput(windowQuery, async (req, q) => ok(await windowOf(rt, principal(req), q.agentserviceid))),
  });
}
