import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { openBrowser, screenshot, switchLanguage } from './support/browser';
import { accessPoint, adminToken, login, setReady } from './support/dialogue';

/**
 * The robot end to end in Chromium: the admin imports a knowledge base from .xlsx (a sheet with a bad row
 * is refused with its errors first), creates a robot, binds it to the website and tries it in the test
 * chat; a visitor's chat starts with the robot, gets an answer, clicks a suggestion, says 转人工, waits in
 * the queue and is served by the agent, who reads the robot transcript and answers with a knowledge
 * suggestion. Screenshots of the screens in zh and en.
 */
type Browser = Awaited<ReturnType<typeof openBrowser>>;

const HEADER = ['分类', '标准问题', '相似问题', '答案', '启用'];
const ROWS = [
  [
    '售后/退货',
    '如何申请退货？',
    '怎么退货\n退货流程',
    '在“我的订单”中点击**申请售后**，详见[退货说明](https://example.com/returns)',
    '是',
  ],
  ['售后/退款', '退款多久到账？', '退款什么时候到', '审核通过后1-3个工作日到账。', '是'],
  ['售后/退款', '退款退到哪里？', '钱退回哪个账户', '退款会原路退回到付款账户。', '是'],
  ['发票', '如何开发票？', '能开发票吗\n发票怎么开', '在订单详情页申请电子发票。', '是'],
];

async function sheet(path: string, rows: unknown[][]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('知识库');
  for (const r of rows) ws.addRow(r);
  writeFileSync(path, Buffer.from(await wb.xlsx.writeBuffer()));
  return path;
}

/** Dialogs closed and animations over, before a screenshot. */
async function settle(page: Page) {
  await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
  await page.waitForTimeout(500);
}

