import { describe, expect, it } from 'vitest';
import type { MonitorDesktopDto, MonitorChatDto, MonitorCounters, StaticAgentDto } from '@kefu/protocol';
import { api, call, ok, type LiveServer } from '../../../../test/live.js';
import { perTest } from '../../../../test/factories.js';
import { saveSessionConfig } from '../../conversation/session-config.js';
import { chatIn, expectKey, scene, SUP_ALL, SUP_ORGAN, supervisor } from './kit.js';

const pt = perTest();
const sockets = pt.sockets;

/** Two skill groups, an agent and a chat in each, supervisors of every kind. */
async function twoGroups(srv: LiveServer) {
  const {
    appid,
    groups: [g1, g2],
    agents: [a1, a2],
  } = await scene(srv, sockets, 2);
  const c1 = await chatIn(srv, sockets, appid, g1);
  const c2 = await chatIn(srv, sockets, appid, g2);
  expect([c1.status, c2.status]).toEqual(['inservice', 'inservice']);
  return {
    appid,
    g1,
    g2,
    a1,
    a2,
    c1,
    c2,
    all: await supervisor(srv, SUP_ALL, null),
    own: await supervisor(srv, SUP_ORGAN, g1),
    agentOnly: await supervisor(srv, ['A01'], g1),
    bareA03: await supervisor(srv, ['A03'], g1),
  };
}

