/**
 * Sensitive-word matching on the message path: B1 (delivery latency) and B2 (throughput, CPU per message)
 * with 20,000 words loaded in each list, as a ratio to the same server with no words. Both servers run
 * the same build and the same Chinese/latin mixed text (the worst case: two walks over the automaton).
 */
import { normalize, pinyinForms } from '../../apps/server/src/modules/sensitive/normalize.js';
import { newId } from '../../apps/server/src/platform/ids.js';
import type { Child } from './lib/child.js';
import { prepareKefuDb, startKefu, type KefuDb, type Server } from './lib/kefu.js';
import { row, type Mode, type Row } from './lib/report.js';
import type { LatencyResult } from './gen/generator.js';
import { closedRun, cpuPerMessage, startGen } from './realtime.js';

const PAIRS = 50;
export const WORDS_PER_LIST = 20_000;
/** What a visitor writes: Chinese with an order number and a few latin words (both walks run). */
const TEXT = '您好，我想咨询一下订单什么时候发货，物流单号是多少？Thanks, order A1234 急用谢谢';

/** Words of 2–5 common Han characters (CJK block), deterministic, with a few latin ones. */
function words(n: number, seed: number): string[] {
  // mulberry32: deterministic and exact in 32-bit integer arithmetic.
  let x = seed >>> 0;
  const rnd = () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let r = Math.imul(x ^ (x >>> 15), 1 | x);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296;
  };
  const out = new Set<string>();
  while (out.size < n) {
    if (out.size % 50 === 0) out.add(`spam${out.size}word`);
    const len = 2 + Math.floor(rnd() * 4);
    let w = '';
    for (let i = 0; i < len; i++) w += String.fromCharCode(0x4e00 + Math.floor(rnd() * 0x5000));
    out.add(w);
  }
  return [...out];
}

/** Loads both lists straight into the database, with the forms the service would compute. */
async function loadWords(kdb: KefuDb): Promise<void> {
  const db = kdb.open();
  const now = Date.now();
  try {
    for (const [kind, seed] of [
      ['user', 7],
      ['agent', 11],
    ] as const) {
      const seen = new Set<string>();
      const rows = [];
      for (const word of words(WORDS_PER_LIST, seed)) {
        const norm = normalize(word);
        if (!norm || seen.has(norm)) continue;
        seen.add(norm);
        const pinyin = pinyinForms(norm).join(' ');
        rows.push({ id: newId(), orgi: 'kefu', kind, word, norm, pinyin, action: 'mask', creater: 'bench' });
      }
      for (let i = 0; i < rows.length; i += 500)
        await db.kysely
          .insertInto('sensitive_word')
          .values(rows.slice(i, i + 500).map((r) => ({ ...r, createtime: now, updatetime: now })))
          .execute();
    }
  } finally {
    await db.close();
  }
}

/** Kefu with no words (baseline) and kefu with 20,000 words per list, measured A B A B. */
export async function sensitiveOverhead(mode: Mode, log: (s: string) => void): Promise<Row[]> {
  const none = await prepareKefuDb('sqlite', PAIRS, 1);
  const loaded = await prepareKefuDb('sqlite', PAIRS, 1);
  await loadWords(loaded);
  const servers: Server[] = [];
  const gens: Child[] = [];
  try {
    const base = await startKefu(none);
    servers.push(base);
    const subject = await startKefu(loaded);
    servers.push(subject);
    const gen = async (s: Server, kdb: KefuDb) => {
      const g = startGen();
      gens.push(g);
      await g.call({
        cmd: 'pairs',
        target: 'kefu',
        url: s.url,
        agentUrl: s.url,
        pairs: PAIRS,
        appid: kdb.appid,
        tokens: kdb.tokens,
        pad: TEXT,
      });
      return g;
    };
    const gb = await gen(base, none);
    const gs = await gen(subject, loaded);
    const open = {
      cmd: 'open',
      rate: 1000,
      warmupMs: mode.smoke ? 500 : 1000,
      durationMs: mode.smoke ? 1500 : 5000,
    };
    const closed = closedRun(mode);
    const ob: LatencyResult[] = [];
    const os: LatencyResult[] = [];
    for (let r = 0; r < mode.rounds; r++) {
      ob.push(await gb.call<LatencyResult>(open));
      os.push(await gs.call<LatencyResult>(open));
      if (process.env.BENCH_DEBUG) log(JSON.stringify([ob[r], os[r]]));
      log(
        `  B1 words round ${r + 1}: none p50 ${ob[r]!.p50.toFixed(2)} p99 ${ob[r]!.p99.toFixed(2)} ms; 20k words p50 ${os[r]!.p50.toFixed(2)} p99 ${os[r]!.p99.toFixed(2)} ms`,
      );
    }
    const cb: LatencyResult[] = [];
    const cs: LatencyResult[] = [];
    const cpuB: number[] = [];
    const cpuS: number[] = [];
    for (let r = 0; r < mode.rounds; r++) {
      cb.push(await cpuPerMessage(base, () => gb.call<LatencyResult>(closed), cpuB));
      cs.push(await cpuPerMessage(subject, () => gs.call<LatencyResult>(closed), cpuS));
      log(
        `  B2 words round ${r + 1}: none ${cb[r]!.perSec.toFixed(0)} msg/s ${cpuB[r]!.toFixed(1)} µs; 20k words ${cs[r]!.perSec.toFixed(0)} msg/s ${cpuS[r]!.toFixed(1)} µs`,
      );
    }
    const note = `${WORDS_PER_LIST} words per list vs none, SQLite`;
    return [
      row(
        'B1',
        `delivery p50, ${note}`,
        'ms',
        ob.map((x) => x.p50),
        os.map((x) => x.p50),
        1.1,
        'le',
      ),
      row(
        'B1',
        `delivery p99, ${note}`,
        'ms',
        ob.map((x) => x.p99),
        os.map((x) => x.p99),
        1.1,
        'le',
      ),
      row(
        'B2',
        `throughput, ${note}`,
        'msg/s',
        cb.map((x) => x.perSec),
        cs.map((x) => x.perSec),
        0.91,
        'ge',
      ),
      row('B2', `server CPU per message, ${note}`, 'µs', cpuB, cpuS, 1.1, 'le'),
    ];
  } finally {
    await Promise.all(gens.map((g) => g.stop()));
    await Promise.all(servers.map((s) => s.stop()));
    await none.drop();
    await loaded.drop();
  }
}
