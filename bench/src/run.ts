/**
 * `npm run bench` — kefu's benchmark suite. Every figure is a ratio to a baseline measured in the same
 * run on the same machine (see docs/benchmarks.md). `--smoke`: the short variant CI runs to check the
 * suite still works; it reports ratios but does not judge them. `--only=B1,B6` runs a subset.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/child.js';
import { pgAdminUrl } from './lib/kefu.js';
import type { Mode, Row, Skip } from './lib/report.js';
import { deliveryAndThroughput, twoNodes } from './realtime.js';
import { idleConnections } from './idle.js';
import { assignment } from './assign.js';
import { listQueries } from './lists.js';
import { sizes } from './sizes.js';
import { restart } from './restart.js';
import { durablePostgres } from './durable.js';
import { sensitiveOverhead } from './sensitive.js';
import { redisOutage } from './outage.js';
import { contactSearch } from './contacts.js';
import { historySearch } from './history.js';
import { monitorFanout } from './monitor.js';
import { analysisCalls } from './analysis.js';
import { channelWebhooks } from './channels.js';
import { retrieval, robotAnswers } from './robot.js';
import { qualityBench } from './quality.js';

const argv = process.argv.slice(2);
const smoke = argv.includes('--smoke');
const only = argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
const mode: Mode = { smoke, rounds: smoke ? 1 : 3 };
/** `--scale=N`: B8 history's data × N (default 2M messages / 200k conversations; 5 → the 10M-message run). */
const scale = Number(argv.find((a) => a.startsWith('--scale='))?.slice(8) ?? 1);
/** B12 narrowed: `--b12-conversations=N` (instead of 2M), `--b12-calls=workLog,workLogList,workOrganLog`. */
const b12Conversations = argv.find((a) => a.startsWith('--b12-conversations='))?.slice(20);
const b12Opts = {
  conversations: b12Conversations ? Number(b12Conversations) : undefined,
  calls: argv
    .find((a) => a.startsWith('--b12-calls='))
    ?.slice(12)
    .split(','),
};
const t0 = Date.now();
const log = (s: string) => console.log(s);
const rows: Row[] = [];
const skips: Skip[] = [];
const errors: Array<{ id: string; error: string }> = [];

const isSkip = (x: Row[] | Skip): x is Skip => !Array.isArray(x);

async function bench(id: string, title: string, run: () => Promise<Row[] | Skip>): Promise<void> {
  if (only && !only.includes(id)) return;
  const start = Date.now();
  log(`== ${id} ${title}`);
  try {
    const r = await run();
    if (isSkip(r)) {
      skips.push(r);
      log(`  skipped: ${r.reason}`);
    } else rows.push(...r);
  } catch (err) {
    const msg = err instanceof Error ? (err.stack ?? err.message) : String(err);
    errors.push({ id, error: msg });
    log(`  FAILED: ${msg}`);
  }
  log(`  (${((Date.now() - start) / 1000).toFixed(1)} s)`);
}

// A hard stop: the suite must end by itself even if a child hangs.
// B8 history seeds and searches 2M messages on each database: its own allowance, × --scale.
// B12 seeds 2M conversations and builds their rollups on each database: 25 minutes more (smoke: a minute).
const b12 = !only || only.includes('B12');
// Smoke gets a wide allowance: CI machines are slower than this one and the watchdog is only for hangs.
// B13 seeds 200k conversations and 200k inspections on each database: 25 minutes more.
const b13 = !only || only.includes('B13');
const limitMs = smoke
  ? 600_000
  : (15 + (!only || only.includes('B8') ? 20 * scale : 0) + (b12 ? 25 : 0) + (b13 ? 25 : 0)) * 60_000;
const watchdog = setTimeout(() => {
  console.error(`bench: exceeded ${limitMs / 1000} s, aborting`);
  process.exit(2);
}, limitMs);
watchdog.unref();

const pg = !!pgAdminUrl();
await bench('B1', 'delivery latency + B2 throughput (SQLite)', () =>
  deliveryAndThroughput('sqlite', mode, log),
);
if (smoke) skips.push({ id: 'B1/B2 PostgreSQL', reason: 'smoke runs SQLite only' });
else if (pg)
  await bench('B1', 'delivery latency + B2 throughput (PostgreSQL)', () =>
    deliveryAndThroughput('postgres', mode, log),
  );
else skips.push({ id: 'B1/B2 PostgreSQL', reason: 'set TEST_PG_URL or DATABASE_URL' });
if (smoke) skips.push({ id: 'B1/B2 PostgreSQL fsync on', reason: 'smoke runs SQLite only' });
else
  await bench('B1', 'delivery latency + B2 throughput (PostgreSQL, fsync and synchronous_commit on)', () =>
    durablePostgres(mode, log),
  );
