import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import type { ConversationSummaryDto, ContactDto, Page as ListPage } from '@kefu/protocol';
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
 * Records of a conversation, end to end in Chromium: tags and service topics are created in their setup
 * screens (/setup/label, /setup/service) and applied to a live chat from the /dialogue panel, where the
 * visitor is turned into a contact and edited inline; the contact is found in /card, edited, exported (the
 * test opens the .xlsx), the sheet is changed and imported back, and a sheet with bad rows is refused with
 * its per-row errors. Screenshots in zh and en.
 */
type Browser = Awaited<ReturnType<typeof openBrowser>>;

const XLSX_COLUMNS = ['编号', '姓名', '手机', '邮箱', '公司'];

async function switchLanguage(page: Page, label: 'English' | '简体中文') {
  await page.getByTestId('language-switch').click();
  await page.locator('.ant-select-item-option').filter({ hasText: label }).click();
  await expect.poll(() => page.locator('.ant-select-item-option:visible').count()).toBe(0);
  await page.waitForTimeout(400);
}

/** Picks `text` in the open antd Select / TreeSelect dropdown. */
async function pick(page: Page, text: string) {
  await page.locator('.ant-select-dropdown:visible').getByTitle(text, { exact: true }).click();
}

/** Dialogs closed and animations over, before a screenshot. */
async function settle(page: Page) {
  await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
  await page.waitForTimeout(400);
}

async function sheetRows(path: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const out: string[][] = [];
  wb.worksheets[0]!.eachRow((r) =>
    out.push(
      Array.from((r.values as unknown[]).slice(1), (v) => (v instanceof Date ? 'date' : String(v ?? ''))),
    ),
  );
  return out;
}

