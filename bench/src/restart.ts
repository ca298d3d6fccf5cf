/**
 * R1: restart. (a) Process start to serving: the compiled server (`node apps/server/dist/main.mjs`, what
 * npm start runs) on a SQLite database holding 1M messages (smoke 20k), from spawn to the first 200 of
 * GET /health/ready, against a bare `node -e` HTTP server from spawn to its first answer. (b) Reconnect:
 * agents and visitors connected through socket.io-client as the console and the widget configure it
 * (spec back-off, following the server's restart hint); the server is stopped with SIGTERM and started
 * again on the same port and data; each client's lag = its reconnect time − the time the new server first
 * answered /health/ready. Baseline: the bare socket.io relay restarted the same way, its clients on
 * socket.io-client's default back-off (which the spec's constants are).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { io as connect, type Socket } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  HEALTH_READY_PATH,
  RESTART_EVENT,
  SOCKET_RECONNECTION,
  VISITOR_NAMESPACE,
  restartFollower,
  type RestartHint,
} from '@kefu/protocol';
import { buildServer, SERVER_ENTRY } from '../../scripts/build-server.mjs';
import { ROOT, freePort, spawnNode, type Child } from './lib/child.js';
import { prepareKefuDb, type KefuDb } from './lib/kefu.js';
import { seed } from './lists.js';
import { newId } from '../../apps/server/src/platform/ids.js';
import type { Mode, Row } from './lib/report.js';

const TASKSET = existsSync('/usr/bin/taskset') ? '/usr/bin/taskset' : undefined;
/** The widget's back-off (apps/visitor/src/chat/client.ts). */
const WIDGET_RECONNECTION = { reconnectionDelay: 1000, reconnectionDelayMax: 10_000 };

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const max = (xs: number[]): number => Math.max(...xs);

/** Last lines of a plain child's stderr, for error messages. */
const stderrOf = new WeakMap<object, string>();

/** Plain `node <args>` pinned to the server core, like the other servers under test. */
function spawnPlain(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [cmd, argv] = TASKSET ? [TASKSET, ['-c', '0', process.execPath, ...args]] : [process.execPath, args];
  const c = spawn(cmd, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  c.stderr?.on('data', (d: Buffer) => stderrOf.set(c, ((stderrOf.get(c) ?? '') + d.toString()).slice(-2000)));
  return c;
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((res) => {
    const s = netConnect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      res(true);
    });
    s.once('error', () => res(false));
  });

/**
 * Polls every 5 ms until `url` answers 200, or (a port number: the bare relay, which answers no plain
 * HTTP request) until the port accepts a connection; returns the time it did.
 */
