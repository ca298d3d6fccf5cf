import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import type { AgentUserDto, MessageDto } from '@kefu/protocol';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { openBrowser, screenshot, switchLanguage } from './support/browser';
import {
  accessPoint,
  addAgents,
  adminToken as tokenOf,
  AGENT_PASSWORD,
  api,
  login,
  once,
  randomUser,
  setReady,
  type VisitorSocket,
} from './support/dialogue';

/**
 * Collaboration in the agent workspace: the admin serves a visitor and invites agent2 through the chat
 * header's invite dialog (the second invite uses `POST /api/talk/invite` directly), agent2's console
 * (second browser) shows the chat tagged 协同 and gets the visitor's next message, agent2 leaves it
 * (退出协同) and the chat goes from its list; invited again, it sees the chat marked over when the admin
 * ends it. Then /tourist with a visitor online on /im/demo.html, in Chinese and English.
 */
type Browser = Awaited<ReturnType<typeof openBrowser>>;

/** The modal / message animations settle before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(300);

describe('agent workspace /dialogue — collaboration', () => {
  let server: RunningServer;
  const browsers: Browser[] = [];
  let visitor: VisitorSocket | undefined;
  let visitor2: VisitorSocket | undefined;
  beforeAll(async () => {
    ensureConsoleBuilt();
    server = await startServer();
  });
  afterAll(async () => {
    visitor?.disconnect();
    visitor2?.disconnect();
    for (const b of browsers.splice(0)) await b.close().catch(() => undefined);
    await server?.stop();
  });

  it('invites a colleague, who sees the chat tagged 协同, gets its messages, leaves it and sees it end', async () => {
    const V = server.url;
    const adminToken = await tokenOf(V, ADMIN_PASSWORD);
    const [agent2Id] = await addAgents(V, adminToken, [['agent2', '坐席二']]);
    const appid = await accessPoint(V, adminToken, server.dataDir);

    // Both consoles open; only the admin is ready, so routing gives it the visitor.
    const [a, b] = await Promise.all([openBrowser(), openBrowser()]);
    browsers.push(a, b);
    const errors: string[] = [];
    for (const x of [a, b]) x.page.on('pageerror', (e) => errors.push(e.message));
    await Promise.all([
      login(a.page, V, 'admin', ADMIN_PASSWORD).then(() => setReady(a.page)),
      login(b.page, V, 'agent2', AGENT_PASSWORD),
    ]);

    const userid = randomUser();
    visitor = io(`${V}/im/user`, {
      transports: ['websocket'],
      query: { appid, userid },
      forceNew: true,
    });
    await once(visitor, 'welcome');
    const newAck = await visitor.emitWithAck('new', {
      name: '协同访客',
      url: 'https://shop.example.com/cart',
    });
    expect(newAck.success && newAck.data.status).toBe('inservice');
    await a.page.getByTestId(`chat-item-${userid}`).waitFor();
    await visitor.emitWithAck('message', {
      clientId: `v-${randomUser()}`,
      message: '在吗？',
      msgtype: 'text',
    });
    await a.page.getByTestId('message-in').filter({ hasText: '在吗？' }).waitFor();

    const adminChat = async () => {
      const r = await api<{ agentUserList: AgentUserDto[] }>(V, '/api/talk/agentuser', { token: adminToken });
      const au = r.data.agentUserList.find((x) => x.userid === userid);
      expect(au, JSON.stringify(r)).toBeTruthy();
      return au!;
    };
    const inviteAgent2 = async () => {
      const r = await api<null>(V, '/api/talk/invite', {
        token: adminToken,
        body: { agentuserid: (await adminChat()).id, userid: agent2Id },
      });
      expect(r.success, JSON.stringify(r)).toBe(true);
    };

    // Invite from the console: agent2's list gets the chat with the 协同 tag; its header offers only 退出协同.
    await a.page.getByTestId('chat-invite').click();
    await a.page.getByTestId('invite-colleague').click();
    await a.page.keyboard.type('agent2');
    await a.page
      .locator('.ant-select-dropdown:visible')
      .getByTitle('坐席二 (agent2)', { exact: true })
      .click();
    expect(
      await a.page
        .locator('.ant-select-dropdown:visible')
        .getByTitle(/\(admin\)$/)
        .count(),
    ).toBe(0);
    await settle(a.page);
    await screenshot(a.page, 'collaboration-invite-dialog');
    const invited = a.page.waitForResponse((r) => r.url().includes('/api/talk/invite'));
    await a.page.getByTestId('invite-submit').click();
    expect((await (await invited).json()).success).toBe(true);
    const bItem = b.page.getByTestId(`chat-item-${userid}`);
    await bItem.waitFor();
    await b.page.getByTestId(`chat-collab-${userid}`).filter({ hasText: '协同' }).waitFor();
    await bItem.click();
    await b.page.getByTestId('chat-collab-tag').filter({ hasText: '协同' }).waitFor();
    await b.page.getByTestId('chat-collab-leave').filter({ hasText: '退出协同' }).waitFor();
    expect(await b.page.getByTestId('chat-end').count()).toBe(0);
    expect(await b.page.getByTestId('chat-transfer').count()).toBe(0);
    await b.page.getByTestId('message-in').filter({ hasText: '在吗？' }).waitFor();

    // The visitor's next message reaches the collaborator too.
    await visitor.emitWithAck('message', {
      clientId: `v-${randomUser()}`,
      message: '我想改一下收货地址',
      msgtype: 'text',
    });
    await b.page.getByTestId('message-in').filter({ hasText: '我想改一下收货地址' }).waitFor();
    await a.page.getByTestId('message-in').filter({ hasText: '我想改一下收货地址' }).waitFor();
    await settle(b.page);
    await screenshot(b.page, 'collaboration-invited');
    await screenshot(a.page, 'collaboration-owner');

    // 退出协同 (confirmed): the chat leaves agent2's list, the admin keeps it.
    await b.page.getByTestId('chat-collab-leave').click();
    await b.page.getByTestId('confirm-ok').waitFor();
    await settle(b.page);
    await screenshot(b.page, 'collaboration-leave-confirm');
    await b.page.getByTestId('confirm-ok').click();
    await bItem.waitFor({ state: 'detached' });
    expect(await a.page.getByTestId(`chat-item-${userid}`).count()).toBe(1);

    // Invited again; the admin ends the chat: agent2 sees it marked over, the visitor is told.
    await inviteAgent2();
    await bItem.waitFor();
    await bItem.click();
    await b.page.getByTestId('chat-collab-tag').waitFor();
    const ended = once(visitor, 'end');
    await a.page.getByTestId('chat-end').click();
    await a.page.getByTestId('confirm-ok').click();
    expect((await ended).endby).toBe('agent');
    await a.page.getByTestId(`chat-item-${userid}`).waitFor({ state: 'detached' });
    await b.page.getByTestId(`chat-over-${userid}`).waitFor();
    expect(await b.page.getByTestId('composer-input').isDisabled()).toBe(true);
    await b.page.locator('.ant-message').waitFor({ state: 'detached' });
    await settle(b.page);
    await screenshot(b.page, 'collaboration-over');
    await switchLanguage(b.page, 'English');
    await b.page.getByTestId('chat-collab-leave').filter({ hasText: 'Leave' }).waitFor();
    await settle(b.page);
    await screenshot(b.page, 'collaboration-over-en');

    // A collaborator may still leave an ended chat: the entry goes.
    await b.page.getByTestId('chat-collab-leave').click();
    await b.page.getByTestId('confirm-ok').click();
    await bItem.waitFor({ state: 'detached' });

    // The admin browses to /tourist inside the app: the agent socket lives with the shell, so the
    // admin stays ready, a new visitor is still routed to it and the 在线对话 menu entry shows a badge.
    await a.page.getByTestId('menu-/tourist').click();
    await a.page.getByTestId('tourist-online-table').waitFor();
    await a.page.waitForTimeout(1_000);
    const adminStatus = async () =>
      (await api<{ status: string }>(V, '/api/agent/status', { token: adminToken })).data.status;
    expect(await adminStatus()).toBe('ready');
    expect(await a.page.getByTestId('agent-state').getAttribute('data-state')).toBe('ready');
    const userid2 = randomUser();
    visitor2 = io(`${V}/im/user`, {
      transports: ['websocket'],
      query: { appid, userid: userid2 },
      forceNew: true,
    });
    await once(visitor2, 'welcome');
    const newAck2 = await visitor2.emitWithAck('new', {
      name: '浏览中来访',
      url: 'https://shop.example.com/',
    });
    expect(newAck2.success && newAck2.data.status).toBe('inservice');
    await visitor2.emitWithAck('message', {
      clientId: `v-${randomUser()}`,
      message: '有人在吗',
      msgtype: 'text',
    });
    await a.page.getByTestId('menu-dialogue-badge').waitFor();
    expect(await adminStatus()).toBe('ready');
    await a.page.getByTestId('menu-/dialogue').click();
    await a.page.getByTestId(`chat-item-${userid2}`).click();
    await a.page.getByTestId('message-in').filter({ hasText: '有人在吗' }).waitFor();
    await a.page.getByTestId('menu-dialogue-badge').waitFor({ state: 'detached' });
    expect(await adminStatus()).toBe('ready');
    visitor2.disconnect();

    // /tourist with a visitor online on the demo page, in both languages.
    const demo = await b.context.newPage();
    await demo.goto(`${V}/im/demo.html`);
    await demo.locator('#kefu-widget button.btn').waitFor();
    await a.page.goto(`${V}/tourist`);
    const table = a.page.getByTestId('tourist-online-table');
    await expect
      .poll(async () => {
        await a.page.getByTestId('tourist-refresh').click();
        return table.locator('.ant-table-row').count();
      })
      .toBeGreaterThan(0);
    await a.page.mouse.move(700, 700); // no tooltip on the refresh button
    await settle(a.page);
    await screenshot(a.page, 'collaboration-tourist-zh');
    await switchLanguage(a.page, 'English');
    await a.page.locator('[data-testid="tourist-refresh"][aria-label="Refresh"]').waitFor();
    await a.page.mouse.move(700, 700);
    await settle(a.page);
    await screenshot(a.page, 'collaboration-tourist-en');

    const history = await api<{ list: MessageDto[] }>(
      V,
      `/api/talk/chatMessage?agentserviceid=${newAck.success ? newAck.data.agentserviceid : ''}&ps=100`,
      { token: adminToken },
    );
    expect(history.data.list.filter((m) => m.type === 'message').map((m) => m.message)).toEqual([
      '在吗？',
      '我想改一下收货地址',
    ]);
    expect(errors).toEqual([]);
  });
});
