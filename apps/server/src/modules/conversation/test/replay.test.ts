import { describe, expect, it } from 'vitest';
import { REPLAY_PAGE_SIZE, type MessageDto, type VisitorNewResult } from '@kefu/protocol';
import { perTest } from '../../../../test/factories.js';
import { insertUser } from '../../../../test/harness.js';
import {
  addAccessPoint,
  agentSocket,
  call,
  collect,
  connected,
  ok,
  socketAgent,
  until,
  visitorReady,
  visitorSocket,
  type AgentClient,
  type LiveServer,
  type VisitorClient,
} from '../../../../test/live.js';
import { trackSide } from '../../../../test/resume-client.js';
import { issueToken } from '../../../platform/auth/tokens.js';

const MISSED = 1_500;
const t = perTest();

async function chat(srv: LiveServer) {
  const appid = await addAccessPoint(srv.tdb);
  const agent = await socketAgent(srv, t.sockets);
  const v = await visitorReady(srv.url, appid);
  t.sockets.push(v.s);
  const sid = ok(await call<VisitorNewResult>(v.s, 'new')).agentserviceid;
  return { appid, agent, v, sid };
}

/** `n` messages from one side, 50 in flight at a time (acks come in order). */
async function sendMany(s: AgentClient | VisitorClient, n: number, extra: Record<string, unknown> = {}) {
  for (let i = 0; i < n; i += 50) {
    const burst = [];
    for (let j = i; j < Math.min(n, i + 50); j++)
      burst.push(
        call<MessageDto>(s, 'message', {
          ...extra,
          clientId: `bulk-${j}-${extra.touser ? 'a' : 'v'}`,
          message: `m${j}`,
        }),
      );
    for (const r of await Promise.all(burst)) ok(r);
  }
}

