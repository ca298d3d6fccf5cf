// Shared start of the screenshot scripts: a fresh Chromium profile, page errors collected, and the
// small helpers every walk uses (screenshot by name, element by data-testid, settle, log in).
import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Opens Chromium at 1440×900; `permissions` as for Playwright (e.g. clipboard). */
export async function openBrowser({ base, out, permissions } = {}) {
  const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'kefu-pw-')), {
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1440, height: 900 },
    ...(permissions ? { permissions } : {}),
  });
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  const shot = (name, full = false) => page.screenshot({ path: join(out, `${name}.png`), fullPage: full });
  const tid = (id) => page.getByTestId(id);
  const settle = () => page.waitForTimeout(600);
  /** Logs in on the login screen and waits for the main menu. */
  async function login(user, pass) {
    await page.goto(`${base}/login`);
    await tid('login-username').fill(user);
    await tid('login-password').fill(pass);
    await tid('login-submit').click();
    await tid('main-menu').waitFor();
  }
  return { ctx, page, errors, shot, tid, settle, login };
}
