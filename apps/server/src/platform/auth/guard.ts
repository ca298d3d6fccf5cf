import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { hasPermission, type PermissionRequirement } from '@kefu/protocol';
import { forbidden, unauthorized } from '../http/errors.js';
import type { Db } from '../db/database.js';
import { checkToken } from './tokens.js';
import { loadPrincipal, type Principal } from './principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    user?: Principal;
  }
}

/** The token travels in the authorization header (optionally "Bearer "), or ?authorization= for downloads. */
export function tokenFrom(req: FastifyRequest): string {
  const h = req.headers.authorization;
  if (typeof h === 'string' && h) return h.replace(/^Bearer\s+/i, '').trim();
  const q = (req.query as Record<string, unknown> | undefined)?.authorization;
  return typeof q === 'string' ? q : '';
}

export async function authenticate(db: Db, token: string): Promise<Principal> {
  if (!token) throw unauthorized('not_logged_in');
  const check = await checkToken(db.kysely, token);
  if (!check.ok) throw unauthorized(check.reason === 'unknown' ? 'not_logged_in' : 'token_expired');
  const principal = await loadPrincipal(db.kysely, check.userid, token);
  if (!principal) throw unauthorized('token_expired');
  return principal;
}

/** /api paths that the login page needs before anyone is logged in. */
const PUBLIC_API = new Set(['/api/language', '/api/language/languageList']);

/** Every /api route passes through this, except PUBLIC_API; other public routes live outside /api. */
export function installAuth(app: FastifyInstance, db: Db): void {
  app.addHook('onRequest', async (req) => {
    const path = req.url.split('?')[0];
    if (!path.startsWith('/api/') || PUBLIC_API.has(path)) return;
    req.user = await authenticate(db, tokenFrom(req));
  });
}

/** Route-level permission guard: one code, or a list where any one suffices. */
export function requires(required: PermissionRequirement): preHandlerAsyncHookHandler {
  return async (req) => {
    const u = req.user;
    if (!u) throw unauthorized();
    if (!hasPermission(u.usertype, u.auth, required)) throw forbidden();
  };
}

export function principal(req: FastifyRequest): Principal {
  if (!req.user) throw unauthorized();
  return req.user;
}
