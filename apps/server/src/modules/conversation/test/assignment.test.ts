import { describe, expect, it } from 'vitest';
import type { AssignedNotice, VisitorNewResult } from '@kefu/protocol';
import {
  addAccessPoint,
  api,
  call,
  collect,
  next,
  ok,
  socketAgent,
  visitorReady,
  type LiveServer,
} from '../../../../test/live.js';
import { perTest } from '../../../../test/factories.js';
import { saveSessionConfig } from '../session-config.js';
import { forgetSeats } from '../seat-board.js';

const pt = perTest();
const sockets = pt.sockets;

async function visitors(srv: LiveServer, appid: string, n: number) {
  const vs = await Promise.all(Array.from({ length: n }, () => visitorReady(srv.url, appid)));
  vs.forEach((v) => sockets.push(v.s));
  return vs;
}

/** agent_status.users and the chats each agent really holds. */
async function load(srv: LiveServer, ids: string[]) {
  const k = srv.tdb.db.kysely;
  return Promise.all(
    ids.map(async (id) => {
      const st = await k
        .selectFrom('agent_status')
        .select(['users', 'maxusers'])
        .where('userid', '=', id)
        .executeTakeFirstOrThrow();
      const held = await k
        .selectFrom('agent_service')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('agentno', '=', id)
        .where('status', '=', 'inservice')
        .executeTakeFirstOrThrow();
      return { users: st.users, maxusers: st.maxusers, held: Number(held.n) };
    }),
  );
}

describe('assignment', () => {
  it('a concurrent burst fills every seat exactly once and queues the rest', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const agents = [];
    for (let i = 0; i < 3; i++) agents.push(await readyAgent(srv, 2));
    const vs = await visitors(srv, appid, 15);
    const results = await Promise.all(vs.map((v) => call<VisitorNewResult>(v.s, 'new').then(ok)));
    expect(results.filter((r) => r.status === 'inservice')).toHaveLength(6);
    expect(results.filter((r) => r.status === 'inqueue')).toHaveLength(9);
    for (const a of await load(
      srv,
      agents.map((a) => a.id),
    ))
      expect(a).toEqual({ users: 2, maxusers: 2, held: 2 });
  });

  it('a new chat never overtakes a queued one, even when a seat is free at that moment', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const agent = await readyAgent(srv, 1);
    const [v1, v2, v3] = await visitors(srv, appid, 3);
    const r1 = ok(await call<VisitorNewResult>(v1!.s, 'new'));
    expect(ok(await call<VisitorNewResult>(v2!.s, 'new')).status).toBe('inqueue');
    // The seat frees without a drain (as when another node ends a chat and its drain is still to come).
    const k = srv.tdb.db.kysely;
    await k.updateTable('agent_service').set({ status: 'end' }).where('id', '=', r1.agentserviceid).execute();
    await k.updateTable('agent_status').set({ users: 0 }).where('userid', '=', agent.id).execute();
    const assigned2 = next(v2!.s, 'assigned');
    const r3 = ok(await call<VisitorNewResult>(v3!.s, 'new'));
    await assigned2;
    expect(r3.status).toBe('inqueue');
    expect(r3.position).toBe(1);
    expect(await load(srv, [agent.id])).toEqual([{ users: 1, maxusers: 1, held: 1 }]);
  });

  it('a new chat seated by the drain its own request ran gets the notice in its ack, not as `assigned`', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const agent = await readyAgent(srv, 1);
    const [v1, v2, v3] = await visitors(srv, appid, 3);
    const r1 = ok(await call<VisitorNewResult>(v1!.s, 'new'));
    expect(r1.message).toBeDefined();
    const r2 = ok(await call<VisitorNewResult>(v2!.s, 'new'));
    expect(r2.status).toBe('inqueue');
    expect(r2.message).toBeUndefined();
    // Room for both without a drain (as when another node frees seats): v3 is stored queued behind v2,
    // and the drain its request runs seats v2 (told by `assigned`) and then v3 (told by the ack).
    const k = srv.tdb.db.kysely;
    await k.updateTable('agent_service').set({ status: 'end' }).where('id', '=', r1.agentserviceid).execute();
    await k
      .updateTable('agent_status')
      .set({ users: 0, maxusers: 2 })
      .where('userid', '=', agent.id)
      .execute();
    forgetSeats(srv.tdb.db, 'kefu');
    const v2Saw = next<AssignedNotice>(v2!.s, 'assigned');
    const v3Saw = collect<AssignedNotice>(v3!.s, 'assigned');
    const r3 = ok(await call<VisitorNewResult>(v3!.s, 'new'));
    expect((await v2Saw).agentserviceid).toBe(r2.agentserviceid);
    expect(r3.status).toBe('inservice');
    expect(r3.agent?.id).toBe(agent.id);
    expect(r3.message).toBe((await v2Saw).message);
    expect(v3Saw).toEqual([]);
    expect(await load(srv, [agent.id])).toEqual([{ users: 2, maxusers: 2, held: 2 }]);
  });

  it('a `new` whose access point is gone answers access_point_not_found and stores nothing', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    await readyAgent(srv, 1);
    const [v] = await visitors(srv, appid, 1);
    const k = srv.tdb.db.kysely;
    await k.deleteFrom('access_point').where('id', '=', appid).execute();
    const r = await call<VisitorNewResult>(v!.s, 'new');
    expect(r.success ? null : r.key).toBe('access_point_not_found');
    const stored = await k.selectFrom('agent_service').select('id').where('userid', '=', v!.userid).execute();
    expect(stored).toEqual([]);
  });

  it('prefers the last agent (when enabled) over a less busy one', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const agents = [await readyAgent(srv, 5), await readyAgent(srv, 5)];
    const [v, other] = await visitors(srv, appid, 2);
    const first = ok(await call<VisitorNewResult>(v!.s, 'new'));
    const served = agents.find((a) => a.id === first.agent?.id)!;
    const idle = agents.find((a) => a !== served)!;
    expect(ok(await call<VisitorNewResult>(other!.s, 'new')).agent?.id).toBe(idle.id);
    const end = (a: { token: string }, id: string) => api(srv, a.token, `/api/talk/end?agentserviceid=${id}`);
    expect((await end(served, first.agentserviceid)).json.success).toBe(true);
    // idle-first alone would now pick the other agent (1 chat) over the last one (3)
    await srv.tdb.db.kysely
      .updateTable('agent_status')
      .set({ users: 3 })
      .where('userid', '=', served.id)
      .execute();
    forgetSeats(srv.tdb.db, 'kefu');
    const back = ok(await call<VisitorNewResult>(v!.s, 'new'));
    expect(back.agent?.id).toBe(served.id);
    expect((await end(served, back.agentserviceid)).json.success).toBe(true);
    await saveSessionConfig(srv.tdb.db, 'kefu', { lastagent: false }, Date.now());
    expect(ok(await call<VisitorNewResult>(v!.s, 'new')).agent?.id).toBe(idle.id);
  });
});

