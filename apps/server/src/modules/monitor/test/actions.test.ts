import { describe, expect, it } from 'vitest';
import type {
  AgentUserDto,
  MonitorAuditDto,
  MonitorChatDto,
  MonitorRuleDto,
  NoticeDto,
  Page,
  StoredAgentState,
} from '@kefu/protocol';
import { api, call, next, ok, socketAgent, until, type LiveServer } from '../../../../test/live.js';
import { perTest } from '../../../../test/factories.js';
import { bindRobot } from '../../robot/test/kit.js';
import { chatIn, expectKey, scene, SUP_ALL, SUP_ORGAN, supervisor, watcher } from './kit.js';

const pt = perTest();
const sockets = pt.sockets;

async function setup(srv: LiveServer) {
  const {
    appid,
    groups: [g1],
    agents: [a1],
  } = await scene(srv, sockets, 1);
  const sup = await supervisor(srv, SUP_ALL, null);
  return { appid, g1, a1, sup };
}

const service = (srv: LiveServer, id: string) =>
  srv.tdb.db.kysely.selectFrom('agent_service').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('supervisor actions', () => {
  it('transfer: to a ready agent with room, or the best of a group; a not-ready target is refused', async () => {
    const srv = await pt.live();
    const w = await setup(srv);
    const c = await chatIn(srv, sockets, w.appid, w.g1);
    const idle = await socketAgent(srv, sockets, { organ: w.g1, ready: false });
    expectKey(
      (await api(srv, w.sup.token, `/api/monitor/transfer?agentserviceid=${c.sid}&agentno=${idle.id}`)).json,
      'agent_not_ready',
      400,
    );
    expect((await service(srv, c.sid)).agentno).toBe(w.a1.id);
    ok(await call(idle.sock, 'agentstatus', { status: 'ready' }));
    const told = next<NoticeDto>(w.a1.sock, 'notice');
    const got = next<AgentUserDto>(idle.sock, 'new');
    const r = await api<AgentUserDto>(
      srv,
      w.sup.token,
      `/api/monitor/transfer?agentserviceid=${c.sid}&organ=${w.g1}&memo=vip`,
    );
    expect(r.json.data.agentno).toBe(idle.id);
    expect((await got).agentserviceid).toBe(c.sid);
    expect(await told).toMatchObject({ type: 'transfer', message: 'vip', agentserviceid: c.sid });
    expect(await service(srv, c.sid)).toMatchObject({ agentno: idle.id, trans: 1, transmemo: 'vip' });
    const log = (
      await api<Page<MonitorAuditDto>>(srv, w.sup.token, `/api/monitor/audit?agentserviceid=${c.sid}`)
    ).json.data;
    expect(log.list.map((a) => [a.action, a.target])).toEqual([['transfer', idle.id]]);
  });

  it('endAgent forces a state (default notready); the agent hears it and it is audited', async () => {
    const srv = await pt.live();
    const w = await setup(srv);
    const status = next<{ status: StoredAgentState; reason: string }>(w.a1.sock, 'workstatus');
    const r = await api<{ status: string }>(
      srv,
      w.sup.token,
      `/api/monitor/endAgent?userid=${w.a1.id}&status=busy`,
    );
    expect(r.json.data.status).toBe('busy');
    expect(await status).toEqual({ status: 'busy', reason: 'supervisor' });
    await srv.clock.advance(1); // the audit trail orders by time
    ok((await api(srv, w.sup.token, `/api/monitor/endAgent?userid=${w.a1.id}`)).json);
    const st = await srv.tdb.db.kysely
      .selectFrom('agent_status')
      .select('status')
      .where('userid', '=', w.a1.id)
      .executeTakeFirstOrThrow();
    expect(st.status).toBe('notready');
    const log = (await api<Page<MonitorAuditDto>>(srv, w.sup.token, '/api/monitor/audit')).json.data;
    expect(log.list.map((a) => [a.action, a.detail])).toEqual([
      ['endAgent', 'notready'],
      ['endAgent', 'busy'],
    ]);
  });

  it('aiChange: a chat handed to the robot, then back to a human through the queue', async () => {
    const srv = await pt.live();
    const w = await setup(srv);
    const c = await chatIn(srv, sockets, w.appid, w.g1);
    // A robot that can take it (aiChange refuses robot_none where no robot would answer).
    await bindRobot(srv.tdb, w.appid);
    expectKey(
      (await api(srv, w.sup.token, `/api/monitor/aiChange?agentserviceid=${c.sid}`)).json,
      'not_ai_conversation',
      400,
    );
    const ended = next<AgentUserDto>(w.a1.sock, 'end');
    const toAi = await api<{ ai: number; agentno: string | null }>(
      srv,
      w.sup.token,
      `/api/monitor/aiChange?agentserviceid=${c.sid}&ai=true`,
    );
    expect(toAi.json.data).toMatchObject({ ai: 1, agentno: null, status: 'inservice' });
    expect((await ended).agentserviceid).toBe(c.sid);
    expect(await service(srv, c.sid)).toMatchObject({ ai: 1, agentno: null, status: 'inservice' });
    await srv.clock.advance(1); // the audit trail orders by time
    expectKey(
      (await api(srv, w.sup.token, `/api/monitor/aiChange?agentserviceid=${c.sid}&ai=1`)).json,
      'already_ai',
      400,
    );
    const list = async (service: string) =>
      (
        await api<{ businessList: MonitorChatDto[] }>(
          srv,
          w.sup.token,
          `/api/monitor/current/index?service=${service}`,
        )
      ).json.data.businessList;
    expect((await list('ai')).map((x) => [x.agentserviceid, x.ai])).toEqual([[c.sid, 1]]);
    expect(await list('service')).toEqual([]);
    // 转人工: into the human queue, served at once by the ready agent of the group.
    const back = next<AgentUserDto>(w.a1.sock, 'new');
    const toHuman = await api(srv, w.sup.token, `/api/monitor/aiChange?agentserviceid=${c.sid}`);
    expect(toHuman.json.data).toMatchObject({ ai: 0, agentno: w.a1.id, status: 'inservice' });
    expect((await back).agentserviceid).toBe(c.sid);
    expect(await service(srv, c.sid)).toMatchObject({ ai: 0, foragent: 1, agentno: w.a1.id });
    expect((await list('ai')).length).toBe(0);
    const actions = (await api<Page<MonitorAuditDto>>(srv, w.sup.token, '/api/monitor/audit')).json.data.list;
    expect(actions.map((a) => a.action)).toEqual(['aiToHuman', 'humanToAi']);
  });

  it('aiChange with nobody ready: the chat waits in the human queue', async () => {
    const srv = await pt.live();
    const w = await setup(srv);
    const c = await chatIn(srv, sockets, w.appid, w.g1);
    await bindRobot(srv.tdb, w.appid);
    ok((await api(srv, w.sup.token, `/api/monitor/aiChange?agentserviceid=${c.sid}&ai=true`)).json);
    ok(await call(w.a1.sock, 'agentstatus', { status: 'notready' }));
    ok((await api(srv, w.sup.token, `/api/monitor/aiChange?agentserviceid=${c.sid}`)).json);
    expect(await service(srv, c.sid)).toMatchObject({ ai: 0, foragent: 1, status: 'inqueue', agentno: null });
    const got = next<AgentUserDto>(w.a1.sock, 'new');
    ok(await call(w.a1.sock, 'agentstatus', { status: 'ready' }));
    expect((await got).agentserviceid).toBe(c.sid);
  });

  it('rules: the tenant default and a group rule; a department supervisor edits only its own group', async () => {
    const srv = await pt.live();
    const w = await setup(srv);
    const own = await supervisor(srv, SUP_ORGAN, w.g1);
    const saved = await api<MonitorRuleDto>(srv, w.sup.token, '/api/monitor/rules/save', { queuealert: 30 });
    expect(saved.json.data).toMatchObject({ organ: '', queuealert: 30, busyalert: 1800, ringtimeout: 0 });
    const mine = await api<MonitorRuleDto>(srv, own.token, '/api/monitor/rules/save', {
      organ: w.g1,
      ringtimeout: 20,
      ringmisses: 2,
    });
    // A group rule starts from the default's values.
    expect(mine.json.data).toMatchObject({ organ: w.g1, ringtimeout: 20, ringmisses: 2, queuealert: 30 });
    expectKey(
      (await api(srv, own.token, '/api/monitor/rules/save', { organ: '', queuealert: 5 })).json,
      'monitor_scope',
      403,
    );
    const before = await srv.tdb.db.kysely.selectFrom('monitor_rule').selectAll().orderBy('organ').execute();
    for (const bad of [
      { ringtimeout: -1 },
      { ringmisses: 1.5 },
      { busyalert: 'x' },
      { organ: 'nope', ringtimeout: 5 },
    ])
      expectKey((await api(srv, w.sup.token, '/api/monitor/rules/save', bad)).json, 'invalid_field', 400);
    expect(await srv.tdb.db.kysely.selectFrom('monitor_rule').selectAll().orderBy('organ').execute()).toEqual(
      before,
    );
    const list = (await api<{ list: MonitorRuleDto[] }>(srv, w.sup.token, '/api/monitor/rules')).json.data
      .list;
    expect(list.map((r) => r.organ).sort()).toEqual(['', w.g1].sort());
    const ownList = (await api<{ list: MonitorRuleDto[] }>(srv, own.token, '/api/monitor/rules')).json.data
      .list;
    expect(ownList).toHaveLength(1);
    expect(ownList[0]).toMatchObject({ organ: w.g1, ringtimeout: 20 });
  });

  it('alerts: a visitor queued too long and an agent busy too long reach the watching supervisor', async () => {
    const srv = await pt.live();
    const w = await setup(srv);
    ok((await api(srv, w.sup.token, '/api/monitor/rules/save', { queuealert: 10, busyalert: 20 })).json);
    const watching = await watcher(srv, sockets, w.sup.token);
    const alerts: Array<{ type: string; agentserviceid: string | null; agentno: string | null }> = [];
    watching.sock.on('monitor_alert', (a) => alerts.push(a));
    ok(await call(w.a1.sock, 'agentstatus', { status: 'busy' }));
    const c = await chatIn(srv, sockets, w.appid, w.g1);
    expect(c.status).toBe('inqueue');
    // Sweeps every 5 s: the one at 15 s is the first past the 10 s limit.
    await srv.clock.advance(16_000);
    await until(() => alerts.some((a) => a.type === 'queue' && a.agentserviceid === c.sid));
    expect(alerts.some((a) => a.type === 'busy')).toBe(false);
    await srv.clock.advance(10_000);
    await until(() => alerts.some((a) => a.type === 'busy' && a.agentno === w.a1.id));
    // Once per episode: more sweeps, no repeat.
    await srv.clock.advance(10_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(alerts.filter((a) => a.type === 'queue')).toHaveLength(1);
    expect(alerts.filter((a) => a.type === 'busy')).toHaveLength(1);
  });
});
