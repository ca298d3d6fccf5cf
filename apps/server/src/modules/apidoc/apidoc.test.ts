import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { installRouteCatalog, routeCatalog, withInput } from '../../platform/http/route.js';
import { NO_INPUT_ROUTES, routeKey, undeclaredRoutes } from '../../platform/http/openapi.js';

type Op = {
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: {
    content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }>;
  };
  security?: unknown[];
  'x-permission'?: string;
};
type Doc = { openapi: string; paths: Record<string, Record<string, Op>> };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('/api routes declare their input', () => {
  it('every registered /api route carries its zod schema, or is on the no-input allow-list', () => {
    const api = routeCatalog(t.app).filter((r) => r.url.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(80);
    expect(undeclaredRoutes(routeCatalog(t.app))).toEqual([]);
    // The allow-list names only real routes that indeed take nothing.
    const bare = new Set(api.filter((r) => !r.input).map(routeKey));
    expect([...NO_INPUT_ROUTES].filter((k) => !bare.has(k))).toEqual([]);
  });

  it('a route registered without a schema is caught; withInput declares and validates', async () => {
    const app = Fastify();
    installRouteCatalog(app);
    app.get('/api/x/list', async () => ({}));
    app.post(
      '/api/x/save',
      withInput(z.object({ name: z.string().min(1, 'required') }), async (_r, b) => b),
    );
    await app.ready();
    expect(undeclaredRoutes(routeCatalog(app))).toEqual(['GET /api/x/list']);
    const bad = await app.inject({ method: 'POST', url: '/api/x/save', payload: {} });
    expect(bad.statusCode).toBe(400);
    const good = await app.inject({ method: 'POST', url: '/api/x/save', payload: { name: 'a' } });
    expect(good.json()).toEqual({ name: 'a' });
    await app.close();
  });
});

describe('GET /api/openapi.json', () => {
  it('is public OpenAPI 3.1 generated from the schemas, with the permission codes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<Doc>();
    expect(doc.openapi).toBe('3.1.0');
    const save = doc.paths['/api/user/save']?.post;
    const body = save?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(body?.properties ?? {})).toEqual(
      expect.arrayContaining(['username', 'password', 'uname', 'roles']),
    );
    expect(body?.required).toEqual(expect.arrayContaining(['username', 'password', 'uname']));
    expect(save?.['x-permission']).toBe('A09_A02_A01 | A09_A03_A13');
    const messages = doc.paths['/api/talk/chatMessage']?.get;
    expect(messages?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['agentserviceid', 'before', 'ps']),
    );
    expect(messages?.parameters?.every((p) => p.in === 'query')).toBe(true);
    // Delete calls answer GET and POST alike.
    expect(Object.keys(doc.paths['/api/organ/delete'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(doc.paths['/api/upload']?.post?.requestBody?.content['multipart/form-data']).toBeDefined();
    expect(doc.paths['/api/language']?.get?.security).toEqual([]);
    // Every operation describes its input unless the route is allow-listed as taking none, or declares
    // an empty object schema (it validates that it takes nothing, so there is nothing to describe).
    const declaredEmpty = new Set(
      routeCatalog(t.app)
        .filter((r) => r.input instanceof z.ZodObject && Object.keys(r.input.shape).length === 0)
        .map(routeKey),
    );
    for (const [url, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        const declared = !!op.parameters?.length || !!op.requestBody;
        const key = `${method.toUpperCase()} ${url}`;
        const allowed = NO_INPUT_ROUTES.has(key) || declaredEmpty.has(key);
        expect(declared || allowed, `${method} ${url}`).toBe(true);
      }
  });
});
