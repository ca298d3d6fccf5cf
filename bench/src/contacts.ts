/**
 * B8 (contacts): GET /api/contacts/index at scale — a keyword found by contains (every contact's search
 * key is scanned), a whole mobile (found through its unique key) and the unfiltered first page — against
 * the bare SQL those calls run (the page and its count), executed straight on the same database in the
 * same run. 200,000 contacts (smoke 5,000), each with a mobile and an email, seeded with direct SQL.
 * Figures are speed ratios (bare time / kefu time per call, p50 of sequential calls); the gap is what the
 * call adds: HTTP, the token, the data scope, the page's tags / identities / owners and the JSON.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { join } from 'node:path';
import { searchKeyOf } from '../../apps/server/src/modules/contacts/contacts.repository.js';
import { newTimeId } from '../../apps/server/src/platform/ids.js';
import { COMPANIES, contactCases, phoneOf, runCase, type ContactCase } from './contacts-sql.js';
import { freePort, spawnNode, waitForPort, type Child } from './lib/child.js';
import { bareSql } from './lib/bare.js';
import { prepareKefuDb, startKefu, type Dialect, type KefuDb } from './lib/kefu.js';
import { row, type Mode, type Row } from './lib/report.js';

interface Contact {
  id: string;
  name: string;
  phone: string;
  email: string;
  company: string;
  searchkey: string;
  createtime: number;
}

function contactAt(i: number, t0: number): Contact {
  const c = {
    id: newTimeId(t0 + i),
    name: `联系人${i}`,
    phone: phoneOf(i),
    email: `c${i}@example.com`,
    company: `公司${i % COMPANIES}`,
  };
  return { ...c, searchkey: searchKeyOf(c), createtime: t0 + i };
}

/** The contacts and their phone / email keys; answers the token of a usertype '0' user. */
async function seed(kdb: KefuDb, n: number): Promise<string> {
  const t0 = Date.now() - 86_400_000 * 30;
  const cols =
    'id, orgi, name, phone, email, company, owner, organ, creater, searchkey, createtime, updatetime';
  const values = (c: Contact) => [
    c.id,
    'kefu',
    c.name,
    c.phone,
    c.email,
    c.company,
    null,
    null,
    'bench',
    c.searchkey,
    c.createtime,
    c.createtime,
  ];
  const keys = (c: Contact) => [
    ['kefu', 'phone', c.phone, c.id, c.createtime],
    ['kefu', 'email', c.email, c.id, c.createtime],
  ];
  if (kdb.dialect === 'sqlite') {
    const db = new SQLite(join(kdb.dataDir, 'kefu.sqlite'));
    const ins = db.prepare(
      `insert into contact (${cols}) values (${cols
        .split(',')
        .map(() => '?')
        .join(',')})`,
    );
    const key = db.prepare(
      'insert into contact_identity (orgi, kind, value, contactid, createtime) values (?,?,?,?,?)',
    );
    db.transaction(() => {
      for (let i = 0; i < n; i++) {
        const c = contactAt(i, t0);
        ins.run(...values(c));
        for (const k of keys(c)) key.run(...k);
      }
    })();
    db.exec('analyze');
    db.close();
  } else {
    const c = new pg.Client({ connectionString: kdb.databaseUrl });
    await c.connect();
    for (let from = 0; from < n; from += 1000) {
      const batch = Array.from({ length: Math.min(1000, n - from) }, (_, j) => contactAt(from + j, t0));
      const v = batch.map(values);
      await c.query(
        `insert into contact (${cols}) select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[], $12::bigint[])`,
        v[0]!.map((_, col) => v.map((r) => r[col])),
      );
      const kv = batch.flatMap(keys);
      await c.query(
        'insert into contact_identity (orgi, kind, value, contactid, createtime) select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])',
        kv[0]!.map((_, col) => kv.map((r) => r[col])),
      );
    }
    await c.query('analyze');
    await c.end();
  }
  // The seeded agent becomes usertype '0': the whole organisation is in its scope (no scope filter).
  const db = kdb.open();
  await db.kysely.updateTable('users').set({ usertype: '0' }).where('id', '=', kdb.agentIds[0]!).execute();
  await db.close();
  return kdb.tokens[0]!;
}

