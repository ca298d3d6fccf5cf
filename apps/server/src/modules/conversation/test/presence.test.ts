import { afterEach, describe, expect, it } from 'vitest';
import {
  AGENT_PRESENCE_GRACE_MS,
  type AgentUserDto,
  type AgentWorkStatus,
  type VisitorNewResult,
  type VisitorPresence,
} from '@kefu/protocol';
import { openDatabase } from '../../../platform/db/database.js';
import {
  addAccessPoint,
  agentSocket,
  api,
  call,
  connected,
  next,
  ok,
  socketAgent,
  startLive,
  until,
  visitorReady,
  type AgentClient,
  type LiveServer,
} from '../../../../test/live.js';
import { createTestDb } from '../../../../test/harness.js';
import { perTest } from '../../../../test/factories.js';

const pt = perTest();
const sockets = pt.sockets;

const statusOf = async (s: LiveServer, id: string) =>
  s.tdb.db.kysely.selectFrom('agent_status').selectAll().where('userid', '=', id).executeTakeFirstOrThrow();
const stateLog = async (s: LiveServer, id: string) =>
  (
    await s.tdb.db.kysely
      .selectFrom('agent_state_log')
      .selectAll()
      .where('userid', '=', id)
      .orderBy('id')
      .execute()
  ).map((l) => `${l.to_status}:${l.reason}`);

/** Time passes (on every node's clock) with the socket still pinging (the console pings every 30 s). */
async function advancePinging(s: LiveServer | LiveServer[], sock: AgentClient, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= 30_000) {
    for (const n of Array.isArray(s) ? s : [s]) await n.clock.advance(Math.min(30_000, left));
    ok(await call(sock, 'ping'));
  }
}

async function reconnect(s: LiveServer, token: string): Promise<AgentClient> {
  const sock = agentSocket(s.url, token);
  sockets.push(sock);
  await connected(sock);
  return sock;
}

describe('agent state across reloads and tabs', () => {
  it('a reload keeps ready (chats still arrive); only the grace without any socket makes it notready', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const a = await socketAgent(srv, sockets);
    // The page reloads: its socket goes, the new one comes a moment later.
    a.sock.disconnect();
    await until(async () => (await statusOf(srv, a.id)).offsince !== null);
    await srv.clock.advance(AGENT_PRESENCE_GRACE_MS - 20_000);
    expect((await statusOf(srv, a.id)).status).toBe('ready');
    // Still ready in between, so a visitor who asks now is served by this agent.
    const v = await visitorReady(srv.url, appid);
    sockets.push(v.s);
    expect(ok(await call<VisitorNewResult>(v.s, 'new')).agent?.id).toBe(a.id);
    const again = await reconnect(srv, a.token);
    await until(async () => (await statusOf(srv, a.id)).offsince === null);
    await advancePinging(srv, again, 3 * AGENT_PRESENCE_GRACE_MS);
    expect((await statusOf(srv, a.id)).status).toBe('ready');
    expect(await stateLog(srv, a.id)).toEqual(['ready:socket']);

    // Closed for good: kept for the grace, then notready (its chat stays with it).
    again.disconnect();
    await until(async () => (await statusOf(srv, a.id)).offsince !== null);
    await srv.clock.advance(AGENT_PRESENCE_GRACE_MS - 5_000);
    expect((await statusOf(srv, a.id)).status).toBe('ready');
    await srv.clock.advance(20_000);
    await until(async () => (await statusOf(srv, a.id)).status === 'notready');
    expect((await statusOf(srv, a.id)).users).toBe(1);
    expect(await stateLog(srv, a.id)).toEqual(['ready:socket', 'notready:disconnect']);
  });

  it('tabs and devices of one agent share one state: one closing or choosing does not flip the others', async () => {
    const srv = await pt.live();
    const a = await socketAgent(srv, sockets, { ready: false });
    const tab2 = await reconnect(srv, a.token);
    const seen = next<AgentWorkStatus>(tab2, 'workstatus');
    ok(await call(a.sock, 'agentstatus', { status: 'busy' }));
    expect((await seen).status).toBe('busy');
    // The first tab closes; the second keeps the agent busy well past the grace.
    a.sock.disconnect();
    await new Promise((r) => setTimeout(r, 200));
    expect((await statusOf(srv, a.id)).offsince).toBeNull();
    await advancePinging(srv, tab2, 3 * AGENT_PRESENCE_GRACE_MS);
    expect((await statusOf(srv, a.id)).status).toBe('busy');
    // A third device opening reads the shared state and changes nothing by connecting.
    const tab3 = await reconnect(srv, a.token);
    expect(ok(await call<{ status: string }>(tab3, 'agentstatus', { status: 'busy' })).status).toBe('busy');
    expect(await stateLog(srv, a.id)).toEqual(['busy:socket']);
  });
});

