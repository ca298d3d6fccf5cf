/**
 * B10 (robot and knowledge base).
 * 1. Retrieval over 10,000 knowledge items (40,000 indexed questions; smoke 1,000): every visitor question
 *    is ranked the way the robot ranks it (knowledge/retrieval.ts: jieba, the cached term statistics,
 *    the full-text candidates, the 0–1 scoring) and, interleaved question by question, the bare full-text
 *    query of the same expression runs on the same database (SQLite FTS5 bm25; PostgreSQL GIN + ts_rank).
 *    Figures: speed ratios bare ÷ ours of the p50 and p99 per question (target ≥ 0.5×).
 * 2. Through the whole stack: visitors on socket.io ask a running server's robot; the time from sending a
 *    question to the robot's answer arriving, against the time to the same message's store ack (what any
 *    chat line costs). Informative: the answer waits for retrieval after the store.
 */
import type { Insertable } from 'kysely';
import { io, type Socket } from 'socket.io-client';
import type { KbItemTable, KbQuestionTable } from '../../apps/server/src/platform/db/schema-knowledge.js';
import { newId, newTimeId } from '../../apps/server/src/platform/ids.js';
import { rawRows } from '../../apps/server/src/platform/db/raw.js';
import type { Db } from '../../apps/server/src/platform/db/database.js';
import { questionEntries } from '../../apps/server/src/modules/knowledge/kb.index.js';
import { queryTerms } from '../../apps/server/src/modules/knowledge/analyze.js';
import {
  bareSql,
  matchExpression,
  rankWith,
  scorerFor,
} from '../../apps/server/src/modules/knowledge/retrieval.js';
import { prepareKefuDb, startKefu, type Dialect, type KefuDb } from './lib/kefu.js';
import type { Mode, Row } from './lib/report.js';

const SUBJECTS = [
  '订单',
  '退款',
  '发票',
  '快递',
  '优惠券',
  '会员',
  '积分',
  '账号',
  '手机号',
  '收货地址',
  '商品',
  '尺码',
  '保修',
  '礼品卡',
  '门店',
  '评价',
  '运费',
  '预售',
  '换货',
  '支付',
];
const ACTIONS = [
  '取消',
  '修改',
  '查询',
  '申请',
  '删除',
  '使用',
  '领取',
  '开具',
  '更换',
  '绑定',
  '退回',
  '延期',
  '冻结',
  '恢复',
  '转让',
  '合并',
  '拆分',
  '补发',
  '撤销',
  '确认',
];
const THINGS = [
  '手机',
  '电脑',
  '衣服',
  '鞋子',
  '冰箱',
  '图书',
  '零食',
  '奶粉',
  '口红',
  '沙发',
  '耳机',
  '手表',
  '相机',
  '玩具',
  '茶叶',
  '背包',
  '眼镜',
  '床垫',
  '空调',
  '显示器',
  '键盘',
  '鼠标',
  '台灯',
  '雨伞',
  '水杯',
];
const ASKS = ['怎么', '如何', '在哪里', '多久能', '能不能'];

/** Item `i`: a thing, a subject and an action (20 × 20 × 25 = 10,000 distinct), asked four ways. */
function item(i: number) {
  const thing = THINGS[i % THINGS.length]!;
  const subject = SUBJECTS[Math.floor(i / THINGS.length) % SUBJECTS.length]!;
  const action = ACTIONS[Math.floor(i / (THINGS.length * SUBJECTS.length)) % ACTIONS.length]!;
  return {
    question: `${thing}的${subject}怎么${action}？`,
    similar: [
      `${thing}${subject}如何${action}`,
      `${action}${thing}${subject}`,
      `我想${action}${thing}的${subject}`,
    ],
    answer: `${thing}的${subject}${action}：请在订单详情中操作，或联系客服。`,
    visitor: `请问我买的${thing}，${subject}${ASKS[i % ASKS.length]}${action}啊`,
  };
}

