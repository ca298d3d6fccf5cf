import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { PermissionRequirement } from '@kefu/protocol';
import { requires } from '../auth/guard.js';
import { ok } from './envelope.js';
import { withInput } from './route.js';

/**
 * A module's route registrar: permission code (the module's by default), input schema (validation and
 * /api/openapi.json), and the handler's result in the envelope. Usage:
 * `const route = guardedRoute(app, CODE); route('GET', '/api/x/list', schema, (req, q) => service.list(q));`
 */
export function guardedRoute(app: FastifyInstance, defaultCode: PermissionRequirement) {
  return <S extends z.ZodType>(
    method: 'GET' | 'POST' | Array<'GET' | 'POST'>,
    url: string,
    schema: S,
    run: (req: FastifyRequest, input: z.output<S>) => Promise<unknown>,
    code: PermissionRequirement = defaultCode,
  ) =>
    app.route({
      method,
      url,
      preHandler: requires(code),
      ...withInput(schema, async (req, input) => ok(await run(req, input))),
    });
}
