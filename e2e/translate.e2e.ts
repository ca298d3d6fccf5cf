import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
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
 * Message translation in Chromium: the provider set up on /setup/other (a local server speaking the
 * LibreTranslate API), an English visitor's lines shown translated under the original in /dialogue, a
 * failed translation retried from the line.
 */
let srv: RunningServer;
let provider: Server;
let providerUrl = '';
let b: Awaited<ReturnType<typeof openBrowser>>;
const seen: string[] = [];
const errors: string[] = [];
let brokenCalls = 0;

const DICTIONARY: Record<string, string> = {
  'Where is my order?': '我的订单在哪里？',
  'The parcel is broken': '包裹坏了',
};

beforeAll(async () => {
  ensureConsoleBuilt();
  provider = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as {
        q?: string;
        source?: string;
        target?: string;
        api_key?: string;
      };
      seen.push(`${req.url} ${body.source}→${body.target} ${body.q}`);
      res.setHeader('content-type', 'application/json');
      // The first try of the "broken" line fails: the console offers a retry.
      if (
        req.url !== '/translate' ||
        body.api_key !== 'e2e-key' ||
        (body.q?.includes('broken') && !brokenCalls++)
      ) {
        res.writeHead(500);
        return res.end('{}');
      }
      res.end(JSON.stringify({ translatedText: DICTIONARY[body.q ?? ''] ?? `[zh] ${body.q}` }));
    });
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  srv = await startServer();
  b = await openBrowser();
  b.page.on('pageerror', (e) => errors.push(e.message));
});

afterAll(async () => {
  await b?.close().catch(() => undefined);
  await srv?.stop();
  provider?.closeAllConnections();
  await new Promise((r) => provider?.close(r));
});

describe('message translation', () => {
  it('set up on /setup/other; an English visitor line shown translated in /dialogue; a failure retried', async () => {
    const p = b.page;
    const tid = (id: string) => p.getByTestId(id);
    await login(p, srv.url, 'admin', ADMIN_PASSWORD);

    // The flag and the provider, through the screen.
    await p.goto(`${srv.url}/setup/other`);
    await tid('sc-other').waitFor();
    await tid('translate-provider').waitFor();
    if ((await tid('sc-msgtranslate').getAttribute('aria-checked')) !== 'true')
      await tid('sc-msgtranslate').click();
    await tid('sc-other-save').click();
    await tid('tr-provider').click();
    await p.getByText('LibreTranslate 兼容接口').click();
    await tid('tr-url').fill(providerUrl);
    await tid('tr-key').fill('e2e-key');
    await tid('tr-save').click();
    const token = await tokenOf(srv.url, ADMIN_PASSWORD);
    await expect
      .poll(
        async () =>
          (
            await api<{ provider: string; hasKey: boolean }>(srv.url, '/api/translateMessage/config', {
              token,
            })
          ).data,
      )
      .toMatchObject({ provider: 'libre', hasKey: true });
    await tid('translate-provider').scrollIntoViewIfNeeded();
    await p.waitForTimeout(300);
    await screenshot(p, 'translate-1-setup-zh');
    await p.evaluate(() => localStorage.setItem('language', 'en'));
    await p.goto(`${srv.url}/setup/other`);
    await tid('translate-provider').waitFor();
    await tid('translate-provider').scrollIntoViewIfNeeded();
    await p.waitForTimeout(300);
    await screenshot(p, 'translate-2-setup-en');
    await p.evaluate(() => localStorage.setItem('language', 'zh'));

    // An English-speaking visitor writes; the agent reads the translation under the original.
    await p.goto(`${srv.url}/dialogue`);
    await tid('dialogue-screen').waitFor();
    await setReady(p);
    const appid = await accessPoint(srv.url, token, srv.dataDir);
    const userid = randomUser();
    const v: VisitorSocket = io(`${srv.url}/im/user`, {
      transports: ['websocket'],
      query: { appid, userid, l: 'en' },
      forceNew: true,
    });
    try {
      await once(v, 'welcome');
      expect((await v.emitWithAck('new', { name: 'Alice' })).success).toBe(true);
      await tid(`chat-item-${userid}`).click();
      expect(
        (await v.emitWithAck('message', { clientId: 'e2e-tr-0001', message: 'Where is my order?' })).success,
      ).toBe(true);
      await expect.poll(() => tid('translation').first().innerText()).toContain('我的订单在哪里？');
      await expect(tid('message-in').first().innerText()).resolves.toContain('Where is my order?');

      // The provider fails once: the original stays, the line offers a retry that works.
      expect(
        (await v.emitWithAck('message', { clientId: 'e2e-tr-0002', message: 'The parcel is broken' }))
          .success,
      ).toBe(true);
      await tid('translation-failed').waitFor();
      await screenshot(p, 'translate-3-failed-zh');
      await tid('translation-retry').click();
      await expect.poll(() => tid('translation').nth(1).innerText()).toContain('包裹坏了');
      await screenshot(p, 'translate-4-dialogue-zh');
      // The agent's own replies are not translated.
      await tid('composer-input').fill('请提供订单号');
      await tid('composer-input').press('Enter');
      await tid('message-out').last().waitFor();
      expect(await tid('translation').count()).toBe(2);

      // Reloaded in English: the kept translations come back without calling the provider again.
      const calls = seen.length;
      await p.evaluate(() => localStorage.setItem('language', 'en'));
      await p.goto(`${srv.url}/dialogue`);
      await tid(`chat-item-${userid}`).click();
      await expect.poll(() => tid('translation').count()).toBe(2);
      await screenshot(p, 'translate-5-dialogue-en');
      expect(seen.length).toBe(calls);
      expect(seen[0]).toBe('/translate en→zh Where is my order?');
      await p.evaluate(() => localStorage.setItem('language', 'zh'));
      expect(errors).toEqual([]);
    } finally {
      v.disconnect();
    }
  });
});
