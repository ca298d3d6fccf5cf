import { execFileSync } from 'node:child_process';
import { VISITOR_NAMESPACE, type Ack, type MessageDto, type VisitorNewResult } from '@kefu/protocol';
import { io } from 'socket.io-client';
import { ownRedis, type OwnRedis } from '../../apps/server/test/redis-server.js';
import { agentSocket, connected } from '../../apps/server/test/live.js';
import { runOutage } from '../../apps/server/test/outage-run.js';
import { trackSide } from '../../apps/server/test/resume-client.js';
import { pgAdminUrl, prepareKefuDb, startKefu, type Server } from './lib/kefu.js';
import type { Mode, Row, Skip } from './lib/report.js';

/** Redis is back → both sides complete: reconnect attempts are ≤ 1 s apart, then one replay round trip. */
const CATCH_UP_LIMIT_MS = 2_000;

const hasRedisServer = (): boolean => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * B9: a Redis outage between two kefu processes (PostgreSQL, a redis-server of its own that is killed and
 * started again). Visitor on node A, agent on node B, both writing throughout; the clients use the
 * console's and widget's CatchUp. Absolute figures: acknowledged lines lost (must be 0) and how long after
 * Redis answers again both sides hold every line acknowledged before.
 */
export async function redisOutage(_mode: Mode, log: (s: string) => void): Promise<Row[] | Skip> {
  if (!pgAdminUrl())
    return { id: 'B9', reason: 'needs TEST_PG_URL/DATABASE_URL (two nodes share PostgreSQL)' };
  if (!hasRedisServer()) return { id: 'B9', reason: 'needs redis-server on the PATH' };
  const outageMs = 5_000;
  const kdb = await prepareKefuDb('postgres', 1, 10);
  let redis: OwnRedis | undefined;
  const servers: Server[] = [];
  const sockets: Array<{ disconnect(): unknown }> = [];
  try {
    redis = await ownRedis();
    servers.push(await startKefu(kdb, { redisUrl: redis.url, core: 'any' }));
    servers.push(await startKefu(kdb, { redisUrl: redis.url, core: 'any' }));
    const [a, b] = servers as [Server, Server];
    const agent = agentSocket(b.url, kdb.tokens[0]!);
    sockets.push(agent);
    await connected(agent);
    const userid = `bench${Date.now()}`.padEnd(32, '0');
    const visitor = io(`${a.url}${VISITOR_NAMESPACE}`, {
      query: { appid: kdb.appid, userid },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(visitor);
    await new Promise((r) => visitor.once('welcome', r));
    const asked = (await visitor.timeout(10_000).emitWithAck('new', {})) as Ack<VisitorNewResult>;
    if (!asked.success || asked.data.status !== 'inservice')
      throw new Error(`no agent: ${JSON.stringify(asked)}`);
    const sid = asked.data.agentserviceid;
    const atAgent = trackSide(agent, sid);
    const atVisitor = trackSide(visitor, sid);
    const r = await runOutage({
      redis,
      visitor: atVisitor,
      agent: atAgent,
      agentPayload: { touser: userid, agentserviceid: sid },
      outageMs,
    });
    const order = (list: MessageDto[]) => list.map((m) => m.id).join();
    const inOrder =
      order(atAgent.messages().filter((m) => m.calltype === 'in')) === order(r.visitorSent) &&
      order(atVisitor.messages().filter((m) => m.calltype === 'out')) === order(r.agentSent);
    log(
      `  B9 ${outageMs} ms outage: ${r.visitorSent.length} + ${r.agentSent.length} lines ` +
        `(${r.duringOutage.visitor} + ${r.duringOutage.agent} during it), lost ${r.lost}, ` +
        `in order ${inOrder}, complete ${r.caughtUpMs} ms after Redis was back`,
    );
    const abs = (metric: string, unit: string, ours: number, target: string, holds: boolean): Row => ({
      id: 'B9',
      metric,
      unit,
      baseline: null,
      ours,
      ratio: null,
      target,
      holds,
    });
    return [
      abs(
        `acknowledged lines lost across a ${outageMs / 1000} s Redis outage, 2 nodes (${r.duringOutage.visitor + r.duringOutage.agent} sent during it)`,
        '',
        r.lost,
        '= 0',
        r.lost === 0 && inOrder,
      ),
      abs(
        'Redis back → both sides hold every line acknowledged before',
        'ms',
        r.caughtUpMs,
        `≤ ${CATCH_UP_LIMIT_MS} ms abs`,
        r.caughtUpMs <= CATCH_UP_LIMIT_MS,
      ),
    ];
  } finally {
    sockets.forEach((s) => s.disconnect());
    await Promise.all(servers.map((s) => s.stop()));
    await redis?.stop();
    await kdb.drop();
  }
}
