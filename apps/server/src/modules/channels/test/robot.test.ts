import { describe, expect, it } from 'vitest';
import {
  CHANNEL_SATIS_HINT,
  CHANNEL_SATIS_THANKS,
  type ChannelAppDto,
  type MessageDto,
  type SnsAccountDto,
} from '@kefu/protocol';
import { addOrgan, addUserWithCodes, api, collect, socketAgent, until } from '../../../../test/live.js';
import { robotScene } from '../../robot/test/kit.js';
import { addKfApp, addMpApp, perTestWithFake, type FakePlatform } from './fixtures.js';

const { pt, startFake } = perTestWithFake();

/** An official account whose users the robot answers first, pointed at by the fake. */
async function robotAccount() {
  const f = await startFake();
  const sc = await robotScene(pt, { handoffmsg: '正在为您转接人工客服' }, undefined, {
    channelBases: f.bases,
  });
  const admin = (await addUserWithCodes(sc.s.tdb, ['A09_A01_A02', 'A09_A01_A03'])).token;
  const { fa, app } = await addMpApp(sc.s, admin, f.wechat, 'weixin', { robotid: sc.robot.id });
  return { f, fa, sc, admin, app };
}

const sentTo = (f: FakePlatform, openid: string): string[] =>
  f.wechat.sent.filter((s) => s.touser === openid).map((s) => String(s.body.content ?? ''));

