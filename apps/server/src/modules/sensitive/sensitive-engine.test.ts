import { afterEach, describe, expect, it } from 'vitest';
import type { MessageDto, NoticeDto, Page, SensitiveHitDto, VisitorNewResult } from '@kefu/protocol';
import {
  addAccessPoint,
  api,
  call,
  collect,
  next,
  ok,
  socketAgent,
  startLive,
  until,
  visitorReady,
  type LiveServer,
} from '../../../test/live.js';
import { createTestDb, insertUser, type TestDb } from '../../../test/harness.js';
import { issueToken } from '../../platform/auth/tokens.js';
import { openDatabase } from '../../platform/db/database.js';

const PG = process.env.TEST_PG_URL;
const REDIS = process.env.REDIS_URL;

let servers: LiveServer[] = [];
let extraDbs: TestDb[] = [];
const sockets: Array<{ disconnect(): unknown }> = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.disconnect());
  for (const s of servers) await s.stop();
  for (const d of extraDbs) await d.db.close();
  await servers[0]?.tdb.drop();
  servers = [];
  extraDbs = [];
});

async function adminToken(srv: LiveServer): Promise<string> {
  const u = await insertUser(srv.tdb.db, { usertype: '0' });
  return issueToken(srv.tdb.db.kysely, u.id, 'kefu', 3_600_000);
}

/** A live server, an admin token, a ready agent and a visitor in a chat with it. */
async function chat(srv: LiveServer, appid?: string) {
  const ap = appid ?? (await addAccessPoint(srv.tdb));
  const agent = await socketAgent(srv, sockets);
  const v = await visitorReady(srv.url, ap);
  sockets.push(v.s);
  const r = ok(await call<VisitorNewResult>(v.s, 'new'));
  return { agent, v, sid: r.agentserviceid, appid: ap };
}

const messagesOf = (srv: LiveServer, sid: string) =>
  srv.tdb.db.kysely
    .selectFrom('chat_message')
    .select(['message', 'calltype'])
    .where('agentserviceid', '=', sid)
    .where('type', '=', 'message')
    .orderBy('seq')
    .execute();

