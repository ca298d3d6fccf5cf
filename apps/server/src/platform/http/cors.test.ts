import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, perTest } from '../../../test/factories.js';
import { loadSecurityConfig } from './security-config.js';

const env = perTest();

const allowed = async (app: FastifyInstance, origin: string, method: 'GET' | 'OPTIONS' = 'GET') => {
  const res = await app.inject({
    method,
    url: '/im/config?appid=x',
    headers: { origin, ...(method === 'OPTIONS' ? { 'access-control-request-method': 'POST' } : {}) },
  });
  return res.headers['access-control-allow-origin'];
};

/** socket.io's polling handshake, over real HTTP (it runs beside Fastify). */
function pollingOrigin(url: string, origin: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/socket.io/?EIO=4&transport=polling`, { headers: { origin } }, (res) => {
      res.resume();
      const h = res.headers['access-control-allow-origin'];
      resolve(Array.isArray(h) ? h[0] : h);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('CORS answers only configured origins', () => {
  it('KEFU_CORS_ORIGINS and the access points domains; never null, never any origin', async () => {
    const t = await env.seeded({
      security: loadSecurityConfig({ KEFU_CORS_ORIGINS: 'https://dev.example.com' }),
    });
    for (const origin of ['https://evil.example.com', 'null', 'https://shop.example.com']) {
      expect(await allowed(t.app, origin), origin).toBeUndefined();
      expect(await allowed(t.app, origin, 'OPTIONS'), origin).toBeUndefined();
    }
    expect(await allowed(t.app, 'https://dev.example.com')).toBe('https://dev.example.com');
    expect(await allowed(t.app, 'https://dev.example.com', 'OPTIONS')).toBe('https://dev.example.com');

    // A website access point names its site: that origin (http and https when no scheme is given) is allowed.
    const saved = await call<{ id: string }>(t.app, t.adminToken, 'POST', '/api/dialogue/access/save', {
      name: 'Shop',
      domain: 'shop.example.com',
    });
    expect(saved.body.success).toBe(true);
    expect(await allowed(t.app, 'https://shop.example.com')).toBe('https://shop.example.com');
    expect(await allowed(t.app, 'http://shop.example.com')).toBe('http://shop.example.com');
    expect(await allowed(t.app, 'https://shop.example.com.evil.net')).toBeUndefined();
    const res = await t.app.inject({
      url: '/im/config?appid=x',
      headers: { origin: 'https://shop.example.com' },
    });
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(res.headers.vary)).toMatch(/origin/i);
    // With a scheme, only that scheme; removing the access point removes its origin.
    await call(t.app, t.adminToken, 'POST', '/api/dialogue/access/update', {
      id: saved.body.data.id,
      name: 'Shop',
      domain: 'https://shop.example.com/help',
    });
    expect(await allowed(t.app, 'https://shop.example.com')).toBe('https://shop.example.com');
    expect(await allowed(t.app, 'http://shop.example.com')).toBeUndefined();
    await call(t.app, t.adminToken, 'POST', '/api/dialogue/access/delete', { id: saved.body.data.id });
    expect(await allowed(t.app, 'https://shop.example.com')).toBeUndefined();

    expect(() => loadSecurityConfig({ KEFU_CORS_ORIGINS: '*' })).toThrow(/KEFU_CORS_ORIGINS/);
    expect(() => loadSecurityConfig({ KEFU_CORS_ORIGINS: 'null' })).toThrow(/KEFU_CORS_ORIGINS/);
  });

  it("socket.io's polling transport asks the same list", async () => {
    const srv = await env.live(undefined, {
      security: loadSecurityConfig({ KEFU_CORS_ORIGINS: 'https://dev.example.com' }),
    });
    expect(await pollingOrigin(srv.url, 'https://evil.example.com')).toBeUndefined();
    expect(await pollingOrigin(srv.url, 'null')).toBeUndefined();
    expect(await pollingOrigin(srv.url, 'https://dev.example.com')).toBe('https://dev.example.com');
  });
});
