import { describe, expect, it } from 'vitest';
import type {
  AgentUserDto,
  AssignedNotice,
  LeaveMessageOffer,
  MessageDto,
  RobotNotice,
  VisitorNewResult,
} from '@kefu/protocol';
import { perTest } from '../../../../test/factories.js';
import {
  api,
  call,
  collect,
  next,
  ok,
  socketAgent,
  until,
  visitorReady,
  visitorSocket,
  connected,
} from '../../../../test/live.js';
import { robotLines, robotScene, robotVisitor, say } from './kit.js';

const env = perTest();

describe('a chat with the robot', () => {
  it('starts with the robot (ai = 1, any hour): welcome, typing, answer, suggestions whose click answers, fallback; the monitor sees it', async () => {
    const sc = await robotScene(env);
    const v = await robotVisitor(sc, env.sockets);
    expect(v.started).toMatchObject({
      status: 'inservice',
      agent: null,
      robot: { id: sc.robot.id, name: '小智', handoffButton: true },
    });
    expect(robotLines(v.lines)[0]).toMatchObject({
      message: '您好，我是小智',
      calltype: 'out',
      username: '小智',
    });

    const a = await say(v, '退货的流程是什么');
    expect(a).toMatchObject({
      type: 'robot',
      message: '在“我的订单”中点击**申请售后**。',
      robot: { action: 'answer', itemid: sc.items.returns },
    });
    expect(v.writing.length).toBeGreaterThanOrEqual(1);
    // The robot read the question it answered.
    await until(() => v.reads.some((r) => r.seq >= a!.seq - 1));

    const s = await say(v, '退款');
    expect(s?.robot?.action).toBe('suggest');
    expect(s?.robot?.lead).toBe(sc.robot.suggestmsg);
    const pick = s!.robot!.suggestions.find((x) => x.id === sc.items.refundWhere)!;
    expect(pick.question).toBe('退款退到哪里？');
    // The widget sends the suggestion's question: it is answered with that item.
    const clicked = await say(v, pick.question);
    expect(clicked?.robot).toMatchObject({ action: 'answer', itemid: sc.items.refundWhere });

    const f = await say(v, '今天天气怎么样');
    expect(f).toMatchObject({ message: sc.robot.fallback, robot: { action: 'fallback' } });

    const k = sc.s.tdb.db.kysely;
    const row = await k
      .selectFrom('agent_service')
      .selectAll()
      .where('id', '=', v.started.agentserviceid)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ ai: 1, status: 'inservice', agentno: null, foragent: 0 });
    const log = await k.selectFrom('robot_question').select(['action']).orderBy('createtime').execute();
    expect(log.map((x) => x.action).sort()).toEqual(['answer', 'answer', 'fallback', 'suggest']);
    const board = await api<{ businessList: Array<{ agentserviceid: string; ai: number }> }>(
      sc.s,
      sc.admin,
      '/api/monitor/current/index?type=lastmessage&service=ai',
    );
    expect(board.json.data.businessList.map((c) => c.agentserviceid)).toContain(v.started.agentserviceid);
    const humans = await api<{ businessList: unknown[] }>(
      sc.s,
      sc.admin,
      '/api/monitor/current/index?type=lastmessage&service=service',
    );
    expect(humans.json.data.businessList).toHaveLength(0);

    // A reconnecting widget gets the robot lines back with their suggestions.
    const again = visitorSocket(sc.s.url, sc.appid, v.userid, { token: v.token, lastSeq: '0' });
    env.sockets.push(again);
    const replayed = collect<MessageDto>(again, 'message');
    await connected(again);
    await until(() => replayed.length >= v.lines.length);
    expect(replayed.find((m) => m.id === s!.id)?.robot?.suggestions).toHaveLength(
      s!.robot!.suggestions.length,
    );
  });

  it('“转人工” goes to a human through routing; the agent reads the robot transcript; the robot never answers again', async () => {
    const sc = await robotScene(env);
    const agent = await socketAgent(sc.s, env.sockets);
    const v = await robotVisitor(sc, env.sockets);
    await say(v, '怎么开发票');
    const robotGone = next<RobotNotice>(v.s, 'robot');
    const assigned = next<AssignedNotice>(v.s, 'assigned');
    const taken = next<AgentUserDto>(agent.sock, 'new');
    const h = await say(v, '转人工');
    expect(h).toMatchObject({ message: sc.robot.handoffmsg, robot: { action: 'handoff' } });
    expect((await robotGone).robot).toBeNull();
    expect((await assigned).agent.id).toBe(agent.id);
    const entry = await taken;
    expect(entry).toMatchObject({ ai: 0, agentserviceid: v.started.agentserviceid });

    const transcript = await api<{ list: MessageDto[] }>(
      sc.s,
      agent.token,
      `/api/talk/chatMessage?agentserviceid=${entry.agentserviceid}&ps=50`,
    );
    const texts = transcript.json.data.list.map((m) => `${m.type}:${m.message}`);
    expect(texts).toEqual(
      expect.arrayContaining([
        'robot:您好，我是小智',
        'message:怎么开发票',
        'robot:在订单详情申请电子发票。',
        'message:转人工',
        `robot:${sc.robot.handoffmsg}`,
      ]),
    );

    const toAgent = next<MessageDto>(agent.sock, 'message');
    await say(v, '我的发票还没收到', false);
    expect((await toAgent).message).toBe('我的发票还没收到');
    const k = sc.s.tdb.db.kysely;
    expect(
      await k
        .selectFrom('agent_service')
        .select(['ai', 'foragent', 'agentno'])
        .where('id', '=', entry.agentserviceid)
        .executeTakeFirst(),
    ).toEqual({
      ai: 0,
      foragent: 1,
      agentno: agent.id,
    });
    await until(
      async () =>
        (await k.selectFrom('robot_session').select('handoff').executeTakeFirst())?.handoff === 'phrase',
    );
  });

  it('the 转人工 button with nobody ready: queued with a leave-message offer, seated when an agent comes; its wait counts from the handoff', async () => {
    const sc = await robotScene(env);
    await api(sc.s, sc.admin, '/api/sessionConfig/lineUp/save', { quene: true, quenetimeout: 600 });
    const v = await robotVisitor(sc, env.sockets);
    // Ten minutes with the robot: longer than the queue's time-out.
    await sc.s.clock.advance(11 * 60_000);
    const offer = next<LeaveMessageOffer>(v.s, 'leavemsg');
    const state = ok(await call<VisitorNewResult>(v.s, 'handoff', {}));
    expect(state).toMatchObject({ status: 'inqueue', agent: null });
    expect(state.robot).toBeUndefined();
    expect((await offer).reason).toBe('noagent');
    // The queue timer does not end it: it joined the queue just now.
    await sc.s.clock.advance(10_000);
    const k = sc.s.tdb.db.kysely;
    expect(
      (
        await k
          .selectFrom('agent_service')
          .select('status')
          .where('id', '=', state.agentserviceid)
          .executeTakeFirst()
      )?.status,
    ).toBe('inqueue');

    const assigned = next<AssignedNotice>(v.s, 'assigned');
    const agent = await socketAgent(sc.s, env.sockets);
    expect((await assigned).agent.id).toBe(agent.id);
    const row = await k
      .selectFrom('agent_service')
      .select(['waittime', 'foragent'])
      .where('id', '=', state.agentserviceid)
      .executeTakeFirstOrThrow();
    expect(Number(row.waittime)).toBeLessThan(60_000);
    expect((await k.selectFrom('robot_session').select('handoff').executeTakeFirst())?.handoff).toBe(
      'button',
    );
    // The button again, now with a human: nothing changes.
    expect(ok(await call<VisitorNewResult>(v.s, 'handoff', {}))).toMatchObject({
      status: 'inservice',
      agent: { id: agent.id },
    });
  });

  it('hands over after N fallbacks in a row (the fallback text first) and on the robot’s own rule', async () => {
    const sc = await robotScene(env, { handoffFallbacks: 2, handoffKeywords: ['投诉'] });
    await socketAgent(sc.s, env.sockets);
    const v = await robotVisitor(sc, env.sockets);
    expect((await say(v, '今天天气怎么样'))?.robot?.action).toBe('fallback');
    const before = robotLines(v.lines).length;
    await say(v, '给我讲个笑话');
    await until(() => robotLines(v.lines).length >= before + 2);
    expect(
      robotLines(v.lines)
        .slice(before)
        .map((m) => m.robot?.action),
    ).toEqual(['fallback', 'handoff']);
    const k = sc.s.tdb.db.kysely;
    const handoffOf = async (sid: string) =>
      (
        await k
          .selectFrom('robot_session')
          .select('handoff')
          .where('agentserviceid', '=', sid)
          .executeTakeFirst()
      )?.handoff;
    await until(async () => (await handoffOf(v.started.agentserviceid)) === 'fallbacks');

    const w = await robotVisitor(sc, env.sockets);
    const h = await say(w, '我要投诉你们');
    expect(h?.robot?.action).toBe('handoff');
    await until(async () => (await handoffOf(w.started.agentserviceid)) === 'rule');
  });

  it('outside working hours the robot still serves, and a handoff offers the leave-message form instead of a queue', async () => {
    const sc = await robotScene(env);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(
      new Date(sc.s.clock.now()),
    );
    const sched = await api(sc.s, sc.admin, '/api/workservice/save', {
      name: '全天',
      weekly: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, ranges: [{ start: '00:00', end: '24:00' }] })),
      holidays: [{ date: today, name: '假日' }],
    });
    expect(sched.json.success, JSON.stringify(sched.json)).toBe(true);
    // An English visitor is told in the schedule's English text (texts module, scope workingHours).
    await api(sc.s, sc.admin, '/api/visitorText/save', {
      scope: 'workingHours',
      rowid: (sched.json.data as { id: string }).id,
      lang: 'en',
      texts: { notinwhmsg: 'Closed today' },
    });
    const v = await robotVisitor(sc, env.sockets, { l: 'en' });
    expect(v.started.robot?.id).toBe(sc.robot.id);
    const offer = next<LeaveMessageOffer>(v.s, 'leavemsg');
    const state = ok(await call<VisitorNewResult>(v.s, 'handoff', {}));
    expect(await offer).toEqual({ reason: 'notinworktime', message: 'Closed today' });
    expect(state).toMatchObject({ status: 'inservice', robot: { id: sc.robot.id } });
    expect((await say(v, '怎么开发票'))?.robot?.action).toBe('answer');
  });

  it('supervisor aiChange: to a human and back to the robot (which greets again); refused where no robot can take the chat', async () => {
    const sc = await robotScene(env);
    const agent = await socketAgent(sc.s, env.sockets);
    const v = await robotVisitor(sc, env.sockets);
    const sid = v.started.agentserviceid;
    const gone = next<RobotNotice>(v.s, 'robot');
    const toHuman = await api(sc.s, sc.admin, `/api/monitor/aiChange?agentserviceid=${sid}`);
    expect(toHuman.json).toMatchObject({
      success: true,
      data: { ai: 0, status: 'inservice', agentno: agent.id },
    });
    expect((await gone).robot).toBeNull();
    await say(v, '怎么开发票', false);

    const back = next<RobotNotice>(v.s, 'robot');
    const greet = robotLines(v.lines).length;
    const toRobot = await api(sc.s, sc.admin, `/api/monitor/aiChange?agentserviceid=${sid}&ai=true`);
    expect(toRobot.json).toMatchObject({ success: true, data: { ai: 1, agentno: null } });
    expect((await back).robot?.id).toBe(sc.robot.id);
    await until(() => robotLines(v.lines).length > greet);
    expect((await say(v, '怎么开发票'))?.robot?.action).toBe('answer');
    const k = sc.s.tdb.db.kysely;
    expect((await k.selectFrom('robot_session').select('handoff').executeTakeFirst())?.handoff).toBe(
      'supervisor',
    );

    // A chat of an access point without a robot cannot be given to one.
    await api(sc.s, sc.admin, '/api/webim/ai', { appid: sc.appid, robotid: '' });
    const plain = await visitorReady(sc.s.url, sc.appid);
    env.sockets.push(plain.s);
    const human = ok(await call<VisitorNewResult>(plain.s, 'new', {}));
    expect(human).toMatchObject({ status: 'inservice', agent: { id: agent.id } });
    expect(human.robot).toBeUndefined();
    const refused = await api(
      sc.s,
      sc.admin,
      `/api/monitor/aiChange?agentserviceid=${human.agentserviceid}&ai=true`,
    );
    expect(refused.json).toMatchObject({ success: false, key: 'robot_none' });
  });

  it('no agent no-reply warning in a robot chat; bad input: an empty or a 10 KB message is refused by the socket, the chat goes on', async () => {
    const sc = await robotScene(env);
    await api(sc.s, sc.admin, '/api/sessionConfig/other/save', {
      agentreplaytimeout: true,
      agenttimeout: 10,
    });
    const v = await robotVisitor(sc, env.sockets);
    await say(v, '怎么开发票');
    await sc.s.clock.advance(30_000);
    expect(v.lines.filter((m) => m.type === 'system')).toHaveLength(0);
    const big = await call(v.s, 'message', {
      clientId: 'c'.repeat(20),
      message: '退'.repeat(10_240),
      msgtype: 'text',
    });
    expect(big).toMatchObject({ success: false, key: 'too_long' });
    expect((await say(v, '   ', false).catch((e: Error) => e.message)) ?? '').toContain('required');
  });
});
