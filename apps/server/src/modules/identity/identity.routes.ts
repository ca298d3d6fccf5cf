import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CORPORATE_SECURITY_CODE,
  IDENTITY_API,
  PERSONAL_SECURITY_CODE,
  THIRD_LOGIN_PATH,
  loginOptionsQuery,
  providerIdSchema,
  providerSaveSchema,
  registerSchema,
  thirdBindSchema,
  thirdCallbackSchema,
  thirdStartSchema,
  unbindSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import { guardedRoute } from '../../platform/http/guarded-route.js';
import { auditBefore } from '../audit/audit.hook.js';
import { MemoryLoginLimiter, redisLoginLimiter } from '../auth/login-limiter.js';
import * as providers from './provider.service.js';
import { register } from './register.service.js';
import * as third from './third.service.js';
import { enabledProviders } from './identity.repository.js';

const meta = (req: FastifyRequest) => ({ ip: req.ip, useragent: String(req.headers['user-agent'] ?? '') });
const warn = (req: FastifyRequest) => (reason: string) =>
  req.log.warn({ reason }, 'third-party login refused');

/**
 * Self-registration and third-party login (public, outside /api like POST /tokens), the providers'
 * settings (corporate security) and the user's linked identities (personal security).
 */
export function registerIdentity(app: FastifyInstance, ctx: AppContext): void {
  const { db, config } = ctx;
  // With REDIS_URL every node counts against one window per address; alone, the node's memory suffices.
  const registrations = config.redisUrl
    ? redisLoginLimiter(config.redisUrl, 'register', config.registerRateLimit, 3_600_000)
    : new MemoryLoginLimiter(config.registerRateLimit, 3_600_000);
  if ('close' in registrations) app.addHook('onClose', () => registrations.close());
  const binds = new MemoryLoginLimiter(config.loginRateLimit);

  app.get(
    IDENTITY_API.options,
    withInput(loginOptionsQuery, async (_req, q) =>
      ok({
        register: config.selfRegister,
        providers: await enabledProviders(db.kysely, q.orgi || config.orgi),
      }),
    ),
  );
  app.post(
    IDENTITY_API.register,
    withInput(registerSchema, async (req, body) => ok(await register(ctx, registrations, body, req.ip))),
  );
  app.post(
    IDENTITY_API.thirdStart,
    withInput(thirdStartSchema, async (req, body) => {
      // The provider sends the browser back to the console page that called (behind KEFU_TRUST_PROXY, its public address).
      const redirect = `${req.protocol}://${req.host}${THIRD_LOGIN_PATH}`;
      return ok(await third.start(ctx, body.provider, redirect, warn(req)));
    }),
  );
  app.post(
    IDENTITY_API.thirdCallback,
    withInput(thirdCallbackSchema, async (req, body) =>
      ok(await third.callback(ctx, body, meta(req), warn(req))),
    ),
  );
  app.post(
    IDENTITY_API.thirdBind,
    withInput(thirdBindSchema, async (req, body) => ok(await third.bind(ctx, binds, body, meta(req)))),
  );

  const corp = guardedRoute(app, CORPORATE_SECURITY_CODE);
  corp('GET', IDENTITY_API.providers, loginOptionsQuery.pick({}), (req) =>
    providers.providers(db, principal(req)),
  );
  corp('POST', IDENTITY_API.providerSave, providerSaveSchema, async (req, body) => {
    const { before, after } = await providers.saveProvider(db, principal(req), body);
    auditBefore(req, before, after.id);
    return after;
  });
  corp('POST', IDENTITY_API.providerDelete, providerIdSchema, async (req, { id }) => {
    auditBefore(req, await providers.deleteProvider(db, principal(req), id), id);
    return null;
  });

  const mine = guardedRoute(app, PERSONAL_SECURITY_CODE);
  mine('GET', IDENTITY_API.mine, loginOptionsQuery.pick({}), (req) => providers.mine(db, principal(req)));
  mine('POST', IDENTITY_API.unbind, unbindSchema, async (req, { provider }) => {
    await providers.unbind(db, principal(req), provider);
    return null;
  });
}
