import type { FastifyInstance } from 'fastify';
import { skillPolicyQuery, skillSaveSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal } from '../../platform/auth/guard.js';
import { guardedRoute } from '../../platform/http/guarded-route.js';
import { ORGAN_CODES } from './organ.routes.js';
import * as service from './skill.service.js';

/** A skill group's routing policy, edited on the department screen (its codes, as skill/agent/save). */
export function registerSkill(app: FastifyInstance, { db }: AppContext): void {
  const route = guardedRoute(app, ORGAN_CODES);
  route('GET', '/api/imAgent/skill', skillPolicyQuery, (req, q) =>
    service.policy(db, principal(req), q.organid),
  );
  route('POST', '/api/imAgent/skill/save', skillSaveSchema, (req, b) => service.save(db, principal(req), b));
}
