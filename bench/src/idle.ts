/** B4: memory per idle visitor connection, kefu vs bare socket.io, same count. */
import { prepareKefuDb, probeMem, startBaseline, startKefu, type Server } from './lib/kefu.js';
import { row, type Mode, type Row } from './lib/report.js';
import { startGen } from './realtime.js';
import type { IdleResult } from './gen/generator.js';

interface Sample {
  rssPerConn: number;
  heapPerConn: number;
  perSec: number;
  connected: number;
}

async function measure(s: Server, target: 'kefu' | 'baseline', n: number, appid?: string): Promise<Sample> {
  // Warm the server (first connects compile code paths), then take the empty reading.
  const warm = startGen();
  try {
    await warm.call({ cmd: 'idle', target, url: s.url, appid, n: 50, concurrency: 50 });
    await warm.call({ cmd: 'close' });
  } finally {
    await warm.stop();
  }
  await new Promise((r) => setTimeout(r, 500));
  const before = await probeMem(s);
  const g = startGen();
  try {
    const r = await g.call<IdleResult>(
      { cmd: 'idle', target, url: s.url, appid, n, concurrency: 100 },
      300_000,
    );
    if (r.connected < n * 0.99) throw new Error(`only ${r.connected}/${n} connected (${r.failed} failed)`);
    await new Promise((res) => setTimeout(res, 1_000));
    const after = await probeMem(s);
    await g.call({ cmd: 'close' });
    return {
      rssPerConn: (after.rss - before.rss) / r.connected / 1024,
      heapPerConn: (after.heapUsed - before.heapUsed) / r.connected / 1024,
      perSec: r.perSec,
      connected: r.connected,
    };
  } finally {
    await g.stop();
  }
}

export async function idleConnections(mode: Mode, log: (s: string) => void): Promise<Row[]> {
  const n = mode.smoke ? 500 : 5000;
  const kdb = await prepareKefuDb('sqlite', 0, 1);
  const servers: Server[] = [];
  try {
    const base = await startBaseline();
    servers.push(base);
    const b = await measure(base, 'baseline', n);
    await base.stop();
    const kefu = await startKefu(kdb);
    servers.push(kefu);
    const k = await measure(kefu, 'kefu', n, kdb.appid);
    log(
      `  B4 ${n} idle visitors: socket.io ${b.rssPerConn.toFixed(1)} KB rss/conn, kefu ${k.rssPerConn.toFixed(1)} KB`,
    );
    return [
      row('B4', `RSS per idle visitor (${n} connected)`, 'KB', [b.rssPerConn], [k.rssPerConn], 1.5, 'le'),
      {
        ...row('B4', 'heap per idle visitor', 'KB', [b.heapPerConn], [k.heapPerConn], 1.5, 'le'),
        target: '–',
        holds: null,
      },
      row('B4', 'connects per second', 'conn/s', [b.perSec], [k.perSec], 0.7, 'ge'),
    ];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await kdb.drop();
  }
}
