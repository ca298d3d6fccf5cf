import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CODES, optionalId, passwordChangeSchema, profileSchema, soundSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { takes, withInput } from '../../platform/http/route.js';
import { AppError } from '../../platform/http/errors.js';
import { bodyOf } from '../../platform/http/input.js';
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
  app.post(
    '/api/agent',
    withInput(profileSchema, async (req, body) => ok(await service.updateProfile(db, principal(req), body))),
  );
  app.post(
    '/api/agent/my/sound',
    withInput(soundSchema, async (req, body) => {
      await service.updateSound(db, principal(req), body);
      return ok(null);
    }),
  );
  // The passwords travel only in the body: a URL ends up in logs and browser history.
  app.post('/api/agent/my/updatePassword', {
    ...takes(passwordChangeSchema),
    handler: async (req) => {
      await service.changePassword(ctx, principal(req), parse(passwordChangeSchema, bodyOf(req)));
      return ok(null);
    },
  });
  app.get('/api/agent/my/updatePassword', async () => {
    throw new AppError('post_only', CODES.methodNotAllowed);
  });
  app.get('/api/common/skillList', async (req) => ok(await service.skillList(db, principal(req))));
  app.get(
    '/api/common/userList',
    withInput(userListQuery, async (req, { organ }) => ok(await service.userList(db, principal(req), organ))),
  );
}