describe('conversation records: tags, topics, contacts (/setup/label, /setup/service, /dialogue, /card)', () => {
  let server: RunningServer;
  let browser: Browser | undefined;
  let visitor: VisitorSocket | undefined;
  const tmp = mkdtempSync(join(tmpdir(), 'kefu-e2e-contacts-'));
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

  it('tags and topics set up, applied in a chat; the visitor becomes a contact, found, edited, exported and imported', async () => {
    const V = server.url;
    const token = await tokenOf(V, ADMIN_PASSWORD);
    const appid = await accessPoint(V, token, server.dataDir);
    browser = await openBrowser();
    const page = browser.page;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await login(page, V, 'admin', ADMIN_PASSWORD);

    // ---- /setup/label: a conversation tag and a contact tag
    await page.goto(`${V}/setup/label`);
    await page.getByTestId('label-screen').waitFor();
    for (const name of ['退款', '发货']) {
      await page.getByTestId('label-summary-new').click();
      await page.getByTestId('label-summary-form-name').fill(name);
      await page.getByTestId('label-summary-form-submit').click();
      await page.getByTestId(`label-summary-tag-${name}`).waitFor();
    }
    await page.getByTestId('label-tab-user').click();
    await page.getByTestId('label-user-new').click();
    await page.getByTestId('label-user-form-name').fill('VIP');
    await page.getByTestId('label-user-form-submit').click();
    await page.getByTestId('label-user-tag-VIP').waitFor();
    await page.getByTestId('label-tab-summary').click();
    await page.getByTestId('label-summary-tag-发货').waitFor();
    await settle(page);
    await screenshot(page, 'records-label-zh');

    // ---- /setup/service: a topic with a sub-topic
    await page.goto(`${V}/setup/service`);
    await page.getByTestId('service-screen').waitFor();
    await page.getByTestId('topic-new').click();
    await page.getByTestId('topic-form-name').fill('售后');
    await page.getByTestId('topic-form-submit').click();
    await page.getByTestId('topic-row-售后').waitFor();
    await page.getByTestId('topic-add-售后').click();
    await page.getByTestId('topic-form-name').fill('物流查询');
    await page.getByTestId('topic-form-submit').click();
    await page.getByTestId('topic-row-物流查询').waitFor();
    await settle(page);
    await screenshot(page, 'records-service-zh');

    // ---- /dialogue: a visitor chats; the panel turns them into a contact, tags the chat, files a summary
    await page.goto(`${V}/dialogue`);
    await page.getByTestId('dialogue-screen').waitFor();
    await setReady(page);
    const userid = randomUser();
    visitor = io(`${V}/im/user`, { transports: ['websocket'], query: { appid, userid }, forceNew: true });
    await once(visitor, 'welcome');
    const ack = await visitor.emitWithAck('new', { name: '王小明', url: 'https://shop.example.com/order' });
    expect(ack.success).toBe(true);
    const sid = ack.success ? ack.data.agentserviceid : '';
    await visitor.emitWithAck('message', {
      clientId: `v-${randomUser()}`,
      message: '我的快递还没到，想退款',
      msgtype: 'text',
    });
    await page.getByTestId(`chat-item-${userid}`).waitFor();
    await page.getByTestId('message-in').filter({ hasText: '想退款' }).waitFor();

    await page.getByTestId('record-create-contact').click();
    const card = page.getByTestId('record-contact');
    await card.filter({ hasText: '王小明' }).waitFor();
    await page.getByTestId('record-contact-edit').click();
    await page.getByTestId('record-contact-phone').fill('1380013');
    await page.getByTestId('record-contact-save').click();
    await page.getByTestId('record-contact-form').getByText('手机格式错误').waitFor();
    await page.getByTestId('record-contact-phone').fill('13800138000');
    await page.getByTestId('record-contact-company').fill('示例科技');
    await page.getByTestId('record-contact-save').click();
    await card.filter({ hasText: '13800138000' }).filter({ hasText: '示例科技' }).waitFor();

    await page.getByTestId('record-tag-退款').click();
    await expect.poll(() => page.getByTestId('record-tag-退款').getAttribute('data-checked')).toBe('true');
    await page.getByTestId('record-topic').click();
    await pick(page, '物流查询');
    await page.getByTestId('record-memo').fill('快递延误，已登记退款');
    await page.getByTestId('record-summary-save').click();
    await page.locator('.ant-message').filter({ hasText: '已保存' }).last().waitFor();
    const data = await api<{ tags: string[]; summary: ConversationSummaryDto; contact: ContactDto }>(
      V,
      `/api/talk/data?userid=${userid}`,
      { token },
    );
    expect(data.data.summary).toMatchObject({ topicname: '物流查询', memo: '快递延误，已登记退款' });
    expect(data.data.tags).toHaveLength(1);
    expect(data.data.contact).toMatchObject({ name: '王小明', phone: '13800138000', company: '示例科技' });
    const contactId = data.data.contact.id;
    await page.getByTestId('conversation-record').scrollIntoViewIfNeeded();
    await screenshot(page, 'records-dialogue-zh');
    await switchLanguage(page, 'English');
    await page.getByTestId('conversation-record').getByText('Conversation tags').waitFor();
    await screenshot(page, 'records-dialogue-en');
    await switchLanguage(page, '简体中文');

    // ---- /card: found by mobile, its conversation in the detail, edited
    await page.goto(`${V}/card`);
    await page.getByTestId('card-screen').waitFor();
    await page.getByTestId('card-q').fill('13800138000');
    await page.getByTestId('card-filter-search').click();
    await page.getByTestId('contact-open-王小明').click();
    const drawer = page.getByTestId('contact-drawer');
    await drawer
      .getByTestId(`contact-conversation-${sid}`)
      .filter({ hasText: '快递延误，已登记退款' })
      .waitFor();
    await expect.poll(() => drawer.getByTestId('contact-details').innerText()).toContain(userid);
    await page.waitForTimeout(300);
    await screenshot(page, 'records-card-detail-zh');
    await page.locator('.ant-drawer-close').click();
    await page.getByTestId('contact-edit-王小明').click();
    await page.getByTestId('contact-form-email').fill('ming@example.com,bad');
    await page.getByTestId('contact-form-submit').click();
    await page.getByTestId('contact-form').getByText('邮箱格式错误').waitFor();
    await page.getByTestId('contact-form-email').fill('ming@example.com');
    await page.getByTestId('contact-form-tags').click();
    await pick(page, 'VIP');
    await page.keyboard.press('Escape');
    await page.getByTestId('contact-form-submit').click();
    await page.getByTestId('card-table').getByText('ming@example.com').waitFor();
    await page.getByTestId('card-table').getByText('VIP').waitFor();

    // A second contact, so the export has more than one row.
    await page.getByTestId('contact-new').click();
    await page.getByTestId('contact-form-name').fill('李雷');
    await page.getByTestId('contact-form-phone').fill('13900139000');
    await page.getByTestId('contact-form-submit').click();
    await page.getByTestId('card-filter-reset').click();
    await page.getByTestId('contact-open-李雷').waitFor();
    await settle(page);
    await screenshot(page, 'records-card-zh');

    // ---- export (everything the list shows) and open the .xlsx
    await page.getByTestId('contact-export').click();
    const download = page.getByTestId('contact-export-download');
    await expect.poll(() => download.isEnabled(), { timeout: 30_000 }).toBe(true);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const xlsx = join(tmp, 'contacts.xlsx');
    await file.saveAs(xlsx);
    await page.keyboard.press('Escape');
    const rows = await sheetRows(xlsx);
    expect(rows[0]!.slice(0, 5)).toEqual(XLSX_COLUMNS);
    const ming = rows.find((r) => r[0] === contactId)!;
    expect(ming.slice(1, 5)).toEqual(['王小明', '13800138000', 'ming@example.com', '示例科技']);
    expect(rows.map((r) => r[1]).sort()).toEqual(['姓名', '李雷', '王小明'].sort());

    // ---- import it back, changed: an updated company and a new row
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(xlsx) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    ws.eachRow((r, n) => {
      if (n > 1 && r.getCell(1).value === contactId) r.getCell(5).value = '示例科技（上海）';
    });
    ws.addRow(['', '韩梅梅', '13700137000', 'meimei@example.com', '新公司']);
    const changed = join(tmp, 'changed.xlsx');
    await wb.xlsx.writeFile(changed);
    await page.getByTestId('contact-import-open').click();
    await page.getByTestId('contact-import').locator('input[type=file]').setInputFiles(changed);
    await page.getByTestId('contact-import-done').filter({ hasText: '新建 1 个，更新 2 个' }).waitFor();
    const after = await api<ListPage<ContactDto>>(V, '/api/contacts/index', { token });
    expect(after.data.list.map((c) => c.name).sort()).toEqual(['李雷', '王小明', '韩梅梅'].sort());
    expect(after.data.list.find((c) => c.id === contactId)).toMatchObject({
      company: '示例科技（上海）',
      tags: [{ name: 'VIP' }],
    });

    // ---- a sheet with bad rows: every bad row listed, nothing stored
    const bad = new ExcelJS.Workbook();
    const bs = bad.addWorksheet('联系人');
    bs.addRow(['姓名', '手机', '邮箱']);
    bs.addRow(['好的一行', '13600136000', '']);
    bs.addRow(['坏手机', '123', '']);
    bs.addRow(['', '13500135000', 'x@y']);
    bs.addRow(['重复手机', '13800138000', '']);
    const badPath = join(tmp, 'bad.xlsx');
    writeFileSync(badPath, Buffer.from(await bad.xlsx.writeBuffer()));
    await page.getByTestId('contact-import').locator('input[type=file]').setInputFiles(badPath);
    const errorsTable = page.getByTestId('contact-import-errors');
    await errorsTable.waitFor();
    for (const text of ['手机格式错误', '必填项不能为空', '邮箱格式错误', '手机号或邮箱已存在'])
      await errorsTable.getByText(text).first().waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'records-card-import-errors-zh');
    const still = await api<ListPage<ContactDto>>(V, '/api/contacts/index', { token });
    expect(still.data.total).toBe(3);
    await page.keyboard.press('Escape');

    // ---- English screenshots of the three screens
    await switchLanguage(page, 'English');
    await page.getByTestId('card-table').getByText('Updated').first().waitFor();
    await screenshot(page, 'records-card-en');
    await page.getByTestId('contact-open-王小明').click();
    await page.getByTestId('contact-drawer').getByText('Conversations').waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'records-card-detail-en');
    await page.goto(`${V}/setup/label`);
    await page.getByTestId('label-summary-tag-退款').waitFor();
    await settle(page);
    await screenshot(page, 'records-label-en');
    await page.goto(`${V}/setup/service`);
    await page.getByTestId('topic-row-物流查询').waitFor();
    await settle(page);
    await screenshot(page, 'records-service-en');
    expect(errors).toEqual([]);
  });
});