describe('sensitive words on the message path', () => {
  it("a visitor's mask word is stored and shown as ＊ on both sides; the hit is recorded", async () => {
    const srv = await startLive();
    servers.push(srv);
    const admin = await adminToken(srv);
    const { agent, v, sid } = await chat(srv);
    const atAgent = collect<MessageDto>(agent.sock, 'message');
    // Before the word exists the text passes as is.
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-sens-0', message: '我想代開發票' }));
    expect((await api(srv, admin, '/api/sensitive/user/save', { word: '代开发票' })).json.success).toBe(true);
    // The list change is picked up at once (rebuilt on the change, not on a timer).
    const mine = ok(
      await call<MessageDto>(v.s, 'message', { clientId: 'c-sens-1', message: '我想代 開 發 票!' }),
    );
    expect(mine.message).toBe('我想＊ ＊ ＊ ＊!');
    await until(() => atAgent.length === 2);
    expect(atAgent.map((m) => m.message)).toEqual(['我想代開發票', '我想＊ ＊ ＊ ＊!']);
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-sens-2', message: 'daikaifapiao ok?' }));
    await until(() => atAgent.length === 3);
    expect(atAgent[2]!.message).toBe('＊＊＊＊＊＊＊＊＊＊＊＊ ok?');
    expect((await messagesOf(srv, sid)).map((m) => m.message)).toEqual([
      '我想代開發票',
      '我想＊ ＊ ＊ ＊!',
      '＊＊＊＊＊＊＊＊＊＊＊＊ ok?',
    ]);
    const hits = await api<Page<SensitiveHitDto>>(srv, admin, `/api/sensitive/hits?agentserviceid=${sid}`);
    expect(hits.json.data.list.map((h) => [h.side, h.action, h.words])).toEqual([
      ['user', 'mask', ['代开发票']],
      ['user', 'mask', ['代开发票']],
    ]);
    // The agent list does not apply to visitors.
    await api(srv, admin, '/api/sensitive/agent/save', { word: '你好', action: 'block' });
    expect(
      ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-sens-3', message: '你好' })).message,
    ).toBe('你好');
  });

  it('an agent message with a block word is refused with the words and not stored; the attempt is recorded', async () => {
    const srv = await startLive();
    servers.push(srv);
    const admin = await adminToken(srv);
    const saved = await api(srv, admin, '/api/sensitive/agent/save', { word: '赌博', action: 'block' });
    expect(saved.json, JSON.stringify(saved.json)).toMatchObject({ success: true });
    const { agent, v, sid } = await chat(srv);
    const atVisitor = collect<MessageDto>(v.s, 'message');
    const r = await call<MessageDto>(agent.sock, 'message', {
      touser: v.userid,
      agentserviceid: sid,
      clientId: 'a-block-1',
      message: '来 赌-博 吧',
    });
    expect(r).toMatchObject({ success: false, key: 'sensitive_blocked', fields: { words: '赌博' } });
    ok(
      await call<MessageDto>(agent.sock, 'message', {
        touser: v.userid,
        agentserviceid: sid,
        clientId: 'a-block-2',
        message: '您好',
      }),
    );
    await until(() => atVisitor.length === 1);
    expect(atVisitor[0]!.message).toBe('您好');
    expect((await messagesOf(srv, sid)).map((m) => m.message)).toEqual(['您好']);
    const hits = await api<Page<SensitiveHitDto>>(srv, admin, '/api/sensitive/hits?action=block');
    expect(hits.json.data.list).toMatchObject([
      { side: 'agent', messageid: '', words: ['赌博'], agentserviceid: sid },
    ]);
    // A visitor's block word is refused too, without naming the words.
    await api(srv, admin, '/api/sensitive/user/save', { word: '赌博', action: 'block' });
    const vr = await call<MessageDto>(v.s, 'message', { clientId: 'v-block-1', message: '赌博' });
    expect(vr).toMatchObject({ success: false, key: 'sensitive_blocked' });
    expect(vr.success ? undefined : vr.fields).toBeUndefined();
  });

  it('an alert word is delivered unchanged and flagged to the agents following the chat', async () => {
    const srv = await startLive();
    servers.push(srv);
    const admin = await adminToken(srv);
    await api(srv, admin, '/api/sensitive/user/save', { word: '投诉', action: 'alert' });
    const { agent, v, sid } = await chat(srv);
    const notice = next<NoticeDto>(agent.sock, 'notice');
    const m = ok(await call<MessageDto>(v.s, 'message', { clientId: 'v-alert-1', message: '我要投诉你们' }));
    expect(m.message).toBe('我要投诉你们');
    expect(await notice).toMatchObject({ type: 'sensitive', agentserviceid: sid, id: m.id, message: '投诉' });
    const hits = await api<Page<SensitiveHitDto>>(srv, admin, '/api/sensitive/hits?action=alert');
    expect(hits.json.data.list).toMatchObject([{ messageid: m.id, side: 'user', words: ['投诉'] }]);
    // A resend of the same message (same clientId) is not flagged twice.
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'v-alert-1', message: '我要投诉你们' }));
    expect((await api<Page<SensitiveHitDto>>(srv, admin, '/api/sensitive/hits')).json.data.total).toBe(1);
  });
});

describe.skipIf(!PG || !REDIS)('two nodes: a list change on one is applied by the other', () => {
  it('a word added through node A masks a visitor message handled by node B', async () => {
    const tdbA = await createTestDb({ redisUrl: REDIS });
    const dbB = openDatabase(tdbA.config);
    const tdbB: TestDb = { db: dbB, config: tdbA.config, drop: async () => undefined };
    extraDbs.push(tdbB);
    const a = await startLive(tdbA);
    servers.push(a);
    const b = await startLive(tdbB);
    servers.push(b);
    const appid = await addAccessPoint(tdbA);
    await socketAgent(b, sockets);
    const v = await visitorReady(b.url, appid);
    sockets.push(v.s);
    ok(await call<VisitorNewResult>(v.s, 'new'));
    // Node B builds its (empty) lists with the first message.
    expect(
      ok(await call<MessageDto>(v.s, 'message', { clientId: 'node-b-first', message: '代开发票' })).message,
    ).toBe('代开发票');
    const admin = await adminToken(a);
    expect((await api(a, admin, '/api/sensitive/user/save', { word: '代开发票' })).json.success).toBe(true);
    let last = '';
    await until(async () => {
      const id = `node-b-${Math.random().toString(36).slice(2, 10)}`;
      last = ok(await call<MessageDto>(v.s, 'message', { clientId: id, message: '代开发票' })).message;
      return last === '＊＊＊＊';
    }, 5_000);
    expect(last).toBe('＊＊＊＊');
  });
});
