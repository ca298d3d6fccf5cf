import { describe, expect, it } from 'vitest';
import type {
  AgentUserDto,
  MessageDto,
  TransferPromptDto,
  TransferResultDto,
  VisitorNewResult,
} from '@kefu/protocol';
import {
  addAccessPoint,
  api,
  call,
  collect,
  next,
  ok,
  socketAgent,
  until,
  visitorReady,
  type LiveServer,
} from '../../../../test/live.js';
import { perTest } from '../../../../test/factories.js';
import { saveSessionConfig } from '../session-config.js';

const pt = perTest();
const sockets = pt.sockets;
let srv: LiveServer | undefined;

const readyAgent = (s: LiveServer, maxusers = 10) => socketAgent(s, sockets, { maxusers });

async function visitorChat(s: LiveServer, appid: string) {
  const v = await visitorReady(s.url, appid);
  sockets.push(v.s);
  const r = ok(await call<VisitorNewResult>(v.s, 'new'));
  return { ...v, r };
}

const statusOf = async (s: LiveServer, id: string) =>
  s.tdb.db.kysely.selectFrom('agent_status').selectAll().where('userid', '=', id).executeTakeFirstOrThrow();

describe('transfer', () => {
  it('refuse and timeout keep the chat; accept moves it and the seat', async () => {
    srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const a = await readyAgent(srv);
    const v = await visitorChat(srv, appid);
    expect(v.r.agent?.id).toBe(a.id);
    const b = await readyAgent(srv);
    const list = await api<{ agentUserList: AgentUserDto[] }>(srv, a.token, '/api/talk/agentuser');
    const au = list.json.data.agentUserList[0]!;
    const form = await api<{ agentList: Array<{ id: string }> }>(srv, a.token, '/api/talk/transfer/form');
    expect(form.json.data.agentList.map((x) => x.id)).toEqual([b.id]);
    // refuse
    let prompt = next<TransferPromptDto>(b.sock, 'trans');
    await api(srv, a.token, `/api/talk/transfer?agentuserid=${au.id}&agentno=${b.id}&memo=vip`);
    expect((await prompt).memo).toBe('vip');
    let outcome = next<TransferResultDto>(a.sock, 'exchange');
    expect((await api(srv, b.token, `/api/talk/transfer/refuse?agentuserid=${au.id}`)).json.success).toBe(
      true,
    );
    expect((await outcome).result).toBe('refused');
    // timeout (transtiptimeout 5 s)
    prompt = next<TransferPromptDto>(b.sock, 'trans');
    await api(srv, a.token, `/api/talk/transfer?agentuserid=${au.id}&agentno=${b.id}`);
    expect((await prompt).timeout).toBe(5000);
    outcome = next<TransferResultDto>(a.sock, 'exchange');
    await srv.clock.advance(5_000);
    expect((await outcome).result).toBe('timeout');
    expect((await api(srv, b.token, `/api/talk/transfer/accept?agentuserid=${au.id}`)).json.key).toBe(
      'transfer_not_found',
    );
    // accept
    await api(srv, a.token, `/api/talk/transfer?agentuserid=${au.id}&agentno=${b.id}`);
    const gone = next<AgentUserDto>(a.sock, 'end');
    const moved = next<{ transfer: boolean }>(v.s, 'assigned');
    const acc = await api<AgentUserDto>(srv, b.token, `/api/talk/transfer/accept?agentuserid=${au.id}`);
    expect(acc.json.data.agentno).toBe(b.id);
    expect((await gone).id).toBe(au.id);
    expect((await moved).transfer).toBe(true);
    expect((await statusOf(srv, a.id)).users).toBe(0);
    expect((await statusOf(srv, b.id)).users).toBe(1);
    const m = await call<MessageDto>(a.sock, 'message', {
      touser: v.userid,
      clientId: 'c-after-transfer',
      message: 'x',
    });
    expect(m.success).toBe(false);
  });
});