if (smoke) skips.push({ id: 'B3', reason: 'smoke skips the two-node run' });
else await bench('B3', 'two nodes with Redis', () => twoNodes(mode, log));
await bench('B4', 'idle connections', () => idleConnections(mode, log));
await bench('B5', 'assignment', () => assignment(mode, log));
await bench('B6', 'list queries', () => listQueries(mode, log));
await bench('B7', 'sizes', () => sizes(mode, log));
await bench('R1', 'restart: start to serving, reconnect', () => restart(mode, log));
await bench('SW', 'B1/B2 with 20,000 sensitive words per list vs none', () => sensitiveOverhead(mode, log));
if (smoke) skips.push({ id: 'B9', reason: 'smoke skips the two-node runs' });
else await bench('B9', 'Redis outage between two nodes', () => redisOutage(mode, log));
await bench('M1', 'monitor fan-out: 20 supervisors watching vs none', () => monitorFanout(mode, log));
await bench('B8', 'contact search (SQLite)', () => contactSearch('sqlite', mode, log));
if (!smoke && pg)
  await bench('B8', 'contact search (PostgreSQL)', () => contactSearch('postgres', mode, log));
await bench('B8', 'history search, lists, export (SQLite)', () => historySearch('sqlite', mode, log, scale));
if (!smoke && pg)
  await bench('B8', 'history search, lists, export (PostgreSQL)', () =>
    historySearch('postgres', mode, log, scale),
  );
await bench('B10', 'robot retrieval over 10,000 knowledge items (SQLite)', () =>
  retrieval('sqlite', mode, log),
);
if (!smoke && pg)
  await bench('B10', 'robot retrieval over 10,000 knowledge items (PostgreSQL)', () =>
    retrieval('postgres', mode, log),
  );
await bench('B10', 'visitor question → robot answer', () => robotAnswers(mode, log));
await bench('B11', 'channel webhooks against the fake platform', () => channelWebhooks(mode, log));
await bench('B12', 'statistics over 365 days (SQLite)', () => analysisCalls('sqlite', mode, log, b12Opts));
if (!smoke && pg)
  await bench('B12', 'statistics over 365 days (PostgreSQL)', () =>
    analysisCalls('postgres', mode, log, b12Opts),
  );
await bench('B13', 'quality: pre-scoring and the inspection list (SQLite)', () =>
  qualityBench('sqlite', mode, log),
);
if (!smoke && pg)
  await bench('B13', 'quality: pre-scoring and the inspection list (PostgreSQL)', () =>
    qualityBench('postgres', mode, log),
  );

// ---------------------------------------------------------------- report
const fmt = (n: number | null, unit = ''): string => {
  if (n === null || !Number.isFinite(n)) return '–';
  const s = Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
  return unit ? `${s} ${unit}` : s;
};
const table = [
  ['#', 'metric', 'baseline', 'ours', 'ratio', 'target', smoke ? 'holds (not asserted)' : 'holds'],
  ...rows.map((r) => [
    r.id,
    r.metric + (r.note ? ` (${r.note})` : ''),
    fmt(r.baseline, r.unit),
    fmt(r.ours, r.unit),
    r.ratio === null ? '–' : `${fmt(r.ratio)}×${r.range ? ` [${fmt(r.range[0])}–${fmt(r.range[1])}]` : ''}`,
    r.target,
    r.holds === null ? '' : r.holds ? 'yes' : 'NO',
  ]),
];
const widths = table[0].map((_, c) => Math.max(...table.map((l) => l[c].length)));
log('');
for (const [i, l] of table.entries()) {
  log(l.map((cell, c) => cell.padEnd(widths[c])).join(' | '));
  if (i === 0) log(widths.map((w) => '-'.repeat(w)).join('-|-'));
}
for (const s of skips) log(`skipped ${s.id}: ${s.reason}`);
for (const e of errors) log(`error in ${e.id}: ${e.error.split('\n')[0]}`);
const seconds = (Date.now() - t0) / 1000;
log(
  `\n${rows.length} figures, ${rows.filter((r) => r.holds === false).length} below target, ${errors.length} errors, ${seconds.toFixed(0)} s`,
);

const outDir = join(ROOT, 'bench/results');
mkdirSync(outDir, { recursive: true });
writeFileSync(
  join(outDir, smoke ? 'smoke.json' : 'latest.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      mode: smoke ? 'smoke' : 'full',
      node: process.version,
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      seconds,
      rows,
      skips,
      errors,
    },
    null,
    2,
  )}\n`,
);
process.exit(errors.length ? 1 : 0);
