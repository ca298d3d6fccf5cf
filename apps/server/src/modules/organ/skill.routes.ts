import type { FastifyInstance } from 'fastify';
import { skillPolicyQuery, skillSaveSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import { ORGAN_CODES } from './organ.routes.js';
import * as service from './skill.service.js';

/** A skill group's routing policy, edited on the department screen (its codes, as skill/agent/save). */
export function registerSkill(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(ORGAN_CODES) };
  app.get('/api/imAgent/skill', {
    ...guard,
    ...withInput(skillPolicyQuery, async (req, q) => ok(await service.policy(db, principal(req), q.organid))),
  });
  app.post('/api/imAgent/skill/save', {
    ...guard,
    ...withInput(skillSaveSchema, async (req, b) => ok(await service.save(db, principal(req), b))),
  });
}
