import { describe, expect, it } from 'vitest';
import type { MessageDto } from '@kefu/protocol';
import { next, socketAgent, until, type LiveServer } from '../../../../test/live.js';
import { PNG } from '../../media/media-fixtures.js';
import { engineOf } from '../../conversation/index.js';
import { channelRuntimeOf } from '../index.js';
import {
  addKfApp,
  replier,
  perTestWithFake,
  type FakePlatform,
  agentSendsImage,
  expectUploaded,
  rowCount,
} from './fixtures.js';

const { pt, startFake } = perTestWithFake();

async function setup() {
  const f = await startFake();
  const srv = await pt.live(undefined, { channelBases: f.bases });
  const kf = await addKfApp(srv.tdb.db, srv.url, f.wecom);
  return { srv, f, kf };
}

const idle = (srv: LiveServer) => channelRuntimeOf(srv.app)!.idle();
const count = rowCount;
const inCount = async (srv: LiveServer) =>
  (await srv.tdb.db.kysely.selectFrom('chat_message').select('id').where('calltype', '=', 'in').execute())
    .length;

/** A customer with an open conversation served by a connected agent. */
async function chatting(srv: LiveServer, f: FakePlatform, kfid: string, user = 'wmUser000001') {
  const agent = await socketAgent(srv, pt.sockets);
  const arrived = next<MessageDto>(agent.sock, 'message');
  await f.wecom.customerSays(kfid, user, { text: 'hi' });
  const m = await arrived;
  await until(() => f.wecom.sent.length >= 1);
  return { agent, m, ...replier(agent.sock, m) };
}

