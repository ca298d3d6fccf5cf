import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import type { Page } from 'playwright-core';
import type {
  MessageDto,
  VisitorClientToServerEvents,
  VisitorServerToClientEvents,
  VisitorWelcome,
} from '@kefu/protocol';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';
import { openBrowser, screenshot } from './support/browser';

/**
 * The agent workspace end to end: a visitor on /im/user chats with the admin agent in the console
 * (text and images both ways), the chat is transferred to a second agent who refuses (second
 * browser), then to a third who agrees (third browser), the chat ends, and the ended tab and the
 * history call still hold every message.
 */
const ROOT = resolve(import.meta.dirname, '..');
type VisitorSocket = Socket<VisitorServerToClientEvents, VisitorClientToServerEvents>;
type Browser = Awaited<ReturnType<typeof openBrowser>>;
type Env<T> = { success: boolean; data: T; msg?: string; key?: string };

/** A real w×h RGB PNG (a colour gradient) so thumbnails and the viewer show something. */
function makePng(w: number, h: number, hue: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = y * (w * 3 + 1) + 1 + x * 3;
      raw[o] = (hue + (x * 255) / w) & 0xff;
      raw[o + 1] = (y * 255) / h;
      raw[o + 2] = 200;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let server: RunningServer;
let adminToken = '';
const browsers: Browser[] = [];
let visitor: VisitorSocket | undefined;

async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<Env<T>> {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: init.token } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return (await res.json()) as Env<T>;
}

/** An access point for the visitor: the access API when it is there, else a row straight in the database. */
async function accessPoint(): Promise<string> {
  const r = await api<{ id: string }>('/api/dialogue/access/save', {
    token: adminToken,
    body: { name: 'e2e site', domain: '' },
  }).catch(() => null);
  if (r?.success && r.data?.id) return r.data.id;
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(server.dataDir, 'kefu.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const id = `e2e${Date.now().toString(36)}`;
    const now = Date.now();
    db.prepare(
      'insert into access_point (id, orgi, name, domain, organ, createtime, updatetime) values (?, ?, ?, ?, ?, ?, ?)',
    ).run(id, 'kefu', 'e2e site', '', null, now, now);
    return id;
  } finally {
    db.close();
  }
}

async function login(page: Page, username: string, password: string) {
  await page.goto(`${server.url}/login?l=zh`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('main-menu').waitFor();
  await page.goto(`${server.url}/dialogue`);
  await page.getByTestId('dialogue-screen').waitFor();
}

async function setReady(page: Page) {
  await page.getByTestId('agent-state').click();
  await page.getByTestId('agent-state-ready').click();
  await expect.poll(() => page.getByTestId('agent-state').getAttribute('data-state')).toBe('ready');
}

function once<K extends keyof VisitorServerToClientEvents>(
  s: VisitorSocket,
  event: K,
  match: (p: Parameters<VisitorServerToClientEvents[K]>[0]) => boolean = () => true,
  ms = 15_000,
): Promise<Parameters<VisitorServerToClientEvents[K]>[0]> {
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`no ${String(event)} within ${ms} ms`)), ms);
    const on = (p: Parameters<VisitorServerToClientEvents[K]>[0]) => {
      if (!match(p)) return;
      clearTimeout(timer);
      s.off(event, on as never);
      res(p);
    };
    s.on(event, on as never);
  });
}

const randomUser = () =>
  Array.from(
    { length: 32 },
    () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)],
  ).join('');

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'apps/console/dist/index.html'))) {
    execFileSync('npm', ['run', 'build', '-w', 'apps/console'], { cwd: ROOT, stdio: 'inherit' });
  }
  server = await startServer();
  const r = await api<{ token: string }>('/tokens', {
    body: { username: 'admin', password: ADMIN_PASSWORD },
  });
  expect(r.success).toBe(true);
  adminToken = r.data.token;
});

afterAll(async () => {
  visitor?.disconnect();
  for (const b of browsers) await b.close().catch(() => undefined);
  await server?.stop();
});

