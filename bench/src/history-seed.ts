/**
 * B8 (history) data: ended conversations with ten messages each, seeded with direct SQL. Messages are
 * customer-service sentences from weighted templates, so the words searched for occur at realistic rates
 * (退款 in ≈ 1.5 % of messages, 发货 in ≈ 6 %, iPhone … 退货 in ≈ 0.5 %); their search words are computed
 * by the server's own tokensOf, as the app stores them. SQLite indexes them through the FTS trigger while
 * inserting; PostgreSQL builds its GIN index after the load (same index, built once instead of row by row).
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { join } from 'node:path';
import { newTimeId } from '../../apps/server/src/platform/ids.js';
import { tokensOf } from '../../apps/server/src/platform/search/tokens.js';
import type { KefuDb } from './lib/kefu.js';

export const PER_CONVERSATION = 10;
export const DAY = 86_400_000;
/** The seeded conversations span this many days, oldest first. */
export const SPAN_DAYS = 365;

const TEMPLATES: Array<[weight: number, text: string, out: boolean]> = [
  [12, '您好，请问有什么可以帮您？', true],
  [8, '我想咨询一下订单{n}的物流情况', false],
  [5, '请问什么时候发货？', false],
  [1, '已经为您催促仓库尽快发货，请耐心等待', true],
  [1, '商品有质量问题，我要退款', false],
  [0.5, '退款已经提交，三到五个工作日原路退回', true],
  [0.5, '我的iPhone{m}屏幕有划痕，可以退货吗', false],
  [6, '好的，谢谢', false],
  [6, '不客气，祝您生活愉快', true],
  [5, '这个优惠券怎么使用？', false],
  [5, '满{n}元可以使用，结算时自动抵扣', true],
  [4, '能开发票吗？公司抬头', false],
  [4, '可以的，请提供税号，我们会在发货后开具电子发票', true],
  [4, '尺码偏大还是偏小？', false],
  [4, '建议按平时尺码购买，如不合适支持七天无理由', true],
  [3, '会员积分{n}可以兑换什么', false],
  [3, '积分可以在会员中心兑换礼品或者抵现', true],
  [3, '地址填错了能改吗', false],
  [3, '订单还没有出库，可以帮您修改地址', true],
  [3, 'Hello, is anyone there?', false],
  [3, 'Yes, how can I help you today?', true],
  [2, '快递一直没有更新，是不是丢件了', false],
  [2, '我帮您联系快递公司核实一下，稍后回复您', true],
  [2, '安装师傅什么时候上门', false],
];
const TOTAL = TEMPLATES.reduce((s, [w]) => s + w, 0);

/** Deterministic pseudo-random numbers (the same data every run). */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const tokenCache = new Map<string, string>();
const tokensOfCached = (text: string): string => {
  let t = tokenCache.get(text);
  if (t === undefined) tokenCache.set(text, (t = tokensOf(text)));
  return t;
};

function sentence(r: () => number): { text: string; out: boolean } {
  let pick = r() * TOTAL;
  for (const [w, text, out] of TEMPLATES) {
    pick -= w;
    if (pick <= 0)
      return {
        text: text
          .replace('{n}', String(100 + Math.floor(r() * 900)))
          .replace('{m}', String(11 + Math.floor(r() * 6))),
        out,
      };
  }
  return { text: TEMPLATES[0]![1], out: true };
}

export interface HistorySeed {
  conversations: number;
  messages: number;
  /** First conversation's createtime (the span's start). */
  t0: number;
}

const SERVICE_COLS =
  'id, orgi, userid, username, appid, channel, status, agentno, agentusername, endby, createtime, servicetime, endtime, waittime, ordertime, lastseq, satisfaction, satislevel, userasks, agentreplys';
const MESSAGE_COLS =
  'id, orgi, agentserviceid, seq, sender, client_id, username, touser, usession, type, msgtype, calltype, message, createtime, tokens';
const ENDBY = ['agent', 'user', 'timeout', 'user', 'agent'];

