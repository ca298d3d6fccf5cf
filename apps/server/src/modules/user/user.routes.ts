import type { FastifyInstance } from 'fastify';
import {
  idSchema,
  skillAgentSaveSchema,
  userPageQuery,
  userSaveSchema,
  userUpdateSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { input } from '../../platform/http/input.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { parse } from '../../platform/http/validate.js';
import { ORGAN_CODES } from '../organ/organ.routes.js';
import * as service from './user.service.js';
import { saveSkillMembers } from './skill-members.service.js';

/** Users and skill-group members live on the department screen, so they share its codes. */
export function registerUser(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const guard = { preHandler: requires(ORGAN_CODES) };
  app.get('/api/user/page', guard, async (req) => {
    const all = input(req);
    return ok(await service.page(db, principal(req), parse(userPageQuery, all), parse(pagingSchema, all)));
  });
  app.get('/api/user/detail', guard, async (req) =>
    ok(await service.detail(db, principal(req), parse(idSchema, input(req)).id)),
  );
  app.get('/api/user/listRole', guard, async (req) => ok(await service.listRole(db, principal(req))));
  app.post('/api/user/save', guard, async (req) =>
    ok(await service.save(ctx, principal(req), parse(userSaveSchema, input(req)))),
  );
  app.post('/api/user/update', guard, async (req) =>
    ok(await service.update(ctx, principal(req), parse(userUpdateSchema, input(req)))),
  );
  app.route({
    method: ['GET', 'POST'],
    url: '/api/user/delete',
    ...guard,
    handler: async (req) => {
      await service.remove(db, principal(req), parse(idSchema, input(req)).id);
      return ok(null);
    },
  });
  app.post('/api/imAgent/skill/agent/save', guard, async (req) => {
    await saveSkillMembers(db, principal(req), parse(skillAgentSaveSchema, input(req)));
    return ok(null);
  });
}
