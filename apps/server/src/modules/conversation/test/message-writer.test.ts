import { afterEach, describe, expect, it } from 'vitest';
import type { MessageDto, VisitorNewResult } from '@kefu/protocol';
import {
  addAccessPoint,
  addAgent,
  agentSocket,
  call,
  connected,
  ok,
  startLive,
  visitorReady,
  type LiveServer,
} from '../../../../test/live.js';
import { engineOf } from '../index.js';
import { messageWriter, storeMessage, type NewMessage } from '../message.service.js';
import * as srepo from '../service.repository.js';

let servers: LiveServer[] = [];
const sockets: Array<{ disconnect(): unknown }> = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.disconnect());
  for (const s of servers) await s.stop();
  await servers[0]?.tdb.drop();
  servers = [];
});

async function chat() {
  const srv = await startLive();
  servers.push(srv);
  const appid = await addAccessPoint(srv.tdb);
  const agent = await addAgent(srv.tdb);
  const as = agentSocket(srv.url, agent.token);
  sockets.push(as);
  await connected(as);
  ok(await call(as, 'agentstatus', { status: 'ready' }));
  const v = await visitorReady(srv.url, appid);
  sockets.push(v.s);
  const sid = ok(await call<VisitorNewResult>(v.s, 'new')).agentserviceid;
  const e = engineOf(srv.app)!;
  const service = (await srepo.findService(srv.tdb.db.kysely, sid))!;
  const msg = (sender: string, clientId: string, text: string): NewMessage => ({
    service,
    sender,
    username: sender,
    touser: '',
    clientId,
    type: 'message',
    msgtype: 'text',
    calltype: sender === v.userid ? 'in' : 'out',
    message: text,
  });
  return { srv, e, sid, agent, as, v, msg };
}

const seqsOf = async (srv: LiveServer, sid: string) =>
  (
    await srv.tdb.db.kysely
      .selectFrom('chat_message')
      .select(['seq', 'message'])
      .where('agentserviceid', '=', sid)
      .orderBy('seq')
      .execute()
  ).map((r) => `${r.seq}:${r.message}`);

