import type { FastifyInstance } from 'fastify';
import { loginSchema } from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { tokenFrom } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { parse } from '../../platform/http/validate.js';
import * as service from './auth.service.js';
import { MemoryLoginLimiter, type LoginLimiter } from './login-limiter.js';

/** Public token calls (outside /api, so the /api guard does not apply). */
export function registerAuth(app: FastifyInstance, ctx: AppContext, limiter?: LoginLimiter): void {
  const attempts = limiter ?? new MemoryLoginLimiter(ctx.config.loginRateLimit);
  app.post('/tokens', async (req) => {
    const body = parse(loginSchema, req.body);
    const meta = { ip: req.ip, useragent: String(req.headers['user-agent'] ?? '') };
    return ok(await service.login(ctx, attempts, body, meta));
  });
  app.delete('/tokens', async (req) => {
    await service.logout(ctx.db, tokenFrom(req));
    return ok(null);
  });
  app.get('/tokens/info', async () => ok(await service.tokenInfo(ctx.db, ctx.config.orgi)));
}