const seqs = (list: MessageDto[]) => list.map((m) => m.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('replay of missed messages', () => {
  it(`a reconnecting visitor and agent each get all ${MISSED} messages they missed, in order`, async () => {
    const srv = await t.live();
    const { appid, agent, v, sid } = await chat(srv);
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'first-v-1', message: 'hello' }));
    v.s.disconnect();
    await sendMany(agent.sock, MISSED, { touser: v.userid, agentserviceid: sid });
    const back = visitorSocket(srv.url, appid, v.userid, { token: v.token, lastSeq: '1' });
    t.sockets.push(back);
    const gotV = collect<MessageDto>(back, 'message');
    await connected(back);
    await until(() => gotV.length >= MISSED, 20_000);
    expect(seqs(gotV)).toEqual(range(2, MISSED + 1));

    agent.sock.disconnect();
    await sendMany(back, MISSED);
    const again = agentSocket(srv.url, agent.token, { lastSeqs: JSON.stringify({ [sid]: MISSED + 1 }) });
    t.sockets.push(again);
    const gotA = collect<MessageDto>(again, 'message');
    await connected(again);
    await until(() => gotA.length >= MISSED, 20_000);
    expect(seqs(gotA)).toEqual(range(MISSED + 2, 2 * MISSED + 1));
    await new Promise((r) => setTimeout(r, 100));
    expect(gotA.length).toBe(MISSED);
  });

  it(`\`replay\` pages by ${REPLAY_PAGE_SIZE}: the clients' CatchUp brings back ${MISSED} messages on both sides`, async () => {
    const srv = await t.live();
    const { agent, v, sid } = await chat(srv);
    const atAgent = trackSide(agent.sock, sid);
    const atVisitor = trackSide(v.s, sid);
    await sendMany(v.s, MISSED);
    await until(() => atAgent.messages().length === MISSED, 20_000);
    // the visitor's own messages came as acks it did not keep here: it holds nothing
    expect(atVisitor.sync.position(sid)).toBe(0);
    await atVisitor.sync.catchUp(sid);
    expect(seqs(atVisitor.messages())).toEqual(range(1, MISSED));
    expect(atVisitor.wire.replayed).toBe(MISSED);

    // a second agent tab that holds nothing pages through the whole conversation
    const sparse = agentSocket(srv.url, agent.token);
    t.sockets.push(sparse);
    await connected(sparse);
    const fresh = trackSide(sparse, sid);
    expect(fresh.sync.position(sid)).toBe(0);
    await fresh.sync.catchUp(sid);
    expect(seqs(fresh.messages())).toEqual(range(1, MISSED));
    expect(fresh.wire.replayed).toBe(MISSED);
  });

  it('a hole seen while connected is fetched', async () => {
    const srv = await t.live();
    const { agent, v, sid } = await chat(srv);
    const atVisitor = trackSide(v.s, sid);
    await atVisitor.send({ clientId: 'hole-v-1', message: 'one' });
    // two agent lines lost on their way to the visitor
    atVisitor.lose(2);
    for (const i of [2, 3])
      ok(
        await call(agent.sock, 'message', {
          touser: v.userid,
          agentserviceid: sid,
          clientId: `hole-a-${i}`,
          message: `a${i}`,
        }),
      );
    await until(() => atVisitor.wire.lost === 2);
    await atVisitor.send({ clientId: 'hole-v-4', message: 'four' });
    // the hole is fetched after the grace time, not at once
    expect(seqs(atVisitor.messages())).toEqual([1, 4]);
    await until(() => atVisitor.messages().length === 4, 3_000);
    expect(seqs(atVisitor.messages())).toEqual([1, 2, 3, 4]);
    expect(atVisitor.wire.replayed).toBe(2);
  });

  it('refuses a bad payload, a conversation not followed, a caller without A01 and another visitor', async () => {
    const srv = await t.live();
    const { appid, agent, v, sid } = await chat(srv);
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'refuse-v-1', message: 'hi' }));
    const bad = await call(agent.sock, 'replay', { agentserviceid: sid, after: -1 });
    expect(bad).toMatchObject({ success: false, key: 'invalid_field', code: 400 });
    expect(
      await call(agent.sock, 'replay', { agentserviceid: sid, after: 0, ps: REPLAY_PAGE_SIZE + 1 }),
    ).toMatchObject({
      success: false,
      key: 'invalid_field',
    });
    expect(await call(v.s, 'replay', { after: 1.5 })).toMatchObject({ success: false, key: 'invalid_field' });

    const other = await socketAgent(srv, t.sockets, { ready: false });
    expect(await call(other.sock, 'replay', { agentserviceid: sid, after: 0 })).toMatchObject({
      success: false,
      key: 'not_conversation_owner',
      code: 403,
    });
    expect(await call(other.sock, 'replay', { agentserviceid: 'nosuch', after: 0 })).toMatchObject({
      success: false,
      key: 'conversation_not_found',
    });

    // a user without the chat code (A01): refused at connect, or by the event itself
    const plain = await insertUser(srv.tdb.db);
    const plainSock = agentSocket(srv.url, await issueToken(srv.tdb.db.kysely, plain.id, 'kefu', 60_000));
    t.sockets.push(plainSock);
    const noCode = await connected(plainSock).then(
      () => call(plainSock, 'replay', { agentserviceid: sid, after: 0 }),
      (err: Error & { data?: { code?: number } }) => ({ success: false, code: err.data?.code }),
    );
    expect(noCode).toMatchObject({ success: false, code: 403 });

    const stranger = await visitorReady(srv.url, appid);
    t.sockets.push(stranger.s);
    expect(await call(stranger.s, 'replay', { agentserviceid: sid, after: 0 })).toMatchObject({
      success: false,
      key: 'conversation_not_found',
      code: 404,
    });
    expect(await call(stranger.s, 'replay', { after: 0 })).toMatchObject({
      success: false,
      key: 'conversation_not_found',
    });
    // the owner and its visitor may
    expect(
      ok(await call<{ list: MessageDto[] }>(agent.sock, 'replay', { agentserviceid: sid, after: 0 })).list
        .length,
    ).toBe(1);
    expect(ok(await call<{ list: MessageDto[] }>(v.s, 'replay', { after: 0 })).list.length).toBe(1);
  });
});
