import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  SNS_CODES,
  WEAPP_CODE,
  WECHAT_CODE,
  channelAppSaveSchema,
  channelAppUpdateSchema,
  idSchema,
  imrSaveSchema,
  kfAccountAddSchema,
  kfAccountRef,
  kfAccountUpdateSchema,
  kfAssociationSchema,
  kfWayQuery,
  snsPageQuery,
  snsSaveSchema,
  snsUpdateSchema,
  type PlatformChannel,
} from '@kefu/protocol';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { pagingSchema, pageOf } from '../../platform/http/paging.js';
import { withInput } from '../../platform/http/route.js';
import type { ChannelRuntime } from './runtime.js';
import * as svc from './setup.service.js';
import * as imr from './imr.setup.js';

const optionalAppRef = z.object({ id: z.string().max(64, 'too_long').optional() });

/** The server's public origin as the caller reached it (behind a trusted proxy: its forwarded host). */
const originOf = (req: FastifyRequest): string => `${req.protocol}://${req.host}`;

/**
 * Setup calls: `/api/snsAccount/*` (every channel account in one list), `/api/wechat/kf/*` (WeChat
 * customer service), `/api/wechat/*` (official accounts) and `/api/weApp/*` (mini-programs), with their
 * `imr` auto-replies. docs/api.md "Messaging channels".
 */
