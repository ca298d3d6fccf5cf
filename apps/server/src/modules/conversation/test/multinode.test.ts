import { describe, expect, it } from 'vitest';
import type { AssignedNotice, MessageDto, VisitorNewResult } from '@kefu/protocol';
import {
  addAccessPoint,
  addAgent,
  agentSocket,
  call,
  collect,
  connected,
  ok,
  until,
  visitorReady,
} from '../../../../test/live.js';
import { clusterPerSuite } from '../../../../test/cluster.js';

const PG = process.env.TEST_PG_URL;
const REDIS = process.env.REDIS_URL;

describe.skipIf(!PG || !REDIS)('two server processes sharing PostgreSQL and Redis', () => {
  const env = clusterPerSuite(PG, REDIS, 2, 'multi');
  const sockets = env.sockets;

  it('a visitor on one node chats with an agent on the other; a burst never overfills an agent', async () => {
    const { urls, tdb, db } = env.cluster;
    const appid = await addAccessPoint(tdb);
    const agents = [];
    for (let i = 0; i < 3; i++) {
      const a = await addAgent(tdb, { maxusers: 2 });
      const s = agentSocket(urls[i % 2]!, a.token);
      sockets.push(s);
      await connected(s);
      ok(await call(s, 'agentstatus', { status: 'ready' }));
      agents.push({ ...a, s });
    }
    const first = agents[0]!;
    // visitor on node 2, agent 0 on node 1
    const v = await visitorReady(urls[1]!, appid);
    // A second tab of the same visitor on node 1: `assigned` reaches it across nodes; the asking socket
    // learns of the assignment from its ack only.
    const tab = await visitorReady(urls[0]!, appid, v.userid, { token: v.token });
    sockets.push(v.s, tab.s);
    const tabSaw = collect<AssignedNotice>(tab.s, 'assigned');
    const askerSaw = collect<AssignedNotice>(v.s, 'assigned');
    const r = ok(await call<VisitorNewResult>(v.s, 'new'));
    expect(r.status).toBe('inservice');
    expect(r.message).toBeDefined();
    await until(() => tabSaw.length === 1, 10_000);
    expect(tabSaw[0]).toEqual({
      agentserviceid: r.agentserviceid,
      agent: r.agent,
      message: r.message,
      transfer: false,
    });
    expect(askerSaw).toEqual([]);
    const owner = agents.find((a) => a.id === r.agent?.id)!;
    const atAgent = collect<MessageDto>(owner.s, 'message');
    const atVisitor = collect<MessageDto>(v.s, 'message');
    ok(await call(v.s, 'message', { clientId: 'c-multi-v1', message: 'from node 2' }));
    ok(await call(owner.s, 'message', { touser: v.userid, clientId: 'c-multi-a1', message: 'reply' }));
    await until(() => atAgent.length === 1 && atVisitor.length === 1, 10_000);
    expect(atAgent[0]?.message).toBe('from node 2');
    expect(atVisitor[0]?.message).toBe('reply');
    expect(first).toBeDefined();

    // burst: 12 visitors at once, half on each node; 3 agents × 2 seats, one seat already taken
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => visitorReady(urls[i % 2]!, appid)));
    burst.forEach((b) => sockets.push(b.s));
    const results = await Promise.all(burst.map((b) => call<VisitorNewResult>(b.s, 'new').then(ok)));
    expect(results.filter((x) => x.status === 'inservice')).toHaveLength(5);
    expect(results.filter((x) => x.status === 'inqueue')).toHaveLength(7);
    const k = db.kysely;
    for (const a of agents) {
      const st = await k
        .selectFrom('agent_status')
        .selectAll()
        .where('userid', '=', a.id)
        .executeTakeFirstOrThrow();
      const n = await k
        .selectFrom('agent_service')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('agentno', '=', a.id)
        .where('status', '=', 'inservice')
        .executeTakeFirstOrThrow();
      expect(st.users).toBe(2);
      expect(Number(n.n)).toBe(2);
    }
    const positions = results
      .filter((x) => x.status === 'inqueue')
      .map((x) => x.position)
      .sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(new Set(positions).size).toBeGreaterThan(1);
  });
});
