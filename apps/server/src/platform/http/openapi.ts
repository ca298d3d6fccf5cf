import { z } from 'zod';
import { ERROR_MESSAGES } from '@kefu/protocol';
import type { CatalogRoute } from './route.js';
import { PUBLIC_API } from '../auth/guard.js';

/**
 * The /api routes that truly take no input (no query, no body): they are the only ones allowed to be
 * registered without a schema (see withInput in route.ts). Keep docs/api.md's list in step.
 */
export const NO_INPUT_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/openapi.json',
  'GET /api/language/languageList',
  'GET /api/agent',
  'GET /api/common/skillList',
  'GET /api/agent/ready',
  'GET /api/agent/notready',
  'GET /api/agent/busy',
  'GET /api/agent/status',
  'GET /api/agent/console/agentstate',
  'GET /api/agent/ping',
  // Answers 405 post_only: the password change takes its input from a POST body only.
  'GET /api/agent/my/updatePassword',
  'GET /api/talk/inqueneuser',
  'GET /api/organ/list',
  'GET /api/user/listRole',
  'GET /api/role/list',
  'GET /api/dialogue/access/list',
  'GET /api/satisfaction/data',
  'GET /api/opinion/list',
  'GET /api/leavemsg/size',
  'GET /api/black/clean',
  'POST /api/black/clean',
  'GET /api/sessionConfig',
  'GET /api/sessionType',
  'GET /api/sensitive/pii',
  'GET /api/security/me',
  'GET /api/security/sessions',
  'POST /api/security/sessions/revokeOthers',
  'POST /api/security/totp/setup',
  'GET /api/security/policy',
  'GET /api/key/info',
  'POST /api/key/save',
  'GET /api/webhook/config',
  'POST /api/webhook/test',
  'GET /api/business/list',
  'GET /api/monitor/timeoutAgentserviceSize',
  'GET /api/monitor/rules',
]);

export const routeKey = (r: Pick<CatalogRoute, 'method' | 'url'>): string => `${r.method} ${r.url}`;

/** /api routes registered without an input schema and not on NO_INPUT_ROUTES (must be none). */
export const undeclaredRoutes = (routes: readonly CatalogRoute[]): string[] =>
  routes
    .filter((r) => r.url.startsWith('/api/') && !r.input && !NO_INPUT_ROUTES.has(routeKey(r)))
    .map(routeKey);

type Json = Record<string, unknown>;

/** JSON Schema (2020-12, what OpenAPI 3.1 uses) of what a client sends: the schema's input side. */
function jsonSchemaOf(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    // Transforms and refinements have no JSON form; their input side is described instead.
    unrepresentable: 'any',
  }) as Json;
  delete out.$schema;
  return out;
}

/** The named properties of an object schema (also through allOf, which .and() produces). */
function propertiesOf(s: Json): { props: Record<string, Json>; required: Set<string> } {
  const props: Record<string, Json> = { ...((s.properties as Record<string, Json> | undefined) ?? {}) };
  const required = new Set<string>((s.required as string[] | undefined) ?? []);
  for (const part of (s.allOf as Json[] | undefined) ?? []) {
    const inner = propertiesOf(part);
    Object.assign(props, inner.props);
    for (const r of inner.required) required.add(r);
  }
  return { props, required };
}

/** `/api/talk/end/message` → `talk_end_message_get` (stable, unique per method and path). */
const operationId = (method: string, url: string) =>
  `${url
    .replace(/^\/api\//, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/_+$/, '')}_${method.toLowerCase()}`;

function permissionText(p: unknown): string | undefined {
  if (typeof p === 'string') return p;
  if (Array.isArray(p)) return p.join(' | ');
  return undefined;
}

function operation(r: CatalogRoute): Json {
  const op: Json = {
    operationId: operationId(r.method, r.url),
    tags: [r.url.split('/')[2] ?? 'api'],
    responses: {
      '200': {
        description: 'The envelope: `success` true with `data`, or false with `msg`, `code` and `key`.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
      },
    },
  };
  if (PUBLIC_API.has(r.url)) op.security = [];
  const permission = permissionText(r.permission);
  if (permission) {
    op['x-permission'] = permission;
    op.description = `Permission code: ${permission}.`;
  }
  if (!r.input) return op;
  const schema = jsonSchemaOf(r.input);
  if (r.method === 'GET' || r.method === 'DELETE') {
    const { props, required } = propertiesOf(schema);
    op.parameters = Object.entries(props).map(([name, s]) => ({
      name,
      in: 'query',
      required: required.has(name),
      schema: s,
    }));
  } else {
    const content: Json =
      r.media === 'multipart/form-data'
        ? { 'multipart/form-data': { schema } }
        : { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } };
    op.requestBody = { required: true, content };
  }
  return op;
}

/** The OpenAPI 3.1 description of the recorded /api routes, every input from its zod schema. */
export function buildOpenApi(routes: readonly CatalogRoute[], version: string): Json {
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    if (!r.url.startsWith('/api/')) continue;
    const item = (paths[r.url] ??= {});
    item[r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'kefu HTTP API',
      version,
      description:
        'Generated at run time from the zod schemas of packages/protocol that validate each route. ' +
        'Every /api call except the public ones needs the `authorization` header (the token of POST /tokens).',
    },
    servers: [{ url: '/' }],
    security: [{ token: [] }],
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'authorization' } },
      schemas: {
        Envelope: {
          type: 'object',
          required: ['success', 'msg', 'code'],
          properties: {
            success: { type: 'boolean' },
            data: {},
            msg: { type: 'string' },
            code: { type: 'integer' },
            key: { type: 'string', enum: Object.keys(ERROR_MESSAGES) },
            fields: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
      },
    },
    paths,
  };
}
