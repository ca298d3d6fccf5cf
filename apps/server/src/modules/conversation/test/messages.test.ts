import { afterEach, describe, expect, it } from 'vitest';
import type { AgentUserDto, MessageDto, VisitorNewResult } from '@kefu/protocol';
import {
  addAccessPoint,
  addAgent,
  agentSocket,
  api,
  call,
  collect,
  connected,
  next,
  ok,
  startLive,
  until,
  visitorReady,
  visitorSocket,
  vid,
  type LiveServer,
} from '../../../../test/live.js';
import { insertUser } from '../../../../test/harness.js';
import { issueToken } from '../../../platform/auth/tokens.js';

let servers: LiveServer[] = [];
const sockets: Array<{ disconnect(): unknown }> = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.disconnect());
  for (const s of servers) await s.stop();
  await servers[0]?.tdb.drop();
  servers = [];
});

async function chat(srv: LiveServer) {
  const appid = await addAccessPoint(srv.tdb);
  const agent = await addAgent(srv.tdb);
  const as = agentSocket(srv.url, agent.token);
  sockets.push(as);
  await connected(as);
  ok(await call(as, 'agentstatus', { status: 'ready' }));
  const v = await visitorReady(srv.url, appid);
  sockets.push(v.s);
  const r = ok(await call<VisitorNewResult>(v.s, 'new'));
  return { appid, agent, as, v, sid: r.agentserviceid };
}

