import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import type { MessageDto, SensitiveWordDto, VisitorWelcome } from '@kefu/protocol';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { openBrowser, screenshot } from './support/browser';
import {
  accessPoint,
  adminToken as tokenOf,
  api,
  login,
  once,
  randomUser,
  setReady,
  type VisitorSocket,
} from './support/dialogue';

/**
 * Sensitive words end to end: the admin adds a block word to the agent list and a mask word to the
 * visitor list on /setup/sensitiveWords; a visitor writes 代開發票 and the agent's console shows it
 * masked; the agent's composer warns about the block word and does not send it, and the server refuses
 * it from a socket that skips the composer.
 */
type Browser = Awaited<ReturnType<typeof openBrowser>>;

let srv: RunningServer;
const opened: { browsers: Browser[]; visitor?: VisitorSocket } = { browsers: [] };

beforeAll(async () => {
  ensureConsoleBuilt();
  srv = await startServer();
});
afterAll(async () => {
  opened.visitor?.disconnect();
  for (const b of opened.browsers) await b.close().catch(() => undefined);
  await srv?.stop();
});

describe('sensitive words in the console', () => {
  it('admin adds a block and a mask word; the visitor masked, the composer warns, the server refuses', async () => {
    const base = srv.url;
    const token = await tokenOf(base, ADMIN_PASSWORD);
    const appid = await accessPoint(base, token, srv.dataDir);

    const a = await openBrowser();
    opened.browsers.push(a);
    const errors: string[] = [];
    a.page.on('pageerror', (e) => errors.push(e.message));
    await login(a.page, base, 'admin', ADMIN_PASSWORD);
    const p = a.page;
    const tid = (id: string) => p.getByTestId(id);

    // The agent list: 赌博 → block.
    await p.goto(`${base}/setup/sensitiveWords`);
    await tid('sw-screen').waitFor();
    await tid('sw-agent-new').click();
    await tid('sw-agent-form-word').fill('赌博');
    await tid('sw-agent-form-action-block').click();
    await tid('sw-agent-form-submit').click();
    await tid('sw-agent-word-赌博').waitFor();
    // The visitor list: 代开发票 → mask, then a batch with a duplicate of it.
    await tid('sw-tab-user').click();
    await tid('sw-user-new').click();
    await tid('sw-user-form-word').fill('代开发票');
    await tid('sw-user-form-submit').click();
    await tid('sw-user-word-代开发票').waitFor();
    await tid('sw-user-batch').click();
    await tid('sw-user-bulk-words').fill('代開發票\n刷单\n返现');
    await tid('sw-user-bulk-submit').click();
    await expect.poll(() => tid('sw-user-bulk-result').innerText()).toContain('代開發票');
    await screenshot(p, 'sensitive-1-batch-zh');
    expect(await tid('sw-user-bulk-words').inputValue()).toContain('刷单');
    await p.keyboard.press('Escape');
    await tid('sw-user-bulk').waitFor({ state: 'hidden' });
    await tid('sw-user-word-刷单').waitFor();
    await screenshot(p, 'sensitive-2-user-list-zh');
    const listed = await api<{ list: SensitiveWordDto[] }>(base, '/api/sensitive/user/page', { token });
    expect(listed.data.list.map((w) => w.word).sort()).toEqual(['代开发票', '刷单', '返现'].sort());

    // English.
    await p.evaluate(() => localStorage.setItem('language', 'en'));
    await p.reload();
    await tid('sw-screen').waitFor();
    await expect.poll(() => tid('sw-tab-agent').innerText()).toBe('Agent words');
    await screenshot(p, 'sensitive-3-agent-list-en');
    await tid('sw-tab-pii').click();
    await tid('sw-pii-phone').click();
    await expect.poll(() => tid('sw-pii-preview').innerText()).toContain('138****5678');
    await screenshot(p, 'sensitive-4-pii-en');
    await p.evaluate(() => localStorage.setItem('language', 'zh'));

    // The workspace: the admin is the agent.
    await p.goto(`${base}/dialogue`);
    await tid('dialogue-screen').waitFor();
    await setReady(p);
    const userid = randomUser();
    const visitor: VisitorSocket = io(`${base}/im/user`, {
      transports: ['websocket'],
      query: { appid, userid },
      forceNew: true,
    });
    opened.visitor = visitor;
    (await once(visitor, 'welcome')) as VisitorWelcome;
    const newAck = await visitor.emitWithAck('new', { name: '敏感词访客' });
    expect(newAck.success).toBe(true);
    const sid = newAck.success ? newAck.data.agentserviceid : '';
    await tid(`chat-item-${userid}`).waitFor();

    // The visitor writes the mask word in traditional characters: the agent sees it masked.
    const sent = await visitor.emitWithAck('message', {
      clientId: `v-${randomUser()}`,
      message: '可以帮我代開發票吗',
      msgtype: 'text',
    });
    expect(sent.success && sent.data.message).toBe('可以帮我＊＊＊＊吗');
    await p.getByTestId('message-in').filter({ hasText: '可以帮我＊＊＊＊吗' }).waitFor();
    expect(await p.getByTestId('message-in').filter({ hasText: '代開發票' }).count()).toBe(0);

    // The agent drafts the block word: the composer warns and does not send it.
    const input = tid('composer-input');
    await input.fill('要不要一起赌 博');
    await expect.poll(() => tid('composer-sensitive').getAttribute('data-action')).toBe('block');
    await expect.poll(() => tid('composer-sensitive').innerText()).toContain('赌博');
    await screenshot(p, 'sensitive-5-composer-warning-zh');
    await input.press('Enter');
    await p.getByText('消息包含拦截词，请修改后再发送').first().waitFor();
    expect(await input.inputValue()).toBe('要不要一起赌 博');
    expect(await p.getByTestId('message-out').count()).toBe(0);

    // A clean reply goes through; the warning is gone.
    const got = once(visitor, 'message', (m: MessageDto) => m.calltype === 'out');
    await input.fill('您好，发票请在订单页申请');
    await expect.poll(() => tid('composer-sensitive').count()).toBe(0);
    await input.press('Enter');
    expect((await got).message).toBe('您好，发票请在订单页申请');
    await screenshot(p, 'sensitive-6-dialogue-zh');

    // Skipping the composer does not help: the server refuses the block word.
    const agentSocket = io(`${base}/im/agent`, {
      transports: ['websocket'],
      query: { session: token, orgi: 'kefu', admin: 'true' },
      forceNew: true,
    });
    try {
      const refused = await agentSocket.emitWithAck('message', {
        touser: userid,
        agentserviceid: sid,
        clientId: `a-${randomUser()}`,
        message: '赌博',
        msgtype: 'text',
      });
      expect(refused).toMatchObject({ success: false, key: 'sensitive_blocked' });
    } finally {
      agentSocket.disconnect();
    }
    expect(errors).toEqual([]);
  });
});
