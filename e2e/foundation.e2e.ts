import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.js';
import { openBrowser, screenshot } from './support/browser.js';

/**
 * Issue 2's "done means": a newcomer logs in as admin, creates a department, a role with a subset of
 * codes and an agent in it; the agent, in another browser, sees only the allowed menus and routes.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const tid = (page: Page, id: string) => page.getByTestId(id);

async function login(page: Page, user: string, pass: string) {
  await page.goto(`${server.url}/login`);
  await tid(page, 'login-username').fill(user);
  await tid(page, 'login-password').fill(pass);
  await tid(page, 'login-submit').click();
  await tid(page, 'main-menu').waitFor();
}

async function pick(page: Page, testId: string, text: string) {
  await page.locator(`[data-testid="${testId}"]`).click();
  await page.keyboard.type(text);
  await page
    .locator('.ant-select-dropdown:visible, .ant-select-tree-dropdown:visible')
    .getByTitle(text, { exact: true })
    .first()
    .click();
}

const menuIds = (page: Page) =>
  page.locator('[data-testid^="menu-/"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));

describe('foundation: admin sets up a department, role and agent; the agent sees only what the role allows', () => {
  const dept = '销售部';
  const role = '坐席';
  const agent = 'agent01';
  const agentPass = 'Agent#12345';

  it('a wrong password shows the server message and stores no session', async () => {
    const b = await openBrowser();
    try {
      await b.page.goto(`${server.url}/login`);
      await tid(b.page, 'login-username').fill('admin');
      await tid(b.page, 'login-password').fill('wrong-password');
      await tid(b.page, 'login-submit').click();
      await expect.poll(() => tid(b.page, 'login-error').textContent()).toContain('密码错误');
      expect(await b.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await screenshot(b.page, 'foundation-login-error');
    } finally {
      await b.close();
    }
  });

  it('admin creates the department, the role with codes A01 + A06_A02_A08, and the agent', async () => {
    const b = await openBrowser();
    const { page } = b;
    try {
      await login(page, 'admin', ADMIN_PASSWORD);
      await page.goto(`${server.url}/setup/section`);
      await tid(page, 'organ-create').click();
      await tid(page, 'organ-name').fill(dept);
      await page.waitForTimeout(400); // the dialog's opening animation
      await screenshot(page, 'foundation-organ-form');
      await tid(page, 'organ-form-submit').click();
      await tid(page, `organ-node-${dept}`).waitFor();

      await page.goto(`${server.url}/setup/role`);
      await tid(page, 'role-create').click();
      // The shared form dialog refuses an empty name on its field and stays open.
      await tid(page, 'role-form-submit').click();
      await page.getByTestId('role-form').locator('.ant-form-item-explain-error').first().waitFor();
      await page.waitForTimeout(400); // the error's fade-in
      await screenshot(page, 'foundation-role-form-required');
      await tid(page, 'role-name').fill(role);
      await tid(page, 'role-form-submit').click();
      await tid(page, `role-row-${role}`).click();
      for (const code of ['A01', 'A06_A02_A08']) await tid(page, `auth-node-${code}`).click();
      const saved = page.waitForResponse((r) => r.url().includes('/api/role/auth/save'));
      await tid(page, 'auth-save').click();
      expect((await (await saved).json()).success).toBe(true);
      await screenshot(page, 'foundation-role');

      await page.goto(`${server.url}/setup/section`);
      await tid(page, `organ-node-${dept}`).click();
      await tid(page, 'user-create').click();
      // The shared validators refuse a bad mobile and email with the spec's messages.
      await tid(page, 'user-mobile').fill('123');
      await tid(page, 'user-email').fill('bad@');
      await tid(page, 'user-submit').click();
      await expect.poll(() => page.getByText('手机格式错误').count()).toBeGreaterThan(0);
      await expect.poll(() => page.getByText('邮箱格式错误').count()).toBeGreaterThan(0);
      await screenshot(page, 'foundation-user-form-errors');

      await tid(page, 'user-username').fill(agent);
      await tid(page, 'user-password').fill(agentPass);
      await tid(page, 'user-uname').fill('小王');
      await tid(page, 'user-mobile').fill('13912345678');
      await tid(page, 'user-email').fill('');
      await pick(page, 'user-roles', role);
      await page.keyboard.press('Escape');
      const created = page.waitForResponse((r) => r.url().includes('/api/user/save'));
      await tid(page, 'user-submit').click();
      expect((await (await created).json()).success).toBe(true);
      await tid(page, `user-edit-${agent}`).waitFor();
      await page.locator('.ant-modal-wrap').first().waitFor({ state: 'hidden' });
      await screenshot(page, 'foundation-section');
    } finally {
      await b.close();
    }
  });

  it('the agent, in another browser, sees only the allowed menus and routes', async () => {
    const b = await openBrowser();
    const { page } = b;
    try {
      await login(page, agent, agentPass);
      await expect
        .poll(() => menuIds(page))
        .toEqual(expect.arrayContaining(['menu-/dialogue', 'menu-/dataAnalysis']));
      const menus = await menuIds(page);
      for (const hidden of [
        'menu-/setup',
        'menu-/monitor',
        'menu-/tourist',
        'menu-/history',
        'menu-/quality',
      ])
        expect(menus).not.toContain(hidden);
      await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
      await screenshot(page, 'foundation-agent-home');

      // A parent's redirect falls back to its first visible child (searchEngine is not allowed).
      await page.goto(`${server.url}/dataAnalysis`);
      await expect.poll(() => new URL(page.url()).pathname).toBe('/dataAnalysis/loginLog');
      await tid(page, 'loginlog-table').waitFor();

      // Routes outside the role go to /401, and the server refuses the calls too.
      await page.goto(`${server.url}/setup/role`);
      await expect.poll(() => new URL(page.url()).pathname).toBe('/401');
      await screenshot(page, 'foundation-agent-401');
      const status = await page.evaluate(async () => {
        const r = await fetch('/api/role/list', {
          headers: { authorization: localStorage.getItem('token') ?? '' },
        });
        return (await r.json()) as { success: boolean; code: number };
      });
      expect(status).toMatchObject({ success: false, code: 403 });
    } finally {
      await b.close();
    }
  });
});
