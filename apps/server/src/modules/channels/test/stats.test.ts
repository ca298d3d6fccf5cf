import { describe, expect, it } from 'vitest';
import type {
  AnalysisResultDto,
  MessageDto,
  MonitorChatDto,
  MonitorCounters,
  MonitorDesktopDto,
} from '@kefu/protocol';
import { addUserWithCodes, api, next, socketAgent, until } from '../../../../test/live.js';
import { rollupsOf } from '../../analysis/index.js';
import { dateOfDay, localParts } from '../../analysis/zone.js';
import { channelRuntimeOf } from '../index.js';
import { addKfApp, perTestWithFake } from './fixtures.js';

const { pt, startFake } = perTestWithFake();

describe('platform conversations in the monitor and the statistics', () => {
  it("a WeChat KF chat is listed by the monitor with its channel while open, and counted under channel 'wechat' once it ended", async () => {
    const f = await startFake();
    const srv = await pt.live(undefined, { channelBases: f.bases });
    const kf = await addKfApp(srv.tdb.db, srv.url, f.wecom);
    const agent = await socketAgent(srv, pt.sockets);
    const arrived = next<MessageDto>(agent.sock, 'message');
    await f.wecom.customerSays(kf.kfid, 'wmStats0001', { text: '发票怎么开' });
    const sid = (await arrived).agentserviceid;

    const supervisor = (await addUserWithCodes(srv.tdb, ['A03', 'A03_A01', 'A06_A03_A06'])).token;
    const desk = (await api<MonitorDesktopDto>(srv, supervisor, '/api/monitor/desktop')).json;
    expect(desk.success, JSON.stringify(desk)).toBe(true);
    const listed = desk.data.agentServiceList.find((c) => c.agentserviceid === sid);
    expect(listed).toMatchObject({ agentno: agent.id, status: 'inservice', ai: 0, lastmsg: '发票怎么开' });
    expect(listed?.agentservice.channel).toBe('wechat');
    expect(desk.data.serviceNum).toBe(1);
    const tab = (
      await api<{ businessList: MonitorChatDto[] } & MonitorCounters>(
        srv,
        supervisor,
        '/api/monitor/current/index?type=lastmessage&service=service',
      )
    ).json.data;
    expect(tab.businessList.map((c) => [c.agentserviceid, c.agentservice.channel])).toEqual([
      [sid, 'wechat'],
    ]);
    const transcript = (
      await api<{ list: MessageDto[] } | MessageDto[]>(
        srv,
        supervisor,
        `/api/monitor/chatMessage?agentserviceid=${sid}`,
      )
    ).json;
    expect(JSON.stringify(transcript)).toContain('发票怎么开');

    const day = dateOfDay(localParts(srv.clock.now(), 'Asia/Shanghai').day);
    const channels = async () =>
      (await api<AnalysisResultDto>(srv, supervisor, `/api/analyse/channelCount?begin=${day}&end=${day}`))
        .json.data;
    await rollupsOf(srv.tdb.db)!.idle();
    expect((await channels()).total.conversations).toBe(0);
    expect((await api(srv, agent.token, `/api/talk/end?agentserviceid=${sid}`)).json.success).toBe(true);
    await channelRuntimeOf(srv.app)!.idle();
    await rollupsOf(srv.tdb.db)!.idle();
    await until(async () => (await channels()).total.conversations === 1);
    const counted = await channels();
    expect(counted.rows).toEqual([expect.objectContaining({ key: 'wechat' })]);
    expect(counted.rows[0]!.figures).toMatchObject({ conversations: 1 });
    const after = (await api<MonitorDesktopDto>(srv, supervisor, '/api/monitor/desktop')).json.data;
    expect(after.agentServiceList.some((c) => c.agentserviceid === sid)).toBe(false);
  });
});
