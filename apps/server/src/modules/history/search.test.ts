import { describe, expect, it } from 'vitest';
import type { HistoryPage, MessageDto, VisitorNewResult } from '@kefu/protocol';
import { createTestApp } from '../../../test/harness.js';
import { perTest } from '../../../test/factories.js';
import {
  addAccessPoint,
  addUserWithCodes,
  api,
  call,
  ok,
  socketAgent,
  visitorReady,
} from '../../../test/live.js';
import { dialectUnderTest } from '../../../test/harness.js';
import { keywordWords, tokensOf } from '../../platform/search/tokens.js';
import { searchReader } from '../../platform/search/reader.js';
import { seedConversation } from './history.fixtures.js';
import { startTokenBackfill } from './backfill.js';

const pt = perTest();

describe('search words', () => {
  it('segments Chinese (with its single characters), lower-cases and splits letters from digits', () => {
    const t = tokensOf('我要退款，订单号12345！iPhone15坏了').split(' ');
    expect(t).toEqual(
      expect.arrayContaining([
        '我要',
        '退款',
        '订单',
        '单号',
        '订单号',
        '12345',
        'iphone15',
        'iphone',
        '15',
        '退',
        '款',
        '订',
      ]),
    );
    expect(t.every((w) => /^[\p{L}\p{N}]+$/u.test(w))).toBe(true);
    expect(tokensOf('，。！？……')).toBe('');
    expect(tokensOf('')).toBe('');
    expect(keywordWords(' iPhone 退款 ')).toEqual(['iphone', '退款']);
    expect(() => keywordWords('、、、')).toThrow(expect.objectContaining({ key: 'keyword_invalid' }));
    expect(() => keywordWords('x'.repeat(101))).toThrow(expect.objectContaining({ key: 'keyword_too_long' }));
  });
});

describe('messages are searchable as they are stored', () => {
  it('a live chat is found by its words once ended (through the group commit)', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const agent = await socketAgent(srv, pt.sockets);
    const v = await visitorReady(srv.url, appid);
    pt.sockets.push(v.s);
    const r = ok(await call<VisitorNewResult>(v.s, 'new'));
    ok(
      await call<MessageDto>(v.s, 'message', { clientId: 'c-visitor-1', message: '你好，我的快递还没发货' }),
    );
    ok(
      await call<MessageDto>(agent.sock, 'message', {
        touser: v.userid,
        agentserviceid: r.agentserviceid,
        message: '马上给您安排发货，单号 SF123',
        clientId: 'c-agent-01',
      }),
    );
    await api(srv, agent.token, `/api/talk/end?agentserviceid=${r.agentserviceid}`);
    const boss = await addUserWithCodes(srv.tdb, ['A04']);
    // The organisation's administrator sees every conversation.
    await srv.tdb.db.kysely.updateTable('users').set({ usertype: '0' }).where('id', '=', boss.id).execute();
    const find = async (k: string) =>
      (await api<HistoryPage>(srv, boss.token, `/api/agentService/list?keyword=${encodeURIComponent(k)}`))
        .json.data.list;
    expect((await find('发货')).map((x) => x.id)).toEqual([r.agentserviceid]);
    expect((await find('sf123')).map((x) => x.id)).toEqual([r.agentserviceid]);
    expect((await find('快递'))[0]).toMatchObject({ id: r.agentserviceid, hits: 1 });
    expect(await find('退款')).toEqual([]);
  });

  it('messages stored before the search index are indexed by the background backfill', async () => {
    const t = await pt.seeded();
    const id = await seedConversation(t, { messages: ['旧消息：申请退款'] });
    // As a row written before migration 0008: no words, not in the index.
    await t.db.kysely
      .updateTable('chat_message')
      .set({ tokens: null })
      .where('agentserviceid', '=', id)
      .execute();
    if (t.db.dialect === 'sqlite') await t.db.sqlite!.prepare('delete from chat_message_fts').run();
    const find = async () =>
      (
        await api<HistoryPage>(
          { app: t.app } as never,
          t.adminToken,
          `/api/agentService/list?keyword=${encodeURIComponent('退款')}`,
        )
      ).json.data.total;
    expect(await find()).toBe(0);
    const b = startTokenBackfill(t.db);
    expect(await b.done).toBe(1);
    expect(await find()).toBe(1);
    const left = await t.db.kysely
      .selectFrom('chat_message')
      .select('id')
      .where('tokens', 'is', null)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('the search reader', () => {
  it('stops a statement past the time limit with search_timeout and keeps serving', async () => {
    const before = process.env.KEFU_SEARCH_TIMEOUT_MS;
    process.env.KEFU_SEARCH_TIMEOUT_MS = '300';
    const t = await createTestApp();
    try {
      const reader = searchReader(t.ctx);
      const slow =
        dialectUnderTest() === 'postgres'
          ? { sql: 'select pg_sleep(5)', parameters: [] }
          : {
              sql: 'with recursive c(x) as (select 1 union all select x + 1 from c where x < 1000000000) select count(*) as n from c',
              parameters: [],
            };
      const started = Date.now();
      await expect(reader.rows(slow)).rejects.toMatchObject({ key: 'search_timeout' });
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(await reader.rows<{ n: number }>({ sql: 'select 1 as n', parameters: [] })).toEqual([{ n: 1 }]);
    } finally {
      if (before === undefined) delete process.env.KEFU_SEARCH_TIMEOUT_MS;
      else process.env.KEFU_SEARCH_TIMEOUT_MS = before;
      await t.close();
    }
  });
});