/** n items with their indexed questions, written set-wise (the words by the same tokenizer as a save). */
async function seedKb(db: Db, n: number): Promise<void> {
  const now = Date.now();
  const k = db.kysely;
  for (let at = 0; at < n; at += 500) {
    const items: Insertable<KbItemTable>[] = [];
    const questions: Insertable<KbQuestionTable>[] = [];
    for (let i = at; i < Math.min(n, at + 500); i++) {
      const it = item(i);
      const id = newTimeId(now + i);
      items.push({
        id,
        orgi: 'kefu',
        question: it.question,
        similar: JSON.stringify(it.similar),
        answer: it.answer,
        createtime: now,
        updatetime: now,
      });
      for (const q of questionEntries(it)) questions.push({ id: newId(), orgi: 'kefu', itemid: id, ...q });
    }
    await k.transaction().execute(async (trx) => {
      await trx.insertInto('kb_item').values(items).execute();
      for (let i = 0; i < questions.length; i += 500)
        await trx
          .insertInto('kb_question')
          .values(questions.slice(i, i + 500))
          .execute();
    });
  }
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

function speedRow(id: string, metric: string, bare: number, ours: number, note: string): Row {
  const ratio = bare / ours;
  return {
    id,
    metric,
    unit: 'ms',
    baseline: bare,
    ours,
    ratio,
    target: '≥ 0.5× (speed)',
    holds: ratio >= 0.5,
    note,
  };
}

/** Part 1: ranking vs the bare full-text query on one database. */
export async function retrieval(dialect: Dialect, mode: Mode, log: (s: string) => void): Promise<Row[]> {
  const items = mode.smoke ? 1_000 : 10_000;
  const asks = mode.smoke ? 60 : 400;
  const kdb = await prepareKefuDb(dialect, 0, 1);
  const db = kdb.open();
  try {
    const t0 = Date.now();
    await seedKb(db, items);
    log(
      `  ${dialect}: ${items} items, ${items * 4} questions seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    const questions = Array.from({ length: asks }, (_, j) => item((j * 7919) % items).visitor);
    // The first call builds the term statistics of the 40,000 questions (once per index change): not timed.
    const t1 = Date.now();
    await scorerFor(db, 'kefu', questions[0]!);
    log(`  ${dialect}: term statistics built in ${Date.now() - t1} ms`);
    const bareText = bareSql(dialect);
    const bare: number[] = [];
    const ours: number[] = [];
    let found = 0;
    for (let round = 0; round < mode.rounds; round++) {
      for (const q of questions) {
        const s = await scorerFor(db, 'kefu', q);
        const expr = matchExpression(dialect, queryTerms(s.terms, s.weigh, 16), s.syn);
        let t = performance.now();
        await rawRows(db.kysely, bareText, [expr]);
        bare.push(performance.now() - t);
        t = performance.now();
        const s2 = await scorerFor(db, 'kefu', q);
        const r = await rankWith(db, 'kefu', s2, { typeids: null, now: Date.now(), limit: 3 });
        ours.push(performance.now() - t);
        if (r[0]) found++;
      }
    }
    log(`  ${dialect}: ${found}/${bare.length} questions found an item`);
    const n = `${items} items, ${bare.length} questions, ${dialect}`;
    return [
      speedRow(
        'B10',
        `retrieval p50 per question vs bare FTS (${dialect})`,
        quantile(bare, 0.5),
        quantile(ours, 0.5),
        n,
      ),
      speedRow(
        'B10',
        `retrieval p99 per question vs bare FTS (${dialect})`,
        quantile(bare, 0.99),
        quantile(ours, 0.99),
        n,
      ),
    ];
  } finally {
    await db.close();
    await kdb.drop();
  }
}

interface Line {
  type: string;
  robot?: unknown;
}

/** Part 2: visitors ask a running server's robot; ack and answer latencies. */
export async function robotAnswers(mode: Mode, log: (s: string) => void): Promise<Row[]> {
  const kdb: KefuDb = await prepareKefuDb('sqlite', 0, 1);
  const db = kdb.open();
  const now = Date.now();
  try {
    await seedKb(db, mode.smoke ? 500 : 2_000);
    const robotid = newId();
    await db.kysely
      .insertInto('robot')
      .values({
        id: robotid,
        orgi: 'kefu',
        name: 'bench',
        welcome: '你好',
        fallback: '抱歉',
        answer_score: 450,
        suggest_score: 250,
        handoff_fallbacks: 0,
        createtime: now,
        updatetime: now,
      })
      .execute();
    await db.kysely
      .insertInto('robot_binding')
      .values({ channel: 'webim', target: kdb.appid, orgi: 'kefu', robotid, createtime: now })
      .execute();
  } finally {
    await db.close();
  }
  const server = await startKefu(kdb);
  const sockets: Socket[] = [];
  try {
    const visitors = mode.smoke ? 3 : 10;
    const perVisitor = mode.smoke ? 10 : 30;
    const ack: number[] = [];
    const answer: number[] = [];
    await Promise.all(
      Array.from({ length: visitors }, async (_, v) => {
        const s = io(`${server.url}/im/user`, {
          query: { appid: kdb.appid, userid: newId() },
          transports: ['websocket'],
          forceNew: true,
          reconnection: false,
        });
        sockets.push(s);
        let waiting: ((l: Line) => void) | null = null;
        s.on('message', (m: Line) => {
          if (m.type === 'robot' && waiting) waiting(m);
        });
        await new Promise<void>((res) => s.once('welcome', () => res()));
        const greeted = new Promise<Line>((res) => (waiting = res));
        await s.timeout(10_000).emitWithAck('new', {});
        await greeted;
        for (let i = 0; i < perVisitor; i++) {
          const answered = new Promise<Line>((res) => (waiting = res));
          const t = performance.now();
          await s.timeout(10_000).emitWithAck('message', {
            clientId: newId(),
            msgtype: 'text',
            message: item(v * 97 + i * 13).visitor,
          });
          ack.push(performance.now() - t);
          await answered;
          answer.push(performance.now() - t);
        }
      }),
    );
    log(
      `  ${visitors} visitors × ${perVisitor} questions: ack p99 ${quantile(ack, 0.99).toFixed(1)} ms, answer p99 ${quantile(answer, 0.99).toFixed(1)} ms`,
    );
    const row = (q: number, name: string): Row => {
      const b = quantile(ack, q);
      const o = quantile(answer, q);
      return {
        id: 'B10',
        metric: `visitor question → robot answer ${name} vs the store ack`,
        unit: 'ms',
        baseline: b,
        ours: o,
        ratio: o / b,
        target: 'informative',
        holds: null,
        note: `${ack.length} questions, SQLite`,
      };
    };
    return [row(0.5, 'p50'), row(0.99, 'p99')];
  } finally {
    for (const s of sockets) s.disconnect();
    await server.stop();
    await kdb.drop();
  }
}
