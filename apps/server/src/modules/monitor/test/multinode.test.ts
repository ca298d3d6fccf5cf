import { describe, expect, it } from 'vitest';
import type { MessageDto, MonitorUpdateDto, VisitorNewResult } from '@kefu/protocol';
import {
  addAccessPoint,
  addAgent,
  agentSocket,
  call,
  collect,
  connected,
  ok,
  until,
  visitorReady,
} from '../../../../test/live.js';
import { clusterPerSuite } from '../../../../test/cluster.js';
import { mentioned, SUP_ALL, supervisor } from './kit.js';

const PG = process.env.TEST_PG_URL;
const REDIS = process.env.REDIS_URL;

describe.skipIf(!PG || !REDIS)('monitor across two server processes (PostgreSQL + Redis)', () => {
  const env = clusterPerSuite(PG, REDIS, 2, 'mon');
  const sockets = env.sockets;

  it('a supervisor on node 1 sees the chats and lines node 2 handles; its whisper reaches the agent there, not the visitor', async () => {
    const { urls, tdb } = env.cluster;
    const appid = await addAccessPoint(tdb);
    const sup = await supervisor({ tdb }, SUP_ALL, null);
    const watch = agentSocket(urls[0]!, sup.token);
    sockets.push(watch);
    await connected(watch);
    const updates = collect<MonitorUpdateDto>(watch, 'monitor_update');
    ok(await call(watch, 'monitor', { watch: true }));
    // The watch heartbeat reaches node 2 before the chat starts there.
    await new Promise((r) => setTimeout(r, 500));
    const a = await addAgent(tdb, { maxusers: 5 });
    const agent = agentSocket(urls[1]!, a.token);
    sockets.push(agent);
    await connected(agent);
    ok(await call(agent, 'agentstatus', { status: 'ready' }));
    const v = await visitorReady(urls[1]!, appid);
    sockets.push(v.s);
    const sid = ok(await call<VisitorNewResult>(v.s, 'new')).agentserviceid;
    await until(() => mentioned(updates).has(sid), 10_000);
    ok(await call(v.s, 'message', { clientId: 'mn-visitor-01', message: 'handled by node 2' }));
    await until(() => updates.some((u) => u.messages.some((m) => m.lastmsg === 'handled by node 2')), 10_000);

    const atAgent = collect<MessageDto>(agent, 'message');
    const atVisitor = collect<MessageDto>(v.s, 'message');
    const res = await fetch(`${urls[0]}/api/monitor/whisper`, {
      method: 'POST',
      headers: { authorization: sup.token, 'content-type': 'application/json' },
      body: JSON.stringify({ agentserviceid: sid, clientId: 'mn-whisper-01', message: 'between nodes' }),
    });
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    await until(() => atAgent.some((m) => m.whisper === 1 && m.message === 'between nodes'), 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(atVisitor).toEqual([]);
  });
});