describe('robots on messaging channels', () => {
  it("the account's robot greets and answers the platform user first; 转人工 hands the chat to an agent", async () => {
    const { f, fa, sc } = await robotAccount();
    const agent = await socketAgent(sc.s, pt.sockets);
    const seen = collect<MessageDto>(agent.sock, 'message');
    const openid = 'oRobot0000000000000000001';
    await f.wechat.userSays(fa.appid, openid, { text: '怎么退货' });
    await until(() => sentTo(f, openid).some((t) => t.includes('申请售后')));
    expect(sentTo(f, openid)[0]).toBe('您好，我是小智');
    // The answer's rich text (**申请售后**) arrives as plain text.
    expect(sentTo(f, openid)).toContain('在“我的订单”中点击申请售后。');
    const k = sc.s.tdb.db.kysely;
    const s = await k.selectFrom('agent_service').selectAll().executeTakeFirstOrThrow();
    expect(s).toMatchObject({ ai: 1, agentno: null, channel: 'weixin' });
    // The robot serves it: no agent was given the chat.
    expect(seen).toHaveLength(0);

    await f.wechat.userSays(fa.appid, openid, { text: '转人工' });
    await until(() => sentTo(f, openid).includes('正在为您转接人工客服'));
    await until(async () => {
      const after = await k.selectFrom('agent_service').selectAll().executeTakeFirstOrThrow();
      return after.agentno === agent.id && Number(after.ai) === 0;
    });
    const session = await k.selectFrom('robot_session').selectAll().executeTakeFirstOrThrow();
    expect(session.handoff).toBe('phrase');
    // The agent's transcript holds the user's lines and the robot's; the robot's went out, none twice.
    const lines = await k
      .selectFrom('chat_message')
      .select(['type', 'calltype', 'message'])
      .orderBy('seq')
      .execute();
    expect(lines.filter((m) => m.calltype === 'in').map((m) => m.message)).toEqual(['怎么退货', '转人工']);
    expect(lines.filter((m) => m.type === 'robot').length).toBeGreaterThanOrEqual(3);
    const texts = sentTo(f, openid);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('a bare number (also full-width) answering the numbered suggestions asks that question; once the robot is gone, a number answers the satisfaction invitation', async () => {
    const { f, fa, sc } = await robotAccount();
    const openid = 'oRobot0000000000000000009';
    const k = sc.s.tdb.db.kysely;
    await f.wechat.userSays(fa.appid, openid, { text: '退款' });
    await until(() => sentTo(f, openid).some((t) => t.startsWith(sc.robot.suggestmsg)));
    const list = sentTo(f, openid)
      .find((t) => t.startsWith(sc.robot.suggestmsg))!
      .split('\n');
    const where = list.find((l) => l.endsWith('退款退到哪里？'))!;
    expect(where).toMatch(/^[1-3]\. /);
    const fullWidth = String.fromCharCode(where.charCodeAt(0) - 0x31 + 0xff11);
    await f.wechat.userSays(fa.appid, openid, { text: fullWidth });
    await until(() => sentTo(f, openid).includes('原路退回。'));
    const asked = await k
      .selectFrom('robot_question')
      .select(['question', 'action', 'itemid'])
      .where('question', '=', '退款退到哪里？')
      .execute();
    expect(asked).toEqual([{ question: '退款退到哪里？', action: 'answer', itemid: sc.items.refundWhere }]);
    const userLines = async () =>
      (
        await k
          .selectFrom('chat_message')
          .select('message')
          .where('calltype', '=', 'in')
          .orderBy('seq')
          .execute()
      ).map((m) => m.message);
    // The transcript shows the question asked, as after a click in the widget.
    expect(await userLines()).toEqual(['退款', '退款退到哪里？']);
    // The robot's latest line is an answer now: a number is an ordinary message again.
    await f.wechat.userSays(fa.appid, openid, { text: '2' });
    await until(async () => (await userLines()).length === 3);
    expect((await userLines())[2]).toBe('2');
    await until(async () => (await k.selectFrom('robot_question').select('id').execute()).length === 3);

    // With a human, the numbers are the satisfaction invitation's.
    const admin = (await addUserWithCodes(sc.s.tdb, ['A09_A03_A04'])).token;
    expect((await api(sc.s, admin, '/api/satisfaction/enabled', { enabled: true })).json.success).toBe(true);
    const agent = await socketAgent(sc.s, pt.sockets);
    await f.wechat.userSays(fa.appid, openid, { text: '转人工' });
    await until(
      async () =>
        (await k.selectFrom('agent_service').selectAll().executeTakeFirstOrThrow()).agentno === agent.id,
    );
    const s = await k.selectFrom('agent_service').selectAll().executeTakeFirstOrThrow();
    expect((await api(sc.s, agent.token, `/api/talk/statf?agentserviceid=${s.id}`)).json.success).toBe(true);
    await until(() => sentTo(f, openid).some((t) => t.includes(CHANNEL_SATIS_HINT)));
    await f.wechat.userSays(fa.appid, openid, { text: '１' });
    await until(() => sentTo(f, openid).includes(CHANNEL_SATIS_THANKS));
    const rated = await k.selectFrom('agent_service').select('satislevel').executeTakeFirstOrThrow();
    expect(rated.satislevel).toBe('1');
  });

  it('an account without a robot goes straight to an agent', async () => {
    const { f, fa, sc, admin, app } = await robotAccount();
    const up = await api<ChannelAppDto>(sc.s, admin, '/api/wechat/update', {
      id: app.id,
      name: app.name,
      platformAppId: app.platformAppId,
      robotid: '',
    });
    expect(up.json.data.robotid).toBeNull();
    const agent = await socketAgent(sc.s, pt.sockets);
    const lines = collect<MessageDto>(agent.sock, 'message');
    await f.wechat.userSays(fa.appid, 'oRobot0000000000000000002', { text: '怎么退货' });
    await until(() => lines.some((m) => m.message === '怎么退货'));
    const s = await sc.s.tdb.db.kysely.selectFrom('agent_service').selectAll().executeTakeFirstOrThrow();
    expect(s).toMatchObject({ ai: 0, agentno: agent.id });
    expect(sentTo(f, 'oRobot0000000000000000002')).not.toContain('您好，我是小智');
  });

  it('the robot setting: listed with the account, kept by an update that does not name it, refused when not the tenant’s, dropped with the account', async () => {
    const { sc, admin, app } = await robotAccount();
    const list = async () =>
      (await api<SnsAccountDto[]>(sc.s, admin, '/api/snsAccount/list?channel=weixin')).json.data;
    expect((await list())[0]).toMatchObject({ robotid: sc.robot.id, robotname: '小智' });
    const detail = await api<ChannelAppDto>(sc.s, admin, `/api/wechat/detail?id=${app.id}`);
    expect(detail.json.data.robotid).toBe(sc.robot.id);
    // The console's form of before the setting existed sends no robotid: the robot stays.
    const kept = await api<ChannelAppDto>(sc.s, admin, '/api/wechat/update', {
      id: app.id,
      name: '服务号2',
      platformAppId: app.platformAppId,
    });
    expect(kept.json.data.robotid).toBe(sc.robot.id);
    const bad = await api(sc.s, admin, '/api/wechat/update', {
      id: app.id,
      name: '服务号2',
      platformAppId: app.platformAppId,
      robotid: 'no_such_robot_000000000000000000',
    });
    expect(bad.json).toMatchObject({ success: false, code: 400, key: 'invalid_field' });
    expect((await list())[0]?.robotid).toBe(sc.robot.id);
    expect((await api(sc.s, admin, '/api/wechat/delete', { id: app.id })).json.success).toBe(true);
    const left = await sc.s.tdb.db.kysely
      .selectFrom('robot_binding')
      .select('channel')
      .where('channel', '=', 'sns')
      .execute();
    expect(left).toHaveLength(0);
  });

  it('the channel setup codes may read the robots to choose one; other callers are refused', async () => {
    const { sc } = await robotAccount();
    const weapp = (await addUserWithCodes(sc.s.tdb, ['A09_A01_A03'])).token;
    const listed = await api<Array<{ id: string }>>(sc.s, weapp, '/api/xiaoe/config/list');
    expect(listed.json.data.map((r) => r.id)).toEqual([sc.robot.id]);
    const other = (await addUserWithCodes(sc.s.tdb, ['A03'])).token;
    expect((await api(sc.s, other, '/api/xiaoe/config/list')).json).toMatchObject({
      success: false,
      code: 403,
    });
    // Reading is all: saving a robot still takes the robot code.
    expect((await api(sc.s, weapp, '/api/xiaoe/config/save', { name: 'x' })).json).toMatchObject({
      success: false,
      code: 403,
    });
  });

  it('WeChat KF: association sets the skill group and the robot; unAssociation keeps the robot; deleting the account drops it', async () => {
    const { f, sc, admin } = await robotAccount();
    const kf = await addKfApp(sc.s.tdb.db, sc.s.url, f.wecom);
    const organ = { id: await addOrgan(sc.s.tdb) };
    const assoc = await api<SnsAccountDto>(sc.s, admin, '/api/wechat/kf/association', {
      accountid: kf.accountid,
      organ: organ.id,
      robotid: sc.robot.id,
    });
    expect(assoc.json.data).toMatchObject({ organ: organ.id, robotid: sc.robot.id, robotname: '小智' });
    const un = await api<SnsAccountDto>(sc.s, admin, '/api/wechat/kf/unAssociation', {
      accountid: kf.accountid,
    });
    expect(un.json.data).toMatchObject({ organ: null, robotid: sc.robot.id });
    const cleared = await api<SnsAccountDto>(sc.s, admin, '/api/wechat/kf/association', {
      accountid: kf.accountid,
      organ: organ.id,
      robotid: '',
    });
    expect(cleared.json.data.robotid).toBeNull();
    await api(sc.s, admin, '/api/wechat/kf/association', {
      accountid: kf.accountid,
      organ: organ.id,
      robotid: sc.robot.id,
    });
    expect(
      (await api(sc.s, admin, '/api/wechat/kf/delAccount', { accountid: kf.accountid })).json.success,
    ).toBe(true);
    const left = await sc.s.tdb.db.kysely
      .selectFrom('robot_binding')
      .select('target')
      .where('target', '=', kf.accountid)
      .execute();
    expect(left).toHaveLength(0);
  });
});
