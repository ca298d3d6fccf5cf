import { afterAll, describe, expect, it } from 'vitest';
import type { MessageDto, VisitorNewResult } from '@kefu/protocol';
import { createTestDb, type TestDb } from '../../../../test/harness.js';
import {
  addAccessPoint,
  call,
  ok,
  socketAgent,
  startLive,
  until,
  visitorReady,
  type LiveServer,
} from '../../../../test/live.js';
import { ownRedis, type OwnRedis } from '../../../../test/redis-server.js';
import { trackSide, type TrackedSide } from '../../../../test/resume-client.js';

const OUTAGE_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When the test saw an acknowledgement (the servers run on a manual clock, so not `createtime`). */
const ackedAt = new Map<string, number>();

/** Sends a line every `gapMs` until `running()` is false, adding each acknowledged message to `acked`. */
async function keepSending(
  side: TrackedSide,
  who: string,
  extra: Record<string, unknown>,
  running: () => boolean,
  acked: MessageDto[],
  gapMs: number,
): Promise<void> {
  for (let i = 0; running(); i++) {
    const m = await side.send({ ...extra, clientId: `${who}-line-${i}`, message: `${who} ${i}` });
    ackedAt.set(m.id, Date.now());
    acked.push(m);
    await sleep(gapMs);
  }
}

/** Whether `side` holds every message of `sent` (by id). */
const holdsAll = (side: TrackedSide, sent: MessageDto[]): boolean => {
  const ids = new Set(side.messages().map((m) => m.id));
  return sent.every((m) => ids.has(m.id));
};

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
    redis = await ownRedis();
    tdb = await createTestDb({ redisUrl: redis.url });
    const a = await startLive(tdb);
    const b = await startLive(tdb);
    servers.push(a, b);
    const appid = await addAccessPoint(tdb);
    const agent = await socketAgent(b, sockets);
    const v = await visitorReady(a.url, appid);
    sockets.push(v.s);
    const sid = ok(await call<VisitorNewResult>(v.s, 'new')).agentserviceid;
    const atAgent = trackSide(agent.sock, sid);
    const atVisitor = trackSide(v.s, sid);

    // Both sides keep writing through the outage and stop a moment after Redis is back, so the last lines
    // are followed by nothing that would reveal them as a hole: only the resync brings those.
    let sending = true;
    const running = () => sending;
    const [vSent, aSent]: MessageDto[][] = [[], []];
    const senders = Promise.all([
      keepSending(atVisitor, 'v', {}, running, vSent, 40),
      keepSending(atAgent, 'a', { touser: v.userid, agentserviceid: sid }, running, aSent, 55),
    ]);
    await sleep(1_000);
    const down = Date.now();
    await redis.stop();
    await sleep(OUTAGE_MS);
    await redis.start();
    const back = Date.now();
    // How long after Redis answers again both sides hold every line acknowledged before that moment.
    const before = (list: MessageDto[]) => list.filter((m) => ackedAt.get(m.id)! < back);
    const [vBefore, aBefore] = [before(vSent), before(aSent)];
    const caughtUp = until(() => holdsAll(atAgent, vBefore) && holdsAll(atVisitor, aBefore), 20_000).then(
      () => Date.now() - back,
    );
    // the nodes are still reconnecting (attempts up to 1 s apart): lines acknowledged meanwhile too
    await sleep(400);
    sending = false;
    await senders;
    await until(() => holdsAll(atAgent, vSent) && holdsAll(atVisitor, aSent), 20_000);
    const caughtUpMs = await caughtUp;

    const during = (list: MessageDto[]) =>
      list.filter((m) => ackedAt.get(m.id)! >= down && ackedAt.get(m.id)! < back);
    expect(during(vSent).length).toBeGreaterThan(20);
    expect(during(aSent).length).toBeGreaterThan(20);
    // what each side shows of the other: every acknowledged line, once, in the order it was sent
    const ids = (list: MessageDto[]) => list.map((m) => m.id);
    expect(ids(atAgent.messages().filter((m) => m.calltype === 'in'))).toEqual(ids(vSent));
    expect(ids(atVisitor.messages().filter((m) => m.calltype === 'out'))).toEqual(ids(aSent));
    const total = vSent.length + aSent.length;
    for (const side of [atAgent, atVisitor]) {
      expect(side.messages().map((m) => m.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(side.sync.position(sid)).toBe(total);
      // each node told its sockets to resync once delivery was back
      expect(side.wire.resyncs).toBeGreaterThanOrEqual(1);
    }
    const lost = vSent.length - atAgent.messages().filter((m) => m.calltype === 'in').length;
    console.log(
      `[redis-outage] ${OUTAGE_MS} ms outage, ${vSent.length} visitor + ${aSent.length} agent lines ` +
        `(${during(vSent).length} + ${during(aSent).length} during it); lost: ${lost}; ` +
        `both sides hold every line acknowledged before Redis answered again ${caughtUpMs} ms after it; ` +
        `replayed to agent ${atAgent.wire.replayed}, to visitor ${atVisitor.wire.replayed}`,
    );
  }, 60_000);
});
