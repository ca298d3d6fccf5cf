import { describe, expect, it } from 'vitest';
import type {
  AgentUserDto,
  AssignedNotice,
  MessageDto,
  MonitorUpdateDto,
  NoticeDto,
  ReplayPage,
  VisitorEndNotice,
  WhisperDto,
} from '@kefu/protocol';
import {
  api,
  call,
  collect,
  connected,
  next,
  ok,
  until,
  visitorSocket,
  type LiveServer,
} from '../../../../test/live.js';
import { perTest } from '../../../../test/factories.js';
import {
  chatIn,
  expectKey,
  mentioned,
  pause,
  scene,
  shownChats,
  SUP_ALL,
  SUP_ORGAN,
  supervisor,
  userSocket,
  watcher,
} from './kit.js';

const pt = perTest();
const sockets = pt.sockets;

async function groups(srv: LiveServer) {
  const { appid, groups: g, agents: a } = await scene(srv, sockets, 2);
  return { appid, g1: g[0]!, g2: g[1]!, a1: a[0]!, a2: a[1]! };
}

const audits = (srv: LiveServer, action: string) =>
  srv.tdb.db.kysely.selectFrom('monitor_audit').selectAll().where('action', '=', action).execute();

describe('monitor live feed', () => {
  it('each supervisor gets the updates of its scope only: a department supervisor never sees another group', async () => {
    const srv = await pt.live();
    const w = await groups(srv);
    const all = await watcher(srv, sockets, (await supervisor(srv, SUP_ALL, null)).token);
    const own = await watcher(srv, sockets, (await supervisor(srv, SUP_ORGAN, w.g1)).token);
    const c1 = await chatIn(srv, sockets, w.appid, w.g1);
    const c2 = await chatIn(srv, sockets, w.appid, w.g2);
    await until(() => shownChats(all.updates).has(c1.sid) && shownChats(all.updates).has(c2.sid));
    await until(() => shownChats(own.updates).has(c1.sid));
    ok(await call(c2.v.s, 'message', { clientId: 'v2-line-0001', message: 'group two' }));
    ok(await call(c1.v.s, 'message', { clientId: 'v1-line-0001', message: 'group one' }));
    const patched = (u: MonitorUpdateDto[], sid: string, text: string) =>
      u.some((x) => x.messages.some((m) => m.agentserviceid === sid && m.lastmsg === text));
    await until(() => patched(all.updates, c1.sid, 'group one') && patched(all.updates, c2.sid, 'group two'));
    await until(() => patched(own.updates, c1.sid, 'group one'));
    // The agent of group two changes state: the tenant supervisor hears it, the department one does not.
    ok(await call(w.a2.sock, 'agentstatus', { status: 'busy' }));
    await until(() =>
      all.updates.some((u) => u.agents.some((a) => a.userid === w.a2.id && a.status === 'busy')),
    );
    ok((await api(srv, w.a2.token, `/api/talk/end?agentserviceid=${c2.sid}`)).json);
    await until(() => all.updates.some((u) => u.removed.includes(c2.sid)));
    await pause(600);
    expect(mentioned(own.updates).has(c2.sid)).toBe(false);
    expect(own.updates.flatMap((u) => u.agents).map((a) => a.userid)).not.toContain(w.a2.id);
    expect(own.updates.flatMap((u) => u.chats).every((c) => c.organ === w.g1)).toBe(true);
    const counters = own.updates.filter((u) => u.counters).at(-1)!.counters!;
    expect(counters).toMatchObject({ serviceNum: 1, inqueneNum: 0 });
  });

  it('a burst of messages is coalesced: a few updates per second, the last line wins', async () => {
    const srv = await pt.live();
    const w = await groups(srv);
    const all = await watcher(srv, sockets, (await supervisor(srv, SUP_ALL, null)).token);
    const c1 = await chatIn(srv, sockets, w.appid, w.g1);
    await until(() => shownChats(all.updates).has(c1.sid));
    await pause(300);
    const before = all.updates.length;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(c1.v.s, 'message', {
          clientId: `burst-${String(i).padStart(4, '0')}`,
          message: `line ${i}`,
        }).then(ok),
      ),
    );
    await until(() => all.updates.some((u) => u.messages.some((m) => m.lastmsg === 'line 59')));
    const elapsed = Date.now() - t0;
    const got = all.updates.slice(before);
    // 60 messages, at most one update per 250 ms window (plus the one in flight at each end).
    expect(got.length).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 2);
    expect(got.length).toBeLessThan(20);
    const last = got
      .flatMap((u) => u.messages)
      .filter((m) => m.agentserviceid === c1.sid)
      .at(-1)!;
    expect(last.lastmsg).toBe('line 59');
  });

  it('a supervisor whose rights shrink stops receiving the feed at once', async () => {
    const srv = await pt.live();
    const w = await groups(srv);
    const sup = await supervisor(srv, SUP_ALL, null);
    const roles = await supervisor(srv, ['A09_A02_A02', ...SUP_ALL, 'A03_A02'], null);
    const all = await watcher(srv, sockets, sup.token);
    const first = await chatIn(srv, sockets, w.appid, w.g2);
    await until(() => mentioned(all.updates).has(first.sid));
    // Its role loses A03_A01: A03_A02 without a department of its own is no scope at all.
    const saved = await api(srv, roles.token, '/api/role/auth/save', {
      id: sup.roleid,
      codes: ['A01', 'A03', 'A03_A02'],
    });
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    await pause(300);
    const n = all.updates.length;
    const second = await chatIn(srv, sockets, w.appid, w.g2);
    await pause(800);
    expect(
      all.updates
        .slice(n)
        .flatMap((u) => u.chats)
        .map((c) => c.agentserviceid),
    ).not.toContain(second.sid);
    expect(await call(all.sock, 'monitor', { watch: true })).toMatchObject({
      success: false,
      key: 'monitor_scope',
    });
  });

  it('monitor needs A03 and a scope; watch:false stops the feed', async () => {
    const srv = await pt.live();
    const w = await groups(srv);
    const agentOnly = await userSocket(srv, sockets, w.a1.token);
    const refused = await call(agentOnly, 'monitor', { watch: true });
    expect(refused).toMatchObject({ success: false, key: 'forbidden', code: 403 });
    const bare = await userSocket(srv, sockets, (await supervisor(srv, ['A03'], w.g1)).token);
    expect(await call(bare, 'monitor', { watch: true })).toMatchObject({
      success: false,
      key: 'monitor_scope',
    });
    expect(await call(bare, 'monitor', { watch: 'maybe' })).toMatchObject({
      success: false,
      key: 'invalid_field',
    });
    const got = collect<MonitorUpdateDto>(agentOnly, 'monitor_update');
    const own = await watcher(srv, sockets, (await supervisor(srv, SUP_ORGAN, w.g1)).token);
    ok(await call(own.sock, 'monitor', { watch: false }));
    const n = own.updates.length;
    await chatIn(srv, sockets, w.appid, w.g1);
    await pause(700);
    expect(own.updates.length).toBe(n);
    expect(got).toEqual([]);
  });
});

