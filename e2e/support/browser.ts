import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../screenshots');

/** A real Debian Chromium with its own profile: each call is an independent "browser" (own storage). */
export async function openBrowser(viewport = { width: 1440, height: 900 }): Promise<{
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}> {
  const profile = mkdtempSync(join(tmpdir(), 'kefu-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport,
    locale: 'zh-CN',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** Switches the console's language with the shell's language select, and waits for the menu to close. */
export async function switchLanguage(page: Page, label: 'English' | '简体中文'): Promise<void> {
  await page.getByTestId('language-switch').click();
  await page.locator('.ant-select-item-option').filter({ hasText: label }).click();
  await expect.poll(() => page.locator('.ant-select-item-option:visible').count()).toBe(0);
  await page.waitForTimeout(400);
}

type OpenBrowser = Awaited<ReturnType<typeof openBrowser>>;

/** The browsers a test file opens, closed together by its afterAll (also when a scenario fails half way). */
export function browserPool() {
  const opened: OpenBrowser[] = [];
  return {
    async open(viewport?: { width: number; height: number }): Promise<OpenBrowser> {
      const b = await openBrowser(viewport);
      opened.push(b);
      return b;
    },
    async close(b: OpenBrowser): Promise<void> {
      opened.splice(opened.indexOf(b), 1);
      await b.close();
    },
    async closeAll(): Promise<void> {
      for (const b of opened.splice(0)) await b.close().catch(() => undefined);
    },
  };
}
