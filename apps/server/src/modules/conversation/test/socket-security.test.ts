import { describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import { VISITOR_NAMESPACE, type AgentUserDto, type MessageDto, type VisitorNewResult } from '@kefu/protocol';
import { loadSecurityConfig } from '../../../platform/http/security-config.js';
import { openDatabase } from '../../../platform/db/database.js';
import { ADMIN_PASSWORD, perTest } from '../../../../test/factories.js';
import {
  addAccessPoint,
  addUserWithCodes,
  agentSocket,
  api,
  call,
  collect,
  connected,
  ok,
  socketAgent,
  startLive,
  until,
  vid,
  visitorReady,
  type AgentClient,
  type LiveServer,
} from '../../../../test/live.js';
import { seed } from '../../seed/seed.service.js';
import { getAgentState } from '../agentstate.service.js';
import { engineOf } from '../index.js';
import type { Engine } from '../engine.js';

const env = perTest();

/** Resolves with the disconnect reason, or 'still connected' after `ms`. */
function dropped(s: AgentClient, ms = 1_000): Promise<string> {
  return new Promise((resolve) => {
    if (!s.connected) return resolve('already');
    const t = setTimeout(() => resolve('still connected'), ms);
    s.once('disconnect', (reason) => {
      clearTimeout(t);
      resolve(reason);
    });
  });
}

const engine = (s: LiveServer): Engine => engineOf(s.app)!;

async function adminToken(s: LiveServer): Promise<string> {
  await seed(s.tdb.db, s.tdb.config);
  const r = await s.app.inject({
    method: 'POST',
    url: '/tokens',
    payload: { username: 'admin', password: s.tdb.config.adminPassword ?? ADMIN_PASSWORD },
  });
  return r.json<{ data: { token: string } }>().data.token;
}

describe('revoking a session disconnects its agent sockets', () => {
  it('logout, password change and disabling the user, each within a second; a profile change does not', async () => {
    const srv = await env.live();
    const admin = await adminToken(srv);
    const a = await socketAgent(srv, env.sockets);
    expect(await getAgentState(engine(srv), a.id)).toBe('ready');

    // Logout of this very token.
    const t0 = Date.now();
    const gone = dropped(a.sock);
    await srv.app.inject({ method: 'DELETE', url: '/tokens', headers: { authorization: a.token } });
    expect(await gone).toBe('io server disconnect');
    expect(Date.now() - t0).toBeLessThan(1_000);
    // It takes no more chats, and the token cannot come back.
    await until(async () => (await getAgentState(engine(srv), a.id)) === 'notready', 1_000);
    const again = agentSocket(srv.url, a.token);
    env.sockets.push(again);
    await expect(connected(again)).rejects.toThrow(/token_expired/);

    // Password change: every session of the user, on another socket too.
    const b = await addUserWithCodes(srv.tdb, ['A01']);
    const b1 = agentSocket(srv.url, b.token);
    env.sockets.push(b1);
    await connected(b1);
    const login = await srv.app.inject({
      method: 'POST',
      url: '/tokens',
      payload: { username: (await userName(srv, b.id))!, password: 'Passw0rd!' },
    });
    const second = login.json<{ data: { token: string } }>().data.token;
    const b2 = agentSocket(srv.url, second);
    env.sockets.push(b2);
    await connected(b2);
    const bGone = [dropped(b1), dropped(b2)];
    const changed = await api(srv, second, '/api/agent/my/updatePassword', {
      oldpassword: 'Passw0rd!',
      password: 'Better#Passw0rd1',
    });
    expect(changed.json.success).toBe(true);
    expect(await Promise.all(bGone)).toEqual(['io server disconnect', 'io server disconnect']);

    // Disabling the user (by an administrator, on its own request).
    const c = await socketAgent(srv, env.sockets);
    const cName = (await userName(srv, c.id))!;
    // A profile change of the user is an invalidation too, but the token is still good: kept.
    const kept = dropped(c.sock, 300);
    expect((await api(srv, c.token, '/api/agent', { language: 'en' })).json.success).toBe(true);
    expect(await kept).toBe('still connected');
    expect(ok(await call(c.sock, 'ping'))).toHaveProperty('time');
    const cGone = dropped(c.sock);
    const dis = await api(srv, admin, '/api/user/update', {
      id: c.id,
      username: cName,
      uname: cName,
      disabled: true,
    });
    expect(dis.json.success, JSON.stringify(dis.json)).toBe(true);
    expect(await cGone).toBe('io server disconnect');
    await until(async () => (await getAgentState(engine(srv), c.id)) === 'notready', 1_000);
  });
});

async function userName(s: LiveServer, id: string): Promise<string | undefined> {
  return (
    await s.tdb.db.kysely.selectFrom('users').select('username').where('id', '=', id).executeTakeFirst()
  )?.username;
}

const REDIS = process.env.REDIS_URL;

describe.skipIf(!REDIS)('revocation across two nodes (Redis)', () => {
  it('a logout on node A disconnects the agent socket held by node B within a second', async () => {
    const a = await env.live(undefined, { redisUrl: REDIS });
    // Node B: its own database handle (so its own principal cache), the same database and Redis.
    const dbB = openDatabase(a.tdb.config);
    const b = await startLive({ ...a.tdb, db: dbB, drop: async () => dbB.close() }, {});
    try {
      await Promise.all([a.app.ready(), b.app.ready()]);
      const agent = await addUserWithCodes(a.tdb, ['A01']);
      const onB = agentSocket(b.url, agent.token);
      env.sockets.push(onB);
      await connected(onB);
      ok(await call(onB, 'agentstatus', { status: 'ready' }));
      const t0 = Date.now();
      const gone = dropped(onB);
      await a.app.inject({ method: 'DELETE', url: '/tokens', headers: { authorization: agent.token } });
      expect(await gone).toBe('io server disconnect');
      expect(Date.now() - t0).toBeLessThan(1_000);
      // And a role losing A01 on node A stops the agent on node B from taking chats.
      const other = await addUserWithCodes(a.tdb, ['A01']);
      const s2 = agentSocket(b.url, other.token);
      env.sockets.push(s2);
      await connected(s2);
      ok(await call(s2, 'agentstatus', { status: 'ready' }));
      const admin = await adminToken(a);
      const save = await api(a, admin, '/api/role/auth/save', { id: other.roleid, codes: ['A06'] });
      expect(save.json.success, JSON.stringify(save.json)).toBe(true);
      await until(async () => (await getAgentState(engine(b), other.id)) === 'notready', 1_000);
      const refused = await call(s2, 'message', {
        touser: 'x'.repeat(32),
        clientId: 'c-after-rights',
        message: 'hi',
      });
      expect(refused).toMatchObject({ success: false, code: 403 });
      expect(s2.connected).toBe(true); // still logged in: only the right is gone
    } finally {
      await b.stop();
      await dbB.close();
    }
  });
});

describe('agent socket permission codes', () => {
  it('a user without A01 can neither go ready or busy, nor send, nor join a chat it was not invited to', async () => {
    const srv = await env.live();
    const appid = await addAccessPoint(srv.tdb);
    const u = await addUserWithCodes(srv.tdb, ['A06']);
    const s = agentSocket(srv.url, u.token);
    env.sockets.push(s);
    await connected(s);
    const news = collect<AgentUserDto>(s, 'new');
    for (const status of ['ready', 'busy'])
      expect(await call(s, 'agentstatus', { status })).toMatchObject({
        success: false,
        code: 403,
        key: 'forbidden',
      });
    expect(ok(await call(s, 'agentstatus', { status: 'notready' }))).toEqual({ status: 'notready' });
    for (const path of ['/api/agent/ready', '/api/agent/busy'])
      expect((await api(srv, u.token, path)).status, path).toBe(403);
    expect((await api(srv, u.token, '/api/agent/notready')).status).toBe(200);
    expect(await getAgentState(engine(srv), u.id)).toBe('notready');

    // A visitor asks: nobody can take it (the A06 user is not ready), so it waits in the queue.
    const v = await visitorReady(srv.url, appid);
    env.sockets.push(v.s);
    const asked = ok(await call<VisitorNewResult>(v.s, 'new'));
    expect(asked.status).toBe('inqueue');
    expect(news).toEqual([]);
    expect(
      await call(s, 'message', { touser: v.userid, clientId: 'c-no-rights-1', message: 'hello' }),
    ).toMatchObject({ success: false, code: 403 });

    // A real agent takes it; the A06 user may not join it, an A03 monitor may.
    const agent = await socketAgent(srv, env.sockets);
    await until(async () => (await getAgentState(engine(srv), agent.id)) === 'ready');
    const entry = await until(async () => {
      const list = (await api<{ agentUserList: AgentUserDto[] }>(srv, agent.token, '/api/talk/agentuser'))
        .json.data.agentUserList;
      return list.length === 1;
    }).then(
      async () =>
        (await api<{ agentUserList: AgentUserDto[] }>(srv, agent.token, '/api/talk/agentuser')).json.data
          .agentUserList[0]!,
    );
    expect(await call(s, 'collaboration', { id: entry.id })).toMatchObject({ success: false, code: 403 });
    const monitor = await addUserWithCodes(srv.tdb, ['A03', 'A03_A01']);
    const m = agentSocket(srv.url, monitor.token);
    env.sockets.push(m);
    await connected(m);
    expect(ok(await call<AgentUserDto>(m, 'collaboration', { id: entry.id })).id).toBe(entry.id);
    // The agent that holds A01 chats as before.
    const sent = ok(
      await call<MessageDto>(agent.sock, 'message', {
        touser: v.userid,
        clientId: 'c-with-rights-1',
        message: 'hi',
      }),
    );
    expect(sent.message).toBe('hi');
  });
});

describe('visitor socket address (KEFU_TRUST_PROXY)', () => {
  async function ipOf(srv: LiveServer, forwardedFor: string): Promise<string | null | undefined> {
    const appid = await addAccessPoint(srv.tdb);
    const userid = vid();
    const s = connect(`${srv.url}${VISITOR_NAMESPACE}`, {
      query: { appid, userid },
      transports: ['websocket'],
      extraHeaders: { 'x-forwarded-for': forwardedFor },
      reconnection: false,
      forceNew: true,
    });
    env.sockets.push(s);
    await connected(s);
    return (
      await srv.tdb.db.kysely.selectFrom('visitor').select('ip').where('id', '=', userid).executeTakeFirst()
    )?.ip;
  }

  it('ignores X-Forwarded-For by default and believes it from a configured proxy', async () => {
    expect(await ipOf(await env.live(), '203.0.113.5')).toMatch(/127\.0\.0\.1$/);
    const behind = await startLive(undefined, {
      security: loadSecurityConfig({ KEFU_TRUST_PROXY: 'loopback' }),
    });
    try {
      expect(await ipOf(behind, '203.0.113.5')).toBe('203.0.113.5');
    } finally {
      await behind.stop();
      await behind.tdb.drop();
    }
  });
});
