import { describe, expect, it } from 'vitest';
import type {
  AgentUserDto,
  SessionConfigDto,
  TransferPromptDto,
  TransferResultDto,
  VisitorNewResult,
} from '@kefu/protocol';
import { call, expectError, userWithCodes, type SeededApp, perTest } from '../../../test/factories.js';
import {
  addAccessPoint,
  addAgent,
  agentSocket,
  api,
  call as emit,
  collect,
  connected,
  next,
  ok,
  until,
  visitorReady,
  type LiveServer,
} from '../../../test/live.js';
import { insertUser } from '../../../test/harness.js';
import { issueToken } from '../../platform/auth/tokens.js';
import { DEFAULT_SESSION_CONFIG, loadSessionConfig } from '../conversation/session-config.js';
import { forgetSeats } from '../conversation/seat-board.js';

const env = perTest();

const get = (app: SeededApp, token: string) =>
  call<SessionConfigDto>(app.app, token, 'GET', '/api/sessionConfig');
const save = (app: SeededApp, token: string, section: string, body: Record<string, unknown>) =>
  call<SessionConfigDto>(app.app, token, 'POST', `/api/sessionConfig/${section}/save`, body);

describe('session config admin', () => {
  it('any logged-in user reads it (defaults filled); each save section needs its code', async () => {
    const t = await env.seeded();
    const agent = await userWithCodes(t, ['A01']);
    const r = await get(t, agent.token);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toMatchObject({
      id: 'kefu',
      transtip: true,
      transtiptimeout: 5,
      lastagent: true,
      distribution: 'idle-first',
      maxusers: 10,
      msgtranslate: false,
      prompttone: true,
      prompttoneState: 1,
      updatetime: null,
    });
    expect(r.body.data.sessionmsg).toBe(DEFAULT_SESSION_CONFIG.sessionmsg);
    expect((await call(t.app, null, 'GET', '/api/sessionConfig')).status).toBe(401);
    for (const s of ['prompt', 'allocation', 'lineUp', 'other']) {
      expectError(await save(t, agent.token, s, {}), 'forbidden', 403);
    }
    const codes = {
      prompt: 'A09_A03_A01',
      allocation: 'A09_A03_A02',
      lineUp: 'A09_A03_A05',
      other: 'A09_A03_A11',
    };
    for (const [s, code] of Object.entries(codes)) {
      const u = await userWithCodes(t, [code]);
      expect((await save(t, u.token, s, {})).body.success).toBe(true);
      const others = Object.keys(codes).filter((x) => x !== s);
      expectError(await save(t, u.token, others[0]!, {}), 'forbidden', 403);
    }
  });

  it('a partial save changes only its own keys of its own section', async () => {
    const t = await env.seeded();
    const before = (await get(t, t.adminToken)).body.data;
    const r = await save(t, t.adminToken, 'prompt', {
      sessionmsg: '  你好 <b>hi</b>  ',
      tipagent: '1',
      // not prompt keys: ignored
      distribution: 'least-busy',
      transtiptimeout: 30,
    });
    expect(r.body).toMatchObject({ success: true, msg: '保存成功' });
    const after = (await get(t, t.adminToken)).body.data;
    expect(after.sessionmsg).toBe('你好 <b>hi</b>');
    expect(after.tipagent).toBe(true);
    expect(after.updatetime).toBeGreaterThan(0);
    const { sessionmsg: _a, tipagent: _b, updatetime: _c, ...restAfter } = after;
    const { sessionmsg: _d, tipagent: _e, updatetime: _f, ...restBefore } = before;
    expect(restAfter).toEqual(restBefore);

    await save(t, t.adminToken, 'allocation', { distribution: 'least-busy', lastagent: false, maxusers: 3 });
    await save(t, t.adminToken, 'lineUp', { quene: true, quenetimeout: 300, agentbusymsg: '前面 {num} 人' });
    await save(t, t.adminToken, 'other', { transtiptimeout: 12, msgtranslate: true, prompttone: 0 });
    const cfg = await loadSessionConfig(t.db, 'kefu');
    expect(cfg).toMatchObject({
      sessionmsg: '你好 <b>hi</b>',
      distribution: 'least-busy',
      lastagent: false,
      maxusers: 3,
      quene: true,
      quenetimeout: 300,
      agentbusymsg: '前面 {num} 人',
      transtiptimeout: 12,
      msgtranslate: true,
      prompttone: false,
      // untouched
      satisfaction: true,
      timeout: 120,
    });
    expect((await get(t, t.adminToken)).body.data.prompttoneState).toBe(0);
    // the default seat count applies to agents created without one
    const agentRole = await t.db.kysely
      .selectFrom('role')
      .select('id')
      .where('name', '=', '客服')
      .executeTakeFirstOrThrow();
    const u = await call<{ maxusers: number }>(t.app, t.adminToken, 'POST', '/api/user/save', {
      username: 'seat3',
      password: 'Passw0rd!',
      uname: 'Seat',
      roles: [agentRole.id],
    });
    expect(u.body.data.maxusers).toBe(3);
  });

  it('bad input changes nothing', async () => {
    const t = await env.seeded();
    await save(t, t.adminToken, 'other', { transtiptimeout: 9 });
    const before = (await get(t, t.adminToken)).body.data;
    const long = 'x'.repeat(501);
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['other', { transtiptimeout: 0 }, 'invalid_field'],
      ['other', { transtiptimeout: 61 }, 'invalid_field'],
      ['other', { transtiptimeout: 1.5 }, 'invalid_field'],
      ['other', { transtiptimeout: 'abc' }, 'invalid_field'],
      ['other', { msgtranslate: 'maybe', transtiptimeout: 20 }, 'invalid_field'],
      ['other', { timeout: 5 }, 'invalid_field'],
      ['allocation', { distribution: 'random', lastagent: false }, 'invalid_field'],
      ['allocation', { maxusers: 0 }, 'invalid_field'],
      ['lineUp', { quenetimeout: 86_401, quene: true }, 'invalid_field'],
      ['prompt', { sessionmsg: long, tipagent: true }, 'too_long'],
      ['prompt', { tipagenttitle: 'y'.repeat(101) }, 'too_long'],
      ['prompt', { successmsg: 12 }, 'invalid_field'],
    ];
    for (const [s, body, key] of bad) {
      expectError(await save(t, t.adminToken, s, body), key);
    }
    expect((await get(t, t.adminToken)).body.data).toEqual(before);
    // exactly 500 characters is fine; 1 and 60 s are the bounds
    expect((await save(t, t.adminToken, 'prompt', { sessionmsg: 'z'.repeat(500) })).body.success).toBe(true);
    expect((await save(t, t.adminToken, 'other', { transtiptimeout: 1 })).body.data.transtiptimeout).toBe(1);
    expect((await save(t, t.adminToken, 'other', { transtiptimeout: '60' })).body.data.transtiptimeout).toBe(
      60,
    );
  });
});

