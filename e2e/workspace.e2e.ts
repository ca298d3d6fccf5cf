import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import type { MessageDto } from '@kefu/protocol';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { browserPool, screenshot } from './support/browser';
import {
  addAgents,
  adminToken,
  AGENT_PASSWORD,
  api,
  login,
  once,
  randomUser,
  setReady,
  type VisitorSocket,
} from './support/dialogue';

/**
 * The agent workspace as a new user meets it (issue 11, points 1–4): the agent's state survives a
 * reload and is one state for every device of the agent; a chat whose visitor left is marked and gives
 * way to a new chat, which arrives with sound, badge and highlight; the transcript carries the visitor's
 * system lines; the source page is the website's page with the trail.
 */
type Browser = Awaited<ReturnType<ReturnType<typeof browserPool>['open']>>;

let srv: RunningServer;
let admin: string;
const browsers = browserPool();
const browser = browsers.open;
const visitors: VisitorSocket[] = [];

beforeAll(async () => {
  ensureConsoleBuilt();
  srv = await startServer();
  admin = await adminToken(srv.url, ADMIN_PASSWORD);
  await addAgents(srv.url, admin, [
    ['ws_state', '状态坐席'],
    ['ws_chat', '接待坐席'],
    ['ws_page', '来源坐席'],
  ]);
});
afterAll(async () => {
  visitors.forEach((v) => v.disconnect());
  await browsers.closeAll();
  await srv?.stop();
});

const agentToken = async (username: string) =>
  (await api<{ token: string }>(srv.url, '/tokens', { body: { username, password: AGENT_PASSWORD } })).data
    .token;
const serverState = async (token: string) =>
  (await api<{ status: string }>(srv.url, '/api/agent/status', { token })).data.status;
const shownState = (b: Browser) => b.page.getByTestId('agent-state').getAttribute('data-state');

function visitor(query: Record<string, string> = {}): { s: VisitorSocket; userid: string } {
  const userid = randomUser();
  const s: VisitorSocket = io(`${srv.url}/im/user`, {
    transports: ['websocket'],
    query: { appid: 'demo', userid, ...query },
    forceNew: true,
  });
  visitors.push(s);
  return { s, userid };
}

async function askForAgent(v: { s: VisitorSocket }, name: string) {
  await once(v.s, 'welcome');
  const ack = await v.s.emitWithAck('new', { name, url: 'https://shop.example.com/' });
  expect(ack.success && ack.data.status).toBe('inservice');
  return ack.success ? ack.data.agentserviceid : '';
}

