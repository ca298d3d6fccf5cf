import { afterAll, describe, expect, it } from 'vitest';
import type { MessageDto, VisitorNewResult } from '@kefu/protocol';
import { createTestDb, type TestDb } from '../../../../test/harness.js';
import {
  addAccessPoint,
  call,
  ok,
  socketAgent,
  startLive,
  visitorReady,
  type LiveServer,
} from '../../../../test/live.js';
import { runOutage } from '../../../../test/outage-run.js';
import { ownRedis, type OwnRedis } from '../../../../test/redis-server.js';
import { trackSide } from '../../../../test/resume-client.js';

const OUTAGE_MS = 5_000;

describe('a Redis outage between two nodes', () => {
  let redis: OwnRedis | undefined;
  let tdb: TestDb | undefined;
  const servers: LiveServer[] = [];
  const sockets: Array<{ disconnect(): unknown }> = [];

  afterAll(async () => {
    sockets.forEach((s) => s.disconnect());
    for (const s of servers) await s.stop();
    await tdb?.drop();
    await redis?.stop();
  }, 30_000);

  it('loses no acknowledged message: each reaches the other side exactly once, in order', async () => {
    // A Redis of its own, so it can be killed and started again on the same port.
    redis = await ownRedis();
    tdb = await createTestDb({ redisUrl: redis.url });
    const a = await startLive(tdb);
    const b = await startLive(tdb);
    servers.push(a, b);
    const appid = await addAccessPoint(tdb);
    // the agent on node B, the visitor on node A
    const agent = await socketAgent(b, sockets);
    const v = await visitorReady(a.url, appid);
    sockets.push(v.s);
    const sid = ok(await call<VisitorNewResult>(v.s, 'new')).agentserviceid;
    const atAgent = trackSide(agent.sock, sid);
    const atVisitor = trackSide(v.s, sid);

    const r = await runOutage({
      redis,
      visitor: atVisitor,
      agent: atAgent,
      agentPayload: { touser: v.userid, agentserviceid: sid },
      outageMs: OUTAGE_MS,
    });

    expect(r.duringOutage.visitor).toBeGreaterThan(20);
    expect(r.duringOutage.agent).toBeGreaterThan(20);
    expect(r.lost).toBe(0);
    // what each side shows of the other: every acknowledged line, once, in the order it was sent
    const ids = (list: MessageDto[]) => list.map((m) => m.id);
    expect(ids(atAgent.messages().filter((m) => m.calltype === 'in'))).toEqual(ids(r.visitorSent));
    expect(ids(atVisitor.messages().filter((m) => m.calltype === 'out'))).toEqual(ids(r.agentSent));
    const total = r.visitorSent.length + r.agentSent.length;
    for (const side of [atAgent, atVisitor]) {
      expect(side.messages().map((m) => m.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(side.sync.position(sid)).toBe(total);
      // each node told its sockets to resync once delivery was back
      expect(side.wire.resyncs).toBeGreaterThanOrEqual(1);
    }
    console.log(
      `[redis-outage] ${OUTAGE_MS} ms outage, ${r.visitorSent.length} visitor + ${r.agentSent.length} agent lines ` +
        `(${r.duringOutage.visitor} + ${r.duringOutage.agent} acknowledged during it); lost: ${r.lost}; ` +
        `both sides held every line acknowledged before Redis answered again ${r.caughtUpMs} ms after it ` +
        `(replayed to the agent ${atAgent.wire.replayed}, to the visitor ${atVisitor.wire.replayed})`,
    );
  }, 60_000);
});