/*
 * The node's seat board only chooses; other nodes' changes reach it late. Those changes are simulated by
 * writing agent_status / agent_service directly, without telling the board.
 */
describe('seat board vs changes on another node', () => {
  it('an agent who went notready or filled up elsewhere is skipped, never overfilled', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const [a, b, c] = [await readyAgent(srv, 2), await readyAgent(srv, 2), await readyAgent(srv, 2)];
    const [v0, ...vs] = await visitors(srv, appid, 4);
    // loads the board: one chat goes to one of them
    const first = ok(await call<VisitorNewResult>(v0!.s, 'new'));
    const k = srv.tdb.db.kysely;
    const others = [a, b, c].filter((x) => x.id !== first.agent?.id);
    await k
      .updateTable('agent_status')
      .set({ status: 'notready' })
      .where('userid', '=', others[0]!.id)
      .execute();
    await k.updateTable('agent_status').set({ users: 2 }).where('userid', '=', others[1]!.id).execute();
    const rs = [];
    for (const v of vs) rs.push(ok(await call<VisitorNewResult>(v.s, 'new')));
    // only the first agent has room (one seat left): one more chat, the others queue
    expect(rs.map((r) => r.status)).toEqual(['inservice', 'inqueue', 'inqueue']);
    expect(rs[0]!.agent?.id).toBe(first.agent?.id);
    const [st] = await load(srv, [first.agent!.id]);
    expect(st).toEqual({ users: 2, maxusers: 2, held: 2 });
  });

  it('a seat freed elsewhere is found although the board says everyone is full', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const agent = await readyAgent(srv, 1);
    const [v1, v2] = await visitors(srv, appid, 2);
    const r1 = ok(await call<VisitorNewResult>(v1!.s, 'new'));
    expect(r1.agent?.id).toBe(agent.id);
    const k = srv.tdb.db.kysely;
    await k.updateTable('agent_service').set({ status: 'end' }).where('id', '=', r1.agentserviceid).execute();
    await k.updateTable('agent_status').set({ users: 0 }).where('userid', '=', agent.id).execute();
    const r2 = ok(await call<VisitorNewResult>(v2!.s, 'new'));
    expect(r2.status).toBe('inservice');
    expect(r2.agent?.id).toBe(agent.id);
  });
});

function readyAgent(srv: LiveServer, maxusers: number) {
  return socketAgent(srv, sockets, { maxusers });
}