describe('visitor presence in the agent chat list', () => {
  it('a visitor closing the chat window is marked offline (since when) to its agent; back online on return', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const a = await socketAgent(srv, sockets);
    const v = await visitorReady(srv.url, appid);
    sockets.push(v.s);
    ok(await call<VisitorNewResult>(v.s, 'new'));
    const list = async () =>
      (await api<{ agentUserList: AgentUserDto[] }>(srv, a.token, '/api/talk/agentuser')).json.data
        .agentUserList[0]!;
    expect((await list()).online).toBe(true);

    const gone = next<VisitorPresence>(a.sock, 'presence');
    v.s.disconnect();
    const off = await gone;
    expect(off).toMatchObject({ userid: v.userid, online: false });
    expect(off.offtime).toBe(srv.clock.now());
    expect(await list()).toMatchObject({ online: false, offtime: off.offtime });

    const back = next<VisitorPresence>(a.sock, 'presence');
    const again = await visitorReady(srv.url, appid, v.userid, { token: v.token });
    sockets.push(again.s);
    expect(await back).toMatchObject({ userid: v.userid, online: true, offtime: null });
    expect((await list()).online).toBe(true);
  });
});

const PG = process.env.TEST_PG_URL;
const REDIS = process.env.REDIS_URL;

describe.skipIf(!PG || !REDIS)('agent presence on two nodes (shared PostgreSQL and Redis)', () => {
  const nodes: LiveServer[] = [];
  afterEach(async () => {
    sockets.splice(0).forEach((s) => s.disconnect());
    for (const n of nodes.splice(0).reverse()) await n.stop();
  });

  it("a socket on the other node keeps the state; the grace is ended by any node's sweep", async () => {
    const tdb = await createTestDb({ redisUrl: REDIS });
    const second = { ...tdb, db: openDatabase(tdb.config), drop: async () => undefined };
    try {
      const n1 = await startLive(tdb);
      const n2 = await startLive(second);
      nodes.push(n1, n2);
      const a = await socketAgent(n1, sockets);
      const onN2 = await reconnect(n2, a.token);
      // The socket on node 1 goes; node 1 finds the agent's socket on node 2 and starts no grace.
      a.sock.disconnect();
      await new Promise((r) => setTimeout(r, 300));
      expect((await statusOf(n1, a.id)).offsince).toBeNull();
      await advancePinging([n1, n2], onN2, 2 * AGENT_PRESENCE_GRACE_MS);
      expect((await statusOf(n1, a.id)).status).toBe('ready');
      // Its last socket goes on node 2; node 1 ends the grace.
      onN2.disconnect();
      await until(async () => (await statusOf(n1, a.id)).offsince !== null);
      await n1.clock.advance(AGENT_PRESENCE_GRACE_MS + 20_000);
      await until(async () => (await statusOf(n1, a.id)).status === 'notready');
      expect(await stateLog(n1, a.id)).toEqual(['ready:socket', 'notready:disconnect']);
    } finally {
      for (const n of nodes.splice(0).reverse()) await n.stop();
      await second.db.close();
      await tdb.drop();
    }
  });
});