describe('agent workspace', () => {
  it('the agent state survives a reload and is one state for all devices of the agent, shown in the header', async () => {
    const token = await agentToken('ws_state');
    const a = await browser();
    await login(a.page, srv.url, 'ws_state', AGENT_PASSWORD);
    await setReady(a.page);
    expect(await a.page.getByTestId('agent-state-text').innerText()).toBe('就绪');
    await screenshot(a.page, 'firstuse-agent-state-zh');

    // A full page load: the old socket goes, the new one comes; the state stays ready.
    await a.page.reload();
    await a.page.getByTestId('dialogue-screen').waitFor();
    await expect.poll(() => shownState(a)).toBe('ready');
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await serverState(token)).toBe('ready');
    expect(await shownState(a)).toBe('ready');

    // A second device opens: it reads the shared state and flips nothing; a choice there shows here.
    const b = await browser();
    await login(b.page, srv.url, 'ws_state', AGENT_PASSWORD);
    await expect.poll(() => shownState(b)).toBe('ready');
    expect(await shownState(a)).toBe('ready');
    await b.page.getByTestId('agent-state').click();
    await b.page.getByTestId('agent-state-busy').click();
    await expect.poll(() => shownState(a)).toBe('busy');
    // The second device closes: the first keeps the state, and so does the server.
    await browsers.close(b);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await shownState(a)).toBe('busy');
    expect(await serverState(token)).toBe('busy');
    await a.page.goto(`${srv.url}/dialogue?l=en`);
    await a.page.getByTestId('dialogue-screen').waitFor();
    expect(await a.page.getByTestId('agent-state-text').innerText()).toBe('Busy');
    await screenshot(a.page, 'firstuse-agent-state-en');
  });

  it('a chat whose visitor left is marked; a new chat takes its place with sound, badge and highlight; system lines', async () => {
    const a = await browser();
    // Count the sounds the page plays (Chromium headless has no audio device to hear them).
    await a.context.addInitScript(() => {
      const played: string[] = [];
      (window as unknown as { __played: string[] }).__played = played;
      HTMLMediaElement.prototype.play = function play(this: HTMLMediaElement) {
        played.push(this.src);
        return Promise.resolve();
      };
    });
    await login(a.page, srv.url, 'ws_chat', AGENT_PASSWORD);
    await setReady(a.page);
    const played = () => a.page.evaluate(() => (window as unknown as { __played: string[] }).__played);

    const v1 = visitor();
    await askForAgent(v1, '离开的访客');
    const item1 = a.page.getByTestId(`chat-item-${v1.userid}`);
    await expect.poll(() => item1.getAttribute('data-selected')).toBe('true');
    // The transcript starts with what the visitor saw: the welcome and the assignment.
    const pane = a.page.getByTestId('message-list');
    await pane.locator('[data-testid="message-system"][data-kind="welcome"]').waitFor();
    await pane.locator('[data-testid="message-system"][data-kind="assigned"]').waitFor();
    expect(await pane.locator('[data-kind="welcome"]').innerText()).toContain('您好，欢迎咨询');

    // The visitor closes the chat window: the chat is marked offline, in the list and the pane.
    v1.s.disconnect();
    await a.page.getByTestId(`chat-offline-${v1.userid}`).waitFor();
    await a.page.getByTestId('chat-pane-offline').waitFor();

    // A new visitor: the dead chat gives way; the new one is opened, with the new-chat sound.
    const v2 = visitor();
    const sid2 = await askForAgent(v2, '新访客');
    const item2 = a.page.getByTestId(`chat-item-${v2.userid}`);
    await expect.poll(() => item2.getAttribute('data-selected')).toBe('true');
    await expect.poll(async () => (await played()).some((src) => src.endsWith('/sounds/new.mp3'))).toBe(true);
    // The reply goes to the new visitor, not into the dead chat.
    const got = once(v2.s, 'message', (m: MessageDto) => m.calltype === 'out');
    await a.page.getByTestId('composer-input').fill('您好，请问有什么可以帮您？');
    await a.page.getByTestId('composer-input').press('Enter');
    expect((await got).agentserviceid).toBe(sid2);

    // Another visitor while the open chat is live: it does not take over, it stands out until opened.
    const v3 = visitor();
    await askForAgent(v3, '第三位访客');
    const item3 = a.page.getByTestId(`chat-item-${v3.userid}`);
    await a.page.getByTestId(`chat-new-${v3.userid}`).waitFor();
    expect(await item3.getAttribute('data-fresh')).toBe('true');
    expect(await item2.getAttribute('data-selected')).toBe('true');
    await expect.poll(() => a.page.getByTestId('tab-dialogue-badge').innerText()).toContain('1');
    await screenshot(a.page, 'firstuse-dialogue-zh');

    // The visitor ends the chat: the end line the visitor got joins the transcript.
    await v2.s.emitWithAck('end', {});
    await pane.locator('[data-testid="message-system"][data-kind="end"]').waitFor();
    await item3.click();
    await expect.poll(() => item3.getAttribute('data-fresh')).toBe(null);
    await a.page.goto(`${srv.url}/dialogue?l=en`);
    await a.page.getByTestId('dialogue-screen').waitFor();
    await a.page.getByTestId(`chat-item-${v1.userid}`).click();
    await a.page.getByTestId(`chat-offline-${v1.userid}`).waitFor();
    await pane.locator('[data-kind="assigned"]').waitFor();
    await screenshot(a.page, 'firstuse-dialogue-en');
    // Off duty, so the next scenario's visitor goes to its own agent.
    await api(srv.url, '/api/agent/notready', { token: await agentToken('ws_chat') });
  });

  it('the source page is the website page the visitor is on, with its trail', async () => {
    const a = await browser();
    await login(a.page, srv.url, 'ws_page', AGENT_PASSWORD);
    await setReady(a.page);
    const v = await browser({ width: 1280, height: 800 });
    await v.page.goto(`${srv.url}/im/demo.html`);
    await v.page.locator('#kefu-widget button.btn').click();
    const chat = v.page.frameLocator('#kefu-widget iframe');
    await chat.getByTestId('header-sub').filter({ hasText: '为您服务' }).waitFor();
    await chat.getByTestId('header-avatar').waitFor();
    await screenshot(v.page, 'firstuse-widget-avatar-zh');
    const source = a.page.getByTestId('visitor-source');
    await expect.poll(() => source.locator('a').getAttribute('href')).toBe(`${srv.url}/im/demo.html`);
    expect(await a.page.getByTestId('visitor-panel').innerText()).not.toContain('/visitor/mini');
    await expect.poll(() => a.page.getByTestId('visitor-trail-page').count()).toBeGreaterThan(0);
    expect(await a.page.getByTestId('visitor-trail').innerText()).toContain('星河家居');
    await screenshot(a.page, 'firstuse-visitor-panel-zh');
    await a.page.goto(`${srv.url}/dialogue?l=en`);
    await a.page.getByTestId('visitor-trail').waitFor();
    await screenshot(a.page, 'firstuse-visitor-panel-en');
  });
});
