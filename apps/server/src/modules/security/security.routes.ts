import type { FastifyInstance } from 'fastify';
import {
  CORPORATE_SECURITY_CODE,
  PERSONAL_SECURITY_CODE,
  loginStepSchema,
  securityPolicySchema,
  totpCodeSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { withInput } from '../../platform/http/route.js';
import { installSettingsBus } from '../../platform/settings/org-settings.js';
import { auditBefore } from '../audit/audit.hook.js';
import { installIdleTimeout } from './idle.js';
import { continueLogin } from './step.service.js';
import * as service from './security.service.js';
import { sweepTickets } from './security.repository.js';

/**
 * Personal security (A09_A07_A01: sessions, two-factor), corporate security (A09_A07_A02: the policy),
 * the login's second step (POST /tokens/step, public like POST /tokens) and the idle timeout.
 */
export function registerSecurity(app: FastifyInstance, ctx: AppContext): void {
  const { db, config } = ctx;
  installSettingsBus(app, db, config.redisUrl);
  installIdleTimeout(app, db);
  const sweep = setInterval(
    () => void sweepTickets(db.kysely, Date.now()).catch(() => undefined),
    10 * 60_000,
  );
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  app.post(
    '/tokens/step',
    withInput(loginStepSchema, async (req, body) =>
      ok(await continueLogin(ctx, body, { ip: req.ip, useragent: String(req.headers['user-agent'] ?? '') })),
    ),
  );

  const mine = { preHandler: requires(PERSONAL_SECURITY_CODE) };
  app.get('/api/security/me', { ...mine }, async (req) => ok(await service.mySecurity(db, principal(req))));
  app.get('/api/security/sessions', { ...mine }, async (req) =>
    ok(await service.sessions(db, principal(req))),
  );
  app.post('/api/security/sessions/revokeOthers', { ...mine }, async (req) =>
    ok(await service.revokeOthers(db, principal(req))),
  );
  app.post('/api/security/totp/setup', { ...mine }, async (req) =>
    ok(await service.totpSetup(db, principal(req))),
  );
  app.post('/api/security/totp/enable', {
    ...mine,
    ...withInput(totpCodeSchema, async (req, { code }) =>
      ok(await service.totpEnable(db, principal(req), code)),
    ),
  });
  app.post('/api/security/totp/disable', {
    ...mine,
    ...withInput(totpCodeSchema, async (req, { code }) => {
      await service.totpDisable(db, principal(req), code);
      return ok(null);
    }),
  });

  const corp = { preHandler: requires(CORPORATE_SECURITY_CODE) };
  app.get('/api/security/policy', { ...corp }, async (req) =>
    ok({ policy: await service.policy(db, principal(req)), ip: req.ip }),
  );
  app.post('/api/security/policy/save', {
    ...corp,
    ...withInput(securityPolicySchema, async (req, body) => {
      const { before, after } = await service.savePolicy(db, principal(req), body, req.ip);
      auditBefore(req, before);
      return ok(after);
    }),
  });
}