describe('agent state', () => {
  it('heartbeat loss and disconnect make the agent notready but keep its chats; every change is logged', async () => {
    srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const a = await readyAgent(srv);
    await visitorChat(srv, appid);
    const ws = next<{ status: string; reason: string }>(a.sock, 'workstatus');
    await srv.clock.advance(30_000);
    ok(await call(a.sock, 'ping'));
    await srv.clock.advance(45_000);
    expect((await statusOf(srv, a.id)).status).toBe('ready');
    await srv.clock.advance(30_000);
    expect((await ws).reason).toBe('heartbeat');
    const st = await statusOf(srv, a.id);
    expect(st.status).toBe('notready');
    expect(st.users).toBe(1);
    await api(srv, a.token, '/api/agent/busy');
    expect((await api<{ status: string }>(srv, a.token, '/api/agent/status')).json.data.status).toBe('busy');
    a.sock.disconnect();
    // No socket left: the state is kept for the presence grace, then notready (reason disconnect).
    await until(async () => (await statusOf(srv!, a.id)).offsince !== null);
    await srv.clock.advance(45_000);
    expect((await statusOf(srv, a.id)).status).toBe('busy');
    await srv.clock.advance(30_000);
    await until(async () => (await statusOf(srv!, a.id)).status === 'notready');
    const log = await srv.tdb.db.kysely
      .selectFrom('agent_state_log')
      .selectAll()
      .where('userid', '=', a.id)
      .orderBy('id')
      .execute();
    expect(log.map((l) => `${l.to_status}:${l.reason}`)).toEqual([
      'ready:socket',
      'notready:heartbeat',
      'busy:busy',
      'notready:disconnect',
    ]);
    const info = await api<{ user: { on_state: string } }>(srv, a.token, '/api/agent');
    expect(info.json.data.user.on_state).toBe('notready');
  });
});

describe('timers, end, blacklist, satisfaction', () => {
  it('visitor idle warns then ends; agent no-reply warns; queue timeout ends', async () => {
    srv = await pt.live();
    await saveSessionConfig(
      srv.tdb.db,
      'kefu',
      {
        sessiontimeout: true,
        timeout: 60,
        resessiontimeout: true,
        retimeout: 30,
        agentreplaytimeout: true,
        agenttimeout: 20,
        quene: true,
        quenetimeout: 100,
      },
      Date.now(),
    );
    const appid = await addAccessPoint(srv.tdb);
    const a = await readyAgent(srv, 1);
    const v = await visitorChat(srv, appid);
    const msgs = collect<MessageDto>(v.s, 'message');
    const notice = next<{ type: string }>(a.sock, 'notice');
    ok(await call(v.s, 'message', { clientId: 'c-timer-01', message: 'anyone?' }));
    await srv.clock.advance(25_000);
    expect((await notice).type).toBe('agent_timeout');
    const queued = await visitorChat(srv, appid);
    expect(queued.r.status).toBe('inqueue');
    const qEnd = next<{ endby: string }>(queued.s, 'end');
    const end = next<{ endby: string }>(v.s, 'end');
    await srv.clock.advance(40_000);
    await until(() => msgs.some((m) => m.type === 'system' && m.message.includes('很久')));
    await srv.clock.advance(30_000);
    expect((await end).endby).toBe('timeout');
    // the agent sent no ping, so it is notready by now: the queued visitor times out at 25 s + 100 s
    await srv.clock.advance(35_000);
    expect((await qEnd).endby).toBe('queue');
    const left = await srv.tdb.db.kysely
      .selectFrom('agent_service')
      .select('leavemsg')
      .where('id', '=', queued.r.agentserviceid)
      .executeTakeFirstOrThrow();
    expect(left.leavemsg).toBe(1);
  });

  it('agent end frees the seat and drains; satisfaction invite; blacklist refuses new chats', async () => {
    srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const a = await readyAgent(srv, 1);
    const v1 = await visitorChat(srv, appid);
    const sat = next<{ agentserviceid: string }>(v1.s, 'satisfaction');
    await api(srv, a.token, `/api/talk/statf?agentserviceid=${v1.r.agentserviceid}`);
    expect((await sat).agentserviceid).toBe(v1.r.agentserviceid);
    const list = await api<{ agentUserList: AgentUserDto[] }>(srv, a.token, '/api/talk/agentuser');
    const au = list.json.data.agentUserList[0]!;
    const black = await api(srv, a.token, '/api/talk/black', {
      agentuserid: au.id,
      controltime: 0,
      description: 'spam',
    });
    expect(black.json.success).toBe(true);
    expect((await statusOf(srv, a.id)).users).toBe(0);
    const again = await call<VisitorNewResult>(v1.s, 'new');
    expect(again.success).toBe(false);
    if (!again.success) expect(again.key).toBe('visitor_blacklisted');
    const ended = await api<{ agentServices: { total: number } }>(
      srv,
      a.token,
      '/api/talk/end/agentusers?p=1',
    );
    expect(ended.json.data.agentServices.total).toBe(1);
  });
});
