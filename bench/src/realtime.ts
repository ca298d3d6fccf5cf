/** B1 delivery latency, B2 throughput, B3 two nodes with Redis. */
import { spawnNode, type Child } from './lib/child.js';
import {
  pgAdminUrl,
  prepareKefuDb,
  probeMem,
  startBaseline,
  startKefu,
  type Dialect,
  type Server,
} from './lib/kefu.js';
import { row, type Mode, type Row, type Skip } from './lib/report.js';
import type { LatencyResult } from './gen/generator.js';

const PAIRS = 50;

/** B2 and B3's closed loop: 10 messages in flight per pair. */
export const closedRun = (mode: Mode) => ({
  cmd: 'closed',
  window: 10,
  warmupMs: mode.smoke ? 500 : 1000,
  durationMs: mode.smoke ? 1500 : 4000,
});

export const startGen = (): Child => spawnNode('bench/src/gen/generator.ts', { core: 1 });

async function pairsGen(
  target: 'kefu' | 'baseline',
  url: string,
  agentUrl: string,
  extra: { appid?: string; tokens?: string[] } = {},
): Promise<Child> {
  const g = startGen();
  await g.call({ cmd: 'pairs', target, url, agentUrl, pairs: PAIRS, ...extra });
  return g;
}

const lossNote = (rs: LatencyResult[]) => {
  const lost = rs.reduce((n, r) => n + r.lost, 0);
  const errs = rs.reduce((n, r) => n + r.ackErrors, 0);
  return lost || errs ? `lost ${lost}, ack errors ${errs}` : undefined;
};

/** Runs a closed-loop measurement and records the servers' CPU time per delivered message (µs). */
export async function cpuPerMessage(
  s: Server | Server[],
  run: () => Promise<LatencyResult>,
  out: number[],
): Promise<LatencyResult> {
  const all = Array.isArray(s) ? s : [s];
  const total = async () => {
    let t = 0;
    for (const x of all) {
      const m = await probeMem(x);
      t += m.cpu.user + m.cpu.system;
    }
    return t;
  };
  const a = await total();
  const r = await run();
  const cpu = (await total()) - a;
  // The run includes warm-up and settle time; count every message the server handled in it.
  out.push(cpu / Math.max(1, r.sent));
  return r;
}

/** B1 + B2 on one dialect: kefu and the bare relay both running, measured A B A B. */
export async function deliveryAndThroughput(
  dialect: Dialect,
  mode: Mode,
  log: (s: string) => void,
): Promise<Row[]> {
  const kdb = await prepareKefuDb(dialect, PAIRS, 1);
  const servers: Server[] = [];
  const gens: Child[] = [];
  try {
    const kefu = await startKefu(kdb);
    servers.push(kefu);
    const base = await startBaseline();
    servers.push(base);
    const gk = await pairsGen('kefu', kefu.url, kefu.url, { appid: kdb.appid, tokens: kdb.tokens });
    gens.push(gk);
    const gb = await pairsGen('baseline', base.url, base.url);
    gens.push(gb);
    const open = {
      cmd: 'open',
      rate: 1000,
      warmupMs: mode.smoke ? 500 : 1000,
      durationMs: mode.smoke ? 1500 : 5000,
    };
    const closed = closedRun(mode);
    const ob: LatencyResult[] = [];
    const ok: LatencyResult[] = [];
    const cb: LatencyResult[] = [];
    const ck: LatencyResult[] = [];
    for (let r = 0; r < mode.rounds; r++) {
      ob.push(await gb.call<LatencyResult>(open));
      ok.push(await gk.call<LatencyResult>(open));
      if (process.env.BENCH_DEBUG) log(JSON.stringify([ob[r], ok[r]]));
      log(
        `  B1 ${dialect} round ${r + 1}: relay p50 ${ob[r].p50.toFixed(2)} p99 ${ob[r].p99.toFixed(2)} ms; kefu p50 ${ok[r].p50.toFixed(2)} p99 ${ok[r].p99.toFixed(2)} ms`,
      );
    }
    // Server CPU per handled message: robust when other work shares the machine.
    const cpuB: number[] = [];
    const cpuK: number[] = [];
    for (let r = 0; r < mode.rounds; r++) {
      cb.push(await cpuPerMessage(base, () => gb.call<LatencyResult>(closed), cpuB));
      ck.push(await cpuPerMessage(kefu, () => gk.call<LatencyResult>(closed), cpuK));
      log(
        `  B2 ${dialect} round ${r + 1}: relay ${cb[r].perSec.toFixed(0)} msg/s; kefu ${ck[r].perSec.toFixed(0)} msg/s`,
      );
    }
    const pg = dialect === 'postgres';
    const tag = pg ? 'PostgreSQL' : 'SQLite';
    return [
      row(
        'B1',
        `delivery p50, ${tag}, 50 pairs @1k msg/s`,
        'ms',
        ob.map((x) => x.p50),
        ok.map((x) => x.p50),
        pg ? 3 : 1.5,
        'le',
        lossNote(ok),
      ),
      row(
        'B1',
        `delivery p99, ${tag}, 50 pairs @1k msg/s`,
        'ms',
        ob.map((x) => x.p99),
        ok.map((x) => x.p99),
        pg ? 4 : 2,
        'le',
      ),
      row(
        'B2',
        `throughput, ${tag}, closed loop`,
        'msg/s',
        cb.map((x) => x.perSec),
        ck.map((x) => x.perSec),
        pg ? 0.35 : 0.5,
        'ge',
        lossNote(ck),
      ),
      { ...row('B2', `server CPU per message, ${tag}`, 'µs', cpuB, cpuK, 1, 'le'), target: '–', holds: null },
    ];
  } finally {
    await Promise.all(gens.map((g) => g.stop()));
    await Promise.all(servers.map((s) => s.stop()));
    await kdb.drop();
  }
}

