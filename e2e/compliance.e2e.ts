import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { openBrowser, screenshot } from './support/browser';
import { adminToken as tokenOf, api } from './support/dialogue';

/**
 * The setup screens of issue 14 in Chromium, in Chinese and English: records (audit log), secret key and
 * webhooks, business systems, corporate security. Each walk does the screen's main job through the UI
 * and checks the server's side of it.
 */
type Browser = Awaited<ReturnType<typeof openBrowser>>;

let srv: RunningServer;
let b: Browser;
let token: string;
const errors: string[] = [];

async function loginAdmin(p: Page) {
  await p.goto(`${srv.url}/login?l=zh`);
  await p.getByTestId('login-username').fill('admin');
  await p.getByTestId('login-password').fill(ADMIN_PASSWORD);
  await p.getByTestId('login-submit').click();
  await p.getByTestId('main-menu').waitFor();
}

async function inEnglish(p: Page, path: string, testId: string) {
  await p.evaluate(() => localStorage.setItem('language', 'en'));
  await p.goto(`${srv.url}${path}`);
  await p.getByTestId(testId).waitFor();
}

async function inChinese(p: Page, path: string, testId: string) {
  await p.evaluate(() => localStorage.setItem('language', 'zh'));
  await p.goto(`${srv.url}${path}`);
  await p.getByTestId(testId).waitFor();
}

beforeAll(async () => {
  ensureConsoleBuilt();
  srv = await startServer();
  token = await tokenOf(srv.url, ADMIN_PASSWORD);
  b = await openBrowser();
  b.page.on('pageerror', (e) => errors.push(e.message));
  await loginAdmin(b.page);
});
afterAll(async () => {
  await b?.close().catch(() => undefined);
  await srv?.stop();
});

describe('records (audit log)', () => {
  it('lists what admins changed, with before/after, searchable and exported', async () => {
    const p = b.page;
    const tid = (id: string) => p.getByTestId(id);
    await api(srv.url, '/api/role/save', { token, body: { name: '质检员' } });
    await api(srv.url, '/api/sensitive/agent/save', { token, body: { word: '退款', action: 'alert' } });
    const words = await api<{ list: Array<{ id: string }> }>(srv.url, '/api/sensitive/agent/page', { token });
    await api(srv.url, '/api/sensitive/agent/update', {
      token,
      body: { id: words.data.list[0]!.id, action: 'block' },
    });
    await inChinese(p, '/setup/records', 'records-screen');
    await tid('rec-action-sensitive.agent.update').waitFor();
    await tid('rec-action-role.save').waitFor();
    // Expand the update: before and after.
    await p
      .locator('tr', { has: tid('rec-action-sensitive.agent.update') })
      .locator('.ant-table-row-expand-icon')
      .click();
    const detail = p.locator('[data-testid^="rec-detail-"]').first();
    await expect.poll(() => detail.innerText()).toContain('"action": "alert"');
    await expect.poll(() => detail.innerText()).toContain('"action": "block"');
    await screenshot(p, 'records-1-zh');
    // Search narrows the list.
    await tid('rec-q').fill('role');
    await tid('rec-filter-search').click();
    await expect.poll(() => p.locator('[data-testid^="rec-action-"]').count()).toBe(1);
    // Export: the job runs and the file can be downloaded.
    await tid('rec-export').click();
    await expect.poll(async () => tid('rec-export-download').isEnabled(), { timeout: 30_000 }).toBe(true);
    await screenshot(p, 'records-2-export-zh');
    // Starting the export is recorded; following its progress is not.
    const rec = (action: string) =>
      api<{ total: number }>(srv.url, `/api/records/list?action=${action}`, { token }).then(
        (r) => r.data.total,
      );
    expect(await rec('records.export')).toBe(1);
    expect(await rec('export.job')).toBe(0);
    await p.keyboard.press('Escape');
    await inEnglish(p, '/setup/records', 'records-screen');
    await expect.poll(() => p.getByText('Records').first().isVisible()).toBe(true);
    await screenshot(p, 'records-3-en');
    expect(errors).toEqual([]);
  });
});
