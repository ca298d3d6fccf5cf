import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import ExcelJS from 'exceljs';
import type { HistoryPage, TagDto } from '@kefu/protocol';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { openBrowser, screenshot, switchLanguage } from './support/browser';
import {
  accessPoint,
  adminToken as tokenOf,
  api,
  login,
  once,
  randomUser,
  type VisitorSocket,
} from './support/dialogue';

/**
 * /history end to end in Chromium: a chat is held and ended in /dialogue; in /history it is found by a
 * two-character Chinese keyword (with the matching line shown) and by its tag, its record opened (the
 * transcript, the summary saved), exported in the background and downloaded — the test opens the .xlsx
 * with exceljs and checks both sheets. Screenshots in zh and en.
 */
type Browser = Awaited<ReturnType<typeof openBrowser>>;

describe('conversation history (/history)', () => {
  let server: RunningServer;
  let browser: Browser | undefined;
  let visitor: VisitorSocket | undefined;
  const tmp = mkdtempSync(join(tmpdir(), 'kefu-e2e-history-'));
  beforeAll(async () => {
    ensureConsoleBuilt();
    server = await startServer();
  });
  afterAll(async () => {
    visitor?.disconnect();
    await browser?.close().catch(() => undefined);
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('finds an ended chat by a Chinese keyword and by tag, opens its record, exports it', async () => {
    const V = server.url;
    const token = await tokenOf(V, ADMIN_PASSWORD);
    const appid = await accessPoint(V, token, server.dataDir);
    const tag = await api<TagDto>(V, '/api/tag/save', { token, body: { name: '投诉', tagtype: 'summary' } });
    expect(tag.success).toBe(true);
    browser = await openBrowser();
    const page = browser.page;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await login(page, V, 'admin', ADMIN_PASSWORD);

    // ---- a chat in /dialogue, tagged, then ended
    await page.goto(`${V}/dialogue`);
    await page.getByTestId('dialogue-screen').waitFor();
    // Ready through the API (the state menu is the dialogue scenario's subject).
    expect((await api(V, '/api/agent/ready', { token })).success).toBe(true);
    const userid = randomUser();
    visitor = io(`${V}/im/user`, { transports: ['websocket'], query: { appid, userid }, forceNew: true });
    await once(visitor, 'welcome');
    const ack = await visitor.emitWithAck('new', { name: '陈小红' });
    expect(ack.success).toBe(true);
    const sid = ack.success ? ack.data.agentserviceid : '';
    await visitor.emitWithAck('message', {
      clientId: `v-${randomUser()}`,
      message: '衣服尺码不对，我要退款',
      msgtype: 'text',
    });
    await visitor.emitWithAck('message', {
      clientId: `v-${randomUser()}`,
      message: '订单号 A20261124',
      msgtype: 'text',
    });
    await page.getByTestId('message-in').filter({ hasText: '我要退款' }).waitFor();
    const related = await api(V, '/api/talk/tagrelation', {
      token,
      body: { agentserviceid: sid, tagid: tag.data.id, checked: true },
    });
    expect(related.success).toBe(true);
    const ended = await api(V, `/api/talk/end?agentserviceid=${sid}`, { token });
    expect(ended.success).toBe(true);
    // Another ended chat that must not match.
    const other = randomUser();
    const v2: VisitorSocket = io(`${V}/im/user`, {
      transports: ['websocket'],
      query: { appid, userid: other },
      forceNew: true,
    });
    await once(v2, 'welcome');
    const ack2 = await v2.emitWithAck('new', {});
    await v2.emitWithAck('message', {
      clientId: `v-${randomUser()}`,
      message: '什么时候发货',
      msgtype: 'text',
    });
    await api(V, `/api/talk/end?agentserviceid=${ack2.success ? ack2.data.agentserviceid : ''}`, { token });
    v2.disconnect();

    // ---- /history: the keyword 退款
    await page.goto(`${V}/history`);
    await page.getByTestId('history-screen').waitFor();
    await page.getByTestId('history-keyword').fill('退款');
    await page.getByTestId('history-filter-search').click();
    await page.getByTestId(`history-snippet-${sid}`).filter({ hasText: '我要退款' }).waitFor();
    await expect
      .poll(() => page.getByTestId('history-table').locator('tbody tr.ant-table-row').count())
      .toBe(1);
    await page.waitForTimeout(300);
    await screenshot(page, 'history-keyword-zh');

    // ---- by tag (keyword cleared)
    await page.getByTestId('history-filter-reset').click();
    await expect
      .poll(() => page.getByTestId('history-table').locator('tbody tr.ant-table-row').count())
      .toBe(2);
    await page.getByTestId('history-tag').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('投诉', { exact: true }).click();
    await page.getByTestId('history-filter-search').click();
    await expect
      .poll(() => page.getByTestId('history-table').locator('tbody tr.ant-table-row').count())
      .toBe(1);
    await page.getByTestId(`history-row-${sid}`).waitFor();
    const viaApi = await api<HistoryPage>(V, `/api/agentService/list?tagid=${tag.data.id}`, { token });
    expect(viaApi.data.list.map((r) => r.id)).toEqual([sid]);

    // ---- the record: transcript and summary
    await page.getByTestId(`history-view-${sid}`).click();
    const drawer = page.getByTestId('history-drawer');
    await drawer.getByTestId('history-transcript').getByText('衣服尺码不对，我要退款').waitFor();
    await drawer.getByTestId('history-transcript').getByText('订单号 A20261124').waitFor();
    await drawer.getByTestId('history-info').getByText('陈小红').waitFor();
    await page.getByTestId('history-summary-memo').fill('已安排退款');
    await page.getByTestId('history-summary-save').click();
    await page.locator('.ant-message').filter({ hasText: '已保存' }).last().waitFor();
    const detail = await api<{ summary: { memo: string } }>(
      V,
      `/api/agentService/detail?agentserviceid=${sid}`,
      { token },
    );
    expect(detail.data.summary.memo).toBe('已安排退款');
    await page.waitForTimeout(400);
    await screenshot(page, 'history-detail-zh');
    // The drawer covers the shell's language menu: switch with it closed, then open it again.
    await page.locator('.ant-drawer-close').click();
    await expect.poll(() => drawer.isVisible()).toBe(false);
    await switchLanguage(page, 'English');
    await page.getByTestId('history-screen').getByText('Started').first().waitFor();
    await screenshot(page, 'history-list-en');
    await page.getByTestId(`history-view-${sid}`).click();
    await drawer.getByText('Transcript').waitFor();
    await drawer.getByTestId('history-transcript').getByText('订单号 A20261124').waitFor();
    await page.waitForTimeout(400);
    await screenshot(page, 'history-detail-en');
    await page.locator('.ant-drawer-close').click();
    await expect.poll(() => drawer.isVisible()).toBe(false);
    await switchLanguage(page, '简体中文');

    // ---- export what the filter matches, in the background, and open the file
    await page.getByTestId('history-export').click();
    const download = page.getByTestId('history-export-download');
    await expect.poll(() => download.isEnabled(), { timeout: 30_000 }).toBe(true);
    await page.waitForTimeout(400);
    await screenshot(page, 'history-export-zh');
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/^历史对话-\d{8}-\d{6}\.xlsx$/);
    const xlsx = join(tmp, 'history.xlsx');
    await file.saveAs(xlsx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['会话', '消息']);
    const convs = wb.getWorksheet('会话')!;
    expect(convs.rowCount).toBe(2);
    expect(convs.getRow(2).getCell(1).value).toBe(sid);
    expect(convs.getRow(2).getCell(2).value).toBe('陈小红');
    expect(convs.getRow(2).getCell(22).value).toBe('投诉');
    expect(convs.getRow(2).getCell(23).value).toBe('已安排退款');
    const texts: string[] = [];
    wb.getWorksheet('消息')!.eachRow((r, n) => {
      if (n > 1) {
        expect(r.getCell(1).value).toBe(sid);
        texts.push(String(r.getCell(7).value ?? ''));
      }
    });
    expect(texts).toEqual(expect.arrayContaining(['衣服尺码不对，我要退款', '订单号 A20261124']));
    expect(errors).toEqual([]);
  });
});
