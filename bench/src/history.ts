/**
 * B8 (history): GET /api/agentService/list over 2M messages / 200k conversations (smoke 20k / 2k;
 * `--scale=N` multiplies both, `--scale=5` is the 10M-message run) — a two-character keyword, a
 * one-character keyword, a mixed Chinese/English keyword and two filtered lists without keyword — against
 * the bare SQL those calls run (the same statements, compiled by the history module, executed straight
 * on the same database in this process). Then live chat while searches run: visitor → agent delivery p99
 * (50 pairs, 1k msg/s open loop) with two clients searching back to back vs with none. Then the export of
 * half the history (≈ 1.1M rows over two sheets): rows/s and the server's peak RSS growth.
 */
import { readFileSync } from 'node:fs';
import { historyListQuery, type ExportJobDto } from '@kefu/protocol';
import {
  countQuery,
  pageQuery,
  readPage,
  type ListRow,
} from '../../apps/server/src/modules/history/history.query.js';
import { keywordOf } from '../../apps/server/src/modules/history/history.service.js';
import type { ReadQuery } from '../../apps/server/src/platform/search/reader.js';
import { startGen } from './realtime.js';
import { prepareKefuDb, probeMem, startKefu, type Dialect, type Server } from './lib/kefu.js';
import type { Child } from './lib/child.js';
import { bareSql } from './lib/bare.js';
import { row, type Mode, type Row } from './lib/report.js';
import type { LatencyResult } from './gen/generator.js';
import { DAY, SPAN_DAYS, seedHistory } from './history-seed.js';

const PAIRS = 50;

interface Case {
  name: string;
  params: Record<string, string>;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const p50 = (xs: number[]) => pct(xs, 50);

async function timed(times: number, f: () => Promise<unknown>, all?: number[]): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await f();
    out.push(performance.now() - t);
  }
  all?.push(...out);
  return p50(out);
}

/** RSS of a process from /proc (the server's own reading would need its event loop). */
const rssOf = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
};