/** The rows of conversation `c` (a pure function of c: the same data every run, any batch size). */
function conversation(c: number, n: number, t0: number, kdb: KefuDb) {
  const r = rng(c + 7);
  const span = SPAN_DAYS * DAY;
  const created = t0 + Math.floor((c / n) * span);
  const sid = newTimeId(created);
  const visitor = `v${c.toString(36)}x${Math.floor(r() * 1e9).toString(36)}`;
  const agents = kdb.agentIds;
  const agent = agents[c % Math.min(20, agents.length)]!;
  const served = created + 2_000 + Math.floor(r() * 60_000);
  const rated = c % 4 === 0;
  const service = [
    sid,
    'kefu',
    visitor,
    `Guest_${c}`,
    kdb.appid,
    c % 5 === 0 ? 'weixin' : 'webim',
    'end',
    agent,
    `Agent ${c % 20}`,
    ENDBY[c % ENDBY.length],
    created,
    served,
    served + 60_000 + Math.floor(r() * 1_800_000),
    served - created,
    c + 1,
    PER_CONVERSATION,
    rated ? 1 : 0,
    rated ? String(1 + (c % 5)) : null,
    PER_CONVERSATION / 2,
    PER_CONVERSATION / 2,
  ];
  const messages: unknown[][] = [];
  for (let s = 1; s <= PER_CONVERSATION; s++) {
    const m = sentence(r);
    const at = served + s * 15_000;
    messages.push([
      newTimeId(at),
      'kefu',
      sid,
      s,
      m.out ? agent : visitor,
      `b${c}-${s}`,
      m.out ? `Agent ${c % 20}` : `Guest_${c}`,
      m.out ? visitor : agent,
      visitor,
      'message',
      'text',
      m.out ? 'out' : 'in',
      m.text,
      at,
      tokensOfCached(m.text),
    ]);
  }
  return { service, messages };
}

export async function seedHistory(kdb: KefuDb, n: number): Promise<HistorySeed> {
  const t0 = Date.now() - (SPAN_DAYS + 1) * DAY;
  if (kdb.dialect === 'sqlite') {
    const db = new SQLite(join(kdb.dataDir, 'kefu.sqlite'));
    db.pragma('journal_mode = WAL');
    const ph = (cols: string) =>
      cols
        .split(',')
        .map(() => '?')
        .join(',');
    const insS = db.prepare(`insert into agent_service (${SERVICE_COLS}) values (${ph(SERVICE_COLS)})`);
    const insM = db.prepare(`insert into chat_message (${MESSAGE_COLS}) values (${ph(MESSAGE_COLS)})`);
    const chunk = 10_000;
    for (let from = 0; from < n; from += chunk) {
      db.transaction(() => {
        for (let c = from; c < Math.min(n, from + chunk); c++) {
          const { service, messages } = conversation(c, n, t0, kdb);
          insS.run(...service);
          for (const m of messages) insM.run(...m);
        }
      })();
    }
    db.exec("insert into chat_message_fts(chat_message_fts) values ('optimize')");
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.exec('analyze');
    db.close();
  } else {
    const c = new pg.Client({ connectionString: kdb.databaseUrl });
    await c.connect();
    // Built once after the load instead of entry by entry.
    await c.query('drop index chat_message_search');
    const cols = (names: string) => names.split(',').map((x) => x.trim());
    const types = (row: unknown[]) => row.map((v) => (typeof v === 'number' ? 'bigint' : 'text'));
    const unnest = (table: string, names: string, rows: unknown[][], t: string[]) =>
      c.query(
        `insert into ${table} (${names}) select * from unnest(${t.map((x, i) => `$${i + 1}::${x}[]`).join(', ')})`,
        cols(names).map((_, i) => rows.map((r) => r[i])),
      );
    const svcTypes = [...types(conversation(0, n, t0, kdb).service)];
    svcTypes[17] = 'text';
    const msgTypes = types(conversation(0, n, t0, kdb).messages[0]!);
    for (let from = 0; from < n; from += 2_000) {
      const services: unknown[][] = [];
      const messages: unknown[][] = [];
      for (let i = from; i < Math.min(n, from + 2_000); i++) {
        const x = conversation(i, n, t0, kdb);
        services.push(x.service);
        messages.push(...x.messages);
      }
      await unnest('agent_service', SERVICE_COLS, services, svcTypes);
      await unnest('chat_message', MESSAGE_COLS, messages, msgTypes);
    }
    await c.query("set maintenance_work_mem = '256MB'");
    await c.query(
      "create index chat_message_search on chat_message using gin (to_tsvector('simple', tokens))",
    );
    await c.query('analyze');
    await c.end();
  }
  return { conversations: n, messages: n * PER_CONVERSATION, t0 };
}