describe('AI robot and knowledge base (/setup/knowlede, /setup/customerRobot, /setup/setupRobot, widget, /dialogue)', () => {
  let server: RunningServer;
  const browsers: Browser[] = [];
  const tmp = mkdtempSync(join(tmpdir(), 'kefu-e2e-robot-'));
  beforeAll(async () => {
    ensureConsoleBuilt();
    server = await startServer();
  });
  afterAll(async () => {
    for (const b of browsers) await b.close().catch(() => undefined);
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('knowledge imported from .xlsx, a robot bound to the site; a visitor asks, clicks a suggestion, says 转人工 and is served by an agent who sees the transcript', async () => {
    const V = server.url;
    const token = await adminToken(V, ADMIN_PASSWORD);
    const appid = await accessPoint(V, token, server.dataDir);
    const admin = await openBrowser();
    browsers.push(admin);
    const page = admin.page;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await login(page, V, 'admin', ADMIN_PASSWORD);

    // ---- /setup/knowlede: a bad sheet is refused row by row, then the good one imports
    await page.goto(`${V}/setup/knowlede`);
    await page.getByTestId('knowledge-screen').waitFor();
    await page.getByTestId('kb-import-open').click();
    const file = page.getByTestId('kb-import').locator('input[type=file]');
    await file.setInputFiles(
      await sheet(join(tmp, 'bad.xlsx'), [
        HEADER,
        ROWS[0]!,
        ['', '', '', '没有问题', '是'],
        ['', '问题', '', '答案', '也许'],
      ]),
    );
    await page.getByTestId('kb-import-errors').waitFor();
    expect(await page.getByTestId('kb-import-errors').locator('tbody tr').count()).toBe(2);
    await page.waitForTimeout(300);
    await screenshot(page, 'robot-kb-import-errors-zh');
    await file.setInputFiles(await sheet(join(tmp, 'kb.xlsx'), [HEADER, ...ROWS]));
    await page.getByTestId('kb-import-done').filter({ hasText: '新建 4 条' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('kb-row-如何申请退货？').waitFor();
    await settle(page);
    await screenshot(page, 'robot-kb-zh');
    await page.getByTestId('kb-edit-如何申请退货？').click();
    await page.getByTestId('kb-form').waitFor();
    await page.getByRole('tab', { name: '预览' }).click();
    await page.getByTestId('kb-form-answer-preview').locator('a', { hasText: '退货说明' }).waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'robot-kb-form-zh');
    await page.keyboard.press('Escape');
    await settle(page);

    // ---- /setup/customerRobot → /setup/setupRobot: a robot for the site, tried in the test chat
    await page.goto(`${V}/setup/customerRobot`);
    await page.getByTestId('robots-screen').waitFor();
    await page.getByTestId('robot-new').click();
    await page.getByTestId('robot-create-name').fill('小智');
    await page.getByTestId('robot-create-submit').click();
    await page.getByTestId('robot-settings').waitFor();
    await page.getByTestId('robot-form-name').waitFor();
    await page.getByTestId('robot-form-welcome').fill('您好，我是智能客服小智，请问有什么可以帮您？');
    await page.getByTestId('robot-form-sites').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('e2e site').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('robot-form-submit').click();
    await page.getByText('操作成功').first().waitFor();
    await page.getByTestId('robot-test-input').fill('退货的流程是什么');
    await page.getByTestId('robot-test-send').click();
    await page.getByTestId('robot-test-action').filter({ hasText: '回答' }).waitFor();
    await page.getByTestId('robot-test-input').fill('今天天气怎么样');
    await page.getByTestId('robot-test-send').click();
    await page.getByTestId('robot-test-action').filter({ hasText: '无法回答' }).waitFor();
    await page.waitForTimeout(400);
    await screenshot(page, 'robot-settings-zh');
    await page.goto(`${V}/setup/customerRobot`);
    await page.getByTestId('robot-row-小智').waitFor();
    await expect.poll(() => page.getByTestId('robots-table').textContent()).toContain('e2e site');
    await settle(page);
    await screenshot(page, 'robot-list-zh');
    // ---- /setup/robot and /setup/accessCode: the site's robot and embed code on their own pages
    await page.goto(`${V}/setup/robot?appid=${appid}`);
    const pick = page.getByTestId('access-robot-select');
    await expect.poll(() => pick.textContent()).toContain('小智');
    await pick.click();
    await page.locator('.ant-select-dropdown:visible').getByText('不使用机器人').click();
    await page.getByTestId('access-robot-save').click();
    await page.getByText('操作成功').first().waitFor();
    await page.goto(`${V}/setup/customerRobot`);
    await page.getByTestId('robot-row-小智').waitFor();
    await expect.poll(() => page.getByTestId('robots-table').textContent()).not.toContain('e2e site');
    await page.goto(`${V}/setup/robot?appid=${appid}`);
    await expect.poll(() => pick.textContent()).toContain('不使用机器人');
    await pick.click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('小智').click();
    await page.getByTestId('access-robot-save').click();
    await page.getByText('操作成功').first().waitFor();
    await settle(page);
    await screenshot(page, 'access-robot-zh');
    await page.goto(`${V}/setup/accessCode?appid=${appid}`);
    await expect.poll(() => page.getByTestId('access-code').inputValue()).toContain(appid);
    await settle(page);
    await screenshot(page, 'access-code-zh');
    await page.goto(`${V}/setup/customerRobot`);
    await page.getByTestId('robots-screen').waitFor();
    await page.getByTestId('ai-service-open').click();
    await page.getByTestId('ai-enabled').waitFor();
    await page.waitForTimeout(400);
    await screenshot(page, 'robot-ai-service-zh');
    await page.keyboard.press('Escape');
    await settle(page);

    // ---- the visitor: the robot answers, a suggestion is clicked, then 转人工
    const visitor = await openBrowser({ width: 480, height: 800 });
    browsers.push(visitor);
    const chat = visitor.page;
    await chat.goto(`${V}/visitor/pc?appid=${appid}`);
    await chat.getByTestId('robot-bar').filter({ hasText: '小智' }).waitFor();
    await chat.getByTestId('msg-agent').filter({ hasText: '我是智能客服小智' }).waitFor();
    const box = chat.locator('.kf-input textarea');
    await box.fill('退货的流程是什么');
    await box.press('Enter');
    const answer = chat.getByTestId('robot-answer').filter({ hasText: '申请售后' });
    await answer.waitFor();
    expect(await answer.locator('strong').textContent()).toBe('申请售后');
    expect(await answer.locator('a').getAttribute('href')).toBe('https://example.com/returns');
    await box.fill('退款');
    await box.press('Enter');
    const suggest = chat.getByTestId('robot-suggest').last();
    await suggest.waitFor();
    await screenshot(chat, 'robot-widget-suggest-zh');
    await suggest.getByTestId('robot-suggestion').filter({ hasText: '退款退到哪里？' }).click();
    await chat.getByTestId('msg-mine').filter({ hasText: '退款退到哪里？' }).waitFor();
    await chat.getByTestId('robot-answer').filter({ hasText: '原路退回' }).waitFor();
    await box.fill('转人工');
    await box.press('Enter');
    await chat.getByTestId('robot-answer').filter({ hasText: '正在为您转接人工客服' }).waitFor();
    await expect.poll(() => chat.getByTestId('robot-bar').count()).toBe(0);
    await chat.getByTestId('notice').filter({ hasText: '排' }).first().waitFor();
    await screenshot(chat, 'robot-widget-handoff-zh');

    // ---- the agent: goes ready, gets the chat with the robot transcript, answers from a suggestion
    await page.goto(`${V}/dialogue`);
    await page.getByTestId('dialogue-screen').waitFor();
    await setReady(page);
    await page.getByTestId('chat-pane').waitFor();
    await page.getByTestId('message-robot').filter({ hasText: '原路退回' }).waitFor();
    await page.getByTestId('message-robot').filter({ hasText: '申请售后' }).waitFor();
    await chat.getByTestId('header-sub').filter({ hasText: '为您服务' }).waitFor();
    await box.fill('发票怎么开');
    await box.press('Enter');
    await page.getByTestId('kb-assist-insert-如何开发票？').click();
    await expect
      .poll(() => page.getByTestId('composer-input').inputValue())
      .toBe('在订单详情页申请电子发票。');
    await page.waitForTimeout(300);
    await screenshot(page, 'robot-dialogue-transcript-zh');
    await page.getByTestId('composer-send').click();
    await chat.getByTestId('msg-agent').filter({ hasText: '在订单详情页申请电子发票。' }).waitFor();
    await box.fill('谢谢');
    await box.press('Enter');
    await page.getByText('谢谢').first().waitFor();
    // The robot stays out of a chat it handed over.
    await chat.waitForTimeout(800);
    expect(await chat.getByTestId('robot-answer').filter({ hasText: '抱歉' }).count()).toBe(0);

    // ---- AI statistics, then the screens in English
    await page.goto(`${V}/dataAnalysis/aiStatistics`);
    await page.getByTestId('ai-robot-stats').waitFor();
    await expect.poll(() => page.getByTestId('ai-total-questions').textContent()).toContain('4');
    await page.waitForTimeout(600);
    await screenshot(page, 'robot-aistats-zh');
    await switchLanguage(page, 'English');
    for (const [path, id, name] of [
      ['/setup/knowlede', 'knowledge-screen', 'robot-kb-en'],
      ['/setup/customerRobot', 'robots-screen', 'robot-list-en'],
      ['/dataAnalysis/aiStatistics', 'ai-robot-stats', 'robot-aistats-en'],
      [`/setup/robot?appid=${appid}`, 'access-robot-screen', 'access-robot-en'],
      [`/setup/accessCode?appid=${appid}`, 'access-code-screen', 'access-code-en'],
    ] as const) {
      await page.goto(`${V}${path}`);
      await page.getByTestId(id).waitFor();
      await page.waitForTimeout(700);
      await screenshot(page, name);
    }
    await page.goto(`${V}/setup/customerRobot`);
    await page.getByTestId('robot-settings-小智').click();
    await page.getByTestId('robot-test-input').fill('how to get an invoice? 发票');
    await page.getByTestId('robot-test-send').click();
    await page.getByTestId('robot-test-answer').waitFor();
    await page.waitForTimeout(400);
    await screenshot(page, 'robot-settings-en');
    await switchLanguage(page, '简体中文');
    expect(errors).toEqual([]);
  });
});
