import { createServer, type Server } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import type { FrameLocator, Page } from 'playwright-core';
import {
  AGENT_NAMESPACE,
  type Ack,
  type AgentClientToServerEvents,
  type AgentServerToClientEvents,
  type AgentUserDto,
  type MessageDto,
} from '@kefu/protocol';
import { ADMIN_PASSWORD, freePort, startServer, type RunningServer } from './support/server.js';
import { openBrowser, screenshot } from './support/browser.js';

type AgentSocket = Socket<AgentServerToClientEvents, AgentClientToServerEvents>;

/** A W×H RGB PNG with a colour gradient (a "photo" the visitor sends). */
function png(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      raw.set([40 + (x * 200) / w, 120 + (y * 100) / h, 200], y * (w * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PNG = png(160, 100);

let srv: RunningServer;
let token = '';

async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${srv.url}${path}`, {
    method,
    headers: { authorization: token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const env = (await res.json()) as { success: boolean; data: T; msg: string };
  if (!env.success) throw new Error(`${method} ${path}: ${env.msg}`);
  return env.data;
}

/** Resolves with the first event `name` whose payload passes `pred`. */
function next<K extends keyof AgentServerToClientEvents>(
  s: AgentSocket,
  name: K,
  pred: (p: Parameters<AgentServerToClientEvents[K]>[0]) => boolean = () => true,
): Promise<Parameters<AgentServerToClientEvents[K]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${String(name)} event`)), 20_000);
    const on = s.on.bind(s) as (ev: string, fn: (p: never) => void) => void;
    const off = s.off.bind(s) as (ev: string, fn: (p: never) => void) => void;
    const fn = (p: never) => {
      if (!pred(p)) return;
      clearTimeout(timer);
      off(name, fn);
      resolve(p);
    };
    on(name, fn);
  });
}

async function connectAgent(): Promise<AgentSocket> {
  const s: AgentSocket = io(`${srv.url}${AGENT_NAMESPACE}`, {
    query: { session: token, orgi: 'kefu', admin: 'true' },
    transports: ['websocket'],
  });
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  return s;
}

const setStatus = (s: AgentSocket, status: 'ready' | 'notready') =>
  s.timeout(10_000).emitWithAck('agentstatus', { status }) as Promise<Ack<{ status: string }>>;

/** The chat iframe the loader opened on the host page (inside the widget's open shadow root). */
const chatFrame = (page: Page): FrameLocator => page.frameLocator('#kefu-widget iframe');