describe('supervisor actions in the live chat', () => {
  it('whisper: the agents of the chat see it, the visitor never does (socket, reconnect, replay)', async () => {
    const srv = await pt.live();
    const w = await groups(srv);
    const sup = await supervisor(srv, SUP_ALL, null);
    const supSock = await userSocket(srv, sockets, sup.token);
    const c1 = await chatIn(srv, sockets, w.appid, w.g1);
    const au = ok(
      await call<AgentUserDto>(supSock, 'collaboration', { id: (await entryOf(srv, c1.sid)).id }),
    );
    expect(au.agentserviceid).toBe(c1.sid);
    expect((await audits(srv, 'join')).map((a) => a.agentserviceid)).toEqual([c1.sid]);
    ok(await call(c1.v.s, 'message', { clientId: 'v-before-001', message: 'my order is late' }));
    const atVisitor = collect<MessageDto>(c1.v.s, 'message');
    const atAgent = collect<MessageDto>(w.a1.sock, 'message');
    const atSup = collect<MessageDto>(supSock, 'message');
    const r = await api<WhisperDto>(srv, sup.token, '/api/monitor/whisper', {
      agentserviceid: c1.sid,
      clientId: 'whisper-0001',
      message: 'offer the coupon',
    });
    expect(r.json.data).toMatchObject({ whisper: 1, seq: 0, afterseq: 1, message: 'offer the coupon' });
    await until(() => atAgent.some((m) => m.whisper === 1 && m.message === 'offer the coupon'));
    await until(() => atSup.some((m) => m.whisper === 1));
    // A resend with the same clientId stores nothing new.
    const again = await api<WhisperDto>(srv, sup.token, '/api/monitor/whisper', {
      agentserviceid: c1.sid,
      clientId: 'whisper-0001',
      message: 'offer the coupon',
    });
    expect(again.json.data.id).toBe(r.json.data.id);
    // The chat goes on; the visitor's socket never got the whisper.
    ok(
      await call(w.a1.sock, 'message', {
        touser: c1.v.userid,
        agentserviceid: c1.sid,
        clientId: 'agent-reply-001',
        message: 'here is a coupon',
      }),
    );
    await until(() => atVisitor.some((m) => m.message === 'here is a coupon'));
    await pause(300);
    expect(atVisitor.map((m) => m.message)).toEqual(['here is a coupon']);
    expect(atVisitor.every((m) => !m.whisper)).toBe(true);
    // The stored visitor view: a reconnect from scratch and a replay hold no whisper, and no gap.
    c1.v.s.disconnect();
    const back = visitorSocket(srv.url, w.appid, c1.v.userid, { token: c1.v.token, lastSeq: '0' });
    sockets.push(back);
    const caught = collect<MessageDto>(back, 'message');
    await connected(back);
    await until(() => caught.length >= 2);
    const page = ok(await call<ReplayPage>(back, 'replay', { after: 0 }));
    for (const list of [caught, page.list]) {
      expect(list.map((m) => m.message)).toEqual(['my order is late', 'here is a coupon']);
      expect(list.map((m) => m.seq)).toEqual([1, 2]);
    }
    // Agents read it back for the transcript; the visitor's own history calls do not know it.
    const owner = await api<WhisperDto[]>(srv, w.a1.token, `/api/monitor/whispers?agentserviceid=${c1.sid}`);
    expect(owner.json.data.map((x) => x.message)).toEqual(['offer the coupon']);
    const other = await supervisor(srv, ['A01'], w.g2);
    expectKey(
      (await api(srv, other.token, `/api/monitor/whispers?agentserviceid=${c1.sid}`)).json,
      'not_conversation_owner',
      403,
    );
    expect(await audits(srv, 'whisper')).toHaveLength(1);
  });

  it('barge-in: the supervisor speaks to the visitor as itself and follows the chat', async () => {
    const srv = await pt.live();
    const w = await groups(srv);
    const sup = await supervisor(srv, SUP_ALL, null);
    const c1 = await chatIn(srv, sockets, w.appid, w.g1);
    const atVisitor = collect<MessageDto>(c1.v.s, 'message');
    const atAgent = collect<MessageDto>(w.a1.sock, 'message');
    const r = await api<MessageDto>(srv, sup.token, '/api/monitor/barge', {
      agentserviceid: c1.sid,
      clientId: 'barge-00001',
      message: '您好，我是值班主管',
    });
    expect(r.json.data).toMatchObject({ calltype: 'out', userid: sup.id, username: sup.username, seq: 1 });
    await until(() =>
      atVisitor.some((m) => m.message === '您好，我是值班主管' && m.username === sup.username),
    );
    await until(() => atAgent.some((m) => m.message === '您好，我是值班主管'));
    const collabs = await srv.tdb.db.kysely
      .selectFrom('agent_collaborator')
      .select('userid')
      .where('agentserviceid', '=', c1.sid)
      .execute();
    expect(collabs.map((c) => c.userid)).toEqual([sup.id]);
    expect(await audits(srv, 'barge')).toHaveLength(1);
  });

  it('takeover: the chat moves to the supervisor, the agent is told, the visitor learns its new agent', async () => {
    const srv = await pt.live();
    const w = await groups(srv);
    const sup = await supervisor(srv, SUP_ORGAN, w.g1);
    const supSock = await userSocket(srv, sockets, sup.token);
    const c1 = await chatIn(srv, sockets, w.appid, w.g1);
    const ended = next<AgentUserDto>(w.a1.sock, 'end');
    const told = next<NoticeDto>(w.a1.sock, 'notice');
    const fresh = next<AgentUserDto>(supSock, 'new');
    const assigned = next<AssignedNotice>(c1.v.s, 'assigned');
    const r = await api<AgentUserDto>(srv, sup.token, `/api/monitor/takeover?agentserviceid=${c1.sid}`);
    expect(r.json.data).toMatchObject({ agentserviceid: c1.sid, agentno: sup.id });
    expect((await ended).agentserviceid).toBe(c1.sid);
    expect(await told).toMatchObject({ type: 'takeover', agentserviceid: c1.sid });
    expect((await fresh).agentserviceid).toBe(c1.sid);
    expect((await assigned).agent.id).toBe(sup.id);
    const k = srv.tdb.db.kysely;
    const seats = await k
      .selectFrom('agent_status')
      .select(['userid', 'users'])
      .where('userid', 'in', [w.a1.id, sup.id])
      .execute();
    expect(Object.fromEntries(seats.map((s) => [s.userid, s.users]))).toEqual({ [w.a1.id]: 0, [sup.id]: 1 });
    const [a] = await audits(srv, 'takeover');
    expect(a).toMatchObject({ userid: sup.id, agentserviceid: c1.sid, target: w.a1.id, organ: w.g1 });
    // Now the supervisor owns it: its lines go through, the former agent's are refused.
    ok(
      await call(supSock, 'message', {
        touser: c1.v.userid,
        agentserviceid: c1.sid,
        clientId: 'sup-line-01',
        message: 'hi',
      }),
    );
    const late = await call(w.a1.sock, 'message', {
      touser: c1.v.userid,
      agentserviceid: c1.sid,
      clientId: 'a1-late-001',
      message: 'x',
    });
    expect(late.success).toBe(false);
    expectKey(
      (await api(srv, sup.token, `/api/monitor/takeover?agentserviceid=${c1.sid}`)).json,
      'takeover_own',
      400,
    );
  });

  it('joining by `collaboration` is limited to the scope; end by a supervisor tells both sides', async () => {
    const srv = await pt.live();
    const w = await groups(srv);
    const sup = await supervisor(srv, SUP_ORGAN, w.g1);
    const supSock = await userSocket(srv, sockets, sup.token);
    const c1 = await chatIn(srv, sockets, w.appid, w.g1);
    const c2 = await chatIn(srv, sockets, w.appid, w.g2);
    const out = await call(supSock, 'collaboration', { id: (await entryOf(srv, c2.sid)).id });
    expect(out).toMatchObject({ success: false, key: 'monitor_scope', code: 403 });
    ok(await call(supSock, 'collaboration', { id: (await entryOf(srv, c1.sid)).id }));
    expect((await audits(srv, 'join')).map((a) => a.agentserviceid)).toEqual([c1.sid]);
    const visitorEnd = next<VisitorEndNotice>(c1.v.s, 'end');
    const over = next<{ agentserviceid: string; endby: string }>(w.a1.sock, 'over');
    ok((await api(srv, sup.token, `/api/monitor/end?agentserviceid=${c1.sid}`)).json);
    expect(await visitorEnd).toMatchObject({ agentserviceid: c1.sid, endby: 'system' });
    expect(await over).toMatchObject({ agentserviceid: c1.sid, endby: 'system' });
    expect((await audits(srv, 'end')).map((a) => a.userid)).toEqual([sup.id]);
  });
});

async function entryOf(srv: LiveServer, sid: string) {
  return srv.tdb.db.kysely
    .selectFrom('agent_user')
    .select('id')
    .where('agentserviceid', '=', sid)
    .executeTakeFirstOrThrow();
}
