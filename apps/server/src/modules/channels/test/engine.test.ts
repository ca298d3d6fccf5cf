import { describe, expect, it } from 'vitest';
import { CHANNEL_SATIS_HINT, CHANNEL_SATIS_THANKS, type MessageDto } from '@kefu/protocol';
import { addOrgan, addUserWithCodes, api, next, socketAgent, until } from '../../../../test/live.js';
import { channelRuntimeOf } from '../index.js';
import { addKfApp, addMpApp, perTestWithFake, rowCount } from './fixtures.js';
import { newId } from '../../../platform/ids.js';

const { pt, startFake } = perTestWithFake();

/** An official account; the admin also holds the satisfaction and working-hours codes. */
async function setup() {
  const f = await startFake();
  const srv = await pt.live(undefined, { channelBases: f.bases });
  const admin = (await addUserWithCodes(srv.tdb, ['A09_A01_A02', 'A09_A03_A04', 'A09_A03_A03'])).token;
  const { fa } = await addMpApp(srv, admin, f.wechat, 'weixin');
  const says = (openid: string, text: string) => f.wechat.userSays(fa.appid, openid, { text });
  const toUser = (openid: string) =>
    f.wechat.sent.filter((s) => s.touser === openid).map((s) => String(s.body.content ?? ''));
  return { f, srv, admin, says, toUser };
}

const count = rowCount;

describe('platform users in the engine', () => {
  it("a KF user's WeChat name and unionid come from customer/batchget; the same unionid on two accounts is one contact; each account routes to its skill group", async () => {
    const f = await startFake();
    const srv = await pt.live(undefined, { channelBases: f.bases });
    const k = srv.tdb.db.kysely;
    const organ = await addOrgan(srv.tdb);
    const kf = await addKfApp(srv.tdb.db, srv.url, f.wecom);
    const second = f.wecom.addAccount('售前客服');
    const now = Date.now();
    await k
      .insertInto('channel_account')
      .values({
        id: newId(),
        orgi: 'kefu',
        appid: kf.appid,
        channel: 'wechat',
        extid: second,
        name: '售前客服',
        organ,
        createtime: now,
        updatetime: now,
      })
      .execute();
    f.wecom.customers.set('wmUnionUser01', { nickname: '张三', unionid: 'oUnion000000000000000001' });
    await f.wecom.customerSays(kf.kfid, 'wmUnionUser01', { text: '售后问题' });
    await f.wecom.customerSays(second, 'wmUnionUser01', { text: '售前问题' });
    await until(async () => {
      await channelRuntimeOf(srv.app)!.idle();
      return (await count(srv, 'agent_service')) === 2;
    });
    const users = await k.selectFrom('channel_user').select(['id', 'nickname', 'unionid']).execute();
    expect(users.map((u) => [u.nickname, u.unionid])).toEqual([
      ['张三', 'oUnion000000000000000001'],
      ['张三', 'oUnion000000000000000001'],
    ]);
    const links = await k
      .selectFrom('contact_identity')
      .select(['contactid', 'value'])
      .where(
        'value',
        'in',
        users.map((u) => u.id),
      )
      .execute();
    expect(links).toHaveLength(2);
    expect(new Set(links.map((l) => l.contactid)).size).toBe(1);
    const contact = await k
      .selectFrom('contact')
      .select('name')
      .where('id', '=', links[0]!.contactid)
      .executeTakeFirstOrThrow();
    expect(contact.name).toBe('张三');
    const chats = await k.selectFrom('agent_service').select(['organ', 'username', 'channel']).execute();
    expect(chats.map((c) => c.organ).sort()).toEqual([null, organ].sort());
    expect(chats.every((c) => c.username === '张三' && c.channel === 'wechat')).toBe(true);
  });
});

describe('the engine adapted to a channel without a widget', () => {
  it('satisfaction: the invitation lists the levels as text; a number rates the chat (also after it ended) and is thanked', async () => {
    const { srv, admin, says, toUser } = await setup();
    expect((await api(srv, admin, '/api/satisfaction/enabled', { enabled: true })).json.success).toBe(true);
    const agent = await socketAgent(srv, pt.sockets);
    const got = next<MessageDto>(agent.sock, 'message');
    const openid = 'oSatis0000000000000000001';
    await says(openid, '你好');
    const m = await got;
    const invited = await api(srv, agent.token, `/api/talk/statf?agentserviceid=${m.agentserviceid}`);
    expect(invited.json.success).toBe(true);
    await until(() => toUser(openid).some((t) => t.includes(CHANNEL_SATIS_HINT)));
    const prompt = toUser(openid).find((t) => t.includes(CHANNEL_SATIS_HINT))!;
    expect(prompt).toContain('1 非常满意');
    expect(prompt).toContain('5 非常不满意');
    // The agent ends the chat; the user answers afterwards.
    expect(
      (await api(srv, agent.token, `/api/talk/end?agentserviceid=${m.agentserviceid}`)).json.success,
    ).toBe(true);
    await says(openid, ' 2 ');
    await until(() => toUser(openid).includes(CHANNEL_SATIS_THANKS));
    const rated = await srv.tdb.db.kysely
      .selectFrom('agent_service')
      .select(['satisfaction', 'satislevel'])
      .where('id', '=', m.agentserviceid)
      .executeTakeFirstOrThrow();
    expect(rated).toMatchObject({ satisfaction: 1, satislevel: '2' });
    expect(await count(srv, 'satis_rating')).toBe(1);
    // The rating opened no new chat; a second number (no re-rating) is an ordinary message.
    expect(await count(srv, 'agent_service')).toBe(1);
    await says(openid, '3');
    await until(async () => (await count(srv, 'agent_service')) === 2);
    const again = await srv.tdb.db.kysely
      .selectFrom('agent_service')
      .select('satislevel')
      .where('id', '=', m.agentserviceid)
      .executeTakeFirstOrThrow();
    expect(again.satislevel).toBe('2');
  });

  it('a number with no pending invitation is a message', async () => {
    const { srv, admin, says } = await setup();
    await api(srv, admin, '/api/satisfaction/enabled', { enabled: true });
    const agent = await socketAgent(srv, pt.sockets);
    const got = next<MessageDto>(agent.sock, 'message');
    await says('oSatis0000000000000000002', '1');
    expect(await got).toMatchObject({ message: '1', calltype: 'in' });
    expect(await count(srv, 'satis_rating')).toBe(0);
  });

  it('outside working hours the user is told by text and the message is kept as a leave message', async () => {
    const { srv, admin, says, toUser } = await setup();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(
      new Date(srv.clock.now()),
    );
    const sched = await api(srv, admin, '/api/workservice/save', {
      name: '全天',
      weekly: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, ranges: [{ start: '00:00', end: '24:00' }] })),
      holidays: [{ date: today, name: '假日' }],
      message: '今天休息，请留言',
    });
    expect(sched.json.success, JSON.stringify(sched.json)).toBe(true);
    const openid = 'oLeave0000000000000000001';
    await says(openid, '我要退货，订单 123');
    await until(() => toUser(openid).length >= 1);
    await channelRuntimeOf(srv.app)!.idle();
    const left = await srv.tdb.db.kysely.selectFrom('leave_message').selectAll().execute();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ content: '我要退货，订单 123', status: 'new' });
    expect(await count(srv, 'agent_service')).toBe(0);
    expect(toUser(openid)[0]).toBeTruthy();
  });
});