describe('visitor widget on the demo page', () => {
  beforeAll(async () => {
    srv = await startServer();
    const login = await fetch(`${srv.url}/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    token = ((await login.json()) as { data: { token: string } }).data.token;
    // Information collection on the seeded demo access point: name and phone required.
    await api('POST', '/api/gathering/save', {
      appid: 'demo',
      enabled: true,
      name: { enabled: true, required: true },
      phone: { enabled: true, required: true },
      email: { enabled: true, required: false },
      question: { enabled: true, required: false },
      rememberHours: 1,
    });
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('serves the loader, the demo page and the visitor pages', async () => {
    const loader = await fetch(`${srv.url}/im/loader.js`);
    expect(loader.status).toBe(200);
    expect(loader.headers.get('content-type')).toMatch(/javascript/);
    // Company websites on other origins must be able to load the script.
    expect(loader.headers.get('cross-origin-resource-policy') ?? 'cross-origin').toBe('cross-origin');
    for (const path of ['/visitor', '/visitor/pc?appid=demo', '/visitor/navigation?appid=demo']) {
      const page = await fetch(`${srv.url}${path}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/im/assets/');
    }
    const cfg = (await (await fetch(`${srv.url}/im/config?appid=demo`)).json()) as {
      data: { information: { enabled: boolean } };
    };
    expect(cfg.data.information.enabled).toBe(true);
  });

  it('desktop: pre-chat form, chat with an agent (text, typing, read, image, withdraw), end and rating', async () => {
    const agent = await connectAgent();
    expect((await setStatus(agent, 'ready')).success).toBe(true);
    const b = await openBrowser({ width: 1440, height: 900 });
    try {
      const { page } = b;
      await page.goto(`${srv.url}/im/demo.html`);
      const button = page.locator('#kefu-widget button.btn');
      await button.waitFor();
      expect(await button.textContent()).toContain('在线客服');
      await screenshot(page, 'visitor-desktop-demo');
      await button.click();

      const chat = chatFrame(page);
      const form = chat.getByTestId('prechat-form');
      await form.waitFor();
      await form.getByRole('button', { name: '开始咨询' }).click();
      await expect
        .poll(() => form.locator('.kf-err').allTextContents())
        .toEqual(['必填项不能为空', '必填项不能为空']);
      await form.locator('input[name=name]').fill('张三');
      await form.locator('input[name=phone]').fill('12345');
      await form.locator('input[name=email]').fill('bad@');
      await form.getByRole('button', { name: '开始咨询' }).click();
      await expect
        .poll(() => form.locator('.kf-err').allTextContents())
        .toEqual(['手机格式错误', '邮箱格式错误']);
      await form.locator('input[name=phone]').fill('13800138000');
      await form.locator('input[name=email]').fill('zhangsan@example.com');
      await form.locator('textarea[name=question]').fill('想咨询退货');
      await screenshot(page, 'visitor-desktop-prechat');
      const assigned = next(agent, 'new');
      await form.getByRole('button', { name: '开始咨询' }).click();
      const au = (await assigned) as AgentUserDto;
      expect(au.username).toBe('张三');
      await chat.getByTestId('header-sub').filter({ hasText: '为您服务' }).waitFor();
      // The greeting (successmsg) comes in the ack of the widget's own `new`, not as `assigned`.
      await chat.getByTestId('notice').filter({ hasText: '坐席分配成功' }).waitFor();

      // Visitor → agent.
      const incoming = next(agent, 'message', (m) => (m as MessageDto).calltype === 'in');
      const box = chat.locator('.kf-input textarea');
      await box.fill('你好，我想咨询退货 <b>not bold</b>');
      await box.press('Enter');
      const vm = (await incoming) as MessageDto;
      expect(vm.message).toBe('你好，我想咨询退货 <b>not bold</b>');
      await chat.getByTestId('msg-mine').filter({ hasText: '<b>not bold</b>' }).waitFor();
      await chat.locator('.kf-mine .kf-unread').first().waitFor();

      // Typing, then the agent's reply, then the agent reads.
      agent.emit('message', { touser: au.userid, message: '', type: 'writing', msgtype: 'text' });
      await chat.getByText('对方正在输入…').waitFor();
      const reply = (await agent.timeout(10_000).emitWithAck('message', {
        touser: au.userid,
        message: '您好，请提供订单号',
        msgtype: 'text',
        clientId: 'agent-reply-000001',
      })) as Ack<MessageDto>;
      expect(reply.success).toBe(true);
      await chat.getByTestId('msg-agent').filter({ hasText: '您好，请提供订单号' }).waitFor();
      await api('GET', `/api/talk/readmsg?userid=${au.userid}`);
      await chat.locator('.kf-mine .kf-read').first().waitFor();

      // Network drop: the agent writes meanwhile, the visitor's message waits pending; after the
      // reconnect (lastSeq catch-up + resend with the same clientId) each appears exactly once.
      await b.context.setOffline(true);
      await chat.locator('.kf-banner').waitFor();
      const offlineReply = (await agent.timeout(10_000).emitWithAck('message', {
        touser: au.userid,
        message: '离线期间的消息',
        msgtype: 'text',
        clientId: 'agent-reply-offline1',
      })) as Ack<MessageDto>;
      expect(offlineReply.success).toBe(true);
      const resent: MessageDto[] = [];
      agent.on('message', (m) => {
        if (m.message === '断网时发送') resent.push(m);
      });
      await box.fill('断网时发送');
      await box.press('Enter');
      await chat.getByTestId('msg-pending').filter({ hasText: '断网时发送' }).waitFor();
      await b.context.setOffline(false);
      await chat.locator('.kf-banner').waitFor({ state: 'detached' });
      await chat.getByTestId('msg-mine').filter({ hasText: '断网时发送' }).waitFor();
      await expect
        .poll(() => chat.getByTestId('msg-agent').filter({ hasText: '离线期间的消息' }).count())
        .toBe(1);
      expect(await chat.getByTestId('msg-mine').filter({ hasText: '断网时发送' }).count()).toBe(1);
      expect(await chat.getByTestId('msg-pending').count()).toBe(0);
      await expect.poll(() => resent.length).toBe(1);

      // Reload while offline: the unsent message survives in the durable outbox and, once online, is
      // resent with the same clientId: the agent gets it once and the visitor sees it once. The page's
      // files come from a copy taken now (as a browser cache would); the chat connection stays cut off.
      const files = new Map<string, { status: number; contentType: string; body: Buffer }>();
      const frameUrl = await page.locator('#kefu-widget iframe').getAttribute('src');
      const assets = await chat
        .locator('script[src], link[rel=stylesheet]')
        .evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).src || (e as HTMLLinkElement).href));
      for (const url of [
        page.url(),
        `${srv.url}/im/loader.js`,
        `${srv.url}/im/config?appid=demo`,
        ...assets,
      ]) {
        const res = await fetch(new URL(url, srv.url));
        files.set(new URL(url, srv.url).pathname, {
          status: res.status,
          contentType: res.headers.get('content-type') ?? '',
          body: Buffer.from(await res.arrayBuffer()),
        });
      }
      const mini = await fetch(new URL(frameUrl ?? '', srv.url));
      files.set(new URL(frameUrl ?? '', srv.url).pathname, {
        status: mini.status,
        contentType: mini.headers.get('content-type') ?? '',
        body: Buffer.from(await mini.arrayBuffer()),
      });
      let offline = false;
      await b.context.route(
        (url) => url.origin === srv.url,
        async (route) => {
          if (!offline) return route.fallback();
          const hit = files.get(new URL(route.request().url()).pathname);
          if (hit) return route.fulfill({ status: hit.status, contentType: hit.contentType, body: hit.body });
          return route.abort('internetdisconnected');
        },
      );
      const afterReload: MessageDto[] = [];
      agent.on('message', (m) => {
        if (m.message === '刷新前未发出') afterReload.push(m);
      });
      offline = true;
      await b.context.setOffline(true);
      await chat.locator('.kf-banner').waitFor();
      await box.fill('刷新前未发出');
      await box.press('Enter');
      await chat.getByTestId('msg-pending').filter({ hasText: '刷新前未发出' }).waitFor();
      await page.reload();
      await button.click();
      // Restored from storage: shown pending before any connection.
      await chat.getByTestId('msg-pending').filter({ hasText: '刷新前未发出' }).waitFor();
      offline = false;
      await b.context.setOffline(false);
      await chat.getByTestId('msg-mine').filter({ hasText: '刷新前未发出' }).waitFor();
      await expect.poll(() => afterReload.length).toBe(1);
      await chat.getByTestId('msg-agent').filter({ hasText: '离线期间的消息' }).waitFor();
      expect(await chat.getByTestId('msg-mine').filter({ hasText: '刷新前未发出' }).count()).toBe(1);
      expect(await chat.getByTestId('msg-mine').filter({ hasText: '断网时发送' }).count()).toBe(1);
      expect(await chat.getByTestId('msg-pending').count()).toBe(0);
      await b.context.unrouteAll();

      // Image upload through the visitor endpoint; the image is served back to this visitor.
      const imgMsg = next(agent, 'message', (m) => (m as MessageDto).msgtype === 'image');
      await chat
        .getByTestId('pick-image')
        .setInputFiles({ name: 'order.png', mimeType: 'image/png', buffer: PNG });
      expect(((await imgMsg) as MessageDto).attachmentid).toBeTruthy();
      const img = chat.locator('.kf-mine img.kf-img');
      await img.waitFor();
      await expect.poll(() => img.evaluate((e) => (e as HTMLImageElement).naturalWidth)).toBe(160);

      // The agent withdraws its reply.
      if (reply.success) await api('GET', `/api/talk/withdraw?id=${reply.data.id}`);
      await chat.getByTestId('withdrawn').filter({ hasText: '消息已撤回' }).waitFor();
      await screenshot(page, 'visitor-desktop-chat');

      // The agent ends the chat: end notice, read-only, rating.
      await api('GET', `/api/talk/end?agentserviceid=${au.agentserviceid}`);
      await chat.getByTestId('readonly').waitFor();
      const rating = chat.getByTestId('rating-form');
      await rating.waitFor();
      await rating.getByRole('button', { name: '提交评价' }).click();
      await rating.getByText('请选择评价等级').waitFor();
      await rating.getByRole('radio', { name: '满意', exact: true }).click();
      await rating.locator('textarea').fill('回复很快');
      await screenshot(page, 'visitor-desktop-rating');
      await rating.getByRole('button', { name: '提交评价' }).click();
      await chat.getByTestId('rate-done').waitFor();

      // Closing the window keeps the consult button.
      await chat.getByRole('button', { name: '关闭' }).click();
      await button.waitFor();
    } finally {
      await b.close();
      agent.disconnect();
    }
  });

  it('a company site on another origin embeds the loader; postMessage works across origins', async () => {
    const port = await freePort();
    const site: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><title>Other site</title><h1>Other company</h1>` +
          `<script src="${srv.url}/im/loader.js" data-appid="demo" async></script>`,
      );
    });
    await new Promise<void>((r) => site.listen(port, '127.0.0.1', r));
    // The company names its site on the access point: only then may that origin read kefu's answers (CORS).
    await api('POST', '/api/dialogue/access/update', {
      id: 'demo',
      name: '演示网站',
      domain: `localhost:${port}`,
    });
    const b = await openBrowser({ width: 1280, height: 800 });
    try {
      const { page } = b;
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      // localhost vs 127.0.0.1: a different origin from the kefu server.
      await page.goto(`http://localhost:${port}/`);
      const button = page.locator('#kefu-widget button.btn');
      await button.waitFor();
      await button.click();
      await chatFrame(page).getByTestId('prechat-form').waitFor();
      // The iframe's close button reaches the host page through the origin-checked postMessage.
      await chatFrame(page).getByRole('button', { name: '关闭' }).click();
      await button.waitFor();
      expect(await page.locator('#kefu-widget .panel').isHidden()).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await b.close();
      site.close();
    }
  });

  it('phone: with every agent offline the same page offers the leave-message form', async () => {
    const agent = await connectAgent();
    await setStatus(agent, 'notready');
    agent.disconnect();
    const b = await openBrowser({ width: 375, height: 812 });
    try {
      const { page } = b;
      await page.goto(`${srv.url}/im/demo.html`);
      const button = page.locator('#kefu-widget button.btn');
      await button.waitFor();
      await screenshot(page, 'visitor-phone-demo');
      await button.click();
      // A narrow viewport opens the full-page mobile chat.
      await page.waitForURL(/\/visitor\/mobile\?/);
      const form = page.getByTestId('prechat-form');
      await form.waitFor();
      await form.locator('input[name=name]').fill('李四');
      await form.locator('input[name=phone]').fill('13900139000');
      await screenshot(page, 'visitor-phone-prechat');
      await form.getByRole('button', { name: '开始咨询' }).click();

      const leave = page.getByTestId('leave-form');
      await leave.waitFor();
      expect(await leave.locator('input[name=name]').inputValue()).toBe('李四');
      expect(await leave.locator('input[name=mobile]').inputValue()).toBe('13900139000');
      await leave.getByRole('button', { name: '提交留言' }).click();
      await leave.getByText('必填项不能为空').waitFor();
      await leave.locator('textarea[name=content]').fill('请尽快回电，谢谢');
      await screenshot(page, 'visitor-phone-leavemsg');
      await leave.getByRole('button', { name: '提交留言' }).click();
      await page.getByTestId('leave-done').waitFor();
      await screenshot(page, 'visitor-phone-leavemsg-done');

      const list = await api<{ content?: { content: string; name: string }[]; list?: unknown[] }>(
        'GET',
        '/api/leavemsg/list',
      );
      expect(JSON.stringify(list)).toContain('请尽快回电，谢谢');

      // Closing ends the queued chat (read-only); once an agent is back, a new chat starts with the
      // remembered pre-chat answers (no form) and the phone layout shows the conversation.
      await page.getByTestId('leave-done').getByRole('button', { name: '关闭' }).click();
      await page.getByTestId('readonly').waitFor();
      const back = await connectAgent();
      try {
        await setStatus(back, 'ready');
        const assigned = next(back, 'new');
        await page.getByRole('button', { name: '重新咨询' }).click();
        const au = (await assigned) as AgentUserDto;
        expect(au.username).toBe('李四');
        await page.getByTestId('header-sub').filter({ hasText: '为您服务' }).waitFor();
        await page.locator('.kf-input textarea').fill('现在有人吗？');
        await page.getByRole('button', { name: '发送' }).click();
        await page.getByTestId('msg-mine').filter({ hasText: '现在有人吗？' }).waitFor();
        await back.timeout(10_000).emitWithAck('message', {
          touser: au.userid,
          message: '您好，我是客服，刚才的留言已收到，马上为您处理。',
          msgtype: 'text',
          clientId: 'agent-reply-000002',
        });
        await page.getByTestId('msg-agent').waitFor();
        await screenshot(page, 'visitor-phone-chat');
      } finally {
        back.disconnect();
      }
    } finally {
      await b.close();
    }
  });
});
