import { describe, expect, it } from 'vitest';
import type { AgentUserDto, PageViewDto, SystemLineDto, VisitorNewResult } from '@kefu/protocol';
import {
  addAccessPoint,
  addAgent,
  api,
  call,
  next,
  ok,
  socketAgent,
  visitorReady,
  type LiveServer,
} from '../../../../test/live.js';
import { perTest } from '../../../../test/factories.js';
import { saveSessionConfig } from '../session-config.js';

const pt = perTest();

const pageview = (s: LiveServer, body: Record<string, unknown>) =>
  s.app.inject({
    method: 'POST',
    url: '/im/pageview',
    payload: JSON.stringify(body),
    headers: { 'content-type': 'text/plain' },
  });

describe('what the agent sees of the visitor and the conversation', () => {
  it('the source page is the host page (not the widget iframe), with the page trail', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    const a = await socketAgent(srv, pt.sockets);
    const traceid = 'trace-host-page-1';
    for (const url of ['https://shop.example.com/', 'https://shop.example.com/sofa?id=7'])
      await pageview(srv, { appid, traceid, url, title: url.endsWith('7') ? 'Sofa' : 'Home', referrer: '' });
    const v = await visitorReady(srv.url, appid);
    pt.sockets.push(v.s);
    // The widget asked before the host page told it where it is: it reported its own iframe.
    const r = ok(
      await call<VisitorNewResult>(v.s, 'new', {
        url: `${srv.url}/visitor/mini?appid=${appid}&traceid=${traceid}`,
        title: 'chat',
        traceid,
      }),
    );
    const list = await api<{ agentUserList: AgentUserDto[] }>(srv, a.token, '/api/talk/agentuser');
    const entry = list.json.data.agentUserList[0]!;
    const data = await api<{ agentService: { url: string; title: string }; trail: PageViewDto[] }>(
      srv,
      a.token,
      `/api/talk/data?id=${entry.id}`,
    );
    expect(data.json.data.agentService).toMatchObject({
      url: 'https://shop.example.com/sofa?id=7',
      title: 'Sofa',
    });
    expect(data.json.data.trail.map((p) => p.url)).toEqual([
      'https://shop.example.com/sofa?id=7',
      'https://shop.example.com/',
    ]);
    expect(r.agentserviceid).toBe(entry.agentserviceid);
  });

  it('system lines: welcome, assignment, transfer and end, as the visitor got them', async () => {
    const srv = await pt.live();
    const appid = await addAccessPoint(srv.tdb);
    await saveSessionConfig(
      srv.tdb.db,
      'kefu',
      { sessionmsg: '欢迎！', successmsg: '{agent}为您服务', transmsg: '已转给{agent}', finessmsg: '再见' },
      Date.now(),
    );
    const a = await socketAgent(srv, pt.sockets);
    const v = await visitorReady(srv.url, appid);
    pt.sockets.push(v.s);
    const sid = ok(await call<VisitorNewResult>(v.s, 'new')).agentserviceid;
    const b = await socketAgent(srv, pt.sockets);
    const lines = async (token: string) =>
      api<SystemLineDto[]>(srv, token, `/api/talk/systemLines?agentserviceid=${sid}`);
    expect((await lines(a.token)).json.data.map((l) => [l.kind, l.text])).toEqual([
      ['welcome', '欢迎！'],
      ['assigned', expect.stringMatching(/为您服务$/)],
    ]);
    const au = (await api<{ agentUserList: AgentUserDto[] }>(srv, a.token, '/api/talk/agentuser')).json.data
      .agentUserList[0]!;
    const prompt = next(b.sock, 'trans');
    await api(srv, a.token, `/api/talk/transfer?agentuserid=${au.id}&agentno=${b.id}`);
    await prompt;
    await api(srv, b.token, `/api/talk/transfer/accept?agentuserid=${au.id}`);
    await api(srv, b.token, `/api/talk/end?agentserviceid=${sid}`);
    const all = (await lines(b.token)).json.data;
    expect(all.map((l) => l.kind)).toEqual(['welcome', 'assigned', 'transfer', 'end']);
    expect(all[2]).toMatchObject({ text: expect.stringMatching(/^已转给/) });
    expect(all[3]).toMatchObject({ text: '再见', endby: 'agent' });
    expect(all.map((l) => l.createtime)).toEqual([...all.map((l) => l.createtime)].sort((x, y) => x - y));
    // Only those who follow the conversation read it.
    const stranger = await addAgent(srv.tdb);
    expect((await lines(stranger.token)).status).toBe(403);
    expect((await api(srv, a.token, '/api/talk/systemLines')).json).toMatchObject({ key: 'required' });
  });
});
