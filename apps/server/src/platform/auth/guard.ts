import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { hasPermission, type PermissionRequirement } from '@kefu/protocol';
import { forbidden, unauthorized } from '../http/errors.js';
import type { Db } from '../db/database.js';
import { hashToken } from './tokens.js';
import { loadPrincipalByToken, type Principal } from './principal.js';
import { connectInvalidations, principalCache } from './cache.js';
import { PERMISSION } from '../http/route.js';

declare module 'fastify' {
  interface FastifyRequest {
    user?: Principal;
  }
}

/** The token travels in the authorization header (optionally "Bearer "); never in a URL, except mediaTokenFrom. */
export function tokenFrom(req: FastifyRequest): string {
  const h = req.headers.authorization;
  return typeof h === 'string' && h ? h.replace(/^Bearer\s+/i, '').trim() : '';
}

/**
 * /res/* downloads only: an <img>, <audio> or link cannot send a header, so the token may come as
 * ?authorization= (the request logger masks it). Everywhere else a token in the URL is ignored.
 */
export function mediaTokenFrom(req: FastifyRequest): string {
  const fromHeader = tokenFrom(req);
  if (fromHeader) return fromHeader;
  const q = (req.query as Record<string, unknown> | undefined)?.authorization;
  return typeof q === 'string' ? q : '';
}

/**
 * Resolves a token to its principal: from the per-node cache (a few seconds, dropped at once by logout,
 * password change, user or role changes, and across nodes through Redis), else one token+user query plus
 * the role codes. Used by every /api request and by agent sockets.
 */
export async function authenticate(db: Db, token: string): Promise<Principal> {
  if (!token || token.length > 200) throw unauthorized('not_logged_in');
  const cache = principalCache(db);
  const hash = hashToken(token);
  const hit = cache.get(hash);
  if (hit) return hit;
  const gen = cache.generation();
  const r = await loadPrincipalByToken(db.kysely, hash, token);
  if (!r.ok) throw unauthorized(r.reason === 'unknown' ? 'not_logged_in' : 'token_expired');
  cache.set(hash, r.principal, r.expires, gen);
  return r.principal;
}

/** /api paths that the login page needs before anyone is logged in, and the API description. */
export const PUBLIC_API: ReadonlySet<string> = new Set([
  '/api/language',
  '/api/language/languageList',
  '/api/openapi.json',
]);

/** Every /api route passes through this, except PUBLIC_API; other public routes live outside /api. */
export function installAuth(app: FastifyInstance, db: Db, redisUrl?: string): void {
  if (redisUrl) {
    const link = connectInvalidations(db, redisUrl);
    app.addHook('onReady', async () => {
      // Do not hold start-up hostage to Redis; until subscribed, the TTL bounds staleness.
      await Promise.race([link.ready, new Promise((r) => setTimeout(r, 3_000).unref())]);
    });
    app.addHook('onClose', async () => link.close());
  }
  app.addHook('onRequest', async (req) => {
    const url = req.url;
    if (!url.startsWith('/api/')) return;
    const q = url.indexOf('?');
    if (PUBLIC_API.has(q < 0 ? url : url.slice(0, q))) return;
    req.user = await authenticate(db, tokenFrom(req));
  });
}

/** Route-level permission guard: one code, or a list where any one suffices. */
export function requires(required: PermissionRequirement): preHandlerHookHandler {
  // A callback hook, not an async one: no promise per request.
  const hook: preHandlerHookHandler = (req, _reply, done) => {
    const u = req.user;
    if (!u) done(unauthorized());
    else if (!hasPermission(u.usertype, u.auth, required)) done(forbidden());
    else done();
  };
  // Published with the route in /api/openapi.json (route.ts).
  return Object.assign(hook, { [PERMISSION]: required });
}

export function principal(req: FastifyRequest): Principal {
  if (!req.user) throw unauthorized();
  return req.user;
}
