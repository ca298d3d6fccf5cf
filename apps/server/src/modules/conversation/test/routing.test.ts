import { describe, expect, it } from 'vitest';
import type { AgentUserDto, AssignedNotice, QueueNotice, VisitorNewResult } from '@kefu/protocol';
import {
  addAccessPoint,
  addOrgan,
  api,
  call,
  collect,
  next,
  ok,
  socketAgent,
  until,
  visitorReady,
  type LiveServer,
} from '../../../../test/live.js';
import { perTest } from '../../../../test/factories.js';
import { saveSessionConfig } from '../session-config.js';
import { forgetSeats } from '../seat-board.js';

const pt = perTest();
const sockets = pt.sockets;
let srv: LiveServer | undefined;

const readyAgent = (s: LiveServer, opts: { maxusers?: number; organ?: string | null } = {}) =>
  socketAgent(s, sockets, opts);

describe('routing', () => {
  it('assigns a new chat to a ready agent and tells both sides', async () => {
    srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    await saveSessionConfig(srv.tdb.db, 'kefu', { successmsg: '{agent} is here' }, Date.now());
    const agent = await readyAgent(srv);
    const news = next<AgentUserDto>(agent.sock, 'new');
    const v = await visitorReady(srv.url, appid);
    // A second tab of the same visitor: it learns of the assignment only from `assigned`.
    const tab = await visitorReady(srv.url, appid, v.userid, { token: v.token });
    sockets.push(v.s, tab.s);
    const askerSaw = collect<AssignedNotice>(v.s, 'assigned');
    const tabSaw = next<AssignedNotice>(tab.s, 'assigned');
    const r = ok(await call<VisitorNewResult>(v.s, 'new', { name: 'Ann' }));
    expect(r.status).toBe('inservice');
    expect(r.agent?.id).toBe(agent.id);
    // The ack stands in for `assigned` on the asking socket: same agent and text, no event.
    const nickname = r.agent?.nickname ?? '';
    expect(r.message).toBe(`${nickname} is here`);
    expect(await tabSaw).toEqual({
      agentserviceid: r.agentserviceid,
      agent: r.agent,
      message: r.message,
      transfer: false,
    });
    const announced = await news;
    expect(announced.userid).toBe(v.userid);
    // `assigned` went out before the ack (and before the tab's copy), so it would have arrived by now.
    expect(askerSaw).toEqual([]);
    const list = await api<{ agentUserList: AgentUserDto[] }>(
      srv,
      agent.token,
      '/api/talk/agentuser?talksort=lastmessage',
    );
    expect(list.json.data.agentUserList.map((a) => a.userid)).toEqual([v.userid]);
    // The announcement is built from the values written (no read-back): it must equal the stored rows.
    expect(announced).toEqual(list.json.data.agentUserList[0]);
    const st = await api<{ status: string }>(srv, agent.token, '/api/agent/status');
    expect(st.json.data.status).toBe('ready');
  });

  it('never exceeds maxusers; queues FIFO with positions; drains when a seat frees', async () => {
    srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const agent = await readyAgent(srv, { maxusers: 1 });
    const v1 = await visitorReady(srv.url, appid);
    const v2 = await visitorReady(srv.url, appid);
    const v3 = await visitorReady(srv.url, appid);
    sockets.push(v1.s, v2.s, v3.s);
    const q2 = collect<QueueNotice>(v2.s, 'queue');
    const q3 = collect<QueueNotice>(v3.s, 'queue');
    const r1 = ok(await call<VisitorNewResult>(v1.s, 'new'));
    const r2 = ok(await call<VisitorNewResult>(v2.s, 'new'));
    const r3 = ok(await call<VisitorNewResult>(v3.s, 'new'));
    expect([r1.status, r2.status, r3.status]).toEqual(['inservice', 'inqueue', 'inqueue']);
    expect([r2.position, r3.position]).toEqual([1, 2]);
    await until(() => q3.length > 0);
    expect(q3[0]?.position).toBe(2);
    const queue = await api<AgentUserDto[]>(srv, agent.token, '/api/talk/inqueneuser');
    expect(queue.json.data.map((a) => a.userid)).toEqual([v2.userid, v3.userid]);
    // ending the first chat frees the seat: v2 gets the agent, v3 moves to position 1
    const assigned2 = next(v2.s, 'assigned');
    const end1 = next<{ endby: string }>(v1.s, 'end');
    const ended = await api(srv, agent.token, `/api/talk/end?agentserviceid=${r1.agentserviceid}`);
    expect(ended.json.success).toBe(true);
    expect((await end1).endby).toBe('agent');
    await assigned2;
    await until(() => q3.some((q) => q.position === 1));
    const row = await srv.tdb.db.kysely
      .selectFrom('agent_status')
      .selectAll()
      .where('userid', '=', agent.id)
      .executeTakeFirstOrThrow();
    expect(row.users).toBe(1);
    expect(q2.length).toBeGreaterThan(0);
  });

  it('prefers the skill group, the last agent, and applies idle-first vs least-busy', async () => {
    srv = await pt.live();
    const g = await addOrgan(srv.tdb);
    const appid = await addAccessPoint(srv.tdb, g);
    const outside = await readyAgent(srv);
    const inside = await readyAgent(srv, { organ: g });
    const v = await visitorReady(srv.url, appid);
    sockets.push(v.s);
    const r = ok(await call<VisitorNewResult>(v.s, 'new'));
    expect(r.agent?.id).toBe(inside.id);
    expect(outside.id).not.toBe(inside.id);
    // least-busy by load ratio vs idle-first by fewest chats
    const k = srv.tdb.db.kysely;
    await k
      .updateTable('agent_status')
      .set({ users: 2, maxusers: 10 })
      .where('userid', '=', outside.id)
      .execute();
    await k
      .updateTable('agent_status')
      .set({ users: 1, maxusers: 2 })
      .where('userid', '=', inside.id)
      .execute();
    // Written behind the engine's back: the seat board (which follows the engine's own changes) is dropped.
    forgetSeats(srv.tdb.db, 'kefu');
    const open = await addAccessPoint(srv.tdb);
    const va = await visitorReady(srv.url, open);
    sockets.push(va.s);
    expect(ok(await call<VisitorNewResult>(va.s, 'new')).agent?.id).toBe(inside.id);
    await k
      .updateTable('agent_status')
      .set({ users: 2, maxusers: 10 })
      .where('userid', '=', outside.id)
      .execute();
    await k
      .updateTable('agent_status')
      .set({ users: 1, maxusers: 2 })
      .where('userid', '=', inside.id)
      .execute();
    forgetSeats(srv.tdb.db, 'kefu');
    await saveSessionConfig(srv.tdb.db, 'kefu', { distribution: 'least-busy', lastagent: false }, Date.now());
    const vb = await visitorReady(srv.url, open);
    sockets.push(vb.s);
    expect(ok(await call<VisitorNewResult>(vb.s, 'new')).agent?.id).toBe(outside.id);
  });

  it('offers a leave message when no agent is ready', async () => {
    srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const v = await visitorReady(srv.url, appid);
    sockets.push(v.s);
    const offer = next<{ reason: string }>(v.s, 'leavemsg');
    const r = ok(await call<VisitorNewResult>(v.s, 'new'));
    expect(r.status).toBe('inqueue');
    expect((await offer).reason).toBe('noagent');
  });
});
