import type { FastifyInstance } from 'fastify';
import { idSchema, workListQuery, workSaveSchema, workSwitchSchema, workUpdateSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import * as service from './workservice.service.js';

export const WORKSERVICE_CODE = 'A09_A03_A03';

/**
 * Working-hours schedules. /api/workservice/* and /api/organ/workservice/* take the same bodies;
 * their list differs: all schedules vs. department schedules (optionally one department: `organ`).
 */
export function registerWorkservice(app: FastifyInstance, { db }: AppContext): void {
  const guard = { preHandler: requires(WORKSERVICE_CODE) };
  for (const base of ['/api/workservice', '/api/organ/workservice']) {
    const dept = base.startsWith('/api/organ');
    app.get(`${base}/list`, {
      ...guard,
      ...withInput(workListQuery, async (req, { organ }) =>
        ok(await service.list(db, principal(req), organ ?? (dept ? 'dept' : undefined))),
      ),
    });
    app.get(`${base}/detail`, {
      ...guard,
      ...withInput(idSchema, async (req, { id }) => ok(await service.detail(db, principal(req), id))),
    });
    app.post(`${base}/save`, {
      ...guard,
      ...withInput(workSaveSchema, async (req, body) => ok(await service.save(db, principal(req), body))),
    });
    app.post(`${base}/update`, {
      ...guard,
      ...withInput(workUpdateSchema, async (req, body) => ok(await service.update(db, principal(req), body))),
    });
    app.post(`${base}/switch`, {
      ...guard,
      ...withInput(workSwitchSchema, async (req, b) =>
        ok(await service.setEnabled(db, principal(req), b.id, b.enabled)),
      ),
    });
    app.route({
      method: ['GET', 'POST'],
      url: `${base}/delete`,
      ...guard,
      ...withInput(idSchema, async (req, { id }) => {
        await service.remove(db, principal(req), id);
        return ok(null);
      }),
    });
  }
}
