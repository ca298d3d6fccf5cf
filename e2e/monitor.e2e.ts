import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import type { Page } from 'playwright-core';
import type { MonitorDesktopDto } from '@kefu/protocol';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { openBrowser, screenshot, switchLanguage } from './support/browser';
import {
  addAgents,
  adminToken as tokenOf,
  AGENT_PASSWORD,
  api,
  login,
  once,
  randomUser,
  readyAgent,
  setReady,
  type VisitorSocket,
} from './support/dialogue';

/**
 * The supervisor's monitor (/monitor, A03): a department supervisor (A03_A02) sees only its group's chats
 * appear live, opens one, joins it, whispers (its agent sees the whisper, the visitor's page never does),
 * barges in (the visitor reads it), takes the chat over (the agent is told), ends another chat, and
 * switches a chat to the robot and back to a human ("转人工"). Screens in Chinese and English.
 */
type Browser = Awaited<ReturnType<typeof openBrowser>>;

const settle = (page: Page) => page.waitForTimeout(400);

describe('/monitor — supervision', () => {
  let server: RunningServer;
  const browsers: Browser[] = [];
  const sockets: Array<{ disconnect(): unknown }> = [];
  beforeAll(async () => {
    ensureConsoleBuilt();
    server = await startServer();
  });
  afterAll(async () => {
    sockets.forEach((s) => s.disconnect());
    for (const b of browsers.splice(0)) await b.close().catch(() => undefined);
    await server?.stop();
  });

  it('a department supervisor watches, whispers, barges in, takes over, ends, and switches AI ↔ human', async () => {
    const V = server.url;
    const admin = await tokenOf(V, ADMIN_PASSWORD);
    const call = async <T>(path: string, body?: unknown, token = admin) => {
      const r = await api<T>(V, path, { token, body });
      expect(r.success, `${path}: ${JSON.stringify(r)}`).toBe(true);
      return r.data;
    };
    // Two skill groups: the seeded first one (售前) and 售后; a supervisor of the first one only.
    const g1 = (await call<Array<{ id: string; name: string }>>('/api/common/skillList'))[0]!;
    const g2 = await call<{ id: string }>('/api/organ/save', { name: '售后组', skill: true });
    const role = await call<{ id: string }>('/api/role/save', { name: '部门主管' });
    await call('/api/role/auth/save', { id: role.id, codes: ['A01', 'A03', 'A03_A02'] });
    /** A user in one department with one role, 5 seats. */
    const user = (username: string, uname: string, roleid: string, organ: string) =>
      call<{ id: string }>('/api/user/save', {
        username,
        uname,
        password: AGENT_PASSWORD,
        usertype: '1',
        roles: [roleid],
        organ,
        organs: [organ],
        maxusers: 5,
      });
    const sup = await user('sup1', '主管一', role.id, g1.id);
    await addAgents(V, admin, [['agent1', '坐席一']]);
    const agentRole = (await call<Array<{ id: string; name: string }>>('/api/user/listRole')).find(
      (r) => r.name === '客服',
    )!;
    await user('agent2', '坐席二', agentRole.id, g2.id);
    const site1 = await call<{ id: string }>('/api/dialogue/access/save', {
      name: '售前站',
      domain: '',
      organ: g1.id,
    });
    const site2 = await call<{ id: string }>('/api/dialogue/access/save', {
      name: '售后站',
      domain: '',
      organ: g2.id,
    });

    // agent2 (group 2) on a socket of its own, ready.
    sockets.push((await readyAgent(V, 'agent2')).socket);

    // agent1's console (group 1, ready) and the supervisor's monitor.
    const [a, s, v] = await Promise.all([
      openBrowser(),
      openBrowser(),
      openBrowser({ width: 1024, height: 800 }),
    ]);
    browsers.push(a, s, v);
    const errors: string[] = [];
    for (const x of [a, s]) x.page.on('pageerror', (e) => errors.push(e.message));
    await login(a.page, V, 'agent1', AGENT_PASSWORD);
    await setReady(a.page);
    await login(s.page, V, 'sup1', AGENT_PASSWORD);
    await s.page.goto(`${V}/monitor`);
    await s.page.getByTestId('monitor-screen').waitFor();
    await s.page.getByTestId('monitor-scope').filter({ hasText: '本部门' }).waitFor();

    // Visitors: one on the visitor page (group 1), one of group 2 and two more of group 1 on sockets.
    const visitor = async (appid: string, name: string) => {
      const userid = randomUser();
      const sock: VisitorSocket = io(`${V}/im/user`, {
        transports: ['websocket'],
        query: { appid, userid },
        forceNew: true,
      });
      sockets.push(sock);
      await once(sock, 'welcome');
      const ack = await sock.emitWithAck('new', { name });
      expect(ack.success, JSON.stringify(ack)).toBe(true);
      return { sock, userid };
    };
    await v.page.goto(`${V}/visitor/pc?appid=${site1.id}`);
    const box = v.page.locator('.kf-input textarea');
    await box.waitFor();
    await v.page.getByTestId('header-sub').filter({ hasText: '坐席一' }).waitFor();
    await box.fill('我要退货，订单 20261124');
    await box.press('Enter');
    const other = await visitor(site2.id, '售后访客');
    const third = await visitor(site1.id, '售前访客乙');
    const fourth = await visitor(site1.id, '售前访客丙');

    // The page visitor's id, as the tenant-wide desktop (the admin) knows it.
    // Polled: the visitor's line may still be on its way when the desktop is first read.
    let all = await call<MonitorDesktopDto>('/api/monitor/desktop');
    await expect
      .poll(async () => {
        all = await call<MonitorDesktopDto>('/api/monitor/desktop');
        return all.agentServiceList.some((c) => c.lastmsg.startsWith('我要退货'));
      })
      .toBe(true);
    const pageChat = all.agentServiceList.find((c) => c.lastmsg.startsWith('我要退货'))!;
    expect(pageChat.organ).toBe(g1.id);
    expect(all.agentServiceList.map((c) => c.userid)).toContain(other.userid);

    // The supervisor sees its group's three chats live, never the other group's.
    for (const id of [pageChat.userid, third.userid, fourth.userid])
      await s.page.getByTestId(`monitor-chat-${id}`).waitFor();
    await settle(s.page);
    expect(await s.page.getByTestId(`monitor-chat-${other.userid}`).count()).toBe(0);
    await s.page.getByTestId('monitor-count-service').filter({ hasText: '3' }).waitFor();
    await screenshot(s.page, 'monitor-list-zh');

    // Open the page visitor's chat, join it, whisper.
    await s.page.getByTestId(`monitor-chat-${pageChat.userid}`).click();
    const drawer = s.page.getByTestId('monitor-transcript');
    await drawer.getByTestId('message-in').filter({ hasText: '我要退货' }).waitFor();
    await drawer.getByTestId('monitor-join').click();
    await drawer.getByTestId('monitor-join').waitFor({ state: 'detached' });
    const whisper = '悄悄提醒：先核对订单号再退款';
    await drawer.getByTestId('monitor-say-input').fill(whisper);
    await drawer.getByTestId('monitor-say-send').click();
    await drawer.getByTestId('message-whisper').filter({ hasText: whisper }).waitFor();
    // The agent sees it in its chat, marked as a whisper.
    await a.page.getByTestId(`chat-item-${pageChat.userid}`).click();
    await a.page.getByTestId('message-whisper').filter({ hasText: whisper }).waitFor();
    await settle(a.page);
    await screenshot(a.page, 'monitor-whisper-agent');
    // The agent answers; the visitor reads the answer and never the whisper.
    await a.page.getByTestId('composer-input').fill('您好，请稍等，我核对一下订单');
    await a.page.getByTestId('composer-input').press('Enter');
    await v.page.getByTestId('msg-agent').filter({ hasText: '我核对一下订单' }).waitFor();

    // Barge-in: the visitor reads the supervisor's line.
    await drawer.getByTestId('monitor-say-kind').getByText('插话').click();
    await drawer.getByTestId('monitor-say-input').fill('您好，我是值班主管，这单我来跟进');
    await drawer.getByTestId('monitor-say-send').click();
    await v.page.getByTestId('msg-agent').filter({ hasText: '我是值班主管' }).waitFor();
    await settle(v.page);
    expect(await v.page.content()).not.toContain(whisper);
    expect(await v.page.getByText(whisper).count()).toBe(0);
    await screenshot(v.page, 'monitor-visitor-no-whisper');
    await settle(s.page);
    await screenshot(s.page, 'monitor-transcript-zh');

    // Takeover: the chat leaves agent1, who is told; the supervisor serves it.
    await drawer.getByTestId('monitor-takeover').click();
    await s.page.getByTestId('confirm-ok').click();
    await a.page.getByTestId(`chat-item-${pageChat.userid}`).waitFor({ state: 'detached' });
    await a.page.locator('.ant-message').filter({ hasText: '已接管该会话' }).waitFor();
    await expect
      .poll(
        async () =>
          (await call<MonitorDesktopDto>('/api/monitor/desktop')).agentServiceList.find(
            (c) => c.userid === pageChat.userid,
          )?.agentno,
      )
      .toBe(sup.id);
    await s.page.locator('.ant-drawer-close').click();

    // End another chat of the group: its visitor is told.
    const ended = once(third.sock, 'end');
    await s.page.getByTestId(`monitor-chat-${third.userid}`).click();
    await drawer.getByTestId('monitor-end').click();
    await s.page.getByTestId('confirm-ok').click();
    expect((await ended).endby).toBe('system');
    await s.page.getByTestId(`monitor-chat-${third.userid}`).waitFor({ state: 'detached' });
    await s.page.locator('.ant-drawer-close').click();

    // AI switch: a robot answers on the first site from now on; the fourth chat goes to it, shows under
    // the 机器人 filter, then 转人工.
    const robot = await call<{ id: string }>('/api/xiaoe/config/save', {
      name: '小智',
      welcome: '您好，我是小智',
    });
    await call('/api/webim/ai', { appid: site1.id, robotid: robot.id });
    await s.page.getByTestId(`monitor-chat-${fourth.userid}`).click();
    await drawer.getByTestId('monitor-to-ai').click();
    await s.page.getByTestId('confirm-ok').click();
    await a.page.getByTestId(`chat-item-${fourth.userid}`).waitFor({ state: 'detached' });
    await s.page.locator('.ant-drawer-close').click();
    await s.page.getByTestId('monitor-service-filter').getByText('机器人').click();
    await s.page.getByTestId(`monitor-to-human-${fourth.userid}`).waitFor();
    expect(await s.page.getByTestId(`monitor-chat-${pageChat.userid}`).count()).toBe(0);
    await settle(s.page);
    await screenshot(s.page, 'monitor-ai-filter-zh');
    await s.page.getByTestId(`monitor-to-human-${fourth.userid}`).click();
    await s.page.getByTestId('confirm-ok').click();
    await a.page.getByTestId(`chat-item-${fourth.userid}`).waitFor();
    await s.page.getByTestId(`monitor-to-human-${fourth.userid}`).waitFor({ state: 'detached' });
    await s.page.getByTestId('monitor-service-filter').getByText('全部').click();

    // The wallboard and the audit trail.
    await s.page.getByTestId('monitor-tabs').getByText('坐席看板').click();
    await s.page.getByTestId('monitor-wallboard').waitFor();
    await s.page.getByTestId(`monitor-group-${g1.id}`).waitFor();
    expect(await s.page.getByTestId(`monitor-group-${g2.id}`).count()).toBe(0);
    await settle(s.page);
    await screenshot(s.page, 'monitor-wallboard-zh');
    const trail = await call<{ list: Array<{ action: string }> }>('/api/monitor/audit?ps=50');
    expect(trail.list.map((x) => x.action).sort()).toEqual(
      ['aiToHuman', 'barge', 'end', 'humanToAi', 'join', 'takeover', 'whisper'].sort(),
    );

    // English, and the tab choice survives a reload (chatMonitorActive).
    await switchLanguage(s.page, 'English');
    await s.page.getByTestId('monitor-tabs').getByText('Agent wallboard').waitFor();
    await s.page.reload();
    await s.page.getByTestId('monitor-wallboard').waitFor();
    await settle(s.page);
    await screenshot(s.page, 'monitor-wallboard-en');
    await s.page.getByTestId('monitor-tabs').getByText('Live chats').click();
    await s.page.getByTestId(`monitor-chat-${fourth.userid}`).click();
    await drawer.getByTestId('monitor-say').waitFor();
    await settle(s.page);
    await screenshot(s.page, 'monitor-transcript-en');
    await s.page.locator('.ant-drawer-close').click();
    await settle(s.page);
    await screenshot(s.page, 'monitor-list-en');
    expect(errors).toEqual([]);
  });
});