async function firstAnswer(url: string | number, child: { exitCode: number | null }): Promise<number> {
  const end = performance.now() + 30_000;
  for (;;) {
    try {
      if (typeof url === 'number') {
        if (await accepts(url)) return performance.now();
      } else {
        const r = await fetch(url, { signal: AbortSignal.timeout(5_000) });
        await r.arrayBuffer();
        if (r.status === 200) return performance.now();
      }
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null)
      throw new Error(
        `server exited (${child.exitCode}) before serving ${url}\n${stderrOf.get(child) ?? ''}`,
      );
    if (performance.now() > end) throw new Error(`${url} did not answer within 30 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function stopped(c: ChildProcess): Promise<void> {
  return c.exitCode !== null || c.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => c.once('exit', () => r()));
}

/** SIGTERM and wait; returns how long the graceful stop took. */
async function terminate(c: ChildProcess): Promise<number> {
  const t0 = performance.now();
  c.kill('SIGTERM');
  const force = setTimeout(() => c.kill('SIGKILL'), 20_000);
  await stopped(c);
  clearTimeout(force);
  return performance.now() - t0;
}

const kefuEnv = (kdb: KefuDb, port: number): NodeJS.ProcessEnv => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  KEFU_DATA_DIR: kdb.dataDir,
  KEFU_ADMIN_PASSWORD: 'Bench#Admin123',
  DATABASE_URL: '',
  REDIS_URL: '',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
});

const BARE_HTTP =
  "require('node:http').createServer((q, r) => r.end('ok')).listen(+process.env.PORT, '127.0.0.1')";

/** CPU time (user + system, all threads) a process has used so far, ms (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS;
  } catch {
    return 0;
  }
}
const TICKS = 100; // USER_HZ on Linux

interface Start {
  base: number;
  kefu: number;
  /** CPU used until serving: robust when other work shares the box (wall time is not). */
  baseCpu: number;
  kefuCpu: number;
  stop: number;
}

/** Spawn → first answer, for the bare server and for kefu (ready), with kefu's graceful stop time. */
async function startToServing(kdb: KefuDb): Promise<Start> {
  let port = await freePort();
  let t0 = performance.now();
  const bare = spawnPlain(['-e', BARE_HTTP], { PORT: String(port) });
  const base = (await firstAnswer(`http://127.0.0.1:${port}/`, bare)) - t0;
  const baseCpu = cpuMs(bare.pid);
  bare.kill('SIGKILL');
  await stopped(bare);
  port = await freePort();
  t0 = performance.now();
  const kefu = spawnPlain([SERVER_ENTRY], kefuEnv(kdb, port));
  const ready = (await firstAnswer(`http://127.0.0.1:${port}${HEALTH_READY_PATH}`, kefu)) - t0;
  const kefuCpu = cpuMs(kefu.pid);
  const stop = await terminate(kefu);
  return { base, kefu: ready, baseCpu, kefuCpu, stop };
}

interface Fleet {
  sockets: Socket[];
  /** performance.now() of each socket's latest connect. */
  connectedAt: number[];
  close(): void;
}

/** Agents and visitors as the console and the widget connect them (`follow`: they obey restart hints). */
async function fleet(
  url: string,
  agents: Array<{ token: string; query: Record<string, string> }>,
  visitors: Array<Record<string, string>>,
  follow: boolean,
): Promise<Fleet> {
  const sockets: Socket[] = [];
  const connectedAt: number[] = [];
  const add = (nsp: string, query: Record<string, string>, defaults: typeof WIDGET_RECONNECTION) => {
    const i = sockets.length;
    const s = connect(`${url}${nsp}`, {
      query,
      transports: ['websocket'],
      forceNew: true,
      reconnectionDelay: defaults.reconnectionDelay,
      reconnectionDelayMax: defaults.reconnectionDelayMax,
      randomizationFactor: SOCKET_RECONNECTION.randomizationFactor,
    });
    const f = restartFollower(s.io, defaults);
    if (follow) s.on(RESTART_EVENT, (h: RestartHint) => f.hint(h));
    s.on('connect', () => {
      f.connected();
      connectedAt[i] = performance.now();
    });
    // A new visitor gets its credential in `welcome`; a reconnect must carry it.
    s.on('welcome', (w: { userid: string; token: string }) => {
      s.io.opts.query = { ...query, userid: w.userid, token: w.token };
    });
    sockets.push(s);
  };
  for (const a of agents) add(AGENT_NAMESPACE, a.query, SOCKET_RECONNECTION);
  for (const v of visitors) add(VISITOR_NAMESPACE, v, WIDGET_RECONNECTION);
  const end = Date.now() + 30_000;
  while (sockets.some((s) => !s.connected)) {
    if (Date.now() > end) throw new Error('clients did not connect');
    await new Promise((r) => setTimeout(r, 20));
  }
  // Visitors hold their credential before the restart.
  await new Promise((r) => setTimeout(r, 300));
  return { sockets, connectedAt, close: () => sockets.forEach((s) => s.disconnect()) };
}

/** Stops a server, starts it again, returns each client's reconnect lag behind the server being back. */
async function reconnectLags(
  f: Fleet,
  stop: () => Promise<void>,
  start: () => Promise<number>,
): Promise<{ lags: number[]; down: number }> {
  const before = [...f.connectedAt];
  const t0 = performance.now();
  await stop();
  const back = await start();
  const end = Date.now() + 30_000;
  while (f.connectedAt.some((t, i) => t === before[i]) || f.sockets.some((s) => !s.connected)) {
    if (Date.now() > end) throw new Error('clients did not reconnect within 30 s');
    await new Promise((r) => setTimeout(r, 5));
  }
  return { lags: f.connectedAt.map((t) => t - back), down: back - t0 };
}

export async function restart(mode: Mode, log: (s: string) => void): Promise<Row[]> {
  await buildServer({ quiet: true });
  const total = mode.smoke ? 20_000 : 1_000_000;
  const agentCount = mode.smoke ? 5 : 20;
  const visitorCount = mode.smoke ? 20 : 200;
  const kdb = await prepareKefuDb('sqlite', agentCount, 10);
  const children: Array<ChildProcess | Child> = [];
  const fleets: Fleet[] = [];
  try {
    const t0 = Date.now();
    const file = join(kdb.dataDir, 'kefu.sqlite');
    const s = seed(file, kdb.agentIds[0], kdb.appid, total);
    // As on a server that stored these itself: search words set (empty, which the search index skips), so
    // the one-time background indexing of pre-0008 messages does not run during the measurements.
    const sq = new SQLite(file);
    sq.prepare("update chat_message set tokens = '' where tokens is null").run();
    sq.pragma('wal_checkpoint(TRUNCATE)');
    sq.close();
    log(`  seeded ${s.messages} messages in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // (a) spawn → serving, A B alternated.
    const rounds = mode.smoke ? 1 : 5;
    const starts: Start[] = [];
    await startToServing(kdb); // warm the file cache: every measured start finds the same state
    for (let r = 0; r < rounds; r++) {
      const x = await startToServing(kdb);
      starts.push(x);
      log(
        `  R1 start→serving: node -e http ${x.base.toFixed(0)} ms (${x.baseCpu.toFixed(0)} ms CPU), kefu ${x.kefu.toFixed(0)} ms (${x.kefuCpu.toFixed(0)} ms CPU; graceful stop ${x.stop.toFixed(0)} ms)`,
      );
    }

    // (b) reconnect after a restart, baseline and kefu alternated.
    const agents = kdb.tokens.map((token) => ({
      token,
      query: { session: token, orgi: 'kefu', admin: 'true' },
    }));
    const visitors = Array.from({ length: visitorCount }, () => ({
      appid: kdb.appid,
      userid: newId(),
    }));
    const relayVisitors = visitors.map((v, i) => ({ ...v, room: `r${i}` }));
    const relayAgents = agents.map((a, i) => ({ ...a, query: { ...a.query, room: `r${i}` } }));
    const kefuPort = await freePort();
    const relayPort = await freePort();
    let kefu = spawnPlain([SERVER_ENTRY], kefuEnv(kdb, kefuPort));
    children.push(kefu);
    await firstAnswer(`http://127.0.0.1:${kefuPort}${HEALTH_READY_PATH}`, kefu);
    const kefuFleet = await fleet(`http://127.0.0.1:${kefuPort}`, agents, visitors, true);
    fleets.push(kefuFleet);
    const startRelay = () =>
      spawnNode('bench/src/servers/relay.ts', { core: 0, env: { PORT: String(relayPort) } });
    let relay = startRelay();
    children.push(relay);
    await firstAnswer(relayPort, relay.proc);
    const relayFleet = await fleet(`http://127.0.0.1:${relayPort}`, relayAgents, relayVisitors, false);
    fleets.push(relayFleet);

    const rr = mode.smoke ? 1 : 3;
    const base: Array<{ p50: number; max: number; down: number }> = [];
    const ours: Array<{ p50: number; max: number; down: number }> = [];
    for (let r = 0; r < rr; r++) {
      const b = await reconnectLags(
        relayFleet,
        () => relay.stop(),
        async () => {
          relay = startRelay();
          children.push(relay);
          return firstAnswer(relayPort, relay.proc);
        },
      );
      base.push({ p50: median(b.lags), max: max(b.lags), down: b.down });
      const k = await reconnectLags(
        kefuFleet,
        async () => {
          await terminate(kefu);
        },
        async () => {
          kefu = spawnPlain([SERVER_ENTRY], kefuEnv(kdb, kefuPort));
          children.push(kefu);
          return firstAnswer(`http://127.0.0.1:${kefuPort}${HEALTH_READY_PATH}`, kefu);
        },
      );
      ours.push({ p50: median(k.lags), max: max(k.lags), down: k.down });
      log(
        `  R1 reconnect (${kefuFleet.sockets.length} clients): relay + default back-off p50 ${base[r].p50.toFixed(0)} / max ${base[r].max.toFixed(0)} ms after back (down ${b.down.toFixed(0)} ms); kefu + hint p50 ${ours[r].p50.toFixed(0)} / max ${ours[r].max.toFixed(0)} ms (down ${k.down.toFixed(0)} ms)`,
      );
    }

    const ratioRow = (metric: string, b: number[], o: number[], limitMs: number, note?: string): Row => {
      const ratios = o.map((x, i) => x / b[i]).sort((x, y) => x - y);
      const ours = median(o);
      return {
        id: 'R1',
        metric,
        unit: 'ms',
        baseline: median(b),
        ours,
        ratio: median(ratios),
        range: ratios.length > 1 ? [ratios[0], ratios[ratios.length - 1]] : undefined,
        target: `≤ ${limitMs} ms`,
        holds: ours <= limitMs,
        note,
      };
    };
    const clients = `${agentCount} agents + ${visitorCount} visitors`;
    return [
      ratioRow(
        `process start → serving, ${(total / 1e6).toFixed(2)}M msgs SQLite (compiled server vs node -e http)`,
        starts.map((x) => x.base),
        starts.map((x) => x.kefu),
        1500,
      ),
      {
        ...ratioRow(
          'process start → serving: CPU used (user + system), same starts',
          starts.map((x) => x.baseCpu),
          starts.map((x) => x.kefuCpu),
          1500,
        ),
        target: '–',
        holds: null,
      },
      {
        id: 'R1',
        metric: 'graceful stop (SIGTERM → exit)',
        unit: 'ms',
        baseline: null,
        ours: median(starts.map((x) => x.stop)),
        ratio: null,
        target: '–',
        holds: null,
      },
      ratioRow(
        `reconnect after restart, slowest client after server back (${clients}; baseline: bare socket.io, default back-off)`,
        base.map((x) => x.max),
        ours.map((x) => x.max),
        1000,
      ),
      ratioRow(
        `reconnect after restart, median client after server back (${clients})`,
        base.map((x) => x.p50),
        ours.map((x) => x.p50),
        1000,
      ),
    ];
  } finally {
    for (const f of fleets) f.close();
    for (const c of children) {
      if ('stop' in c) await c.stop();
      else if (c.exitCode === null) {
        c.kill('SIGKILL');
        await stopped(c);
      }
    }
    await kdb.drop();
  }
}
