import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { input } from './input.js';
import { parse } from './validate.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's input (query and body merged, see input.ts), as a zod schema of @kefu/protocol. It both
     * validates the request and describes the route in /api/openapi.json (route-catalog.ts).
     */
    input?: z.ZodType;
    /** How the input travels when it is not JSON / form fields (uploads). */
    media?: 'multipart/form-data';
  }
}

/**
 * Route options whose handler receives the parsed input: the schema that validates is the schema that is
 * published, by construction. Spread into the route options next to the guard:
 * `app.post(url, { ...guard, ...withInput(schema, async (req, body) => ok(...)) })`.
 */
export function withInput<S extends z.ZodType>(
  schema: S,
  run: (req: FastifyRequest, input: z.output<S>, reply: FastifyReply) => Promise<unknown>,
) {
  return {
    config: { input: schema },
    handler: async (req: FastifyRequest, reply: FastifyReply) => run(req, parse(schema, input(req)), reply),
  };
}

/** For a route that reads its input itself (multipart uploads): declares it for the catalog only. */
export const takes = (schema: z.ZodType, media?: 'multipart/form-data') => ({
  config: { input: schema, media },
});

export interface CatalogRoute {
  method: string;
  url: string;
  input: z.ZodType | undefined;
  media: 'multipart/form-data' | undefined;
  /** The permission requirement of the route's guard (requires()), when it has one. */
  permission: unknown;
}

const catalogs = new WeakMap<FastifyInstance, CatalogRoute[]>();

/** Hook marker set by requires() in platform/auth/guard.ts, read here to publish the route's codes. */
export const PERMISSION = Symbol('permission');

function permissionOf(pre: unknown): unknown {
  for (const h of Array.isArray(pre) ? pre : [pre]) {
    const p = (h as { [PERMISSION]?: unknown } | undefined)?.[PERMISSION];
    if (p !== undefined) return p;
  }
  return undefined;
}

/**
 * Records every route registered after this call (method, url, declared input, guard): the source of
 * /api/openapi.json and of the test that every /api route declares its input.
 */
export function installRouteCatalog(app: FastifyInstance): void {
  const list: CatalogRoute[] = [];
  catalogs.set(app, list);
  app.addHook('onRoute', (r) => {
    for (const method of Array.isArray(r.method) ? r.method : [r.method]) {
      // HEAD routes are Fastify's automatic twins of GET routes.
      if (method === 'HEAD') continue;
      list.push({
        method,
        url: r.url,
        input: r.config?.input,
        media: r.config?.media,
        permission: permissionOf(r.preHandler),
      });
    }
  });
}

export const routeCatalog = (app: FastifyInstance): readonly CatalogRoute[] => catalogs.get(app) ?? [];
