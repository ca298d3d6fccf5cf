import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../app.js';
import { createTestDb, type TestDb } from '../../../test/harness.js';
import { securityHeaders } from './security-headers.js';
import { loadSecurityConfig } from './security-config.js';
import { CONSOLE_DIST, VISITOR_DIST } from './static.js';

/** The CSP with a given frame-ancestors: `*` on the visitor pages (company sites frame them), else 'self'. */
const cspWith = (frameAncestors: string, img = '') =>
  `default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors ${frameAncestors};` +
  `img-src 'self' data: blob:${img};object-src` +
  " 'none';script-src 'self';script-src-attr 'none';" +
  "style-src 'self' 'unsafe-inline';upgrade-insecure-requests;media-src 'self' blob:;connect-src 'self' ws: wss:";
const HELMET_VISITOR_CSP = cspWith('*');
/** The visitor pages also draw https images (the administrator's logo and robot avatar). */
const VISITOR_CSP = cspWith('*', ' https:');
const CONSOLE_CSP = cspWith("'self'");

/** What every response carries (header names lower-cased, as light-my-request reports them). */
const EXPECTED: Record<string, string> = {
  'content-security-policy': CONSOLE_CSP,
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

function expectSecurityHeaders(res: LightMyRequestResponse, corp = 'same-origin', csp = CONSOLE_CSP): void {
  for (const [name, value] of Object.entries(EXPECTED))
    expect(res.headers[name], name).toBe(
      name === 'cross-origin-resource-policy' ? corp : name === 'content-security-policy' ? csp : value,
    );
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
    expectSecurityHeaders(res, 'same-origin', HELMET_VISITOR_CSP);
    const ours = Object.fromEntries(securityHeaders(['*']).map(([n, v]) => [n.toLowerCase(), v]));
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
      expect(cross.headers['access-control-allow-origin']).toBeUndefined(); // not configured: see cors.test.ts
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
        expectSecurityHeaders(loader, 'cross-origin', VISITOR_CSP);
        const page = await app.inject({ url: '/visitor' });
        expect(page.statusCode).toBe(200);
        expectSecurityHeaders(page, 'same-origin', VISITOR_CSP);
      },
    );
  });
});

describe('frame-ancestors', () => {
  const csp = (res: LightMyRequestResponse) => String(res.headers['content-security-policy']);
  const frameAncestors = (res: LightMyRequestResponse) => /frame-ancestors ([^;]*)/.exec(csp(res))?.[1];

  it("the console defaults to 'self', KEFU_FRAME_ANCESTORS widens it; the visitor pages stay open to any site", async () => {
    const tdb = await createTestDb();
    const plain = (await buildApp({ config: tdb.config, db: tdb.db })).app;
    const framed = (
      await buildApp({
        config: {
          ...tdb.config,
          security: loadSecurityConfig({ KEFU_FRAME_ANCESTORS: "'self' https://portal.example.com" }),
        },
        db: tdb.db,
      })
    ).app;
    try {
      for (const url of ['/', '/apps/dialogue', '/login', '/api/language'])
        expect(frameAncestors(await plain.inject({ url })), url).toBe("'self'");
      expect(frameAncestors(await framed.inject({ url: '/apps/dialogue' }))).toBe(
        "'self' https://portal.example.com",
      );
      for (const app of [plain, framed])
        for (const url of ['/visitor/pc?appid=x', '/im/config?appid=x'])
          expect(frameAncestors(await app.inject({ url })), url).toBe('*');
      expect(() => loadSecurityConfig({ KEFU_FRAME_ANCESTORS: "* ; script-src 'unsafe-inline'" })).toThrow(
        /KEFU_FRAME_ANCESTORS/,
      );
    } finally {
      await plain.close();
      await framed.close();
      await tdb.drop();
    }
  });
});
