import { describe, expect, it } from 'vitest';
import type { AgentReportDto, VisitorNewResult } from '@kefu/protocol';
import {
  addAccessPoint,
  addAgent,
  agentSocket,
  call,
  connected,
  ok,
  until,
  visitorReady,
  type LiveServer,
} from '../../../../test/live.js';
import { perTest } from '../../../../test/factories.js';
import { REPORT_INTERVAL_MS } from '../report.js';

const pt = perTest();
const sockets = pt.sockets;
let srv: LiveServer | undefined;

describe('monitor report', () => {
  it('coalesces a burst per tenant: reports at least the interval apart, the last one after the last change with fresh counters', async () => {
    srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const a = await addAgent(srv.tdb, { maxusers: 10 });
    const sock = agentSocket(srv.url, a.token);
    sockets.push(sock);
    await connected(sock);
    const reports: Array<{ at: number; r: AgentReportDto }> = [];
    sock.on('status', (r: AgentReportDto) => reports.push({ at: Date.now(), r }));
    ok(await call(sock, 'agentstatus', { status: 'ready' }));
    const visitors = await Promise.all(Array.from({ length: 6 }, () => visitorReady(srv!.url, appid)));
    sockets.push(...visitors.map((v) => v.s));
    const results = await Promise.all(visitors.map((v) => call<VisitorNewResult>(v.s, 'new')));
    const lastChange = Date.now();
    results.forEach((r) => expect(ok(r).status).toBe('inservice'));
    // 1 agent change + 6 new chats + their assignments: each used to be one report to every agent.
    await until(() => reports.some((x) => x.at >= lastChange && x.r.users === 6), 3_000);
    await new Promise((r) => setTimeout(r, 2 * REPORT_INTERVAL_MS));
    expect(reports.length).toBeLessThan(6);
    for (let i = 1; i < reports.length; i++)
      expect(reports[i].at - reports[i - 1].at).toBeGreaterThanOrEqual(REPORT_INTERVAL_MS - 20);
    expect(reports.at(-1)!.r).toMatchObject({ orgi: 'kefu', agents: 1, users: 6, inquene: 0 });
  });
});
