import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { MAIN_ROUTES } from '@kefu/protocol';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { openBrowser, screenshot, switchLanguage } from './support/browser';
import { login } from './support/dialogue';

/**
 * /dataAnalysis end to end in Chromium over generated data (`npm run analysis:demo` on the server's
 * database): each of the 18 routes renders in zh and in English — the 17 analysis screens with a chart
 * (an ECharts canvas) and a table, the login log with its table; a date preset changes the figures; an
 * export downloads and opens. Screenshots of several screens in both languages.
 */
type Browser = Awaited<ReturnType<typeof openBrowser>>;
const ROOT = resolve(import.meta.dirname, '..');
const ROUTES = MAIN_ROUTES.find((r) => r.path === 'dataAnalysis')!.children!.map((c) => c.path);
const SHOTS = ['customerService', 'browser', 'timeAnalysis', 'workLog', 'satisfaction', 'quality'];

describe('data analysis (/dataAnalysis)', () => {
  let server: RunningServer;
  let browser: Browser | undefined;
  const tmp = mkdtempSync(join(tmpdir(), 'kefu-e2e-analysis-'));
  beforeAll(async () => {
    ensureConsoleBuilt();
    server = await startServer();
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/modules/analysis/demo.cli.ts', '40', '300'],
      {
        cwd: ROOT,
        env: { ...process.env, KEFU_DATA_DIR: server.dataDir, DATABASE_URL: '' },
        stdio: 'inherit',
      },
    );
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('every route renders its chart and table in zh and en; dates change the figures; the export opens', async () => {
    expect(ROUTES).toHaveLength(18);
    const V = server.url;
    browser = await openBrowser();
    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await login(page, V, 'admin', ADMIN_PASSWORD);

    for (const lang of ['zh', 'en'] as const) {
      if (lang === 'en') await switchLanguage(page, 'English');
      for (const route of ROUTES) {
        await page.goto(`${V}/dataAnalysis/${route}`);
        if (route === 'loginLog') {
          await page.getByTestId('loginlog-table').locator('.ant-table-row').first().waitFor();
          continue;
        }
        await page.getByTestId('analysis-screen').waitFor();
        const table = page.getByTestId('analysis-table');
        await table.waitFor();
        if (route === 'quality' || route === 'qualityLabel') {
          await table.locator('.ant-table-placeholder').first().waitFor();
          await page.getByTestId('analysis-empty').waitFor();
        } else {
          await page.getByTestId('analysis-chart').locator('canvas').first().waitFor();
          await table.locator('.ant-table-row').first().waitFor();
          await page.getByTestId('analysis-total').waitFor();
        }
        if (SHOTS.includes(route)) {
          await page.waitForTimeout(600);
          await screenshot(page, `analysis-${route}-${lang}`);
        }
      }
    }

    // A date preset changes the figures: the last 30 days hold more conversations than yesterday.
    await page.goto(`${V}/dataAnalysis/customerService`);
    const total = page.getByTestId('analysis-total');
    await total.waitFor();
    await expect.poll(async () => (await total.textContent()) ?? '', { timeout: 15_000 }).not.toBe('');
    const week = await total.textContent();
    await page.getByTestId('analysis-preset-last30').click();
    await expect.poll(() => total.textContent(), { timeout: 15_000 }).not.toBe(week);
    const month = await total.textContent();
    await page.getByTestId('analysis-preset-yesterday').click();
    await expect
      .poll(async () => (await total.count()) === 0 || (await total.textContent()) !== month, {
        timeout: 15_000,
      })
      .toBe(true);
    await page.getByTestId('analysis-preset-last30').click();
    await expect.poll(() => total.textContent(), { timeout: 15_000 }).toBe(month);

    // The table's .xlsx export, in the background, downloaded and opened.
    await page.getByTestId('analysis-export').click();
    const download = page.getByTestId('analysis-export-download');
    await expect.poll(() => download.isEnabled(), { timeout: 30_000 }).toBe(true);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const xlsx = join(tmp, 'analysis.xlsx');
    await file.saveAs(xlsx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('Agent');
    expect(ws.getRow(1).getCell(2).value).toBe('Conversations');
    expect(ws.getRow(ws.rowCount).getCell(1).value).toBe('Total');
    expect(Number(ws.getRow(ws.rowCount).getCell(2).value)).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
