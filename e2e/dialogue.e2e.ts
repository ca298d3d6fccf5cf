import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import type { MessageDto, VisitorWelcome } from '@kefu/protocol';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { startCluster, type Cluster } from './support/cluster';
import { openBrowser, screenshot } from './support/browser';
import { makePng } from './support/png';
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
  type Env,
  type VisitorSocket,
} from './support/dialogue';

/**
 * The agent workspace end to end: a visitor on /im/user chats with the admin agent in the console
 * (text and images both ways), the chat is transferred to a second agent who refuses (second
 * browser), then to a third who agrees (third browser), the chat ends, and the ended tab and the
 * history call still hold every message. Run twice: on one server process with SQLite, and on two
 * processes sharing PostgreSQL + Redis with the visitor on one node and the agents spread over both.
 */
type Browser = Awaited<ReturnType<typeof openBrowser>>;

/** Which server process each party talks to. */
interface Topology {
  /** The visitor's socket and uploads; also the admin API calls and the cross-node media check. */
  visitorUrl: string;
  /** The console each agent's browser opens. */
  agentUrls: { admin: string; agent2: string; agent3: string };
  /** Prefix of the screenshot names. */
  shots: string;
  /** SQLite data directory (single node): lets the access point fall back to a direct insert. */
  sqliteDir?: string;
}

/** What a run opened, closed by afterAll even when the scenario fails half way. */
interface Opened {
  browsers: Browser[];
  visitor?: VisitorSocket;
}

async function closeAll(o: Opened) {
  o.visitor?.disconnect();
  for (const b of o.browsers.splice(0)) await b.close().catch(() => undefined);
}

/** Every image of the page has loaded (served with a decodable body), not just been rendered as a tag. */
const imagesLoaded = (page: Browser['page']) =>
  page
    .getByTestId('message-image')
    .evaluateAll((els) =>
      els.every((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0),
    );

async function dialogueScenario(topo: Topology, opened: Opened) {
  const V = topo.visitorUrl;
  const adminToken = await tokenOf(V, ADMIN_PASSWORD);
  // Two more agents with the stock agent role in the default skill group.
  await addAgents(V, adminToken, [
    ['agent2', '坐席二'],
    ['agent3', '坐席三'],
  ]);
  const appid = await accessPoint(V, adminToken, topo.sqliteDir);

  // Agent 1 (admin) opens the workspace and goes ready.
  const a = await openBrowser();
  opened.browsers.push(a);
  const errors: string[] = [];
  a.page.on('pageerror', (e) => errors.push(e.message));
  await login(a.page, topo.agentUrls.admin, 'admin', ADMIN_PASSWORD);
  await setReady(a.page);

  // The visitor connects and asks for an agent.
  const userid = randomUser();
  const visitor: VisitorSocket = io(`${V}/im/user`, {
    transports: ['websocket'],
    query: { appid, userid },
    forceNew: true,
  });
  opened.visitor = visitor;
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
  const gotImage = once(visitor, 'message', (m: MessageDto) => m.calltype === 'out' && m.msgtype === 'image');
  await a.page
    .locator('input[type=file][accept="image/*"]')
    .setInputFiles({ name: 'agent.png', mimeType: 'image/png', buffer: makePng(200, 120, 40) });
  const img = await gotImage;
  expect(img.attachmentid).toBeTruthy();
  const served = await fetch(`${V}/res/image.html?id=${img.attachmentid}&vt=${userid}.${welcome.token}`);
  expect(served.status).toBe(200);

  // Visitor → agent image (visitor upload endpoint, then a message with the attachment).
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(makePng(160, 160, 140))], { type: 'image/png' }),
    'visitor.png',
  );
  const up = (await (
    await fetch(`${V}/im/upload?appid=${appid}&vt=${userid}.${welcome.token}&kind=image`, {
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
  // Both images load in the agent's console (on a two-node run, served by the other node's upload).
  await expect.poll(() => imagesLoaded(a.page)).toBe(true);

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
  await screenshot(a.page, `${topo.shots}-zh`);
  await a.page.getByTestId('language-switch').click();
  await a.page.locator('.ant-select-item-option').filter({ hasText: 'English' }).click();
  await a.page.getByTestId('tab-dialogue').filter({ hasText: 'Current' }).waitFor();
  await a.page.locator('.ant-select-dropdown').waitFor({ state: 'hidden' });
  await a.page.waitForTimeout(400);
  await screenshot(a.page, `${topo.shots}-en`);

  // Agents 2 and 3 log in (own browsers) and go ready.
  const b = await openBrowser();
  opened.browsers.push(b);
  await login(b.page, topo.agentUrls.agent2, 'agent2', AGENT_PASSWORD);
  await setReady(b.page);
  const c = await openBrowser();
  opened.browsers.push(c);
  await login(c.page, topo.agentUrls.agent3, 'agent3', AGENT_PASSWORD);
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
  await screenshot(b.page, `${topo.shots}-transfer-prompt`);
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
  await expect.poll(() => imagesLoaded(c.page)).toBe(true);
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
  await screenshot(c.page, `${topo.shots}-ended-zh`);

  const history = await api<{ list: MessageDto[] }>(V, `/api/talk/chatMessage?agentserviceid=${sid}&ps=100`, {
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
}

const SCENARIO = 'chats both ways, transfers (refused, then accepted), ends, and keeps the history';

describe('agent workspace /dialogue — single node, SQLite', () => {
  let server: RunningServer;
  const opened: Opened = { browsers: [] };
  beforeAll(async () => {
    ensureConsoleBuilt();
    server = await startServer();
  });
  afterAll(async () => {
    await closeAll(opened);
    await server?.stop();
  });
  it(SCENARIO, () =>
    dialogueScenario(
      {
        visitorUrl: server.url,
        agentUrls: { admin: server.url, agent2: server.url, agent3: server.url },
        shots: 'dialogue',
        sqliteDir: server.dataDir,
      },
      opened,
    ),
  );
});

describe.skipIf(!process.env.TEST_PG_URL || !process.env.REDIS_URL)(
  'agent workspace /dialogue — two nodes, PostgreSQL + Redis',
  () => {
    let cluster: Cluster;
    const opened: Opened = { browsers: [] };
    beforeAll(async () => {
      ensureConsoleBuilt();
      cluster = await startCluster(process.env.TEST_PG_URL!, process.env.REDIS_URL!);
    });
    afterAll(async () => {
      await closeAll(opened);
      await cluster?.stop();
    });
    // The visitor is on A; agents 1 and 3 on B; agent 2 (who refuses) on A, so every step crosses
    // nodes: messages and typing both ways, uploads served by the other node, the transfer prompt
    // (B → A), the refusal (A → B), the accepted transfer (B → B, visitor told on A) and the end.
    it(SCENARIO, () => {
      const [a, b] = cluster.nodes;
      return dialogueScenario(
        {
          visitorUrl: a.url,
          agentUrls: { admin: b.url, agent2: a.url, agent3: b.url },
          shots: 'dialogue-2nodes',
        },
        opened,
      );
    });
  },
);
