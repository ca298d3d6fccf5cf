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
import { pagingSchema } from '../../platform/http/paging.js';
import { withInput } from '../../platform/http/route.js';
import { ORGAN_CODES } from '../organ/organ.routes.js';
import * as service from './user.service.js';
import { saveSkillMembers } from './skill-members.service.js';

/** Users and skill-group members live on the department screen, so they share its codes. */
export function registerUser(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const guard = { preHandler: requires(ORGAN_CODES) };
  app.get('/api/user/page', {
    ...guard,
    ...withInput(userPageQuery.extend(pagingSchema.shape), async (req, q) =>
      ok(await service.page(db, principal(req), q, q)),
    ),
  });
  app.get('/api/user/detail', {
    ...guard,
    ...withInput(idSchema, async (req, { id }) => ok(await service.detail(db, principal(req), id))),
  });
  app.get('/api/user/listRole', guard, async (req) => ok(await service.listRole(db, principal(req))));
  app.post('/api/user/save', {
    ...guard,
    ...withInput(userSaveSchema, async (req, body) => ok(await service.save(ctx, principal(req), body))),
  });
  app.post('/api/user/update', {
    ...guard,
    ...withInput(userUpdateSchema, async (req, body) => ok(await service.update(ctx, principal(req), body))),
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/api/user/delete',
    ...guard,
    ...withInput(idSchema, async (req, { id }) => {
      await service.remove(db, principal(req), id);
      return ok(null);
    }),
  });
  app.post('/api/imAgent/skill/agent/save', {
    ...guard,
    ...withInput(skillAgentSaveSchema, async (req, body) => {
      await saveSkillMembers(db, principal(req), body);
      return ok(null);
    }),
  });
}
