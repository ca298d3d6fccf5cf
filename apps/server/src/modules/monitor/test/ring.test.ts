import { describe, expect, it } from 'vitest';
import type {
  AgentUserDto,
  AssignedNotice,
  MonitorAlertDto,
  NoticeDto,
  VisitorNewResult,
} from '@kefu/protocol';
import { api, call, collect, ok, socketAgent, until, visitorReady } from '../../../../test/live.js';
import { perTest } from '../../../../test/factories.js';
import { chatIn, scene, SUP_ALL, supervisor, watcher } from './kit.js';

const pt = perTest();
const sockets = pt.sockets;
type Agent = Awaited<ReturnType<typeof socketAgent>>;

/** A group with a ring rule (20 s, 2 misses in a row) and two ready agents; a tenant supervisor. */
async function ringScene() {
  const srv = await pt.live();
  const { appid, groups, agents } = await scene(srv, sockets, 1);
  const g1 = groups[0]!;
  agents.push(await socketAgent(srv, sockets, { organ: g1 }));
  const sup = await supervisor(srv, SUP_ALL, null);
  const rule = { organ: g1, ringtimeout: 20, ringmisses: 2 };
  ok((await api(srv, sup.token, '/api/monitor/rules/save', rule)).json);
  return { srv, k: srv.tdb.db.kysely, appid, g1, sup, agents };
}

describe('ring-no-answer', () => {
  it('an unanswered chat moves quietly to another agent; misses in a row set the agent notready', async () => {
    const { srv, k, appid, g1, sup, agents } = await ringScene();
    const watching = await watcher(srv, sockets, sup.token);
    const alerts = collect<MonitorAlertDto>(watching.sock, 'monitor_alert');
    const [a, b] = agents as [Agent, Agent];
    const c = await chatIn(srv, sockets, appid, g1);
    const owner = async () =>
      (
        await k
          .selectFrom('agent_service')
          .select('agentno')
          .where('id', '=', c.sid)
          .executeTakeFirstOrThrow()
      ).agentno;
    const first = await owner();
    const [x, y] = first === a.id ? [a, b] : [b, a];
    // The manual clock jumps minutes: the agents ping so the heartbeat keeps them ready.
    const advance = async (ms: number) => {
      for (const g of [a, b]) ok(await call(g.sock, 'ping'));
      await srv.clock.advance(ms);
    };
    const assigned = collect<AssignedNotice>(c.v.s, 'assigned');
    const xNotices = collect<NoticeDto>(x.sock, 'notice');
    const yNew = collect<AgentUserDto>(y.sock, 'new');
    // 15 s: not yet; 25 s: rerouted to the other agent, the visitor is not told again.
    await advance(15_000);
    expect(await owner()).toBe(x.id);
    await advance(10_000);
    await until(async () => (await owner()) === y.id);
    await until(() => yNew.some((n) => n.agentserviceid === c.sid));
    await until(() => xNotices.some((n) => n.type === 'ring' && n.agentserviceid === c.sid));
    await until(() => alerts.some((al) => al.type === 'ring' && al.agentno === x.id));
    // y does not answer either: back to x (x's second miss would come next time).
    await advance(25_000);
    await until(async () => (await owner()) === x.id);
    // x misses again: its second miss in a row sets it notready, with a notice.
    await advance(25_000);
    await until(async () => (await owner()) === y.id);
    await until(() => xNotices.some((n) => n.type === 'ring_notready'));
    const st = await k
      .selectFrom('agent_status')
      .select('status')
      .where('userid', '=', x.id)
      .executeTakeFirstOrThrow();
    expect(st.status).toBe('notready');
    expect(assigned).toEqual([]);
    const trail = await k
      .selectFrom('monitor_audit')
      .select(['action', 'target', 'userid'])
      .orderBy('createtime')
      .execute();
    expect(trail.map((t) => [t.action, t.target])).toEqual([
      ['rules', null],
      ['ringReroute', x.id],
      ['ringReroute', y.id],
      ['ringReroute', x.id],
      ['ringNotready', x.id],
    ]);
    expect(trail.slice(1).every((t) => t.userid === 'system')).toBe(true);
  });

  it('an answer in time keeps the chat; an answer on any chat starts the miss count over', async () => {
    const { srv, k, appid, g1, agents } = await ringScene();
    const owner = async (sid: string) =>
      (await k.selectFrom('agent_service').select('agentno').where('id', '=', sid).executeTakeFirstOrThrow())
        .agentno;
    type Chat = Awaited<ReturnType<typeof chatIn>>;
    const reply = async (who: (typeof agents)[number], chat: Chat, id: string) =>
      ok(
        await call(who.sock, 'message', {
          touser: chat.v.userid,
          agentserviceid: chat.sid,
          clientId: id,
          message: 'hi',
        }),
      );
    /** A chat asking for one agent by name. */
    const chatFor = async (agent: string): Promise<Chat> => {
      const v = await visitorReady(srv.url, appid);
      sockets.push(v.s);
      const r = ok(await call<VisitorNewResult>(v.s, 'new', { skill: g1, agent }));
      return { v, sid: r.agentserviceid, status: r.status };
    };
    const advance = async (ms: number) => {
      for (const g of agents) ok(await call(g.sock, 'ping'));
      await srv.clock.advance(ms);
    };
    const c1 = await chatIn(srv, sockets, appid, g1);
    const xId = await owner(c1.sid);
    const x = agents.find((a) => a.id === xId)!;
    const y = agents.find((a) => a.id !== xId)!;
    // An answer in time: nothing moves.
    await advance(10_000);
    await reply(x, c1, 'x-answers-c1');
    await advance(20_000);
    expect(await owner(c1.sid)).toBe(x.id);
    // x misses a chat (miss 1) ...
    const c2 = await chatFor(x.id);
    expect(await owner(c2.sid)).toBe(x.id);
    await advance(25_000);
    await until(async () => (await owner(c2.sid)) === y.id);
    await reply(y, c2, 'y-answers-c2');
    // ... answers c1 again, then misses another: the count starts over, x stays ready.
    await srv.clock.advance(1_000);
    await reply(x, c1, 'x-answers-c1-again');
    const c3 = await chatFor(x.id);
    expect(await owner(c3.sid)).toBe(x.id);
    await advance(25_000);
    await until(async () => (await owner(c3.sid)) === y.id);
    const ring = await k
      .selectFrom('agent_ring')
      .selectAll()
      .where('userid', '=', x.id)
      .executeTakeFirstOrThrow();
    expect(ring.misses).toBe(1);
    const st = await k
      .selectFrom('agent_status')
      .select('status')
      .where('userid', '=', x.id)
      .executeTakeFirstOrThrow();
    expect(st.status).toBe('ready');
  });
});