describe('agent workspace /dialogue', () => {
  it('chats both ways, transfers (refused, then accepted), ends, and keeps the history', async () => {
    // Two more agents with the stock agent role in the default skill group.
    const roles = await api<{ id: string; name: string }[]>('/api/user/listRole', { token: adminToken });
    const role = roles.data.find((x) => x.name === '客服') ?? roles.data[0];
    const skills = await api<{ id: string; name: string }[]>('/api/common/skillList', { token: adminToken });
    const organ = skills.data[0]?.id;
    const password = 'Agent#2026e2e';
    for (const [username, uname] of [
      ['agent2', '坐席二'],
      ['agent3', '坐席三'],
    ]) {
      const u = await api<{ id: string }>('/api/user/save', {
        token: adminToken,
        body: {
          username,
          uname,
          password,
          usertype: '1',
          roles: [role.id],
          organ,
          organs: organ ? [organ] : [],
          maxusers: 5,
        },
      });
      expect(u.success, JSON.stringify(u)).toBe(true);
    }
    const appid = await accessPoint();

    // Agent 1 (admin) opens the workspace and goes ready.
    const a = await openBrowser();
    browsers.push(a);
    const errors: string[] = [];
    a.page.on('pageerror', (e) => errors.push(e.message));
    await login(a.page, 'admin', ADMIN_PASSWORD);
    await setReady(a.page);

    // The visitor connects and asks for an agent.
    const userid = randomUser();
    visitor = io(`${server.url}/im/user`, {
      transports: ['websocket'],
      query: { appid, userid },
      forceNew: true,
    });
    const welcome = (await once(visitor, 'welcome')) as VisitorWelcome;
    const newAck = await visitor.emitWithAck('new', {
      name: 'E2E访客',
      url: 'https://shop.example.com/pricing',
      browser: 'Chrome 126',
      osname: 'Linux',
    });
    expect(newAck.success && newAck.data.status).toBe('inservice');
    const sid = newAck.success ? newAck.data.agentserviceid : '';

    const item = a.page.getByTestId(`chat-item-${userid}`);
    await item.waitFor();
    await expect.poll(() => item.getAttribute('data-selected')).toBe('true');
    await expect
      .poll(() => a.page.getByTestId('visitor-panel').innerText())
      .toContain('shop.example.com/pricing');

    // Visitor → agent text; the agent sees it and the summary in the list.
    const sentIn = await visitor.emitWithAck('message', {
      clientId: `v-${randomUser()}`,
      message: '你好，我想咨询价格',
      msgtype: 'text',
    });
    expect(sentIn.success).toBe(true);
    await a.page.getByTestId('message-in').filter({ hasText: '你好，我想咨询价格' }).waitFor();

    // Agent → visitor text (Enter sends; Shift+Enter would break the line).
    const gotText = once(visitor, 'message', (m: MessageDto) => m.calltype === 'out' && m.msgtype === 'text');
    const input = a.page.getByTestId('composer-input');
    const agentTyping = once(visitor, 'writing');
    await input.fill('您好，');
    expect((await agentTyping).message).toBe('您好，');
    await input.press('Shift+Enter');
    await input.pressSequentially('请问需要哪个套餐？');
    await input.press('Enter');
    expect((await gotText).message).toBe('您好，\n请问需要哪个套餐？');
    expect(await input.inputValue()).toBe('');

    // A message sent by mistake is withdrawn (own, within 2 minutes): the visitor is told.
    const gotOops = once(visitor, 'message', (m: MessageDto) => m.message === '发错了');
    await input.fill('发错了');
    await input.press('Enter');
    const oops = await gotOops;
    const withdrawn = once(visitor, 'withdraw', (w) => w.id === oops.id);
    await a.page
      .getByTestId('message-out')
      .filter({ hasText: '发错了' })
      .getByTestId('message-withdraw')
      .click();
    await withdrawn;
    await a.page.getByTestId('message-out').filter({ hasText: '消息已撤回' }).waitFor();

    // Voice must be mp3/mpeg/ogg.
    await a.page
      .locator('input[type=file][accept*=".mp3"]')
      .setInputFiles({ name: 'memo.wav', mimeType: 'audio/wav', buffer: Buffer.from('RIFF0000WAVE') });
    await a.page
      .locator('.ant-message')
      .filter({ hasText: 'audio file format error, supports mp3/mpeg/ogg' })
      .waitFor();
    await expect.poll(() => a.page.getByTestId('message-out').last().getAttribute('data-pending')).toBe('');

    // Agent → visitor image through the upload button.
    const gotImage = once(
      visitor,
      'message',
      (m: MessageDto) => m.calltype === 'out' && m.msgtype === 'image',
    );
    await a.page
      .locator('input[type=file][accept="image/*"]')
      .setInputFiles({ name: 'agent.png', mimeType: 'image/png', buffer: makePng(200, 120, 40) });
    const img = await gotImage;
    expect(img.attachmentid).toBeTruthy();
    const served = await fetch(
      `${server.url}/res/image.html?id=${img.attachmentid}&vt=${userid}.${welcome.token}`,
    );
    expect(served.status).toBe(200);

    // Visitor → agent image (visitor upload endpoint, then a message with the attachment).
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(makePng(160, 160, 140))], { type: 'image/png' }),
      'visitor.png',
    );
    const up = (await (
      await fetch(`${server.url}/im/upload?appid=${appid}&vt=${userid}.${welcome.token}&kind=image`, {
        method: 'POST',
        body: form,
      })
    ).json()) as Env<{ id: string }>;
    expect(up.success, JSON.stringify(up)).toBe(true);
    await visitor.emitWithAck('message', {
      clientId: `v-${randomUser()}`,
      msgtype: 'image',
      attachmentid: up.data.id,
      message: '',
    });
    await expect.poll(() => a.page.getByTestId('message-image').count()).toBe(2);

    // The image viewer opens on a click, zooms, wraps around and closes with Esc.
    await a.page.getByTestId('message-image').last().click();
    await a.page.getByTestId('image-viewer').waitFor();
    await a.page.getByTestId('viewer-zoom-in').click();
    expect(await a.page.getByTestId('viewer-scale').innerText()).toBe('120%');
    await a.page.keyboard.press('ArrowRight');
    expect(await a.page.getByTestId('viewer-index').innerText()).toBe('1 / 2');
    await a.page.keyboard.press('Escape');
    await a.page.getByTestId('image-viewer').waitFor({ state: 'detached' });

    // The visitor types: the agent sees the draft.
    visitor.emit('writing', { message: '我再看看' });
    await a.page.getByTestId('visitor-typing').waitFor();

    await a.page.waitForTimeout(400);
    await screenshot(a.page, 'dialogue-zh');
    await a.page.getByTestId('language-switch').click();
    await a.page.locator('.ant-select-item-option').filter({ hasText: 'English' }).click();
    await a.page.getByTestId('tab-dialogue').filter({ hasText: 'Current' }).waitFor();
    await a.page.locator('.ant-select-dropdown').waitFor({ state: 'hidden' });
    await a.page.waitForTimeout(400);
    await screenshot(a.page, 'dialogue-en');

    // Agents 2 and 3 log in (own browsers) and go ready.
    const b = await openBrowser();
    browsers.push(b);
    await login(b.page, 'agent2', password);
    await setReady(b.page);
    const c = await openBrowser();
    browsers.push(c);
    await login(c.page, 'agent3', password);
    await setReady(c.page);

    const transferTo = async (name: string) => {
      await a.page.getByTestId('chat-transfer').click();
      await a.page.getByTestId('transfer-agent').click();
      await a.page.locator('.ant-select-item-option').filter({ hasText: name }).click();
      await a.page.getByTestId('transfer-submit').click();
    };

    // Agent 2 refuses: the chat stays with agent 1.
    await transferTo('agent2');
    await b.page.getByTestId('transfer-prompt').waitFor();
    expect(await b.page.getByTestId('transfer-agree').innerText()).toContain('Agree');
    await b.page.waitForTimeout(400); // the modal's opening animation
    await screenshot(b.page, 'dialogue-transfer-prompt');
    await b.page.getByTestId('transfer-refuse').click();
    await b.page.getByTestId('transfer-prompt').waitFor({ state: 'detached' });
    await a.page.locator('.ant-message').filter({ hasText: 'refused' }).waitFor();
    expect(await a.page.getByTestId(`chat-item-${userid}`).count()).toBe(1);
    expect(await b.page.getByTestId(`chat-item-${userid}`).count()).toBe(0);

    // Agent 3 agrees: the chat moves.
    const assigned = once(visitor, 'assigned', (p) => p.transfer);
    await transferTo('agent3');
    await c.page.getByTestId('transfer-agree').click();
    await c.page.getByTestId(`chat-item-${userid}`).waitFor();
    await a.page.getByTestId(`chat-item-${userid}`).waitFor({ state: 'detached' });
    expect((await assigned).agentserviceid).toBe(sid);

    // Agent 3 sees the whole conversation and answers.
    await expect.poll(() => c.page.getByTestId('message-image').count()).toBe(2);
    const got3 = once(
      visitor,
      'message',
      (m: MessageDto) => m.calltype === 'out' && m.message === '我是坐席三，继续为您服务',
    );
    await c.page.getByTestId('composer-input').fill('我是坐席三，继续为您服务');
    await c.page.getByTestId('composer-send').click();
    await got3;

    // Agent 3 ends the chat (confirm titled 提示).
    const ended = once(visitor, 'end');
    await c.page.getByTestId('chat-end').click();
    await c.page.locator('.ant-modal-confirm-title').filter({ hasText: '提示' }).waitFor();
    await c.page.getByTestId('confirm-ok').click();
    expect((await ended).endby).toBe('agent');
    await c.page.getByTestId(`chat-item-${userid}`).waitFor({ state: 'detached' });

    // The ended tab keeps every message.
    await c.page.getByTestId('tab-end').click();
    await c.page.getByTestId(`ended-item-${userid}`).click();
    const pane = c.page.getByTestId('ended-pane');
    await pane.getByTestId('message-in').filter({ hasText: '你好，我想咨询价格' }).waitFor();
    await pane.getByTestId('message-out').filter({ hasText: '请问需要哪个套餐？' }).waitFor();
    await pane.getByTestId('message-out').filter({ hasText: '我是坐席三，继续为您服务' }).waitFor();
    expect(await pane.getByTestId('message-image').count()).toBe(2);
    await c.page.waitForTimeout(300);
    await screenshot(c.page, 'dialogue-ended-zh');

    const history = await api<{ list: MessageDto[] }>(`/api/talk/chatMessage?agentserviceid=${sid}&ps=100`, {
      token: adminToken,
    });
    const chat = history.data.list.filter((m) => m.type === 'message');
    expect(chat.map((m) => [m.calltype, m.msgtype, m.withdrawn])).toEqual([
      ['in', 'text', false],
      ['out', 'text', false],
      ['out', 'text', true],
      ['out', 'image', false],
      ['in', 'image', false],
      ['out', 'text', false],
    ]);
    expect(errors).toEqual([]);
  });
});
