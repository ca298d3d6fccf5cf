import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  AuditLogDto,
  Page,
  SecretKeyInfoDto,
  VisitorNewResult,
  WebhookDeliveryDto,
} from '@kefu/protocol';
import { call, expectError, perTest, userWithCodes, type SeededApp } from '../../../test/factories.js';
import {
  addAccessPoint,
  api,
  call as emit,
  ok,
  socketAgent,
  until,
  visitorReady,
} from '../../../test/live.js';
import { insertUser } from '../../../test/harness.js';
import { issueToken } from '../../platform/auth/tokens.js';
import { signKeyOf, signature } from './key.service.js';
import { webhooks } from './webhook.service.js';

const env = perTest();

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP endpoint standing in for the partner's webhook receiver; `status` decides its answer. */
async function receiver(status: () => number) {
  const got: Received[] = [];
  const srv: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(status()).end('ok');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  servers.push(srv);
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/hook`, got };
}
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const post = <T>(t: SeededApp, url: string, body: Record<string, unknown> = {}) =>
  call<T>(t.app, t.adminToken, 'POST', url, body);

describe('secret key (A09_A06_A02)', () => {
  it('shown once, kept only as a hash; rotating revokes the old one; never in the audit log', async () => {
    const t = await env.seeded();
    expect((await call(t.app, t.adminToken, 'GET', '/api/key/info')).body.data).toBeNull();
    const first = await post<SecretKeyInfoDto & { secret: string }>(t, '/api/key/save');
    const secret = first.body.data.secret;
    expect(secret).toMatch(/^kfs_/);
    const info = await call<SecretKeyInfoDto>(t.app, t.adminToken, 'GET', '/api/key/info');
    expect(info.body.data).toEqual({
      prefix: secret.slice(0, 8),
      creater: 'admin',
      createtime: expect.any(Number),
    });
    const stored = await t.db.kysely.selectFrom('api_secret').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(secret);
    const verify = (k: string) =>
      t.app.inject({ method: 'GET', url: '/open/verify', headers: { 'x-kefu-key': k } });
    expect((await verify(secret)).json()).toMatchObject({ success: true, data: { orgi: 'kefu' } });
    const second = await post<{ secret: string }>(t, '/api/key/save');
    expect((await verify(secret)).statusCode).toBe(401);
    expect((await verify(second.body.data.secret)).statusCode).toBe(200);
    expect((await verify('kfs_forged')).statusCode).toBe(401);
    const rec = await call<Page<AuditLogDto>>(
      t.app,
      t.adminToken,
      'GET',
      '/api/records/list?action=key.save',
    );
    expect(rec.body.data.total).toBe(2);
    expect(JSON.stringify(rec.body.data)).not.toContain(second.body.data.secret.slice(4));
  });
});

describe('webhooks', () => {
  it('signed POSTs to the configured URL; failures retried with back-off, then failed; a failed one can be sent again', async () => {
    const t = await env.seeded();
    let answer = 200;
    const r = await receiver(() => answer);
    // Not without a secret, not enabled without a URL, not a bad URL.
    expectError(await post(t, '/api/webhook/save', { enabled: true, url: r.url }), 'secret_not_set');
    const { secret } = (await post<{ secret: string }>(t, '/api/key/save')).body.data;
    expectError(await post(t, '/api/webhook/save', { enabled: true, url: '' }), 'required');
    expectError(await post(t, '/api/webhook/save', { url: 'ftp://x' }), 'invalid_field');
    const saved = await post(t, '/api/webhook/save', {
      enabled: true,
      url: r.url,
      events: ['leavemsg.created'],
    });
    expect(saved.body.success).toBe(true);

    const test = await post<{ id: string }>(t, '/api/webhook/test');
    await webhooks(t.db).run();
    expect(r.got).toHaveLength(1);
    const h = r.got[0]!.headers;
    expect(h['x-kefu-event']).toBe('webhook.test');
    expect(h['x-kefu-delivery']).toBe(test.body.data.id);
    // The receiver checks the signature with the key it derives from the secret.
    expect(h['x-kefu-signature']).toBe(
      signature(signKeyOf(secret), String(h['x-kefu-timestamp']), r.got[0]!.body),
    );
    expect(JSON.parse(r.got[0]!.body)).toMatchObject({ event: 'webhook.test', orgi: 'kefu' });

    // A subscribed event: a leave message from the widget.
    const appid = await addAccessPoint(t);
    await call(t.app, t.adminToken, 'POST', '/api/leavemsg/config/save', { appid, enabled: true });
    answer = 500;
    const lm = await t.app.inject({
      method: 'POST',
      url: '/im/leavemsg',
      payload: {
        appid,
        userid: 'v'.repeat(32),
        name: '张三',
        mobile: '13800000000',
        email: '',
        content: '请回电',
      },
    });
    expect(lm.json()).toMatchObject({ success: true });
    await until(
      async () => (await t.db.kysely.selectFrom('webhook_delivery').selectAll().execute()).length === 2,
    );
    await webhooks(t.db).run();
    const list = async () =>
      (await call<Page<WebhookDeliveryDto>>(t.app, t.adminToken, 'GET', '/api/webhook/deliveries')).body.data
        .list;
    let lmd = (await list()).find((d) => d.event === 'leavemsg.created')!;
    expect(lmd).toMatchObject({ status: 'pending', attempts: 1, lastcode: 500, lasterror: 'HTTP 500' });
    expect(lmd.nextattempt! - Date.now()).toBeGreaterThan(5_000);
    expect(JSON.parse(r.got[1]!.body).data).toMatchObject({ name: '张三', content: '请回电' });
    // Due again (time moved on): each failure counts until the last attempt.
    for (let i = 0; i < 7; i++) {
      await t.db.kysely
        .updateTable('webhook_delivery')
        .set({ nextattempt: Date.now() })
        .where('id', '=', lmd.id)
        .execute();
      await webhooks(t.db).run();
    }
    lmd = (await list()).find((d) => d.id === lmd.id)!;
    expect(lmd).toMatchObject({ status: 'failed', attempts: 8, nextattempt: null });
    answer = 200;
    expect((await post(t, '/api/webhook/retry', { id: lmd.id })).body.success).toBe(true);
    await webhooks(t.db).run();
    expect((await list()).find((d) => d.id === lmd.id)).toMatchObject({
      status: 'success',
      attempts: 9,
      lastcode: 200,
    });
    expectError(await post(t, '/api/webhook/retry', { id: lmd.id }), 'not_found', 404);
    // An unreachable endpoint is an error too, not a crash.
    await post(t, '/api/webhook/save', { url: 'http://127.0.0.1:9/hook' });
    await post(t, '/api/webhook/test');
    await webhooks(t.db).run();
    expect((await list())[0]).toMatchObject({ status: 'pending', attempts: 1, lastcode: null });
    expect((await list())[0]!.lasterror).not.toBe('');
  });

  it('conversation and message events of a live chat', async () => {
    const srv = await env.live();
    const adminId = (await insertUser(srv.tdb.db, { usertype: '0' })).id;
    const admin = await issueToken(srv.tdb.db.kysely, adminId, 'kefu', 3_600_000);
    const r = await receiver(() => 200);
    await api(srv, admin, '/api/key/save', {});
    expect((await api(srv, admin, '/api/webhook/save', { enabled: true, url: r.url })).json.success).toBe(
      true,
    );
    const appid = await addAccessPoint(srv.tdb);
    const agent = await socketAgent(srv, env.sockets);
    const v = await visitorReady(srv.url, appid);
    env.sockets.push(v.s);
    const sid = ok(await emit<VisitorNewResult>(v.s, 'new')).agentserviceid;
    ok(await emit(v.s, 'message', { clientId: 'wh-msg-0001', message: '你好' }));
    ok(
      await emit(agent.sock, 'message', {
        touser: v.userid,
        agentserviceid: sid,
        clientId: 'wh-msg-0002',
        message: '您好',
      }),
    );
    ok(await emit(v.s, 'end', {}));
    const events = async () =>
      (
        await srv.tdb.db.kysely
          .selectFrom('webhook_delivery')
          .select(['event', 'payload'])
          .orderBy('id')
          .execute()
      ).map((d) => d.event);
    await until(async () => (await events()).length === 5);
    // Deliveries are independent (retried one by one): no order is promised, each carries its time.
    expect((await events()).sort()).toEqual([
      'conversation.assigned',
      'conversation.created',
      'conversation.ended',
      'message.created',
      'message.created',
    ]);
    // A pass already under way (started by an emit) may have read the due rows before the last one was
    // written: passes run until the receiver holds all five.
    await until(async () => {
      await webhooks(srv.tdb.db).run();
      return r.got.length >= 5;
    });
    expect(r.got.map((g) => JSON.parse(g.body).data.agentserviceid)).toEqual([sid, sid, sid, sid, sid]);
  });

  it('refusals: A09_A06_A02 for every call', async () => {
    const t = await env.seeded();
    const other = await userWithCodes(t, ['A09_A06_A01']);
    for (const [m, url] of [
      ['GET', '/api/key/info'],
      ['POST', '/api/key/save'],
      ['GET', '/api/webhook/config'],
      ['POST', '/api/webhook/save'],
      ['POST', '/api/webhook/test'],
      ['GET', '/api/webhook/deliveries'],
      ['POST', '/api/webhook/retry'],
    ] as const)
      expect(
        (await call(t.app, other.token, m, url, m === 'POST' ? { id: 'x' } : undefined)).status,
        url,
      ).toBe(403);
    expect(await t.db.kysely.selectFrom('api_secret').selectAll().execute()).toEqual([]);
  });
});