describe('message group commit', () => {
  it('stores concurrent sends in one transaction, exact seq in arrival order, a duplicate only fails itself', async () => {
    const { srv, e, sid, agent, v, msg } = await chat();
    const w = messageWriter(srv.tdb.db);
    const before = { ...w.stats };
    const sends = [
      msg(v.userid, 'c-batch-0001', 'v1'),
      msg(agent.id, 'c-batch-0002', 'a1'),
      msg(v.userid, 'c-batch-0003', 'v2'),
      msg(v.userid, 'c-batch-0001', 'v1 resent'), // duplicate inside the batch
      msg(agent.id, 'c-batch-0004', 'a2'),
      { ...msg(v.userid, 'c-batch-0005', 'gone'), service: { ...msg('', '', '').service, id: 'no-such' } },
      msg(v.userid, 'c-batch-0006', 'v3'),
    ];
    const results = await Promise.allSettled(sends.map((m) => storeMessage(e, m)));
    expect(w.stats.batches - before.batches).toBe(1);
    expect(w.stats.jobs - before.jobs).toBe(sends.length);
    if (srv.tdb.db.dialect === 'sqlite') {
      // Set-wise on SQLite: the duplicate's INSERT fails alone (statement abort), the rest commit.
      expect(w.stats.fallbacks - before.fallbacks).toBe(0);
      expect(w.stats.retries - before.retries).toBe(0);
    } else {
      // PostgreSQL aborts the whole transaction: job by job, then with savepoints.
      expect(w.stats.fallbacks - before.fallbacks).toBe(1);
      expect(w.stats.retries - before.retries).toBe(1);
    }
    const value = (i: number) => {
      const r = results[i];
      if (r.status !== 'fulfilled') throw new Error(`send ${i} failed: ${String(r.reason)}`);
      return r.value;
    };
    expect([0, 1, 2, 4, 6].map((i) => value(i).row.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(value(3).created).toBe(false);
    expect(value(3).row.id).toBe(value(0).row.id);
    expect(results[5].status).toBe('rejected');
    expect(await seqsOf(srv, sid)).toEqual(['1:v1', '2:a1', '3:v2', '4:a2', '5:v3']);
    const s = await srepo.findService(srv.tdb.db.kysely, sid);
    expect(s).toMatchObject({ lastseq: 5, userasks: 3, agentreplys: 2 });
    expect(value(6).tokenum).toBe(3);
  });

  it('settles only after the commit; a failed commit fails every send, stores nothing, and the next batch works', async () => {
    const { srv, e, sid, v, as, msg } = await chat();
    const w = messageWriter(srv.tdb.db);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let settled = 0;
    w.beforeCommit = () => gate;
    const p = [msg(v.userid, 'c-gate-0001', 'x'), msg(v.userid, 'c-gate-0002', 'y')].map((m) =>
      storeMessage(e, m).finally(() => settled++),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(0);
    release();
    expect((await Promise.all(p)).map((r) => r.row.seq)).toEqual([1, 2]);

    w.beforeCommit = () => Promise.reject(new Error('commit failed'));
    const failing = await Promise.allSettled([
      storeMessage(e, msg(v.userid, 'c-fail-0001', 'lost 1')),
      storeMessage(e, msg(v.userid, 'c-fail-0002', 'lost 2')),
    ]);
    expect(failing.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    // Over the socket the sender gets the error envelope, never a success for unstored data.
    const viaSocket = await call<MessageDto>(v.s, 'message', { clientId: 'c-fail-0003', message: 'lost 3' });
    expect(viaSocket.success).toBe(false);
    if (!viaSocket.success) expect(viaSocket.key).toBe('server_error');
    w.beforeCommit = null;
    expect(await seqsOf(srv, sid)).toEqual(['1:x', '2:y']);
    const m3 = ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-fail-0003', message: 'kept' }));
    expect(m3.seq).toBe(3);
    const [a, b] = await Promise.all([
      call<MessageDto>(as, 'message', { touser: v.userid, clientId: 'c-both-0001', message: 'a' }),
      call<MessageDto>(v.s, 'message', { clientId: 'c-both-0002', message: 'b' }),
    ]);
    expect([ok(a).seq, ok(b).seq].sort()).toEqual([4, 5]);
    expect((await seqsOf(srv, sid)).length).toBe(5);
  });

  it('writes a batch set-wise: one update per conversation, counters and unread counts as message by message', async () => {
    const one = await chat();
    const { srv, e, agent, v, msg } = one;
    // A second chat on the same server, with the same agent.
    const v2 = await visitorReady(srv.url, await addAccessPoint(srv.tdb));
    sockets.push(v2.s);
    const sid2 = ok(await call<VisitorNewResult>(v2.s, 'new')).agentserviceid;
    const service2 = (await srepo.findService(srv.tdb.db.kysely, sid2))!;
    const w = messageWriter(srv.tdb.db);
    const before = { ...w.stats };
    const sends: NewMessage[] = [];
    for (let i = 0; i < 6; i++) {
      sends.push(msg(v.userid, `c-set-a${i}`, `a${i}`));
      sends.push({ ...msg(v2.userid, `c-set-b${i}`, `b${i}`), service: service2, calltype: 'in' });
      if (i % 3 === 2) sends.push(msg(agent.id, `c-set-r${i}`, `reply ${i}`));
    }
    const stored = await Promise.all(sends.map((m) => storeMessage(e, m)));
    expect(w.stats.batches - before.batches).toBe(1);
    expect(w.stats.fallbacks - before.fallbacks).toBe(0);
    const first = stored.filter((r) => r.row.agentserviceid === one.sid);
    expect(first.map((r) => r.row.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Unread count as it stood after each message: replies do not add to it.
    expect(first.map((r) => r.tokenum)).toEqual([1, 2, 3, 3, 4, 5, 6, 6]);
    const second = stored.filter((r) => r.row.agentserviceid === sid2);
    expect(second.map((r) => r.tokenum)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(stored.every((r) => r.live?.agentno === agent.id)).toBe(true);
    const k = srv.tdb.db.kysely;
    const s1 = await srepo.findService(k, one.sid);
    expect(s1).toMatchObject({ lastseq: 8, userasks: 6, agentreplys: 2, idle_warned: 0 });
    expect(s1?.firstreplytime).toBe(stored[3]!.row.createtime);
    expect(await srepo.findService(k, sid2)).toMatchObject({
      lastseq: 6,
      userasks: 6,
      agentreplys: 0,
    });
    const entry = await srepo.agentUserOfService(k, one.sid);
    expect(entry).toMatchObject({ tokenum: 6, lastmsg: 'reply 5' });
    expect(await seqsOf(srv, sid2)).toEqual(['1:b0', '2:b1', '3:b2', '4:b3', '5:b4', '6:b5']);
  });

  it('a guard that fails inside a batch refuses only that message', async () => {
    const { srv, e, sid, agent, v, msg } = await chat();
    const stranger = await addAgent(srv.tdb);
    const guarded = (m: NewMessage, g: NewMessage['guard']): NewMessage => ({ ...m, guard: g });
    const results = await Promise.allSettled([
      storeMessage(e, guarded(msg(v.userid, 'c-g-1', 'mine'), { kind: 'visitor' })),
      storeMessage(e, guarded(msg(stranger.id, 'c-g-2', 'not his'), { kind: 'agent', agent: stranger.id })),
      storeMessage(e, guarded(msg(agent.id, 'c-g-3', 'owner'), { kind: 'agent', agent: agent.id })),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await seqsOf(srv, sid)).toEqual(['1:mine', '2:owner']);
  });

  it('pipelines one socket: sends in flight share batches, keep their order, and each ack follows its commit', async () => {
    const { srv, sid, v } = await chat();
    const w = messageWriter(srv.tdb.db);
    const before = { ...w.stats };
    const N = 30;
    const acks = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        call<MessageDto>(v.s, 'message', {
          clientId: `c-pipe-${String(i).padStart(4, '0')}`,
          message: `p${i}`,
        }),
      ),
    );
    expect(acks.map((a) => ok(a).seq)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    // Waiting for each commit before taking the next send would need one batch per message.
    expect(w.stats.batches - before.batches).toBeLessThan(N / 2);
    expect(await seqsOf(srv, sid)).toEqual(Array.from({ length: N }, (_, i) => `${i + 1}:p${i}`));
  });

  it('a refused send in the middle of a pipeline answers alone; the ones around it are stored in order', async () => {
    const { srv, sid, v } = await chat();
    const acks = await Promise.all([
      call<MessageDto>(v.s, 'message', { clientId: 'c-mid-0001', message: 'first' }),
      call<MessageDto>(v.s, 'message', { clientId: '', message: 'no client id' }),
      call<MessageDto>(v.s, 'message', { clientId: 'c-mid-0001', message: 'first, resent' }),
      call<MessageDto>(v.s, 'message', { clientId: 'c-mid-0002', message: 'second' }),
    ]);
    expect(acks.map((a) => a.success)).toEqual([true, false, true, true]);
    expect(ok(acks[2]!).id).toBe(ok(acks[0]!).id);
    expect(await seqsOf(srv, sid)).toEqual(['1:first', '2:second']);
  });
});
