import { describe, expect, it } from 'vitest';
import type { DeliveryNotice, MessageDto } from '@kefu/protocol';
import {
  addUserWithCodes,
  api,
  call,
  next,
  ok,
  socketAgent,
  until,
  type LiveServer,
} from '../../../../test/live.js';
import { channelRuntimeOf } from '../index.js';
import { addKfApp, perTestWithFake, type FakePlatform } from './fixtures.js';

const { pt, startFake } = perTestWithFake();

async function setup(): Promise<{
  srv: LiveServer;
  f: FakePlatform;
  kf: Awaited<ReturnType<typeof addKfApp>>;
}> {
  const f = await startFake();
  const srv = await pt.live(undefined, { channelBases: f.bases });
  const kf = await addKfApp(srv.tdb.db, srv.url, f.wecom);
  return { srv, f, kf };
}

const idle = (srv: LiveServer) => channelRuntimeOf(srv.app)!.idle();

describe('WeChat KF end to end against the fake platform', () => {
  it('handshake: the decrypted echostr, byte for byte; a bad signature gets 403 and no echo', async () => {
    const { f } = await setup();
    expect(await f.wecom.handshake('1234567890123456789')).toEqual({
      status: 200,
      body: '1234567890123456789',
    });
    const bad = await f.wecom.handshake('1234567890123456789', true);
    expect(bad.status).toBe(403);
    expect(bad.body).toBe('');
  });

  it('a customer message reaches a ready agent; the reply reaches the fake with our id as msgid', async () => {
    const { srv, f, kf } = await setup();
    const agent = await socketAgent(srv, pt.sockets);
    const arrived = next<MessageDto>(agent.sock, 'message');
    const { delivery } = await f.wecom.customerSays(kf.kfid, 'wmCustomer0001', {
      text: '你好，我的订单没到',
    });
    expect(delivery).toMatchObject({ status: 200, body: '' });
    const inbound = await arrived;
    expect(inbound).toMatchObject({ calltype: 'in', message: '你好，我的订单没到' });
    expect(inbound.usession.startsWith('wechat:')).toBe(true);
    const s = await srv.tdb.db.kysely
      .selectFrom('agent_service')
      .selectAll()
      .where('id', '=', inbound.agentserviceid)
      .executeTakeFirstOrThrow();
    expect(s).toMatchObject({ channel: 'wechat', agentno: agent.id, status: 'inservice' });

    // Collected, not next(): the greeting sent out on assignment may report its own delivery first.
    const notices: DeliveryNotice[] = [];
    agent.sock.on('delivery', (d: DeliveryNotice) => notices.push(d));
    const reply = ok(
      await call<MessageDto>(agent.sock, 'message', {
        touser: inbound.usession,
        agentserviceid: inbound.agentserviceid,
        message: '您好，马上为您查询',
        clientId: 'reply-000001',
      }),
    );
    await until(() => notices.some((d) => d.id === reply.id));
    expect(notices.find((d) => d.id === reply.id)).toMatchObject({ state: 'sent', error: null });
    const sent = f.wecom.sent.find((m) => m.msgid === reply.id)!;
    expect(sent).toMatchObject({
      msgid: reply.id,
      touser: 'wmCustomer0001',
      open_kfid: kf.kfid,
      msgtype: 'text',
    });
    expect(sent.body).toEqual({ content: '您好，马上为您查询' });
  });

  it('duplicate pushes and a repeated page are processed once; the cursor persists page by page', async () => {
    const { srv, f, kf } = await setup();
    f.wecom.pageSize = 1;
    f.wecom.emptyPages = 1;
    for (let i = 0; i < 3; i++)
      await f.wecom.customerSays(kf.kfid, 'wmCustomer0002', { text: `第${i}条` }, { push: false });
    const d = await f.wecom.pushEvent(kf.kfid, 2);
    expect(d.status).toBe(200);
    await until(async () => {
      await idle(srv);
      const n = await srv.tdb.db.kysely
        .selectFrom('chat_message')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('calltype', '=', 'in')
        .executeTakeFirstOrThrow();
      return Number(n.n) === 3;
    });
    await idle(srv);
    const rows = await srv.tdb.db.kysely.selectFrom('channel_inbound').selectAll().execute();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.status === 'done')).toBe(true);
    const cur = await srv.tdb.db.kysely.selectFrom('channel_cursor').selectAll().executeTakeFirstOrThrow();
    expect(cur.scope).toBe(kf.kfid);
    // Each page had one item: one sync_msg per page plus the empty page and the last (empty) read.
    expect(f.server.callsTo('kf/sync_msg').length).toBeGreaterThanOrEqual(4);
    const msgs = await srv.tdb.db.kysely
      .selectFrom('chat_message')
      .select('message')
      .where('calltype', '=', 'in')
      .orderBy('seq')
      .execute();
    expect(msgs.map((m) => m.message)).toEqual(['第0条', '第1条', '第2条']);
  });

  it('N concurrent sends fetch one token; an expired token is refreshed once and the send retried once', async () => {
    const { srv, f, kf } = await setup();
    const agent = await socketAgent(srv, pt.sockets);
    const arrived = next<MessageDto>(agent.sock, 'message');
    await f.wecom.customerSays(kf.kfid, 'wmCustomer0003', { text: 'hi' });
    const m = await arrived;
    // The assignment notice (坐席分配成功…) goes to the customer as a text first.
    await until(() => f.wecom.sent.length === 1);
    const before = f.wecom.tokenFetches;
    const replies = await Promise.all(
      [1, 2, 3].map((i) =>
        call<MessageDto>(agent.sock, 'message', {
          touser: m.usession,
          agentserviceid: m.agentserviceid,
          message: `r${i}`,
          clientId: `conc-${i}-0000`,
        }),
      ),
    );
    replies.forEach((r) => ok(r));
    await until(() => f.wecom.sent.length === 4);
    // The token sync_msg fetched serves the three concurrent sends: no fetch of their own.
    expect(f.wecom.tokenFetches - before).toBe(0);
    f.server.advance(7300);
    const fetches = f.wecom.tokenFetches;
    const calls = f.server.callsTo('kf/send_msg').length;
    ok(
      await call(agent.sock, 'message', {
        touser: m.usession,
        agentserviceid: m.agentserviceid,
        message: 'after expiry',
        clientId: 'exp-0000001',
      }),
    );
    await until(() => f.wecom.sent.length === 5);
    expect(f.wecom.tokenFetches - fetches).toBe(1);
    expect(f.server.callsTo('kf/send_msg').length - calls).toBe(2);
  });

  it('the quota: the 6th send fails for good with channel_quota_exhausted, shown to the agent and by /api/channel/window', async () => {
    const { srv, f, kf } = await setup();
    const agent = await socketAgent(srv, pt.sockets);
    const arrived = next<MessageDto>(agent.sock, 'message');
    await f.wecom.customerSays(kf.kfid, 'wmCustomer0004', { text: 'hi' });
    const m = await arrived;
    // The assignment notice is the first of the five, then four replies.
    for (let i = 1; i <= 4; i++)
      ok(
        await call(agent.sock, 'message', {
          touser: m.usession,
          agentserviceid: m.agentserviceid,
          message: `q${i}`,
          clientId: `quota-${i}-000`,
        }),
      );
    await until(() => f.wecom.sent.length === 5);
    const failed = next<DeliveryNotice>(agent.sock, 'delivery');
    const sixth = ok(
      await call<MessageDto>(agent.sock, 'message', {
        touser: m.usession,
        agentserviceid: m.agentserviceid,
        message: 'q5',
        clientId: 'quota-5-000',
      }),
    );
    let n = await failed;
    while (n.id !== sixth.id) n = await next<DeliveryNotice>(agent.sock, 'delivery');
    expect(n).toMatchObject({ state: 'failed', error: 'channel_quota_exhausted' });
    expect(f.wecom.sent).toHaveLength(5);
    const w = await api<{
      remaining: number;
      closes: number;
      deliveries: Array<{ id: string; error: string }>;
    }>(srv, agent.token, `/api/channel/window?agentserviceid=${m.agentserviceid}`);
    expect(w.json.data).toMatchObject({
      remaining: 0,
      deliveries: [{ id: sixth.id, error: 'channel_quota_exhausted' }],
    });
  });
});