describe('messages', () => {
  it("a visitor's other tabs get what one tab sent; the sending tab only its ack", async () => {
    const srv = await startLive();
    servers.push(srv);
    const { appid, as, v } = await chat(srv);
    const second = await visitorReady(srv.url, appid, v.userid, { token: v.token });
    sockets.push(second.s);
    const atFirst = collect<MessageDto>(v.s, 'message');
    const atSecond = collect<MessageDto>(second.s, 'message');
    const atAgent = collect<MessageDto>(as, 'message');
    const m = ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-tabs-1', message: 'from tab 1' }));
    await until(() => atSecond.length === 1 && atAgent.length === 1);
    expect(atSecond[0]!.id).toBe(m.id);
    expect(atFirst).toEqual([]);
    second.s.disconnect();
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-tabs-2', message: 'alone again' }));
    await until(() => atAgent.length === 2);
    expect(atFirst).toEqual([]);
    expect(atSecond.length).toBe(1);
  });

  it('delivers both ways with seq, resends idempotently, refuses bad payloads', async () => {
    const srv = await startLive();
    servers.push(srv);
    const { agent, as, v, sid } = await chat(srv);
    const atAgent = collect<MessageDto>(as, 'message');
    const atVisitor = collect<MessageDto>(v.s, 'message');
    const m1 = ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-visitor-1', message: 'hello' }));
    expect(m1.seq).toBe(1);
    expect(m1.calltype).toBe('in');
    const again = ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-visitor-1', message: 'hello' }));
    expect(again.id).toBe(m1.id);
    const m2 = ok(
      await call<MessageDto>(as, 'message', {
        touser: v.userid,
        clientId: 'c-agent-1',
        message: 'hi',
        msgtype: 'text',
      }),
    );
    expect(m2.seq).toBe(2);
    await until(() => atAgent.length === 1 && atVisitor.length === 1);
    expect(atAgent[0]?.tokenum).toBe(1);
    expect(atVisitor[0]?.id).toBe(m2.id);
    for (const bad of [
      {},
      { clientId: 'c-x-0001', message: '' },
      { clientId: 'short', message: 'x' },
      { clientId: 'c-x-0002', message: 'x', msgtype: 'nope' },
      { clientId: 'c-x-0003', message: 'x'.repeat(6000) },
    ]) {
      const r = await call(v.s, 'message', bad);
      expect(r.success).toBe(false);
      if (!r.success) expect(r.code).toBe(400);
    }
    const badAgent = await call(as, 'message', { touser: v.userid, message: 'no client id' });
    expect(badAgent.success).toBe(false);
    const count = await srv.tdb.db.kysely
      .selectFrom('chat_message')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('agentserviceid', '=', sid)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
    // the conversation's counters moved with the inserts (the resend moved nothing)
    const counters = await srv.tdb.db.kysely
      .selectFrom('agent_service')
      .select(['lastseq', 'userasks', 'agentreplys', 'firstreplytime', 'lastmessage', 'lastgetmessage'])
      .where('id', '=', sid)
      .executeTakeFirstOrThrow();
    expect(counters).toMatchObject({ lastseq: 2, userasks: 1, agentreplys: 1 });
    expect(counters.firstreplytime).toBe(m2.createtime);
    expect(counters.lastmessage).toBe(m1.createtime);
    expect(counters.lastgetmessage).toBe(m2.createtime);
    const entry = await srv.tdb.db.kysely
      .selectFrom('agent_user')
      .select(['tokenum', 'lastmsg'])
      .where('agentserviceid', '=', sid)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ tokenum: 1, lastmsg: 'hi' });
    // writing both ways
    const writing = next<{ message: string }>(v.s, 'writing');
    ok(await call(as, 'message', { touser: v.userid, type: 'writing', message: 'typ' }));
    expect((await writing).message).toBe('typ');
    const notice = next<{ type: string }>(as, 'notice');
    v.s.emit('writing', { message: 'abc' });
    expect((await notice).type).toBe('writing');
    // history paging by seq (keyset)
    const page = await api<{ list: MessageDto[]; hasMore: boolean }>(
      srv,
      agent.token,
      `/api/talk/chatMessage?agentserviceid=${sid}&ps=1`,
    );
    expect(page.json.data.list.map((m) => m.seq)).toEqual([2]);
    expect(page.json.data.hasMore).toBe(true);
    const older = await api<{ list: MessageDto[]; hasMore: boolean }>(
      srv,
      agent.token,
      `/api/talk/chatMessage?agentserviceid=${sid}&ps=1&before=2`,
    );
    expect(older.json.data.list.map((m) => m.seq)).toEqual([1]);
    expect(older.json.data.hasMore).toBe(false);
    const anon = await api(srv, '', `/api/talk/chatMessage?agentserviceid=${sid}`);
    expect(anon.status).toBe(401);
  });

  it('chatMessage: owner, collaborator, former owner (transfer) and monitor read; others do not', async () => {
    const srv = await startLive();
    servers.push(srv);
    const { agent, as, v, sid } = await chat(srv);
    for (let i = 1; i <= 3; i++)
      ok(await call<MessageDto>(v.s, 'message', { clientId: `c-access-${i}`, message: `m${i}` }));
    ok(await call<MessageDto>(as, 'message', { touser: v.userid, clientId: 'c-access-a', message: 'a' }));
    type Page = { list: MessageDto[]; hasMore: boolean; agentserviceid: string };
    const page = (token: string, q: string) => api<Page>(srv, token, `/api/talk/chatMessage?${q}`);
    const seqs = (r: { json: { data: Page } }) => r.json.data.list.map((m) => m.seq);

    const newest = await page(agent.token, `agentserviceid=${sid}&ps=2`);
    expect(seqs(newest)).toEqual([3, 4]);
    expect(newest.json.data).toMatchObject({ hasMore: true, agentserviceid: sid });
    expect(newest.json.data.list[1]).toMatchObject({ message: 'a', calltype: 'out', userid: agent.id });
    expect(seqs(await page(agent.token, `agentserviceid=${sid}&ps=2&before=3`))).toEqual([1, 2]);
    const after = await page(agent.token, `agentserviceid=${sid}&ps=2&after=1`);
    expect(seqs(after)).toEqual([2, 3]);
    expect(after.json.data.hasMore).toBe(true);
    const none = await page(agent.token, `agentserviceid=${sid}&ps=2&before=1`);
    expect(none.status).toBe(200);
    expect(none.json.data).toEqual({ list: [], hasMore: false, agentserviceid: sid });
    expect(seqs(await page(agent.token, `userid=${v.userid}&ps=10`))).toEqual([1, 2, 3, 4]);

    const stranger = await addAgent(srv.tdb);
    for (const q of [
      `agentserviceid=${sid}`,
      `agentserviceid=${sid}&before=1`,
      `agentserviceid=${sid}&after=1`,
    ]) {
      const r = await page(stranger.token, q);
      expect(r.status).toBe(403);
      expect(r.json.key).toBe('not_conversation_owner');
    }
    const missing = await page(agent.token, 'agentserviceid=nope');
    expect(missing.status).toBe(404);
    expect(missing.json.key).toBe('conversation_not_found');

    const k = srv.tdb.db.kysely;
    const collaborator = await addAgent(srv.tdb);
    await k
      .insertInto('agent_collaborator')
      .values({
        agentserviceid: sid,
        userid: collaborator.id,
        orgi: 'kefu',
        inviter: agent.id,
        createtime: 1,
      })
      .execute();
    expect(seqs(await page(collaborator.token, `agentserviceid=${sid}&ps=2`))).toEqual([3, 4]);
    const former = await addAgent(srv.tdb);
    await k
      .insertInto('transfer_request')
      .values({
        id: vid(),
        orgi: 'kefu',
        agentserviceid: sid,
        agentuserid: vid(),
        from_agent: former.id,
        to_agent: agent.id,
        status: 'accepted',
        createtime: 1,
        expires: 2,
      })
      .execute();
    expect(seqs(await page(former.token, `agentserviceid=${sid}&ps=2&after=2`))).toEqual([3, 4]);
    const admin = await insertUser(srv.tdb.db, { usertype: '0' });
    const adminToken = await issueToken(k, admin.id, 'kefu', 3_600_000);
    expect(seqs(await page(adminToken, `agentserviceid=${sid}&ps=1`))).toEqual([4]);
    const otherOrg = await insertUser(srv.tdb.db, { usertype: '0', orgi: 'other' });
    const otherToken = await issueToken(k, otherOrg.id, 'other', 3_600_000);
    const foreign = await page(otherToken, `agentserviceid=${sid}`);
    expect(foreign.status).toBe(404);
    expect(foreign.json.key).toBe('conversation_not_found');
  });

  it('withdraw: sender only, within 2 minutes, both sides told, original kept', async () => {
    const srv = await startLive();
    servers.push(srv);
    const { agent, as, v } = await chat(srv);
    const m = ok(
      await call<MessageDto>(as, 'message', { touser: v.userid, clientId: 'c-agent-w1', message: 'oops' }),
    );
    const vm = ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-vis-w1', message: 'mine' }));
    const notSender = await api(srv, agent.token, `/api/talk/withdraw?id=${vm.id}`);
    expect(notSender.json.key).toBe('withdraw_not_sender');
    const told = next<{ id: string }>(v.s, 'withdraw');
    const r = await api(srv, agent.token, `/api/talk/withdraw?id=${m.id}`);
    expect(r.json.success).toBe(true);
    expect((await told).id).toBe(m.id);
    const row = await srv.tdb.db.kysely
      .selectFrom('chat_message')
      .selectAll()
      .where('id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(row.withdrawn).toBe(1);
    expect(row.message).toBe('oops');
    const hist = await api<{ list: MessageDto[] }>(
      srv,
      agent.token,
      `/api/talk/chatMessage?agentserviceid=${m.agentserviceid}`,
    );
    expect(hist.json.data.list.find((x) => x.id === m.id)?.withdrawn).toBe(true);
    const late = ok(
      await call<MessageDto>(as, 'message', { touser: v.userid, clientId: 'c-agent-w2', message: 'late' }),
    );
    await srv.clock.advance(121_000);
    const tooLate = await api(srv, agent.token, `/api/talk/withdraw?id=${late.id}`);
    expect(tooLate.json.key).toBe('withdraw_expired');
  });

  it('reconnect with lastSeq receives exactly the missed messages; survives a server restart', async () => {
    const srv = await startLive();
    servers.push(srv);
    const { appid, agent, as, v, sid } = await chat(srv);
    ok(await call<MessageDto>(as, 'message', { touser: v.userid, clientId: 'c-a-0001', message: 'one' }));
    await until(
      async () =>
        (
          await srv.tdb.db.kysely
            .selectFrom('agent_service')
            .select('lastseq')
            .where('id', '=', sid)
            .executeTakeFirstOrThrow()
        ).lastseq === 1,
    );
    v.s.disconnect(); // the visitor drops mid-conversation
    const acked: MessageDto[] = [];
    for (let i = 2; i <= 5; i++)
      acked.push(
        ok(
          await call<MessageDto>(as, 'message', {
            touser: v.userid,
            clientId: `c-a-000${i}`,
            message: `m${i}`,
          }),
        ),
      );
    const back = visitorSocket(srv.url, appid, v.userid, { token: v.token, lastSeq: '1' });
    sockets.push(back);
    const got = collect<MessageDto>(back, 'message');
    await connected(back);
    await until(() => got.length >= 4);
    expect(got.map((m) => m.seq)).toEqual([2, 3, 4, 5]);
    // restart on the same database: acknowledged messages are all there, in order
    await srv.stop();
    const srv2 = await startLive(srv.tdb);
    servers = [srv2];
    const again = visitorSocket(srv2.url, appid, v.userid, { token: v.token, lastSeq: '0' });
    sockets.push(again);
    const all = collect<MessageDto>(again, 'message');
    await connected(again);
    await until(() => all.length >= 5);
    expect(all.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(all.map((m) => m.id)).size).toBe(5);
    // the agent catches up with lastSeqs too
    const as2 = agentSocket(srv2.url, agent.token, { lastSeqs: JSON.stringify({ [sid]: 3 }) });
    sockets.push(as2);
    const agentGot = collect<MessageDto>(as2, 'message');
    await connected(as2);
    await until(() => agentGot.length >= 2);
    expect(agentGot.map((m) => m.seq)).toEqual([4, 5]);
  });

  it('refuses a bad or revoked agent token and a wrong visitor credential', async () => {
    const srv = await startLive();
    servers.push(srv);
    const appid = await addAccessPoint(srv.tdb);
    const s = agentSocket(srv.url, 'nope');
    sockets.push(s);
    await expect(connected(s)).rejects.toThrow('not_logged_in');
    const agent = await addAgent(srv.tdb);
    await srv.tdb.db.kysely.updateTable('tokens').set({ revoked: 1 }).execute();
    const s2 = agentSocket(srv.url, agent.token);
    sockets.push(s2);
    await expect(connected(s2)).rejects.toThrow('token_expired');
    const v = await visitorReady(srv.url, appid);
    v.s.disconnect();
    const forged = visitorSocket(srv.url, appid, v.userid, { token: 'wrong' });
    sockets.push(forged);
    await expect(connected(forged)).rejects.toThrow('visitor_token');
    const unknownApp = visitorSocket(srv.url, 'nosuchapp', v.userid);
    sockets.push(unknownApp);
    await expect(connected(unknownApp)).rejects.toThrow('access_point_not_found');
  });

  it('a transfer, an invitation and an end on another instance are seen by the next message of a sending socket', async () => {
    // Two app instances on one database with no realtime link between them: instance A never hears about
    // what B does, so only the guarded write can keep A's per-socket conversation cache honest.
    const a = await startLive();
    const b = await startLive(a.tdb);
    servers.push(a, b);
    const { agent, as, v, sid } = await chat(a);
    const atOld = collect<MessageDto>(as, 'message');
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-xnode-1', message: 'one' }));
    ok(
      await call<MessageDto>(as, 'message', {
        touser: v.userid,
        agentserviceid: sid,
        clientId: 'c-xnode-r1',
        message: 'r',
      }),
    );
    await until(() => atOld.length === 1);
    // transfer to agent 2 on instance B
    const agent2 = await addAgent(a.tdb);
    const as2 = agentSocket(b.url, agent2.token);
    sockets.push(as2);
    await connected(as2);
    ok(await call(as2, 'agentstatus', { status: 'ready' }));
    const au = (await api<{ agentUserList: AgentUserDto[] }>(b, agent.token, '/api/talk/agentuser')).json.data
      .agentUserList[0]!;
    await api(b, agent.token, `/api/talk/transfer?agentuserid=${au.id}&agentno=${agent2.id}`);
    expect((await api(b, agent2.token, `/api/talk/transfer/accept?agentuserid=${au.id}`)).json.success).toBe(
      true,
    );
    const m2 = ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-xnode-2', message: 'two' }));
    expect(m2.touser).toBe(agent2.id);
    // the former owner's cached conversation is refused, nothing stored
    const refused = await call<MessageDto>(as, 'message', {
      touser: v.userid,
      agentserviceid: sid,
      clientId: 'c-xnode-r2',
      message: 'late',
    });
    expect(refused.success).toBe(false);
    // an invitation on B: the colleague on A gets the next visitor message
    const colleague = await addAgent(a.tdb);
    const cs = agentSocket(a.url, colleague.token);
    sockets.push(cs);
    await connected(cs);
    const atColleague = collect<MessageDto>(cs, 'message');
    ok((await api(b, agent2.token, '/api/talk/invite', { agentuserid: au.id, userid: colleague.id })).json);
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-xnode-3', message: 'three' }));
    await until(() => atColleague.some((m) => m.message === 'three'));
    // the colleague writes (its socket now caches the chat); the collaboration is removed elsewhere
    const byColleague = { touser: v.userid, agentserviceid: sid, message: 'c' };
    ok(await call<MessageDto>(cs, 'message', { ...byColleague, clientId: 'c-xnode-c1' }));
    await a.tdb.db.kysely.deleteFrom('agent_collaborator').where('agentserviceid', '=', sid).execute();
    const gone = await call<MessageDto>(cs, 'message', { ...byColleague, clientId: 'c-xnode-c2' });
    expect(gone).toMatchObject({ success: false, key: 'not_conversation_owner' });
    // an end on B: the visitor's next message is refused and takes no seq
    await api(b, agent2.token, `/api/talk/end?agentserviceid=${sid}`);
    const ended = await call<MessageDto>(v.s, 'message', { clientId: 'c-xnode-4', message: 'four' });
    expect(ended).toMatchObject({ success: false, key: 'conversation_ended' });
    await new Promise((r) => setTimeout(r, 50));
    expect(atOld.map((m) => m.message)).toEqual(['one']);
    const rows = await a.tdb.db.kysely
      .selectFrom('chat_message')
      .select(['seq', 'client_id', 'touser', 'calltype'])
      .where('agentserviceid', '=', sid)
      .orderBy('seq')
      .execute();
    const mine = rows.filter((r) => r.client_id.startsWith('c-xnode-'));
    expect(mine.map((r) => r.client_id)).toEqual([
      'c-xnode-1',
      'c-xnode-r1',
      'c-xnode-2',
      'c-xnode-3',
      'c-xnode-c1',
    ]);
    expect(mine.find((r) => r.client_id === 'c-xnode-2')?.touser).toBe(agent2.id);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
  });
});
