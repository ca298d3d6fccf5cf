import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../app.js';
import { createTestDb, type TestDb } from '../../../test/harness.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { CONSOLE_DIST, VISITOR_DIST } from './static.js';

const CSP =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors *;" +
  "img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';" +
  "style-src 'self' 'unsafe-inline';upgrade-insecure-requests;media-src 'self' blob:;connect-src 'self' ws: wss:";

/** What every response carries (header names lower-cased, as light-my-request reports them). */
const EXPECTED: Record<string, string> = {
  'content-security-policy': CSP,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const ABSENT = ['cross-origin-embedder-policy', 'x-frame-options', 'x-powered-by'];

function expectSecurityHeaders(res: LightMyRequestResponse, corp = 'same-origin'): void {
  for (const [name, value] of Object.entries(EXPECTED))
    expect(res.headers[name], name).toBe(name === 'cross-origin-resource-policy' ? corp : value);
  for (const name of ABSENT) expect(res.headers[name], name).toBeUndefined();
}

describe('security headers', () => {
  it('are exactly what @fastify/helmet sets with the configuration app.ts used to pass it', async () => {
    const ref = Fastify();
    await ref.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          mediaSrc: ["'self'", 'blob:'],
          connectSrc: ["'self'", 'ws:', 'wss:'],
          frameAncestors: ['*'],
        },
      },
      crossOriginEmbedderPolicy: false,
      frameguard: false,
    });
    ref.get('/x', async () => ({ ok: true }));
    const res = await ref.inject({ url: '/x' });
    await ref.close();
    expectSecurityHeaders(res);
    const ours = Object.fromEntries(SECURITY_HEADERS.map(([n, v]) => [n.toLowerCase(), v]));
    const theirs = Object.fromEntries(
      Object.entries(res.headers).filter(
        ([n]) => !['content-type', 'content-length', 'date', 'connection', 'vary'].includes(n),
      ),
    );
    expect(ours).toEqual(theirs);
  });

  describe('on the app', () => {
    let tdb: TestDb;
    let app: FastifyInstance;
    beforeAll(async () => {
      tdb = await createTestDb();
      ({ app } = await buildApp({ config: tdb.config, db: tdb.db, serveStatic: true }));
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
      await tdb.drop();
    });

    it('an /api response (and its error envelope)', async () => {
      const pub = await app.inject({ url: '/api/language' });
      expect(pub.statusCode).toBe(200);
      expectSecurityHeaders(pub);
      const denied = await app.inject({ url: '/api/talk/chatMessage?agentserviceid=x' });
      expect(denied.statusCode).toBe(401);
      expectSecurityHeaders(denied);
      const cross = await app.inject({
        url: '/api/language',
        headers: { origin: 'https://shop.example.com' },
      });
      expect(cross.headers['access-control-allow-origin']).toBe('https://shop.example.com');
      expectSecurityHeaders(cross);
    });

    it.skipIf(!existsSync(join(CONSOLE_DIST, 'index.html')))('a console page', async () => {
      for (const url of ['/', '/apps/dialogue']) {
        const res = await app.inject({ url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expectSecurityHeaders(res);
      }
    });

    it.skipIf(!existsSync(join(VISITOR_DIST, 'loader.js')))(
      '/im/loader.js may be loaded cross-origin; other visitor files may not',
      async () => {
        const loader = await app.inject({ url: '/im/loader.js?v=1' });
        expect(loader.statusCode).toBe(200);
        expectSecurityHeaders(loader, 'cross-origin');
        const page = await app.inject({ url: '/visitor' });
        expect(page.statusCode).toBe(200);
        expectSecurityHeaders(page);
      },
    );
  });
});