describe('WeChat KF: bad input is logged, answered as the platform expects, stored once', () => {
  it('a bad signature: 403, never parsed, nothing stored, no pull', async () => {
    const { srv, f, kf } = await setup();
    await f.wecom.customerSays(kf.kfid, 'wmUser000001', { text: 'x' }, { push: false });
    const d = await f.wecom.pushEvent(kf.kfid, 0, (p) => {
      p.url = p.url.replace(
        /msg_signature=([0-9a-f])/,
        (_, c: string) => `msg_signature=${c === '0' ? '1' : '0'}`,
      );
    });
    expect(d.status).toBe(403);
    expect(d.attempts).toBe(3);
    expect(await count(srv, 'channel_inbound')).toBe(0);
    expect(f.server.callsTo('kf/sync_msg')).toHaveLength(0);
  });

  it('truncated XML: 400 and nothing stored; an unknown app: 404', async () => {
    const { srv, kf } = await setup();
    const res = await fetch(`${srv.url}/webhook/wechat/${kf.appid}?msg_signature=x&timestamp=1&nonce=2`, {
      method: 'POST',
      body: '<xml><ToUserName><![CDATA[ww]]></ToUserName><Encrypt><![CDATA[abc',
      headers: { 'content-type': 'text/xml' },
    });
    expect(res.status).toBe(400);
    const unknown = await fetch(`${srv.url}/webhook/wechat/nope?msg_signature=x`, {
      method: 'POST',
      body: '<xml/>',
    });
    expect(unknown.status).toBe(404);
    expect(await count(srv, 'channel_inbound')).toBe(0);
  });

  it('a replayed push and repeated pushes: one message', async () => {
    const { srv, f, kf } = await setup();
    await f.wecom.customerSays(kf.kfid, 'wmUser000001', { text: 'once' }, { duplicates: 3 });
    await until(async () => (await idle(srv), (await inCount(srv)) === 1));
    await f.wecom.pushEvent(kf.kfid);
    await idle(srv);
    expect(await inCount(srv)).toBe(1);
    expect(await count(srv, 'channel_inbound')).toBe(1);
  });

  it('an unknown account and an unknown event are ignored with the reason; a 64-bit msgid is kept exactly', async () => {
    const { srv, f, kf } = await setup();
    f.wecom.numericIds = true;
    const stranger = f.wecom.addAccount('别人的');
    const a = await f.wecom.customerSays(stranger, 'wmUser000001', { text: 'x' });
    const b = await f.wecom.customerSays(kf.kfid, 'wmUser000001', {
      event: { event_type: 'brand_new_event' },
    });
    const c = await f.wecom.customerSays(kf.kfid, 'wmUser000001', { text: 'exact' });
    expect(BigInt(c.msgid) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    await until(async () => (await idle(srv), (await count(srv, 'channel_inbound')) === 3));
    await idle(srv);
    const rows = await srv.tdb.db.kysely
      .selectFrom('channel_inbound')
      .select(['msgkey', 'status', 'detail'])
      .execute();
    const by = (id: string) => rows.find((r) => r.msgkey === id);
    expect(by(a.msgid)).toMatchObject({ status: 'ignored', detail: `unknown account ${stranger}` });
    expect(by(b.msgid)).toMatchObject({ status: 'ignored', detail: 'event brand_new_event' });
    expect(by(c.msgid)).toMatchObject({ status: 'done' });
    expect(await count(srv, 'agent_service')).toBe(1);
  });
});

describe('WeChat KF: what sync_msg returns, by origin', () => {
  it('a customer line (origin 3) is a message; a servicer line sent from WeCom (origin 5) is an echo, ignored', async () => {
    const { srv, f, kf } = await setup();
    const echo = await f.wecom.customerSays(
      kf.kfid,
      'wmUser000009',
      { text: '企业微信里回复的' },
      { origin: 5 },
    );
    const said = await f.wecom.customerSays(kf.kfid, 'wmUser000009', { text: '客户说的' });
    await until(async () => (await idle(srv), (await count(srv, 'channel_inbound')) === 2));
    await idle(srv);
    const rows = await srv.tdb.db.kysely.selectFrom('channel_inbound').select(['msgkey', 'status']).execute();
    expect(rows.find((r) => r.msgkey === echo.msgid)?.status).toBe('ignored');
    expect(rows.find((r) => r.msgkey === said.msgid)?.status).toBe('done');
    const lines = await srv.tdb.db.kysely
      .selectFrom('chat_message')
      .select('message')
      .where('calltype', '=', 'in')
      .execute();
    expect(lines.map((l) => l.message)).toEqual(['客户说的']);
  });
});

describe('WeChat KF: pulls and sends that fail', () => {
  it('a pull that breaks after its first page resumes at the stored cursor: each message once, in order', async () => {
    const { srv, f, kf } = await setup();
    f.wecom.pageSize = 1;
    for (const t of ['一', '二', '三'])
      await f.wecom.customerSays(kf.kfid, 'wmUser000001', { text: t }, { push: false });
    f.server.inject({ path: 'kf/sync_msg', errcode: -1, times: 1, after: 1 });
    await f.wecom.pushEvent(kf.kfid);
    await until(async () => (await idle(srv), (await inCount(srv)) === 1));
    const cursor = await srv.tdb.db.kysely
      .selectFrom('channel_cursor')
      .select('cursor')
      .executeTakeFirstOrThrow();
    expect(Buffer.from(cursor.cursor, 'base64url').toString()).toBe('1');
    await f.wecom.pushEvent(kf.kfid);
    await until(async () => (await idle(srv), (await inCount(srv)) === 3));
    const msgs = await srv.tdb.db.kysely
      .selectFrom('chat_message')
      .select('message')
      .where('calltype', '=', 'in')
      .orderBy('seq')
      .execute();
    expect(msgs.map((m) => m.message)).toEqual(['一', '二', '三']);
  });

  it('a 5xx or truncated answer is retried after the back-off; the message then arrives once', async () => {
    const { srv, f, kf } = await setup();
    const { say } = await chatting(srv, f, kf.kfid);
    f.server.inject({ path: 'kf/send_msg', status: 502, times: 1 });
    f.server.inject({ path: 'kf/send_msg', truncate: true, times: 1 });
    const m = await say('稍后到达');
    await until(async () => (await idle(srv), f.server.callsTo('kf/send_msg').length >= 2));
    const row = await srv.tdb.db.kysely
      .selectFrom('channel_outbox')
      .selectAll()
      .where('id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    await srv.clock.advance(1_100);
    await until(async () => (await idle(srv), f.server.callsTo('kf/send_msg').length >= 3));
    await srv.clock.advance(2_100);
    await until(() => f.wecom.sent.some((s) => s.msgid === m.id));
    expect(f.wecom.sent.filter((s) => s.msgid === m.id)).toHaveLength(1);
  });

  it('session state 3 (a WeCom servicer took it): 95018 → channel_session_invalid on the message', async () => {
    const { srv, f, kf } = await setup();
    const { say, delivery } = await chatting(srv, f, kf.kfid);
    f.wecom.session(kf.kfid, 'wmUser000001').state = 3;
    const m = await say('不会到达');
    expect(await delivery(m.id)).toMatchObject({ state: 'failed', error: 'channel_session_invalid' });
    void srv;
  });

  it('48 h after the user last wrote: channel_window_closed, without asking the platform', async () => {
    const { srv, f, kf } = await setup();
    const { say, delivery, m: first } = await chatting(srv, f, kf.kfid);
    await srv.tdb.db.kysely
      .updateTable('channel_user')
      .set({ lastin: srv.clock.now() - 49 * 3_600_000 })
      .where('id', '=', first.usession)
      .execute();
    const calls = f.server.callsTo('kf/send_msg').length;
    const m = await say('太晚了');
    expect(await delivery(m.id)).toMatchObject({ state: 'failed', error: 'channel_window_closed' });
    expect(f.server.callsTo('kf/send_msg')).toHaveLength(calls);
  });

  it('media both ways: a customer image reaches the agent as an image; an agent image is uploaded (field media, filename) and sent by media_id', async () => {
    const { srv, f, kf } = await setup();
    const { agent, say, delivery } = await chatting(srv, f, kf.kfid);
    const got = next<MessageDto>(agent.sock, 'message');
    await f.wecom.customerSays(kf.kfid, 'wmUser000001', {
      msgtype: 'image',
      media: { data: PNG, filename: 'a.png' },
    });
    const img = await got;
    expect(img).toMatchObject({ msgtype: 'image', calltype: 'in' });
    expect(img.attachmentid).toBeTruthy();
    const m = await agentSendsImage(srv, agent.token, say);
    expect(await delivery(m.id)).toMatchObject({ state: 'sent' });
    const sent = f.wecom.sent.find((s) => s.msgid === m.id)!;
    expect(sent.msgtype).toBe('image');
    expectUploaded(f.wecom.media, sent.body.media_id);
  });

  it('a line committed but never queued (the node stopped) is sent by the sweep', async () => {
    const { srv, f, kf } = await setup();
    const { say } = await chatting(srv, f, kf.kfid);
    const e = engineOf(srv.app)!;
    const sink = e.platform;
    e.platform = undefined;
    const m = await say('补发');
    e.platform = sink;
    await idle(srv);
    expect(f.wecom.sent.some((s) => s.msgid === m.id)).toBe(false);
    await srv.clock.advance(15_000);
    await until(async () => (await idle(srv), f.wecom.sent.some((s) => s.msgid === m.id)));
  });
});
