import { describe, expect, it } from 'vitest';
import type { CallbackConfigDto, ChannelAppDto, MessageDto } from '@kefu/protocol';
import { addUserWithCodes, api, call, next, ok, socketAgent, until } from '../../../../test/live.js';
import { perTestWithFake } from './fixtures.js';

const { pt, startFake } = perTestWithFake();

describe('bcp (Baidu smart-program customer service)', () => {
  it('POST verification echoes echoStr; an encrypted push reaches the agent; the reply goes out; a bad signature is refused', async () => {
    const f = await startFake();
    const srv = await pt.live(undefined, { channelBases: f.bases });
    const admin = await addUserWithCodes(srv.tdb, ['A09_A01_A01']);
    const saved = await api<ChannelAppDto>(srv, admin.token, '/api/snsAccount/save', {
      channel: 'bcp',
      name: '百度小程序',
      platformAppId: f.baidu.appKey,
      secret: f.baidu.secret,
    });
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    const cb = await api<CallbackConfigDto>(
      srv,
      admin.token,
      `/api/snsAccount/callback?id=${saved.json.data.id}`,
    );
    f.baidu.push = {
      url: `${srv.url}${new URL(cb.json.data.url).pathname}`,
      token: cb.json.data.token,
      aeskey: cb.json.data.aeskey,
      receiveId: f.baidu.appKey,
    };
    expect(await f.baidu.verify('echo-42')).toMatchObject({ status: 200, body: 'echo-42' });
    expect((await f.baidu.userSays('bd_user_1', 'x', { tamper: true })).status).toBe(403);
    const agent = await socketAgent(srv, pt.sockets);
    const got = next<MessageDto>(agent.sock, 'message');
    const d = await f.baidu.userSays('bd_user_1', '你好百度');
    expect(d).toMatchObject({ status: 200, body: 'success' });
    expect(d.ms).toBeLessThan(2_000);
    const m = await got;
    expect(m.message).toBe('你好百度');
    ok(
      await call(agent.sock, 'message', {
        touser: m.usession,
        agentserviceid: m.agentserviceid,
        message: '您好',
        clientId: 'bcp-reply-01',
      }),
    );
    await until(() => f.baidu.sent.some((s) => s.content === '您好'));
    expect(f.baidu.sent.find((s) => s.content === '您好')).toMatchObject({
      open_id: 'bd_user_1',
      msg_type: 'text',
    });
  });
});