describe('monitor views and scope', () => {
  it('desktop: A03_A01 sees every group; A03_A02 only its own organ; without a scope 403', async () => {
    const srv = await pt.live();
    const w = await twoGroups(srv);
    const all = (await api<MonitorDesktopDto>(srv, w.all.token, '/api/monitor/desktop')).json;
    expect(all.success, JSON.stringify(all)).toBe(true);
    expect(all.data.scope).toBe('all');
    expect(all.data.agentServiceList.map((c) => c.agentserviceid).sort()).toEqual(
      [w.c1.sid, w.c2.sid].sort(),
    );
    expect(all.data.agentList.map((a) => a.userid).sort()).toEqual([w.a1.id, w.a2.id].sort());
    const g1 = all.data.skillList.find((g) => g.id === w.g1)!;
    expect(g1.agentList.map((a) => a.userid)).toEqual([w.a1.id]);
    expect(g1).toMatchObject({ name: 'g1', serviceNum: 1, inqueneNum: 0 });
    expect(all.data.skillList.find((g) => g.id === w.g2)!.agentList.map((a) => a.userid)).toEqual([w.a2.id]);
    expect(all.data).toMatchObject({ serviceNum: 2, inqueneNum: 0, aiNum: 0, timeoutNum: 0, leavemsgNum: 0 });
    const chat = all.data.agentServiceList.find((c) => c.agentserviceid === w.c1.sid)!;
    expect(chat).toMatchObject({
      organ: w.g1,
      organname: 'g1',
      agentno: w.a1.id,
      status: 'inservice',
      ai: 0,
    });
    expect(all.data.agentList.find((a) => a.userid === w.a1.id)).toMatchObject({
      status: 'ready',
      users: 1,
      maxusers: 10,
      organs: [w.g1],
    });

    const own = (await api<MonitorDesktopDto>(srv, w.own.token, '/api/monitor/desktop')).json.data;
    expect(own).toMatchObject({ scope: 'organ', organ: w.g1, serviceNum: 1 });
    expect(own.agentServiceList.map((c) => c.agentserviceid)).toEqual([w.c1.sid]);
    expect(own.agentList.map((a) => a.userid)).toEqual([w.a1.id]);
    expect(own.skillList.map((g) => g.id)).toEqual([w.g1]);

    expectKey((await api(srv, w.agentOnly.token, '/api/monitor/desktop')).json, 'forbidden', 403);
    expectKey((await api(srv, w.bareA03.token, '/api/monitor/desktop')).json, 'monitor_scope', 403);
    expectKey((await api(srv, w.bareA03.token, '/api/monitor/current/index')).json, 'monitor_scope', 403);
  });

  it('current/index: the tab list with the service filter; bad input refused', async () => {
    const srv = await pt.live();
    const w = await twoGroups(srv);
    const list = async (q: string) =>
      (
        await api<{ businessList: MonitorChatDto[] } & MonitorCounters>(
          srv,
          w.all.token,
          `/api/monitor/current/index?${q}`,
        )
      ).json;
    expect((await list('type=lastmessage')).data.businessList).toHaveLength(2);
    expect((await list('type=lastmessage&service=service')).data.businessList).toHaveLength(2);
    expect((await list('type=lastmessage&service=ai')).data.businessList).toHaveLength(0);
    expect((await list('type=queue')).data.businessList).toHaveLength(0);
    expectKey(await list('type=nope'), 'invalid_field', 400);
    expectKey(await list('service=robots'), 'invalid_field', 400);
  });

  it('every action on a chat or agent outside the scope is 403 monitor_scope and changes nothing', async () => {
    const srv = await pt.live();
    const w = await twoGroups(srv);
    const k = srv.tdb.db.kysely;
    const sid = w.c2.sid;
    const t = w.own.token;
    const refused = [
      await api(srv, t, `/api/monitor/end?agentserviceid=${sid}`),
      await api(srv, t, `/api/monitor/transfer?agentserviceid=${sid}&agentno=${w.a1.id}`),
      await api(srv, t, `/api/monitor/takeover?agentserviceid=${sid}`),
      await api(srv, t, `/api/monitor/aiChange?agentserviceid=${sid}&ai=true`),
      await api(srv, t, '/api/monitor/whisper', {
        agentserviceid: sid,
        clientId: 'w-out-of-scope',
        message: 'x',
      }),
      await api(srv, t, '/api/monitor/barge', {
        agentserviceid: sid,
        clientId: 'b-out-of-scope',
        message: 'x',
      }),
      await api(srv, t, `/api/monitor/chatMessage?agentserviceid=${sid}`),
      await api(srv, t, `/api/monitor/whispers?agentserviceid=${sid}`),
      await api(srv, t, `/api/monitor/audit?agentserviceid=${sid}`),
      await api(srv, t, `/api/monitor/endAgent?userid=${w.a2.id}`),
      await api(srv, t, `/api/monitor/staticagent?userid=${w.a2.id}`),
      await api(srv, t, `/api/monitor/transfer?agentserviceid=${w.c1.sid}&agentno=${w.a2.id}`),
      await api(srv, t, `/api/monitor/transfer?agentserviceid=${w.c1.sid}&organ=${w.g2}`),
      await api(srv, t, '/api/monitor/rules/save', { organ: w.g2, ringtimeout: 30 }),
      await api(srv, t, '/api/monitor/rules/save', { organ: '', ringtimeout: 30 }),
    ];
    for (const r of refused) {
      expect(r.status).toBe(403);
      expectKey(r.json, 'monitor_scope', 403);
    }
    const s2 = await k
      .selectFrom('agent_service')
      .selectAll()
      .where('id', '=', sid)
      .executeTakeFirstOrThrow();
    expect(s2).toMatchObject({ status: 'inservice', agentno: w.a2.id, ai: 0 });
    const s1 = await k
      .selectFrom('agent_service')
      .selectAll()
      .where('id', '=', w.c1.sid)
      .executeTakeFirstOrThrow();
    expect(s1.agentno).toBe(w.a1.id);
    const a2 = await k
      .selectFrom('agent_status')
      .selectAll()
      .where('userid', '=', w.a2.id)
      .executeTakeFirstOrThrow();
    expect(a2.status).toBe('ready');
    for (const table of ['chat_whisper', 'monitor_audit', 'monitor_rule', 'agent_collaborator'] as const) {
      const n = await k
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n), table).toBe(0);
    }
    // The same calls without A03 at all: 403 by the route guard.
    expectKey(
      (await api(srv, w.agentOnly.token, `/api/monitor/end?agentserviceid=${sid}`)).json,
      'forbidden',
      403,
    );
    // ... and in scope they work (both ways).
    ok((await api(srv, w.own.token, `/api/monitor/chatMessage?agentserviceid=${w.c1.sid}`)).json);
    ok((await api(srv, w.own.token, `/api/monitor/staticagent?userid=${w.a1.id}`)).json);
  });

  it('bad input: missing ids, unknown and ended conversations, empty lines', async () => {
    const srv = await pt.live();
    const w = await twoGroups(srv);
    const t = w.all.token;
    expectKey((await api(srv, t, '/api/monitor/end')).json, 'required', 400);
    expectKey((await api(srv, t, `/api/monitor/transfer?agentserviceid=${w.c1.sid}`)).json, 'required', 400);
    expectKey(
      (await api(srv, t, '/api/monitor/end?agentserviceid=nope')).json,
      'conversation_not_found',
      404,
    );
    expectKey(
      (
        await api(srv, t, '/api/monitor/whisper', {
          agentserviceid: w.c1.sid,
          clientId: 'w-empty-1',
          message: ' ',
        })
      ).json,
      'required',
      400,
    );
    expectKey((await api(srv, t, '/api/monitor/endAgent?userid=nobody')).json, 'user_not_found', 404);
    expectKey(
      (await api(srv, t, `/api/monitor/endAgent?userid=${w.a1.id}&status=away`)).json,
      'invalid_field',
      400,
    );
    ok((await api(srv, t, `/api/monitor/end?agentserviceid=${w.c1.sid}`)).json);
    for (const r of [
      await api(srv, t, `/api/monitor/end?agentserviceid=${w.c1.sid}`),
      await api(srv, t, `/api/monitor/takeover?agentserviceid=${w.c1.sid}`),
      await api(srv, t, `/api/monitor/transfer?agentserviceid=${w.c1.sid}&agentno=${w.a2.id}`),
      await api(srv, t, `/api/monitor/aiChange?agentserviceid=${w.c1.sid}`),
      await api(srv, t, '/api/monitor/whisper', {
        agentserviceid: w.c1.sid,
        clientId: 'w-after-end',
        message: 'x',
      }),
      await api(srv, t, '/api/monitor/barge', {
        agentserviceid: w.c1.sid,
        clientId: 'b-after-end',
        message: 'x',
      }),
    ])
      expectKey(r.json, 'conversation_ended', 400);
  });

  it('timeouts: chats whose visitor waits for a reply past the limit; staticagent figures', async () => {
    const srv = await pt.live();
    const w = await twoGroups(srv);
    await saveSessionConfig(srv.tdb.db, 'kefu', { agenttimeout: 30 }, Date.now());
    ok(await call(w.c1.v.s, 'message', { clientId: 'v-late-0001', message: 'hello?' }));
    const size = async (token: string) =>
      (await api<number>(srv, token, '/api/monitor/timeoutAgentserviceSize')).json.data;
    expect(await size(w.all.token)).toBe(0);
    await srv.clock.advance(31_000);
    expect(await size(w.all.token)).toBe(1);
    expect(await size(w.own.token)).toBe(1);
    const timeouts = (await api<MonitorDesktopDto>(srv, w.all.token, '/api/monitor/desktop?type=timeout'))
      .json.data;
    expect(timeouts.agentServiceList.map((c) => [c.agentserviceid, c.timeout])).toEqual([[w.c1.sid, 1]]);
    expect(timeouts.agentServiceList[0]!.waitreply).toBeGreaterThanOrEqual(31_000);
    expect(timeouts.timeoutNum).toBe(1);
    // The agent answers: not late any more.
    ok(
      await call(w.a1.sock, 'message', {
        touser: w.c1.v.userid,
        agentserviceid: w.c1.sid,
        clientId: 'a-answer-001',
        message: 'here',
      }),
    );
    expect(await size(w.all.token)).toBe(0);
    const stats = (await api<{ list: StaticAgentDto[] }>(srv, w.all.token, '/api/monitor/staticagent')).json
      .data.list;
    const a1 = stats.find((a) => a.userid === w.a1.id)!;
    expect(a1).toMatchObject({ status: 'ready', users: 1, maxusers: 10, servedToday: 1 });
    expect(a1.firstreply).toBeGreaterThanOrEqual(31);
    expect(a1.avgreply).toBeGreaterThanOrEqual(31);
    const mine = (await api<{ list: StaticAgentDto[] }>(srv, w.own.token, '/api/monitor/staticagent')).json
      .data.list;
    expect(mine.map((a) => a.userid)).toEqual([w.a1.id]);
  });
});