export const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs `f` `times` times in a row; the median duration in ms. */
export async function timed(times: number, f: () => Promise<unknown>): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await f();
    out.push(performance.now() - t);
  }
  return p50(out);
}

/** One GET, checked; answers the envelope's total. */
async function get(url: string, headers: Record<string, string> = {}): Promise<number> {
  const r = await fetch(url, { headers });
  const j = (await r.json()) as { success: boolean; data: { total: number } };
  if (!j.success) throw new Error(`${url}: ${JSON.stringify(j)}`);
  return j.data.total;
}

export async function contactSearch(dialect: Dialect, mode: Mode, log: (s: string) => void): Promise<Row[]> {
  const n = mode.smoke ? 5_000 : 200_000;
  const kdb = await prepareKefuDb(dialect, 1, 10);
  const stops: Array<() => Promise<void>> = [];
  try {
    const t0 = Date.now();
    const token = await seed(kdb, n);
    log(`  seeded ${n} contacts (${dialect}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const kefu = await startKefu(kdb);
    stops.push(() => kefu.stop());
    const port = await freePort();
    const baseChild: Child = spawnNode('bench/src/servers/contacts-baseline.ts', {
      core: 0,
      env: {
        PORT: String(port),
        KEFU_DATA_DIR: kdb.dataDir,
        DATABASE_URL: kdb.databaseUrl ?? '',
        BENCH_DIALECT: dialect,
        BENCH_CONTACTS: String(n),
      },
    });
    stops.push(() => baseChild.stop());
    await waitForPort(port, baseChild);
    // The bare SQL in this process too (informative: no HTTP at all).
    const bareDb = await bareSql(kdb);
    stops.push(() => bareDb.close());
    const query = (text: string, args: unknown[]) => bareDb.query(text, args);
    const list = contactCases(dialect, n);
    const bare = (c: ContactCase) => runCase(c, query);
    const base = (i: number) => get(`http://127.0.0.1:${port}/c?i=${i}`);
    const ours = (c: ContactCase) => get(`${kefu.url}${c.url}`, { authorization: token });
    for (const [i, c] of list.entries()) {
      // Warm all three (statement caches, the page cache) and check that they agree.
      const totals = [(await bare(c)).total, await base(i), await ours(c)];
      log(`  B8 contacts ${c.name}: totals bare / node:http / kefu ${totals.join(' / ')}`);
      if (new Set(totals).size !== 1) throw new Error(`${c.name}: totals differ ${totals.join(' / ')}`);
    }
    const times = mode.smoke ? 3 : 40;
    const res = list.map(() => ({ sql: [] as number[], b: [] as number[], k: [] as number[] }));
    for (let r = 0; r < mode.rounds; r++) {
      for (const [i, c] of list.entries()) {
        const x = res[i]!;
        x.sql.push(await timed(times, () => bare(c)));
        x.b.push(await timed(times, () => base(i)));
        x.k.push(await timed(times, () => ours(c)));
        log(
          `  B8 contacts ${c.name}: SQL ${x.sql[r]!.toFixed(2)} ms, node:http + SQL ${x.b[r]!.toFixed(2)} ms, kefu ${x.k[r]!.toFixed(2)} ms`,
        );
      }
    }
    const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const speed = (ms: number[]) => ms.map((x) => 1000 / x);
    return list.flatMap((c, i) => {
      const x = res[i]!;
      const what = `contact search: ${c.name}, ${label} ${n / 1000}k`;
      return [
        row('B8', what, 'calls/s', speed(x.b), speed(x.k), 0.5, 'ge', 'vs node:http + same SQL'),
        {
          ...row('B8', `${what}: vs SQL in process`, 'calls/s', speed(x.sql), speed(x.k), 0.5, 'ge'),
          target: '–',
          holds: null,
        },
        {
          id: 'B8',
          metric: `${what}: p50`,
          unit: 'ms',
          baseline: p50(x.b),
          ours: p50(x.k),
          ratio: null,
          target: '–',
          holds: null,
          note: `SQL in process ${p50(x.sql).toFixed(2)} ms`,
        },
      ];
    });
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await kdb.drop();
  }
}
