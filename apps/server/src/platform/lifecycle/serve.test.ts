import { PassThrough } from 'node:stream';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import {
  HEALTH_READY_PATH,
  RESTART_EVENT,
  RESTART_HINT,
  SOCKET_RECONNECTION,
  VISITOR_NAMESPACE,
  restartFollower,
  type MessageDto,
  type RestartHint,
  type VisitorNewResult,
} from '@kefu/protocol';
import { createTestDb, type TestDb } from '../../../test/harness.js';
import {
  addAccessPoint,
  addAgent,
  agentSocket,
  call,
  collect,
  connected,
  next,
  ok,
  until,
  visitorReady,
  type VisitorClient,
} from '../../../test/live.js';
import { messageWriter } from '../../modules/conversation/message.service.js';
import { startServer, type Running } from './serve.js';

const freePort = (): Promise<number> =>
  new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => res(port));
    });
  });

let tdb: TestDb | undefined;
const running: Running[] = [];
const sockets: Array<{ disconnect(): unknown }> = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.disconnect());
  for (const r of running.splice(0)) await r.shutdown('test end');
  await tdb?.drop();
  tdb = undefined;
});

async function serve(port: number, logs: string[]): Promise<Running> {
  const logStream = new PassThrough();
  logStream.on('data', (c: Buffer) => logs.push(c.toString('utf8')));
  const r = await startServer({ ...tdb!.config, port, host: '127.0.0.1', logFormat: 'json' }, { logStream });
  running.push(r);
  return r;
}

describe('graceful shutdown', () => {
  it('turns ready off, refuses new connections, commits and acknowledges the batch in flight, then tells each socket to come back and closes it', async () => {
    tdb = await createTestDb();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const logs: string[] = [];
    const srv = await serve(port, logs);
    const appid = await addAccessPoint(tdb);
    const agent = await addAgent(tdb);
    const as = agentSocket(url, agent.token);
    sockets.push(as);
    await connected(as);
    ok(await call(as, 'agentstatus', { status: 'ready' }));
    const v = await visitorReady(url, appid);
    sockets.push(v.s);
    const sid = ok(await call<VisitorNewResult>(v.s, 'new')).agentserviceid;
    const hints = [collect<RestartHint>(as, RESTART_EVENT), collect<RestartHint>(v.s, RESTART_EVENT)];
    const gone = [next<string>(as, 'disconnect', 10_000), next<string>(v.s, 'disconnect', 10_000)];

    // A batch held open inside its transaction while the shutdown begins.
    const writer = messageWriter(srv.db);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let inCommit = false;
    writer.beforeCommit = async () => {
      inCommit = true;
      await held;
    };
    const acks = [1, 2, 3].map((i) =>
      call<MessageDto>(v.s, 'message', { clientId: `c-stop-${i}`, message: `m${i}` }),
    );
    await until(() => inCommit);
    const stopping = srv.shutdown('test');
    const ready = await srv.app.inject({ url: HEALTH_READY_PATH });
    expect(ready.statusCode).toBe(503);
    await expect(fetch(`${url}/health/live`)).rejects.toThrow();
    release();
    await stopping;

    // Every message of the held batch was committed and its ack reached the visitor before the close.
    const stored = await tdb.db.kysely
      .selectFrom('chat_message')
      .select(['id', 'client_id'])
      .where('agentserviceid', '=', sid)
      .execute();
    const acked = (await Promise.all(acks)).map((a) => ok(a));
    for (const m of acked) expect(stored.map((s) => s.id)).toContain(m.id);
    expect(hints).toEqual([[RESTART_HINT], [RESTART_HINT]]);
    // No socket.io DISCONNECT: the clients' own reconnection runs.
    expect(await Promise.all(gone)).toEqual(['transport close', 'transport close']);
    const out = logs.join('');
    expect(out).toContain('"msg":"shutting down"');
    expect(out).toContain('"msg":"stopped"');
  });

  it('a client that follows the hint retries fast while the server is away and is back on the next one with its usual back-off', async () => {
    tdb = await createTestDb();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const first = await serve(port, []);
    const appid = await addAccessPoint(tdb);
    const v = await visitorReady(url, appid);
    v.s.disconnect();
    const s: VisitorClient = connect(`${url}${VISITOR_NAMESPACE}`, {
      query: { appid, userid: v.userid, token: v.token },
      transports: ['websocket'],
      forceNew: true,
      reconnectionDelay: SOCKET_RECONNECTION.reconnectionDelay,
      reconnectionDelayMax: SOCKET_RECONNECTION.reconnectionDelayMax,
    });
    sockets.push(s);
    const follower = restartFollower(s.io, SOCKET_RECONNECTION);
    s.on(RESTART_EVENT, follower.hint);
    s.on('connect', follower.connected);
    await connected(s);

    await first.shutdown('restart');
    running.splice(running.indexOf(first), 1);
    expect(follower.fast).toBe(true);
    expect(s.io.reconnectionDelay()).toBe(RESTART_HINT.retryMs);
    expect(s.io.reconnectionDelayMax()).toBe(RESTART_HINT.retryMaxMs);

    const welcomed = next(s, 'welcome', 15_000);
    await serve(port, []);
    await welcomed;
    expect(s.connected).toBe(true);
    expect(follower.fast).toBe(false);
    expect(s.io.reconnectionDelay()).toBe(SOCKET_RECONNECTION.reconnectionDelay);
    expect(s.io.reconnectionDelayMax()).toBe(SOCKET_RECONNECTION.reconnectionDelayMax);
  });
});
