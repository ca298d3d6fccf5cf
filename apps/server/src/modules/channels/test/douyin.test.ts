import { describe, expect, it } from 'vitest';
import type { ChannelAppDto, MessageDto } from '@kefu/protocol';
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
import { webhookPath } from '../webhook.routes.js';
import { replier, perTestWithFake, agentSendsImage } from './fixtures.js';

const { pt, startFake } = perTestWithFake();
const idle = (srv: LiveServer) => channelRuntimeOf(srv.app)!.idle();

async function setup() {
  const f = await startFake();
  const srv = await pt.live(undefined, { channelBases: f.bases });
  const admin = await addUserWithCodes(srv.tdb, ['A09_A01_A01']);
  const saved = await api<ChannelAppDto>(srv, admin.token, '/api/snsAccount/save', {
    channel: 'douyin',
    name: '抖音号',
    platformAppId: f.douyin.clientKey,
    secret: f.douyin.clientSecret,
  });
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
  f.douyin.webhook = `${srv.url}${webhookPath('douyin', saved.json.data.id)}`;
  return { srv, f, app: saved.json.data };
}

describe('Douyin direct messages', () => {
  it('verify_webhook answers the challenge as JSON; a bad X-Douyin-Signature is refused', async () => {
    const { f } = await setup();
    expect(await f.douyin.verify(12345)).toMatchObject({ status: 200, body: '{"challenge":12345}' });
    expect((await f.douyin.verify(12345, { tamper: true })).status).toBe(403);
  });

  it('OAuth, a message (once, by Msg-Id) to the agent, the reply names the stored message and conversation ids exactly; echoes are dropped', async () => {
    const { srv, f, app } = await setup();
    const auth = await fetch(`${srv.url}/webhook/douyin/${app.id}/oauth?code=authcode1`);
    expect(auth.status).toBe(200);
    const agent = await socketAgent(srv, pt.sockets);
    const got = next<MessageDto>(agent.sock, 'message');
    const said = await f.douyin.userSays('user_open_id_1', '在吗？', { duplicates: 2, stringContent: true });
    expect(said.delivery.status).toBe(200);
    const m = await got;
    expect(m).toMatchObject({ message: '在吗？', calltype: 'in' });
    ok(
      await call(agent.sock, 'message', {
        touser: m.usession,
        agentserviceid: m.agentserviceid,
        message: '在的，请讲',
        clientId: 'dy-reply-0001',
      }),
    );
    await until(() =>
      f.douyin.sent.some((s) => (s.body.content as { text: { text: string } }).text.text === '在的，请讲'),
    );
    const sent = f.douyin.sent.find(
      (s) => (s.body.content as { text: { text: string } }).text.text === '在的，请讲',
    )!;
    const user = await srv.tdb.db.kysely.selectFrom('channel_user').selectAll().executeTakeFirstOrThrow();
    expect(sent).toMatchObject({
      openId: f.douyin.businessOpenId,
      body: {
        msg_id: user.lastmsgid,
        conversation_id: user.convid,
        to_user_id: 'user_open_id_1',
        scene: 'im_reply_msg',
      },
    });
    expect(BigInt(user.convid) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    await f.douyin.echo('user_open_id_1', '在的，请讲');
    await idle(srv);
    const inbound = await srv.tdb.db.kysely
      .selectFrom('channel_inbound')
      .select(['status', 'detail'])
      .execute();
    expect(inbound).toHaveLength(2);
    expect(inbound.filter((r) => r.status === 'ignored')).toHaveLength(1);
    expect(
      (await srv.tdb.db.kysely.selectFrom('chat_message').select('id').where('calltype', '=', 'in').execute())
        .length,
    ).toBe(1);
  });

  it('an expired user token is refreshed with the refresh token once and the reply retried once', async () => {
    const { srv, f, app } = await setup();
    await fetch(`${srv.url}/webhook/douyin/${app.id}/oauth?code=authcode2`);
    const agent = await socketAgent(srv, pt.sockets);
    const got = next<MessageDto>(agent.sock, 'message');
    await f.douyin.userSays('user_open_id_2', 'hi');
    const m = await got;
    await until(() => f.douyin.sent.length >= 1);
    f.server.advance(16 * 24 * 3600 - 23 * 3600);
    // The fake's token died (15 days) though ours thinks it alive: the platform's refusal decides.
    await f.douyin.userSays('user_open_id_2', 'still there?');
    const before = f.douyin.refreshes;
    ok(
      await call(agent.sock, 'message', {
        touser: m.usession,
        agentserviceid: m.agentserviceid,
        message: 'after refresh',
        clientId: 'dy-refresh-01',
      }),
    );
    await until(() =>
      f.douyin.sent.some((s) => (s.body.content as { text: { text: string } }).text.text === 'after refresh'),
    );
    expect(f.douyin.refreshes - before).toBe(1);
  });
});

describe('Douyin faults', () => {
  /** An authorised account whose user wrote; the agent answers through `say`. */
  async function chatting(user: string) {
    const { srv, f, app } = await setup();
    await fetch(`${srv.url}/webhook/douyin/${app.id}/oauth?code=authcode-${user}`);
    const agent = await socketAgent(srv, pt.sockets);
    const got = next<MessageDto>(agent.sock, 'message');
    await f.douyin.userSays(user, '你好');
    const m = await got;
    await until(() => f.douyin.sent.length >= 1);
    const texts = () => f.douyin.sent.map((s) => (s.body.content as { text: { text: string } }).text.text);
    return { srv, f, agent, m, texts, ...replier(agent.sock, m) };
  }

  it('the reply window: 24 h after the user wrote the platform refuses (28003017) and the message fails as channel_window_closed', async () => {
    const { f, say, delivery } = await chatting('dy_window_1');
    f.server.advance(25 * 3600);
    const m = await say('太晚了');
    expect(await delivery(m.id)).toMatchObject({ state: 'failed', error: 'channel_window_closed' });
  });

  it('the quota: six sends per user message, the seventh fails as channel_quota_exhausted without asking the platform', async () => {
    const { f, say, delivery, texts } = await chatting('dy_quota_1');
    for (let i = 1; i <= 5; i++)
      expect(await delivery((await say(`第${i}条`)).id)).toMatchObject({ state: 'sent' });
    const calls = f.server.callsTo('im/send/msg/').length;
    const m = await say('第六条');
    expect(await delivery(m.id)).toMatchObject({ state: 'failed', error: 'channel_quota_exhausted' });
    expect(f.server.callsTo('im/send/msg/')).toHaveLength(calls);
    expect(texts()).toHaveLength(6);
  });

  it('a 5xx from the platform is retried after the back-off and arrives once', async () => {
    const { srv, f, say, texts } = await chatting('dy_retry_1');
    f.server.inject({ path: 'im/send/msg/', status: 502, times: 1 });
    const m = await say('稍后到达');
    await until(() => f.server.callsTo('im/send/msg/').length >= 2);
    await srv.clock.advance(1_100);
    await until(() => texts().includes('稍后到达'));
    expect(texts().filter((t) => t === '稍后到达')).toHaveLength(1);
    void m;
  });

  it('media: a user image arrives as [图片] (Douyin hands over no file); an agent image is refused as channel_unsupported', async () => {
    const { srv, f, agent, say, delivery } = await chatting('dy_media_1');
    const got = next<MessageDto>(agent.sock, 'message');
    await f.douyin.userSays('dy_media_1', '', { messageType: 'image' });
    expect(await got).toMatchObject({ message: '[图片]', calltype: 'in', msgtype: 'text' });
    const calls = f.server.callsTo('im/send/msg/').length;
    const m = await agentSendsImage(srv, agent.token, say);
    expect(await delivery(m.id)).toMatchObject({ state: 'failed', error: 'channel_unsupported' });
    expect(f.server.callsTo('im/send/msg/')).toHaveLength(calls);
  });
});
