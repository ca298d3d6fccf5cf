import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { AssignedNotice, MessageDto, VisitorNewResult } from '@kefu/protocol';
import { openDatabase, type Db } from '../../../platform/db/database.js';
import { migrate } from '../../../platform/db/migrate.js';
import { newId } from '../../../platform/ids.js';
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
import type { TestDb } from '../../../../test/harness.js';
import { buildServer, SERVER_ENTRY } from '../../../../../../scripts/build-server.mjs';

const PG = process.env.TEST_PG_URL;
const REDIS = process.env.REDIS_URL;
const root = resolve(import.meta.dirname, '../../../../../..');

function startNode(port: number, env: Record<string, string>): ChildProcess {
  // The compiled server, as npm start runs it (built in beforeAll).
  return spawn(process.execPath, [SERVER_ENTRY], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitUp(url: string): Promise<void> {
  const end = Date.now() + 40_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/tokens/info`)).status < 500) return;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`server ${url} did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!PG || !REDIS)('two server processes sharing PostgreSQL and Redis', () => {
  const dbName = `t_multi_${newId().slice(0, 10)}`;
  const dirs = [mkdtempSync(join(tmpdir(), 'kefu-n1-')), mkdtempSync(join(tmpdir(), 'kefu-n2-'))];
  const ports = [20_000 + Math.floor(Math.random() * 20_000), 0];
  ports[1] = ports[0]! + 1;
  const urls = ports.map((p) => `http://127.0.0.1:${p}`);
  const nodes: ChildProcess[] = [];
  let db: Db;
  let tdb: TestDb;
  const sockets: Array<{ disconnect(): unknown }> = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(PG!);
    u.pathname = `/${dbName}`;
    const databaseUrl = u.toString();
    await buildServer({ quiet: true });
    db = openDatabase({ databaseUrl, dataDir: dirs[0]! });
    await migrate(db);
    tdb = { db, config: { databaseUrl } as TestDb['config'], drop: async () => undefined };
    for (let i = 0; i < 2; i++) {
      nodes.push(
        startNode(ports[i]!, {
          DATABASE_URL: databaseUrl,
          REDIS_URL: REDIS!,
          KEFU_DATA_DIR: dirs[i]!,
          KEFU_ADMIN_PASSWORD: 'Admin#12345',
        }),
      );
    }
    await Promise.all(urls.map(waitUp));
  }, 60_000);

  afterAll(async () => {
    sockets.forEach((s) => s.disconnect());
    await Promise.all(
      nodes.map(
        (n) =>
          new Promise<void>((r) => {
            n.once('exit', () => r());
            n.kill('SIGTERM');
          }),
      ),
    );
    await db?.close();
    const admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  }, 60_000);

  it('a visitor on one node chats with an agent on the other; a burst never overfills an agent', async () => {
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
