import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { optionalId, passwordChangeSchema, profileSchema, soundSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { input } from '../../platform/http/input.js';
import { parse } from '../../platform/http/validate.js';
import * as service from './agent.service.js';

const userListQuery = z.object({ organ: optionalId() });

function originOf(req: FastifyRequest, fallbackPort: number): service.RequestOrigin {
  return { schema: req.protocol, hostname: req.hostname, port: req.port ?? fallbackPort };
}

/** Session calls: any logged-in user (the /api guard has authenticated them). */
export function registerAgent(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  app.get('/api/agent', async (req) =>
    ok(await service.agentInfo(db, principal(req), originOf(req, ctx.config.port))),
  );
  app.post('/api/agent', async (req) =>
    ok(await service.updateProfile(db, principal(req), parse(profileSchema, input(req)))),
  );
  app.post('/api/agent/my/sound', async (req) => {
    await service.updateSound(db, principal(req), parse(soundSchema, input(req)));
    return ok(null);
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/agent/my/updatePassword',
    handler: async (req) => {
      await service.changePassword(ctx, principal(req), parse(passwordChangeSchema, input(req)));
      return ok(null);
    },
  });
  app.get('/api/common/skillList', async (req) => ok(await service.skillList(db, principal(req))));
  app.get('/api/common/userList', async (req) =>
    ok(await service.userList(db, principal(req), parse(userListQuery, input(req)).organ)),
  );
}