export async function historySearch(
  dialect: Dialect,
  mode: Mode,
  log: (s: string) => void,
  scale = 1,
): Promise<Row[]> {
  const n = Math.round((mode.smoke ? 2_000 : 200_000) * scale);
  const kdb = await prepareKefuDb(dialect, PAIRS, 1);
  const stops: Array<() => Promise<void>> = [];
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const size = `${(n * 10) / 1e6}M msgs`;
  try {
    const t0 = Date.now();
    const seeded = await seedHistory(kdb, n);
    log(
      `  seeded ${n} conversations, ${seeded.messages} messages (${dialect}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    const db = kdb.open();
    // The first agent sees the whole organisation (usertype 0): no scope filter, like the bare SQL.
    await db.kysely.updateTable('users').set({ usertype: '0' }).where('id', '=', kdb.agentIds[0]!).execute();
    const token = kdb.tokens[0]!;
    const kefu: Server = await startKefu(kdb);
    stops.push(() => kefu.stop());
    stops.push(() => db.close());

    const bareDb = await bareSql(kdb);
    stops.push(() => bareDb.close());
    const run = (q: ReadQuery) => bareDb.query(q.sql, q.parameters);

    const now = Date.now();
    const cases: Case[] = [
      { name: '2-char keyword 退款', params: { keyword: '退款' } },
      { name: '1-char keyword 退', params: { keyword: '退' } },
      { name: 'mixed keyword "iPhone 退货"', params: { keyword: 'iPhone 退货' } },
      {
        name: 'filtered list: agent + ended by + last 90 days',
        params: { agentno: kdb.agentIds[3]!, endby: 'user', begin: String(now - 90 * DAY) },
      },
      { name: 'filtered list: channel + satisfaction', params: { channel: 'weixin', satislevel: '1' } },
    ];
    /**
     * The bare SQL of a case: the statements kefu runs — a keyword's page newest first is read window by
     * window until the page and the bounded count are in (readPage, each statement on this connection);
     * without a keyword the page statement and the count.
     */
    const bare = async (c: Case) => {
      const q = historyListQuery.parse(c.params);
      const kw = keywordOf(q.keyword);
      const w = { k: db.kysely, dialect, orgi: 'kefu', scope: { kind: 'all' } as const, kw };
      if (kw) return (await readPage((x) => run(x) as Promise<ListRow[]>, w, q, null)).total;
      const [, count] = await Promise.all([run(pageQuery(w, q, null)), run(countQuery(w, q))]);
      return Number(count[0]?.n);
    };
    /** Every match counted (the full statement: the figure the bounded count stands for). */
    const fullTotal = async (c: Case) => {
      const q = historyListQuery.parse(c.params);
      const w = {
        k: db.kysely,
        dialect,
        orgi: 'kefu',
        scope: { kind: 'all' } as const,
        kw: keywordOf(q.keyword),
      };
      const rows = await run(w.kw ? pageQuery(w, q, null) : countQuery(w, q));
      return Number(rows[0]?.[w.kw ? 'total' : 'n'] ?? 0);
    };
    const ours = async (c: Case) => {
      const r = await fetch(`${kefu.url}/api/agentService/list?${new URLSearchParams(c.params)}`, {
        headers: { authorization: token },
      });
      const j = (await r.json()) as {
        success: boolean;
        data: { total: number; capped: boolean; totalAtLeast: boolean };
      };
      if (!j.success) throw new Error(`${c.name}: ${JSON.stringify(j)}`);
      return j.data;
    };
    for (const c of cases) {
      const b = await bare(c);
      const k = await ours(c);
      log(
        `  B8 history ${c.name}: total bare ${b} / kefu ${k.total}${k.totalAtLeast ? '+' : ''}${k.capped ? ' (capped)' : ''}; all matches ${await fullTotal(c)}`,
      );
      if (b !== k.total) throw new Error(`${c.name}: totals differ ${b} / ${k.total}`);
    }
    const times = mode.smoke ? 3 : 25;
    const res = cases.map(() => ({ sql: [] as number[], k: [] as number[], all: [] as number[] }));
    for (let r = 0; r < mode.rounds; r++) {
      for (const [i, c] of cases.entries()) {
        const x = res[i]!;
        x.sql.push(await timed(times, () => bare(c)));
        x.k.push(await timed(times, () => ours(c), x.all));
        log(`  B8 history ${c.name}: SQL ${x.sql[r]!.toFixed(2)} ms, kefu ${x.k[r]!.toFixed(2)} ms`);
      }
    }
    const speed = (ms: number[]) => ms.map((x) => 1000 / x);
    const rows: Row[] = cases.flatMap((c, i) => {
      const x = res[i]!;
      const what = `history ${c.name}, ${label} ${size}`;
      const lines: Row[] = [
        row('B8', what, 'calls/s', speed(x.sql), speed(x.k), 0.5, 'ge', 'vs the same SQL in process'),
      ];
      const kp50 = p50(x.all);
      lines.push({
        id: 'B8',
        metric: `${what}: p50 / p99`,
        unit: 'ms',
        baseline: p50(x.sql),
        ours: kp50,
        ratio: null,
        target: i === 0 ? 'p50 ≤ 100 ms' : '–',
        holds: i === 0 ? kp50 <= 100 : null,
        note: `p99 ${pct(x.all, 99).toFixed(1)} ms`,
      });
      return lines;
    });

    rows.push(...(await deliveryWhileSearching(kefu, kdb.appid, kdb.tokens, cases, ours, mode, log, label)));
    rows.push(...(await exportHalf(kefu, token, seeded.t0, label, size, log)));
    return rows;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await kdb.drop();
  }
}

/** Delivery p99 with and without two clients searching back to back, alternated. */
async function deliveryWhileSearching(
  kefu: Server,
  appid: string,
  tokens: string[],
  cases: Case[],
  ours: (c: Case) => Promise<unknown>,
  mode: Mode,
  log: (s: string) => void,
  label: string,
): Promise<Row[]> {
  const g: Child = startGen();
  try {
    await g.call({
      cmd: 'pairs',
      target: 'kefu',
      url: kefu.url,
      agentUrl: kefu.url,
      pairs: PAIRS,
      appid,
      tokens,
    });
    const open = {
      cmd: 'open',
      rate: 1000,
      warmupMs: mode.smoke ? 500 : 1000,
      durationMs: mode.smoke ? 1500 : 5000,
    };
    const quiet: number[] = [];
    const busy: number[] = [];
    let searches = 0;
    for (let r = 0; r < mode.rounds; r++) {
      quiet.push((await g.call<LatencyResult>(open)).p99);
      let stop = false;
      const searcher = async (offset: number) => {
        for (let i = offset; !stop; i++) {
          await ours(cases[i % 3]!);
          searches++;
        }
      };
      const loops = [searcher(0), searcher(1)];
      busy.push((await g.call<LatencyResult>(open)).p99);
      stop = true;
      await Promise.all(loops);
      log(
        `  B8 delivery p99 round ${r + 1}: ${quiet[r]!.toFixed(2)} ms quiet, ${busy[r]!.toFixed(2)} ms while searching`,
      );
    }
    log(`  B8 searches run during delivery: ${searches}`);
    return [
      row(
        'B8',
        `delivery p99 while 2 clients search, ${label}`,
        'ms',
        quiet,
        busy,
        1.5,
        'le',
        'vs no search',
      ),
    ];
  } finally {
    await g.stop();
  }
}

/** expsearch of the newer half of the history: rows/s and the server's peak RSS growth while it runs. */
async function exportHalf(
  kefu: Server,
  token: string,
  t0: number,
  label: string,
  size: string,
  log: (s: string) => void,
): Promise<Row[]> {
  const before = (await probeMem(kefu)).rss;
  let peak = before;
  const start = performance.now();
  const headers = { authorization: token, 'content-type': 'application/json' };
  const r = await fetch(`${kefu.url}/api/agentService/expsearch`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ begin: t0 + (SPAN_DAYS / 2) * DAY, tz: -480 }),
  });
  const started = (await r.json()) as { success: boolean; data: ExportJobDto };
  if (!started.success) throw new Error(`expsearch: ${JSON.stringify(started)}`);
  let job = started.data;
  while (job.status === 'queued' || job.status === 'running') {
    await new Promise((res) => setTimeout(res, 200));
    peak = Math.max(peak, rssOf(kefu.child.pid));
    const j = await fetch(`${kefu.url}/api/export/job?id=${job.id}`, { headers });
    job = ((await j.json()) as { data: ExportJobDto }).data;
  }
  const seconds = (performance.now() - start) / 1000;
  if (job.status !== 'done' || job.rows !== job.total) throw new Error(`export: ${JSON.stringify(job)}`);
  const growth = (peak - before) / 1e6;
  log(
    `  B8 export: ${job.rows} rows (${((job.size ?? 0) / 1e6).toFixed(1)} MB .xlsx) in ${seconds.toFixed(1)} s, RSS ${(before / 1e6).toFixed(0)} → peak ${(peak / 1e6).toFixed(0)} MB`,
  );
  return [
    {
      id: 'B8',
      metric: `export of half the history (${job.rows} rows, 2 sheets), ${label} ${size}`,
      unit: 'rows/s',
      baseline: null,
      ours: job.rows / seconds,
      ratio: null,
      target: '–',
      holds: null,
      note: `${seconds.toFixed(1)} s`,
    },
    {
      id: 'B8',
      metric: `export: server peak RSS growth, ${label}`,
      unit: 'MB',
      baseline: null,
      ours: growth,
      ratio: null,
      target: '≤ 300 MB',
      holds: growth <= 300,
    },
  ];
}