describe('WeChat KF welcome', () => {
  it("entering the session: the account's welcome (its subscribe rule) goes by send_msg_on_event with the event's code, outside the window and beside the quota", async () => {
    const { srv, f, kf } = await setup();
    const admin = await addUserWithCodes(srv.tdb, ['A09_A01_A02']);
    const rule = await api(srv, admin.token, '/api/wechat/imr/save', {
      accountid: kf.accountid,
      kind: 'subscribe',
      reply: '您好，欢迎咨询售后',
    });
    expect(rule.json.success, JSON.stringify(rule.json)).toBe(true);
    await f.wecom.customerSays(kf.kfid, 'wmWelcome0001', {
      event: { event_type: 'enter_session', scene: 'site' },
    });
    await until(async () => (await idle(srv), f.wecom.sent.some((s) => s.touser === 'wmWelcome0001')));
    const sent = f.wecom.sent.find((s) => s.touser === 'wmWelcome0001')!;
    expect(sent).toMatchObject({
      open_kfid: kf.kfid,
      msgtype: 'text',
      body: { content: '您好，欢迎咨询售后' },
    });
    expect(f.wecom.welcomeCodes.get(String(sent.body.code))?.used).toBe(true);
    expect(f.server.callsTo('kf/send_msg')).toHaveLength(0);
    const user = await srv.tdb.db.kysely.selectFrom('channel_user').selectAll().executeTakeFirstOrThrow();
    // Entering opens no send_msg window (the platform would refuse): the composer says the user has not written.
    expect(user).toMatchObject({ sent: 0, lastin: null });
  });
});
