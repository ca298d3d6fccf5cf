import type { FastifyInstance } from 'fastify';
import { idSchema, workListQuery, workSaveSchema, workSwitchSchema, workUpdateSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { input } from '../../platform/http/input.js';
import { parse } from '../../platform/http/validate.js';
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
    app.get(`${base}/list`, guard, async (req) => {
      const { organ } = parse(workListQuery, input(req));
      return ok(await service.list(db, principal(req), organ ?? (dept ? 'dept' : undefined)));
    });
    app.get(`${base}/detail`, guard, async (req) =>
      ok(await service.detail(db, principal(req), parse(idSchema, input(req)).id)),
    );
    app.post(`${base}/save`, guard, async (req) =>
      ok(await service.save(db, principal(req), parse(workSaveSchema, input(req)))),
    );
    app.post(`${base}/update`, guard, async (req) =>
      ok(await service.update(db, principal(req), parse(workUpdateSchema, input(req)))),
    );
    app.post(`${base}/switch`, guard, async (req) => {
      const b = parse(workSwitchSchema, input(req));
      return ok(await service.setEnabled(db, principal(req), b.id, b.enabled));
    });
    app.route({
      method: ['GET', 'POST'],
      url: `${base}/delete`,
      ...guard,
      handler: async (req) => {
        await service.remove(db, principal(req), parse(idSchema, input(req)).id);
        return ok(null);
      },
    });
  }
}