/** A usertype '0' admin on a live server (no seed there). */
async function liveAdmin(s: LiveServer): Promise<string> {
  const u = await insertUser(s.tdb.db, { usertype: '0' });
  return issueToken(s.tdb.db.kysely, u.id, 'kefu', 3_600_000);
}

async function readyAgent(s: LiveServer) {
  const a = await addAgent(s.tdb);
  const sock = agentSocket(s.url, a.token);
  env.sockets.push(sock);
  await connected(sock);
  ok(await emit(sock, 'agentstatus', { status: 'ready' }));
  return { ...a, sock };
}

/** Sets an agent's load behind the engine's back, so the node's seat board is dropped too. */
async function seats(s: LiveServer, userid: string, users: number, maxusers: number): Promise<void> {
  await s.tdb.db.kysely
    .updateTable('agent_status')
    .set({ users, maxusers })
    .where('userid', '=', userid)
    .execute();
  forgetSeats(s.tdb.db, 'kefu');
}

describe('saved settings drive the engine at once', () => {
  it('allocation: strategy and last-agent preference change who gets the next chat', async () => {
    const srv = await env.live();
    const admin = await liveAdmin(srv);
    const appid = await addAccessPoint(srv.tdb);
    const a = await readyAgent(srv);
    const b = await readyAgent(srv);
    type V = Awaited<ReturnType<typeof visitorReady>>;
    const chat = async (known?: V) => {
      const v = known ?? (await visitorReady(srv.url, appid));
      if (!known) env.sockets.push(v.s);
      return { v, r: ok(await emit<VisitorNewResult>(v.s, 'new')) };
    };
    const end = async (token: string, id: string) =>
      expect((await api(srv, token, `/api/talk/end?agentserviceid=${id}`)).json.success).toBe(true);
    const tokenOf = (id: string) => (id === a.id ? a.token : b.token);

    // strategy: a 2/10 (20 %), b 1/2 (50 %): idle-first → b (fewer chats), least-busy → a
    await seats(srv, a.id, 2, 10);
    await seats(srv, b.id, 1, 2);
    const c1 = await chat();
    expect(c1.r.agent?.id).toBe(b.id);
    await end(b.token, c1.r.agentserviceid);
    await seats(srv, b.id, 1, 2);
    const saved = await api<SessionConfigDto>(srv, admin, '/api/sessionConfig/allocation/save', {
      distribution: 'least-busy',
    });
    expect(saved.json.data.distribution).toBe('least-busy');
    const c2 = await chat();
    expect(c2.r.agent?.id).toBe(a.id);
    await end(a.token, c2.r.agentserviceid);

    // last agent: the returning visitor goes back to b although idle-first would pick a
    await api(srv, admin, '/api/sessionConfig/allocation/save', { distribution: 'idle-first' });
    await seats(srv, a.id, 0, 10);
    await seats(srv, b.id, 0, 10);
    const first = await chat();
    const x = first.r.agent!.id;
    const y = x === a.id ? b.id : a.id;
    await end(tokenOf(x), first.r.agentserviceid);
    await seats(srv, x, 1, 10);
    await seats(srv, y, 0, 10);
    const again = await chat(first.v);
    expect(again.r.agent?.id).toBe(x);
    await end(tokenOf(x), again.r.agentserviceid);
    await seats(srv, x, 1, 10);
    await seats(srv, y, 0, 10);
    await api(srv, admin, '/api/sessionConfig/allocation/save', { lastagent: 'false' });
    const third = await chat(first.v);
    expect(third.r.agent?.id).toBe(y);
  });

  it('other: transtiptimeout sets how long a transfer prompt waits', async () => {
    const srv = await env.live();
    const admin = await liveAdmin(srv);
    const appid = await addAccessPoint(srv.tdb);
    const a = await readyAgent(srv);
    const v = await visitorReady(srv.url, appid);
    env.sockets.push(v.s);
    expect(ok(await emit<VisitorNewResult>(v.s, 'new')).agent?.id).toBe(a.id);
    const b = await readyAgent(srv);
    const au = (await api<{ agentUserList: AgentUserDto[] }>(srv, a.token, '/api/talk/agentuser')).json.data
      .agentUserList[0]!;
    const r = await api<SessionConfigDto>(srv, admin, '/api/sessionConfig/other/save', {
      transtiptimeout: 12,
    });
    expect(r.json.data.transtiptimeout).toBe(12);
    const prompt = next<TransferPromptDto>(b.sock, 'trans');
    const outcomes = collect<TransferResultDto>(a.sock, 'exchange');
    await api(srv, a.token, `/api/talk/transfer?agentuserid=${au.id}&agentno=${b.id}`);
    expect((await prompt).timeout).toBe(12_000);
    await srv.clock.advance(6_000);
    await new Promise((res) => setTimeout(res, 100));
    expect(outcomes).toEqual([]);
    await srv.clock.advance(6_000);
    await until(() => outcomes.length > 0);
    expect(outcomes[0]?.result).toBe('timeout');
  });
});
