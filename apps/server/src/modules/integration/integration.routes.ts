import type { FastifyInstance } from 'fastify';
import {
  SECRET_KEY_CODE,
  idSchema,
  webhookDeliveryQuery,
  webhookSaveSchema,
  type Page,
  type WebhookDeliveryDto,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import { principal, requires } from '../../platform/auth/guard.js';
import { badRequest, notFound, unauthorized } from '../../platform/http/errors.js';
import { ok } from '../../platform/http/envelope.js';
import { offsetOf, pageOf, pagingSchema } from '../../platform/http/paging.js';
import { withInput } from '../../platform/http/route.js';
import { installSettingsBus, orgSettings } from '../../platform/settings/org-settings.js';
import { auditBefore } from '../audit/audit.hook.js';
import { engineOf } from '../conversation/index.js';
import * as key from './key.service.js';
import { presentDelivery, webhookConfig, webhooks, WEBHOOK_SETTING } from './webhook.service.js';
import { watchForWebhooks } from './webhook.events.js';

/** Secret key and webhooks (A09_A06_A02), and the server-to-server check GET /open/verify. */
export function registerIntegration(app: FastifyInstance, { db, config }: AppContext): void {
  installSettingsBus(app, db, config.redisUrl);
  const w = webhooks(db);
  const tick = setInterval(() => w.kick(), 5_000);
  tick.unref();
  app.addHook('onReady', async () => {
    const e = engineOf(app);
    if (e) await watchForWebhooks(e);
  });
  app.addHook('onClose', async () => {
    clearInterval(tick);
    w.stop();
  });
  const guard = { preHandler: requires(SECRET_KEY_CODE) };
  const k = db.kysely;

  app.get('/api/key/info', guard, async (req) => ok(await key.info(k, principal(req).orgi)));
  // Shown once: the answer is the only place the secret ever appears (the audit record keeps ***).
  app.post('/api/key/save', guard, async (req) => ok(await key.rotate(k, principal(req))));

  app.get('/api/webhook/config', guard, async (req) => ok(await webhookConfig(db, principal(req).orgi)));
  app.post('/api/webhook/save', {
    ...guard,
    ...withInput(webhookSaveSchema, async (req, body) => {
      const p = principal(req);
      const before = await webhookConfig(db, p.orgi);
      const after = {
        ...before,
        ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
      };
      if (after.enabled && !after.url) throw badRequest('required', { url: 'required' });
      if (after.enabled && !(await key.info(k, p.orgi))) throw badRequest('secret_not_set');
      await orgSettings(db).save(p.orgi, WEBHOOK_SETTING, after);
      auditBefore(req, before);
      return ok(after);
    }),
  });
  app.post('/api/webhook/test', guard, async (req) => {
    const p = principal(req);
    const id = await w.emit(p.orgi, 'webhook.test', { message: 'kefu webhook test', by: p.username });
    if (!id) throw badRequest('required', { url: 'required' });
    return ok({ id });
  });
  app.get('/api/webhook/deliveries', {
    ...guard,
    ...withInput(webhookDeliveryQuery.extend(pagingSchema.shape), async (req, q): Promise<unknown> => {
      let sel = k.selectFrom('webhook_delivery').where('orgi', '=', principal(req).orgi);
      if (q.status) sel = sel.where('status', '=', q.status);
      const [rows, n] = await Promise.all([
        sel
          .selectAll()
          .orderBy('createtime', 'desc')
          .orderBy('id', 'desc')
          .offset(offsetOf(q))
          .limit(q.ps)
          .execute(),
        sel.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const page: Page<WebhookDeliveryDto> = pageOf(rows.map(presentDelivery), Number(n.n), q);
      return ok(page);
    }),
  });
  app.post('/api/webhook/retry', {
    ...guard,
    ...withInput(idSchema, async (req, { id }) => {
      const now = Date.now();
      const r = await k
        .updateTable('webhook_delivery')
        .set({ status: 'pending', nextattempt: now, updatetime: now })
        .where('orgi', '=', principal(req).orgi)
        .where('id', '=', id)
        .where('status', '=', 'failed')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw notFound();
      w.kick();
      return ok(null);
    }),
  });

  // A partner system checks its secret (header X-Kefu-Key) before using the other server-to-server calls.
  app.get('/open/verify', async (req) => {
    const given = req.headers['x-kefu-key'];
    const orgi = typeof given === 'string' ? await key.tenantOfSecret(k, given) : null;
    if (!orgi) throw unauthorized('not_logged_in');
    return ok({ orgi });
  });
}