/** B3: visitor on node A, agent on node B, PostgreSQL + Redis; vs a bare socket.io + Redis adapter pair. */
export async function twoNodes(mode: Mode, log: (s: string) => void): Promise<Row[] | Skip> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl || !pgAdminUrl()) return { id: 'B3', reason: 'needs REDIS_URL and TEST_PG_URL/DATABASE_URL' };
  const kdb = await prepareKefuDb('postgres', PAIRS, 1);
  const servers: Server[] = [];
  const gens: Child[] = [];
  try {
    // Four servers + Redis on two cores: nobody is pinned here, the baseline gets the same treatment.
    const ka = await startKefu(kdb, { redisUrl, core: 'any' });
    servers.push(ka);
    const kb = await startKefu(kdb, { redisUrl, core: 'any' });
    servers.push(kb);
    const ba = await startBaseline({ redisUrl, core: 'any' });
    servers.push(ba);
    const bb = await startBaseline({ redisUrl, core: 'any' });
    servers.push(bb);
    const gk = await pairsGen('kefu', ka.url, kb.url, { appid: kdb.appid, tokens: kdb.tokens });
    gens.push(gk);
    const gb = await pairsGen('baseline', ba.url, bb.url);
    gens.push(gb);
    const closed = closedRun(mode);
    const cb: LatencyResult[] = [];
    const ck: LatencyResult[] = [];
    const cpuB: number[] = [];
    const cpuK: number[] = [];
    for (let r = 0; r < mode.rounds; r++) {
      cb.push(await cpuPerMessage([ba, bb], () => gb.call<LatencyResult>(closed), cpuB));
      ck.push(await cpuPerMessage([ka, kb], () => gk.call<LatencyResult>(closed), cpuK));
      log(
        `  B3 round ${r + 1}: relay+redis ${cb[r].perSec.toFixed(0)} msg/s; kefu ${ck[r].perSec.toFixed(0)} msg/s`,
      );
    }
    return [
      row(
        'B3',
        'throughput, 2 nodes + Redis, PostgreSQL',
        'msg/s',
        cb.map((x) => x.perSec),
        ck.map((x) => x.perSec),
        0.7,
        'ge',
        lossNote(ck),
      ),
      {
        ...row(
          'B3',
          'server CPU per message, both nodes (Redis, PostgreSQL not counted)',
          'µs',
          cpuB,
          cpuK,
          1,
          'le',
        ),
        target: '–',
        holds: null,
      },
      row(
        'B3',
        'p99 under that load',
        'ms',
        cb.map((x) => x.p99),
        ck.map((x) => x.p99),
        1.5,
        'le',
      ),
    ];
  } finally {
    await Promise.all(gens.map((g) => g.stop()));
    await Promise.all(servers.map((s) => s.stop()));
    await kdb.drop();
  }
}
