import { describe, expect, it } from 'vitest';
import { historyListQuery, type HistoryPage } from '@kefu/protocol';
import { call, perTest, type SeededApp } from '../../../test/factories.js';
import { searchReader, type ReadQuery } from '../../platform/search/reader.js';
import { cursorOf, pageQuery, readPage, type Cursor, type ListRow, type Where } from './history.query.js';
import { keywordOf } from './history.service.js';
import { seedConversation } from './history.fixtures.js';

const env = perTest();
const DAY = 86_400_000;

/**
 * 40 conversations over a year, one every 9 days: most with 退款 (some twice, some only days after the start,
 * so a conversation's match can lie in a newer window than its start), some without, one not ended, one
 * whose only match was withdrawn, two started in the same millisecond (the id breaks the tie).
 */
async function seedYear(t: SeededApp): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < 40; i++) {
    const createtime = i === 13 ? now - (12 * 9 + 1) * DAY : now - (i * 9 + 1) * DAY;
    const late = (i % 4) * 6 * DAY;
    const messages =
      i % 5 === 3
        ? ['能开发票吗']
        : i === 11
          ? [{ text: '我要退款', withdrawn: true }]
          : i % 6 === 0
            ? ['我要退款', { text: '退款什么时候到', after: late + 60_000 }]
            : ['你好', { text: '商品坏了，我要退款', after: late }];
    await seedConversation(t, {
      createtime,
      messages,
      agentno: i % 2 ? 'ag1' : 'ag2',
      ...(i === 7 ? { status: 'inservice', endtime: null } : {}),
    });
  }
}

/** The compared part of a row: which conversation, its sort key and its hits (not the window's sizes). */
const shape = (rows: ListRow[]) =>
  rows.map((r) => ({ id: r.id, sortkey: Number(r.sortkey), hits: Number(r.hits), msgid: r.msgid }));

function setup(t: SeededApp) {
  const reader = searchReader(t.ctx);
  const statements: ReadQuery[] = [];
  const run = (q: ReadQuery) => {
    statements.push(q);
    return reader.rows<ListRow>(q);
  };
  const where = (keyword: string): Where => ({
    k: t.db.kysely,
    dialect: t.db.dialect,
    orgi: 'kefu',
    scope: { kind: 'all' },
    kw: keywordOf(keyword),
  });
  return { run, statements, where };
}

describe('keyword search newest first: the early stop', () => {
  it('returns exactly the rows of the full statement, page by page and by cursor, and counts to the bound', async () => {
    const t = await env.seeded();
    await seedYear(t);
    const { run, statements, where } = setup(t);
    for (const filter of [{}, { agentno: 'ag1' }, { begin: String(Date.now() - 200 * DAY) }]) {
      const w = where('退款');
      const q = (more: Record<string, string>) =>
        historyListQuery.parse({ keyword: '退款', ...filter, ...more });
      const all = await run(pageQuery(w, q({ ps: '100' }), null));
      const expected = Number(all[0]?.total);
      expect(expected).toBeGreaterThan(8);
      // By page number, past the bound too: the same rows in the same order as the full statement's.
      for (let p = 1; p <= 5; p++) {
        statements.length = 0;
        const early = await readPage(run, w, q({ p: String(p), ps: '3' }), null, { bound: 5 });
        const full = await run(pageQuery(w, q({ p: String(p), ps: '3' }), null));
        expect(shape(early.rows), `page ${p} ${JSON.stringify(filter)}`).toEqual(shape(full));
        if (p === 1) {
          // It did stop early: narrower statements first, a count at the bound.
          expect(statements.length).toBeGreaterThan(1);
          expect(early).toMatchObject({ total: 5, atLeast: true });
        }
      }
      // By cursor: the whole list, in the full statement's order.
      const walked: ListRow[] = [];
      let cursor: Cursor | null = null;
      for (;;) {
        const page = await readPage(run, w, q({ ps: '4' }), cursor, { bound: 5 });
        walked.push(...page.rows.slice(0, 4));
        if (page.rows.length <= 4) break;
        const last = page.rows[3]!;
        cursor = { value: Number(last.sortkey), id: last.id };
        expect(cursorOf(last)).toBe(`${cursor.value}:${cursor.id}`);
      }
      expect(shape(walked)).toEqual(shape(all));
      // A bound above the matches: the exact total.
      expect(await readPage(run, w, q({}), null, { bound: 1000 })).toMatchObject({
        total: expected,
        atLeast: false,
      });
    }
  });

  it('other orders read everything, exactly as before', async () => {
    const t = await env.seeded();
    await seedYear(t);
    const { run, statements, where } = setup(t);
    const w = where('退款');
    for (const more of [{ order: 'asc' }, { sort: 'waittime' }, { sort: 'relevance' }]) {
      const q = historyListQuery.parse({ keyword: '退款', ps: '3', ...more });
      statements.length = 0;
      const r = await readPage(run, w, q, null, { bound: 5 });
      expect(statements).toHaveLength(1);
      expect(r.atLeast).toBe(false);
      expect(r.total).toBeGreaterThan(5);
    }
  });

  it('the list answers with the count and says whether it is a lower bound', async () => {
    const t = await env.seeded();
    await seedYear(t);
    const r = await call<HistoryPage>(
      t.app,
      t.adminToken,
      'GET',
      `/api/agentService/list?keyword=${encodeURIComponent('退款')}&ps=5`,
    );
    const { run, where } = setup(t);
    const full = await run(
      pageQuery(where('退款'), historyListQuery.parse({ keyword: '退款', ps: '100' }), null),
    );
    // Under the bound (HISTORY_LIMITS.searchCount): the exact count, the full statement's rows.
    expect(r.body.data).toMatchObject({ total: Number(full[0]?.total), totalAtLeast: false });
    expect(r.body.data.list.map((x) => x.id)).toEqual(full.slice(0, 5).map((x) => x.id));
    const next = await call<HistoryPage>(
      t.app,
      t.adminToken,
      'GET',
      `/api/agentService/list?keyword=${encodeURIComponent('退款')}&ps=5&before=${encodeURIComponent(r.body.data.next!)}`,
    );
    expect(next.body.data.total).toBe(r.body.data.total);
    expect(next.body.data.list.map((x) => x.id)).toEqual(full.slice(5, 10).map((x) => x.id));
  });
});
