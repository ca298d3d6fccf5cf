import type { FastifyInstance } from 'fastify';
import {
  SENSITIVE_CHECK_CODE,
  SENSITIVE_CODE,
  SENSITIVE_HITS_CODES,
  SENSITIVE_KINDS,
  idSchema,
  piiRulesSchema,
  sensitiveBatchSchema,
  sensitiveBatdelSchema,
  sensitiveCheckSchema,
  sensitiveHitQuery,
  sensitivePageQuery,
  sensitiveSaveSchema,
  sensitiveUpdateSchema,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { pagingSchema } from '../../platform/http/paging.js';
import { withInput } from '../../platform/http/route.js';
import { installSettingsBus } from '../../platform/settings/org-settings.js';
import { auditBefore } from '../audit/audit.hook.js';
import * as service from './sensitive.service.js';
import { screenOf } from './screen.js';

/**
 * Sensitive words (A09_A03_A06): `/api/sensitive/{agent|user}/page|save|batadd|update|delete|batdel`, the
 * masking rules, the composer's check (A01) and the hit list for supervisors and quality (A03 or A11).
 */
export function registerSensitive(app: FastifyInstance, { db, config }: AppContext): void {
  installSettingsBus(app, db, config.redisUrl);
  app.addHook('onListen', async () => {
    void screenOf(db)
      .preload()
      .catch((err: unknown) => app.log.error({ err }, 'sensitive lists preload failed'));
  });
  const guard = { preHandler: requires(SENSITIVE_CODE) };
  for (const kind of SENSITIVE_KINDS) {
    const base = `/api/sensitive/${kind}`;
    app.get(`${base}/page`, {
      ...guard,
      ...withInput(sensitivePageQuery.extend(pagingSchema.shape), async (req, q) =>
        ok(await service.pageWords(db, principal(req), kind, q, q)),
      ),
    });
    app.post(`${base}/save`, {
      ...guard,
      ...withInput(sensitiveSaveSchema, async (req, body) =>
        ok(await service.saveWord(db, principal(req), kind, body)),
      ),
    });
    app.post(`${base}/batadd`, {
      ...guard,
      // 20,000 lines of up to 50 characters do not fit the default 1 MB body limit.
      bodyLimit: 4 * 1024 * 1024,
      ...withInput(sensitiveBatchSchema, async (req, body) =>
        ok(await service.batchAdd(db, principal(req), kind, body)),
      ),
    });
    app.post(`${base}/update`, {
      ...guard,
      ...withInput(sensitiveUpdateSchema, async (req, body) => {
        const { before, after } = await service.updateWord(db, principal(req), kind, body);
        auditBefore(req, before, before.id);
        return ok(after);
      }),
    });
    app.route({
      method: ['GET', 'POST'],
      url: `${base}/delete`,
      ...guard,
      ...withInput(idSchema, async (req, { id }) => {
        await service.deleteWords(db, principal(req), kind, [id]);
        return ok(null);
      }),
    });
    app.route({
      method: ['GET', 'POST'],
      url: `${base}/batdel`,
      ...guard,
      ...withInput(sensitiveBatdelSchema, async (req, { ids }) =>
        ok(await service.deleteWords(db, principal(req), kind, ids)),
      ),
    });
  }
  app.post('/api/sensitive/check', {
    preHandler: requires(SENSITIVE_CHECK_CODE),
    ...withInput(sensitiveCheckSchema, async (req, { text }) =>
      ok(await service.check(db, principal(req), text)),
    ),
  });
  // Every console user needs the masking rules (they apply wherever text is shown).
  app.get('/api/sensitive/pii', async (req) => ok(await service.piiRules(db, principal(req).orgi)));
  app.post('/api/sensitive/pii/save', {
    ...guard,
    ...withInput(piiRulesSchema, async (req, body) => {
      const { before, after } = await service.savePiiRules(db, principal(req), body);
      auditBefore(req, before);
      return ok(after);
    }),
  });
  app.get('/api/sensitive/hits', {
    preHandler: requires(SENSITIVE_HITS_CODES),
    ...withInput(sensitiveHitQuery.extend(pagingSchema.shape), async (req, q) =>
      ok(await service.hitList(db, principal(req), q, q)),
    ),
  });
}