export function setupRoutes(app: FastifyInstance, rt: ChannelRuntime): void {
  const any = { preHandler: requires([...SNS_CODES]) };
  const wechat = { preHandler: requires(WECHAT_CODE) };
  const both = ['GET', 'POST'] as ('GET' | 'POST')[];

  app.get('/api/snsAccount/page', {
    ...any,
    ...withInput(snsPageQuery.extend(pagingSchema.shape), async (req, q) =>
      ok(await svc.accountPage(rt, principal(req), q, q)),
    ),
  });
  app.get('/api/snsAccount/list', {
    ...any,
    ...withInput(snsPageQuery, async (req, q) => ok(await svc.accountList(rt, principal(req), q.channel))),
  });
  app.post('/api/snsAccount/save', {
    ...any,
    ...withInput(snsSaveSchema, async (req, b) => ok(await svc.saveApp(rt, principal(req), b))),
  });
  app.post('/api/snsAccount/update', {
    ...any,
    ...withInput(snsUpdateSchema, async (req, b) => ok(await svc.updateApp(rt, principal(req), b))),
  });
  // Any channel's push URL, Token and key (Douyin and bcp have no setup screen of their own).
  app.get('/api/snsAccount/callback', {
    ...any,
    ...withInput(idSchema, async (req, { id }) =>
      ok(await svc.callbackConfig(rt, principal(req), id, originOf(req))),
    ),
  });
  app.route({
    method: both,
    url: '/api/snsAccount/delete',
    ...any,
    ...withInput(idSchema, async (req, { id }) => {
      await svc.removeApp(rt, principal(req), id);
      return ok(null);
    }),
  });

  // ---- WeChat customer service (the corp is saved through snsAccount with channel wechat)
  const kf = '/api/wechat/kf';
  const firstKf = async (req: FastifyRequest, id: string | undefined) =>
    id || (await svc.appList(rt, principal(req), 'wechat'))[0]?.id || '';
  app.get(`${kf}/getCallbackConfig`, {
    ...wechat,
    ...withInput(optionalAppRef, async (req, q) =>
      ok(await svc.callbackConfig(rt, principal(req), await firstKf(req, q.id), originOf(req))),
    ),
  });
  app.post(`${kf}/pullAccount`, {
    ...wechat,
    ...withInput(optionalAppRef, async (req, q) =>
      ok(await svc.pullAccounts(rt, principal(req), await firstKf(req, q.id))),
    ),
  });
  app.post(`${kf}/addAccount`, {
    ...wechat,
    ...withInput(kfAccountAddSchema, async (req, b) =>
      ok(await svc.addKfAccount(rt, principal(req), b.id, b.name)),
    ),
  });
  app.post(`${kf}/updateAccount`, {
    ...wechat,
    ...withInput(kfAccountUpdateSchema, async (req, b) =>
      ok(await svc.updateKfAccount(rt, principal(req), b.accountid, b.name)),
    ),
  });
  app.route({
    method: both,
    url: `${kf}/delAccount`,
    ...wechat,
    ...withInput(kfAccountRef, async (req, b) => {
      await svc.delKfAccount(rt, principal(req), b.accountid);
      return ok(null);
    }),
  });
  app.post(`${kf}/association`, {
    ...wechat,
    ...withInput(kfAssociationSchema, async (req, b) =>
      ok(await svc.associate(rt, principal(req), b.accountid, b.organ, b.robotid)),
    ),
  });
  app.post(`${kf}/unAssociation`, {
    ...wechat,
    ...withInput(kfAccountRef, async (req, b) =>
      ok(await svc.associate(rt, principal(req), b.accountid, null)),
    ),
  });
  app.get(`${kf}/associationList`, {
    ...wechat,
    ...withInput(z.object({}), async (req) => ok(await svc.accountList(rt, principal(req), 'wechat'))),
  });
  // A KF account's auto-replies (welcome, keywords); saved and deleted through /api/wechat/imr/*.
  app.get(`${kf}/imr/list`, {
    ...wechat,
    ...withInput(kfAccountRef, async (req, q) =>
      ok(await imr.rulesOfKfAccount(rt, principal(req), q.accountid)),
    ),
  });
  app.get(`${kf}/getKfWay`, {
    ...wechat,
    ...withInput(kfWayQuery, async (req, q) => ok(await svc.kfWay(rt, principal(req), q.accountid, q.scene))),
  });

  // ---- official accounts (/api/wechat) and mini-programs (/api/weApp): one app = one account
  for (const [base, channel, code] of [
    ['/api/wechat', 'weixin', WECHAT_CODE],
    ['/api/weApp', 'weapp', WEAPP_CODE],
  ] as const) {
    const guard = { preHandler: requires(code) };
    const ch: PlatformChannel = channel;
    app.get(`${base}/page`, {
      ...guard,
      ...withInput(pagingSchema, async (req, pg) => {
        const all = await svc.appList(rt, principal(req), ch);
        return ok(pageOf(all.slice((pg.p - 1) * pg.ps, pg.p * pg.ps), all.length, pg));
      }),
    });
    app.get(`${base}/detail`, {
      ...guard,
      ...withInput(idSchema, async (req, { id }) => ok(await svc.appDetail(rt, principal(req), id, ch))),
    });
    app.post(`${base}/save`, {
      ...guard,
      ...withInput(channelAppSaveSchema, async (req, b) =>
        ok(await svc.saveApp(rt, principal(req), { ...b, channel: ch })),
      ),
    });
    app.post(`${base}/update`, {
      ...guard,
      ...withInput(channelAppUpdateSchema, async (req, b) => {
        await svc.appOf(rt, principal(req), b.id, ch);
        return ok(await svc.updateApp(rt, principal(req), b));
      }),
    });
    app.route({
      method: both,
      url: `${base}/delete`,
      ...guard,
      ...withInput(idSchema, async (req, { id }) => {
        await svc.removeApp(rt, principal(req), id, ch);
        return ok(null);
      }),
    });
    // The binding: the push URL, token and key to enter (and scan) in the platform's console.
    app.get(`${base}/scan`, {
      ...guard,
      ...withInput(idSchema, async (req, { id }) => {
        await svc.appOf(rt, principal(req), id, ch);
        return ok(await svc.callbackConfig(rt, principal(req), id, originOf(req)));
      }),
    });
    app.get(`${base}/imr/list`, {
      ...guard,
      ...withInput(idSchema, async (req, { id }) => ok(await imr.rulesOfApp(rt, principal(req), id, ch))),
    });
    app.post(`${base}/imr/save`, {
      ...guard,
      ...withInput(imrSaveSchema, async (req, b) => ok(await imr.saveRule(rt, principal(req), b, ch))),
    });
    app.route({
      method: both,
      url: `${base}/imr/delete`,
      ...guard,
      ...withInput(idSchema, async (req, { id }) => {
        await imr.removeRule(rt, principal(req), id, ch);
        return ok(null);
      }),
    });
  }
}
