import { describe, expect, it } from 'vitest';
import type { ChannelWindowDto, MessageDto } from '@kefu/protocol';
import { addUserWithCodes, api, next, socketAgent, until, type LiveServer } from '../../../../test/live.js';
import { deliver, encryptedPush } from '../../../../test/fake-platform/push.js';
import { buildXml } from '../wire.js';
import { douyinSignature } from '../crypto/wechat-crypto.js';
import { webhookPath } from '../webhook.routes.js';
import { channelRuntimeOf } from '../index.js';
import { PNG } from '../../media/media-fixtures.js';
import { addMpApp, replier, perTestWithFake, agentSendsImage, expectUploaded } from './fixtures.js';

const { pt, startFake } = perTestWithFake();

/**
 * Official accounts and mini-programs against the fake, the faults KF is tested with (kf-faults.test.ts):
 * a user of `channel` writes, a connected agent gets the line and answers through `say`.
 */
async function chatting(channel: 'weixin' | 'weapp', openid: string) {
  const f = await startFake();
  const srv = await pt.live(undefined, { channelBases: f.bases });
  const admin = (await addUserWithCodes(srv.tdb, ['A09_A01_A02', 'A09_A01_A03'])).token;
  const { fa } = await addMpApp(srv, admin, f.wechat, channel, {
    format: channel === 'weapp' ? 'json' : 'xml',
  });
  const agent = await socketAgent(srv, pt.sockets);
  const arrived = next<MessageDto>(agent.sock, 'message');
  await f.wechat.userSays(
    fa.appid,
    openid,
    { text: '你好' },
    { format: channel === 'weapp' ? 'json' : 'xml' },
  );
  const m = await arrived;
  // The assignment greeting is the first send of the window.
  await until(() => f.wechat.sent.length >= 1);
  const toUser = () => f.wechat.sent.filter((s) => s.touser === openid);
  return { f, srv, fa, agent, m, toUser, ...replier(agent.sock, m) };
}

