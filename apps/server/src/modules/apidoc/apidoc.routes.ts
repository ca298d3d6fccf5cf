import type { FastifyInstance } from 'fastify';
import { buildOpenApi } from '../../platform/http/openapi.js';
import { routeCatalog } from '../../platform/http/route.js';

/** Version of the API description (the server package's). */
export const API_VERSION = '0.1.0';

/**
 * GET /api/openapi.json (public): the OpenAPI 3.1 description of /api, built once from the routes as
 * registered, each with the zod schema it validates its input with.
 */
export function registerApiDoc(app: FastifyInstance): void {
  let doc: Record<string, unknown> | null = null;
  app.get('/api/openapi.json', async (_req, reply) => {
    doc ??= buildOpenApi(routeCatalog(app), API_VERSION);
    return reply.header('cache-control', 'no-cache').send(doc);
  });
}
