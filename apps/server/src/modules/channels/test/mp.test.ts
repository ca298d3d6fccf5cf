import { describe, expect, it } from 'vitest';
import type { MessageDto } from '@kefu/protocol';
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
import { PNG } from '../../media/media-fixtures.js';
import { channelRuntimeOf } from '../index.js';
import { addMpApp, perTestWithFake } from './fixtures.js';

const { pt, startFake } = perTestWithFake();

const idle = (srv: LiveServer) => channelRuntimeOf(srv.app)!.idle();

/** An official account or mini-program saved through its setup call, and the fake pointed at its webhook. */
async function setup(channel: 'weixin' | 'weapp', extra: Record<string, unknown> = {}) {
  const f = await startFake();
  const srv = await pt.live(undefined, { channelBases: f.bases });
  const admin = await addUserWithCodes(srv.tdb, ['A09_A01_A02', 'A09_A01_A03']);
  return { srv, f, admin, ...(await addMpApp(srv, admin.token, f.wechat, channel, extra)) };
}

const inMessages = async (srv: LiveServer) =>
  srv.tdb.db.kysely
    .selectFrom('chat_message')
    .select(['message', 'msgtype'])
    .where('calltype', '=', 'in')
    .orderBy('seq')
    .execute();

describe('official accounts (weixin)', () => {
  it('handshake echoes the plaintext echostr byte for byte; a bad signature is refused', async () => {
    const { f, fa } = await setup('weixin');
    expect(await f.wechat.handshake(fa.appid, 'echo-1234567890')).toEqual({
      status: 200,
      body: 'echo-1234567890',
    });
    const tampered = await f.wechat.userSays(
      fa.appid,
      'oUser000000000000000000001',
      { text: 'x' },
      { tamper: true },
    );
    expect(tampered.delivery.status).toBe(403);
  });

  it('a safe-mode push reaches the agent, the reply goes out by custom/send; keyword and follow auto-replies answer', async () => {
    const { srv, f, fa, admin, base, account } = await setup('weixin');
    const rule = await api(srv, admin.token, `${base}/imr/save`, {
      accountid: account.id,
      kind: 'keyword',
      keyword: '营业时间',
      reply: '我们 9:00-18:00 营业',
    });
    expect(rule.json.success).toBe(true);
    await api(srv, admin.token, `${base}/imr/save`, {
      accountid: account.id,
      kind: 'subscribe',
      reply: '感谢关注',
    });
    const agent = await socketAgent(srv, pt.sockets);
    const got = next<MessageDto>(agent.sock, 'message');
    const said = await f.wechat.userSays(fa.appid, 'oUser000000000000000000002', { text: '营业时间' });
    expect(said.delivery).toMatchObject({ status: 200, body: 'success' });
    const m = await got;
    expect(m).toMatchObject({ calltype: 'in', message: '营业时间' });
    await until(() => f.wechat.sent.some((s) => s.body.content === '我们 9:00-18:00 营业'));
    ok(
      await call(agent.sock, 'message', {
        touser: m.usession,
        agentserviceid: m.agentserviceid,
        message: '还有什么可以帮您？',
        clientId: 'mp-reply-001',
      }),
    );
    await until(() => f.wechat.sent.some((s) => s.body.content === '还有什么可以帮您？'));
    expect(f.wechat.sent.find((s) => s.body.content === '还有什么可以帮您？')).toMatchObject({
      touser: 'oUser000000000000000000002',
      msgtype: 'text',
    });
    await f.wechat.userSays(fa.appid, 'oUser000000000000000000003', { event: 'subscribe' });
    await until(() =>
      f.wechat.sent.some((s) => s.body.content === '感谢关注' && s.touser === 'oUser000000000000000000003'),
    );
    // Deleting the rule stops its reply.
    await api(srv, admin.token, `${base}/imr/delete`, { id: (rule.json.data as { id: string }).id });
    const rules = await api<unknown[]>(srv, admin.token, `${base}/imr/list?id=${account.appid}`);
    expect(rules.json.data).toHaveLength(1);
  });

  it('the platform closing the window (45015) fails the message with channel_window_closed; images arrive as images', async () => {
    const { srv, f, fa } = await setup('weixin');
    const agent = await socketAgent(srv, pt.sockets);
    const got = next<MessageDto>(agent.sock, 'message');
    await f.wechat.userSays(fa.appid, 'oUser000000000000000000004', {
      image: { data: PNG, filename: 'p.png' },
    });
    const img = await got;
    expect(img).toMatchObject({ msgtype: 'image' });
    expect(img.attachmentid).toBeTruthy();
    await until(() => f.wechat.sent.length >= 1);
    f.server.advance(49 * 3600);
    const reply = ok(
      await call<MessageDto>(agent.sock, 'message', {
        touser: img.usession,
        agentserviceid: img.agentserviceid,
        message: 'late',
        clientId: 'mp-late-0001',
      }),
    );
    await until(async () => {
      await idle(srv);
      const r = await srv.tdb.db.kysely
        .selectFrom('channel_outbox')
        .select(['status', 'error'])
        .where('id', '=', reply.id)
        .executeTakeFirst();
      return r?.status === 'failed' && r.error === 'channel_window_closed';
    });
  });
});

describe('mini-programs (weapp)', () => {
  it('JSON safe-mode pushes: a 64-bit MsgId kept exactly, duplicates stored once; an unknown event ignored', async () => {
    const { srv, f, fa } = await setup('weapp', { format: 'json' });
    const a = await f.wechat.userSays(
      fa.appid,
      'oMini00000000000000000001',
      { text: '你好' },
      { format: 'json', duplicates: 2 },
    );
    expect(a.delivery.status).toBe(200);
    await f.wechat.userSays(
      fa.appid,
      'oMini00000000000000000001',
      { event: 'brand_new' },
      { format: 'json' },
    );
    await until(async () => (await idle(srv), (await inMessages(srv)).length === 1));
    await until(async () => {
      await idle(srv);
      const rows = await srv.tdb.db.kysely
        .selectFrom('channel_inbound')
        .select(['msgkey', 'status'])
        .execute();
      return rows.length === 2 && rows.every((r) => r.status !== 'new');
    });
    const rows = await srv.tdb.db.kysely
      .selectFrom('channel_inbound')
      .select(['msgkey', 'status', 'detail'])
      .execute();
    expect(rows.find((r) => r.msgkey === a.msgid)?.status).toBe('done');
    expect(rows.find((r) => r.msgkey !== a.msgid)).toMatchObject({
      status: 'ignored',
      detail: 'event brand_new',
    });
  });

  it('a safe-mode app refuses a plaintext push; a compatible-mode app takes both', async () => {
    const { srv, f, fa, admin, app } = await setup('weapp');
    const plain = await f.wechat.userSays(
      fa.appid,
      'oMini00000000000000000002',
      { text: 'p' },
      { mode: 'plain' },
    );
    expect(plain.delivery.status).toBe(403);
    const up = await api(srv, admin.token, '/api/weApp/update', {
      id: app.id,
      name: app.name,
      platformAppId: app.platformAppId,
      mode: 'compat',
    });
    expect(up.json.success).toBe(true);
    const again = await f.wechat.userSays(
      fa.appid,
      'oMini00000000000000000002',
      { text: 'p2' },
      { mode: 'plain' },
    );
    expect(again.delivery).toMatchObject({ status: 200, body: 'success' });
    await until(async () => (await idle(srv), (await inMessages(srv)).some((m) => m.message === 'p2')));
  });
});