describe.each(['weixin', 'weapp'] as const)('%s against the fake platform', (channel) => {
  it('handshake echoes the plaintext echostr; the reply reaches the user by custom/send, UTF-8 intact', async () => {
    const { f, fa, say, delivery, toUser } = await chatting(channel, 'oParity000000000000000001');
    expect(await f.wechat.handshake(fa.appid, '4375120948345356249')).toEqual({
      status: 200,
      body: '4375120948345356249',
    });
    const m = await say('您好 👋 有什么可以帮您？');
    expect(await delivery(m.id)).toMatchObject({ state: 'sent', error: null });
    expect(toUser().at(-1)).toMatchObject({ msgtype: 'text', body: { content: '您好 👋 有什么可以帮您？' } });
  });

  it('a text over 2048 bytes goes out in parts of at most 2048 UTF-8 bytes, whole characters, in order', async () => {
    const { say, delivery, toUser } = await chatting(channel, 'oParity000000000000000007');
    const long = `${'退'.repeat(700)}👋${'款'.repeat(300)}`;
    const m = await say(long);
    expect(await delivery(m.id)).toMatchObject({ state: 'sent' });
    const parts = toUser()
      .slice(1)
      .map((s) => String(s.body.content));
    expect(parts).toHaveLength(2);
    expect(parts.every((p) => Buffer.byteLength(p) <= 2048)).toBe(true);
    expect(parts.join('')).toBe(long);
  });

  it('an expired access token (42001): exactly one token fetch, the send retried once', async () => {
    const { f, fa, say, delivery, toUser } = await chatting(channel, 'oParity000000000000000002');
    // The platform's clock moves past the token's 7200 s; ours still thinks it alive.
    f.server.advance(7_300);
    await f.wechat.userSays(
      fa.appid,
      'oParity000000000000000002',
      { text: '还在吗' },
      {
        format: channel === 'weapp' ? 'json' : 'xml',
      },
    );
    const fetches = f.wechat.tokenFetches;
    const sends = f.server.callsTo('message/custom/send').length;
    const m = await say('在的');
    expect(await delivery(m.id)).toMatchObject({ state: 'sent' });
    expect(f.wechat.tokenFetches - fetches).toBe(1);
    expect(f.server.callsTo('message/custom/send').length - sends).toBe(2);
    expect(toUser().filter((s) => s.body.content === '在的')).toHaveLength(1);
  });

  it('the quota: five sends per user message, the sixth fails with channel_quota_exhausted and /api/channel/window says 0 left', async () => {
    const {
      f,
      srv,
      agent,
      m: first,
      say,
      delivery,
      toUser,
    } = await chatting(channel, 'oParity000000000000000003');
    for (let i = 1; i <= 4; i++)
      expect(await delivery((await say(`第${i}条`)).id)).toMatchObject({ state: 'sent' });
    const sixth = await say('第五条');
    expect(await delivery(sixth.id)).toMatchObject({ state: 'failed', error: 'channel_quota_exhausted' });
    expect(toUser()).toHaveLength(5);
    const w = await api<ChannelWindowDto>(
      srv,
      agent.token,
      `/api/channel/window?agentserviceid=${first.agentserviceid}`,
    );
    expect(w.json.data).toMatchObject({ channel, remaining: 0 });
    void f;
  });

  it('the platform refusing (45047 quota, 40003 blocked or unknown user) fails the message for good, once', async () => {
    const { f, say, delivery } = await chatting(channel, 'oParity000000000000000004');
    f.server.inject({ path: 'message/custom/send', errcode: 45047, times: 1 });
    const q = await say('超出');
    expect(await delivery(q.id)).toMatchObject({ state: 'failed', error: 'channel_quota_exhausted' });
    f.server.inject({ path: 'message/custom/send', errcode: 40003, times: 1 });
    const b = await say('拉黑');
    expect(await delivery(b.id)).toMatchObject({ state: 'failed', error: 'channel_user_blocked' });
    expect(f.server.callsTo('message/custom/send').filter((c) => c.body?.text)).toHaveLength(3);
  });

  it('a 5xx or a busy system (-1) is retried after the back-off; the message arrives once', async () => {
    const { f, srv, say, toUser } = await chatting(channel, 'oParity000000000000000005');
    f.server.inject({ path: 'message/custom/send', status: 503, times: 1 });
    f.server.inject({ path: 'message/custom/send', errcode: -1, times: 1 });
    // The greeting was the first call; the reply's first attempt meets the 503.
    const m = await say('稍后到达');
    await until(() => f.server.callsTo('message/custom/send').length >= 2);
    const row = await srv.tdb.db.kysely
      .selectFrom('channel_outbox')
      .select(['status', 'attempts'])
      .where('id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    await srv.clock.advance(1_100);
    await until(() => f.server.callsTo('message/custom/send').length >= 3);
    await srv.clock.advance(2_100);
    await until(() => toUser().some((s) => s.body.content === '稍后到达'));
    expect(toUser().filter((s) => s.body.content === '稍后到达')).toHaveLength(1);
  });

  it('media both ways: a user image reaches the agent as an image; an agent image is uploaded and sent by media_id', async () => {
    const { f, srv, fa, agent, say, delivery, toUser } = await chatting(channel, 'oParity000000000000000006');
    const got = next<MessageDto>(agent.sock, 'message');
    await f.wechat.userSays(
      fa.appid,
      'oParity000000000000000006',
      { image: { data: PNG, filename: 'u.png' } },
      {
        format: channel === 'weapp' ? 'json' : 'xml',
      },
    );
    const img = await got;
    expect(img).toMatchObject({ msgtype: 'image', calltype: 'in' });
    expect(img.attachmentid).toBeTruthy();
    const m = await agentSendsImage(srv, agent.token, say);
    expect(await delivery(m.id)).toMatchObject({ state: 'sent' });
    expectUploaded(f.wechat.media, toUser().find((s) => s.msgtype === 'image')?.body.media_id);
  });
});

describe('bad input on official accounts, mini-programs and Douyin: answered as the platform expects, nothing stored', () => {
  const stored = async (srv: LiveServer) =>
    (await srv.tdb.db.kysely.selectFrom('channel_inbound').select('id').execute()).length;

  it('a truncated envelope, a truncated body inside a valid envelope (XML and JSON), an unknown app', async () => {
    const f = await startFake();
    const srv = await pt.live(undefined, { channelBases: f.bases });
    const admin = (await addUserWithCodes(srv.tdb, ['A09_A01_A02', 'A09_A01_A03'])).token;
    const { fa } = await addMpApp(srv, admin, f.wechat, 'weixin');
    const target = f.wechat.apps.get(fa.appid)!.push!;
    const post = (p: { url: string; body: string; headers: Record<string, string> }) =>
      fetch(p.url, { method: 'POST', body: p.body, headers: p.headers });
    const opts = { nowSec: Math.floor(Date.now() / 1000), extraQuery: { encrypt_type: 'aes' } };
    const whole = encryptedPush(target, buildXml({ ToUserName: 'gh', MsgType: 'text', Content: 'x' }), opts);
    const cut = await post({ ...whole, body: whole.body.slice(0, whole.body.length >> 1) });
    expect(cut.status).toBe(400);
    const inner = encryptedPush(target, '<xml><ToUserName><![CDATA[gh]]></ToUserName><MsgType><![CDA', opts);
    expect((await post(inner)).status).toBe(400);
    const json = encryptedPush(
      target,
      '{"ToUserName":"gh","MsgType":"text","Content":"x","MsgId":45612553542',
      { ...opts, format: 'json' },
    );
    expect((await post(json)).status).toBe(400);
    const unknownApp = await fetch(
      whole.url.replace(/\/webhook\/weixin\/[^/?]+/, '/webhook/weixin/no_such_app'),
      {
        method: 'POST',
        body: whole.body,
        headers: whole.headers,
      },
    );
    expect(unknownApp.status).toBe(404);
    expect(await stored(srv)).toBe(0);
  });

  it('the platform re-sending a push it got no answer to in time (here: 1 ms) stores and delivers it once', async () => {
    const f = await startFake();
    const srv = await pt.live(undefined, { channelBases: f.bases });
    const admin = (await addUserWithCodes(srv.tdb, ['A09_A01_A02'])).token;
    const { fa } = await addMpApp(srv, admin, f.wechat, 'weixin');
    const { request: p } = f.wechat.buildPush(fa.appid, 'oResend00000000000000001', { text: '重发' });
    const d = await deliver(
      p.url,
      { method: 'POST', body: p.body, headers: p.headers },
      { timeoutMs: 1, attempts: 3 },
    );
    expect(d.attempts).toBeGreaterThanOrEqual(1);
    // Each attempt reached the server (the body was out before the client gave up); it counts once.
    await f.wechat.userSays(fa.appid, 'oResend00000000000000001', { text: '之后' });
    await until(async () => {
      await channelRuntimeOf(srv.app)!.idle();
      const lines = await srv.tdb.db.kysely
        .selectFrom('chat_message')
        .select('message')
        .where('calltype', '=', 'in')
        .execute();
      return lines.some((l) => l.message === '之后');
    });
    const lines = await srv.tdb.db.kysely
      .selectFrom('chat_message')
      .select('message')
      .where('calltype', '=', 'in')
      .execute();
    expect(lines.filter((l) => l.message === '重发')).toHaveLength(1);
    expect(await stored(srv)).toBe(2);
  });

  it('Douyin: truncated JSON correctly signed is refused (400); an unknown event is acknowledged and ignored with its reason; a replayed Msg-Id stored once', async () => {
    const f = await startFake();
    const srv = await pt.live(undefined, { channelBases: f.bases });
    const admin = (await addUserWithCodes(srv.tdb, ['A09_A01_A01'])).token;
    const saved = await api<{ id: string }>(srv, admin, '/api/snsAccount/save', {
      channel: 'douyin',
      name: '抖音号',
      platformAppId: f.douyin.clientKey,
      secret: f.douyin.clientSecret,
    });
    const url = `${srv.url}${webhookPath('douyin', saved.json.data.id)}`;
    expect((await fetch(`${url}/oauth?code=authcode-bad`)).status).toBe(200);
    const send = (body: string, msgId: string) =>
      fetch(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-douyin-signature': douyinSignature(f.douyin.clientSecret, body),
          'msg-id': msgId,
        },
      });
    expect(
      (await send('{"event":"im_receive_msg","from_user_id":"u1","content":{"te', 'mid-cut')).status,
    ).toBe(400);
    expect(await stored(srv)).toBe(0);
    const odd = JSON.stringify({
      event: 'im_group_chat_new',
      from_user_id: 'u1',
      to_user_id: f.douyin.businessOpenId,
    });
    expect((await send(odd, 'mid-odd')).status).toBe(200);
    expect((await send(odd, 'mid-odd')).status).toBe(200);
    await channelRuntimeOf(srv.app)!.idle();
    const rows = await srv.tdb.db.kysely.selectFrom('channel_inbound').select(['status', 'detail']).execute();
    expect(rows).toEqual([{ status: 'ignored', detail: 'event im_group_chat_new' }]);
  });
});
