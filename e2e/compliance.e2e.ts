import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import type { MessageDto } from '@kefu/protocol';
import { openBrowser, screenshot } from './support/browser';
import { createHmac } from 'node:crypto';
import { io } from 'socket.io-client';
import {
  AGENT_PASSWORD,
  accessPoint,
  addAgents,
  adminToken as tokenOf,
  api,
  once,
  randomUser,
  setReady,
  type VisitorSocket,
} from './support/dialogue';
import { codeAt, stepOf } from '../apps/server/src/modules/security/totp';

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

describe('secret key and webhooks', () => {
  it('generates the secret (shown once), sends a signed test event to a local receiver, logs it', async () => {
    const got: string[] = [];
    const receiver = createServer((req, res) => {
      got.push(String(req.headers['x-kefu-event']));
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const p = b.page;
      const tid = (id: string) => p.getByTestId(id);
      await inChinese(p, '/setup/secretKey', 'secretkey-screen');
      await tid('key-generate').click();
      await expect.poll(() => tid('key-revealed').innerText()).toMatch(/^kfs_/);
      const secret = (await tid('key-revealed').innerText()).trim();
      await screenshot(p, 'secretkey-1-reveal-zh');
      await p.getByRole('button', { name: '确 定' }).click();
      await expect.poll(() => tid('key-prefix').innerText()).toBe(`${secret.slice(0, 8)}…`);
      await tid('webhook-enabled').click();
      await tid('webhook-url').fill(url);
      await tid('webhook-save').click();
      await p.getByText('操作成功').first().waitFor();
      await tid('webhook-test').click();
      await expect.poll(() => got, { timeout: 15_000 }).toContain('webhook.test');
      await expect.poll(() => tid('delivery-status-success').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      await screenshot(p, 'secretkey-2-webhooks-zh');
      await inEnglish(p, '/setup/secretKey', 'secretkey-screen');
      await expect.poll(() => tid('delivery-status-success').count()).toBeGreaterThan(0);
      await screenshot(p, 'secretkey-3-en');
      expect(errors).toEqual([]);
    } finally {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  });
});

describe('business systems', () => {
  it('added on /setup/business, opened from /dialogue with a signature the partner verifies', async () => {
    // The partner: checks kefu_sign over the kefu_* parameters with the system key.
    let key = '';
    const seen: string[] = [];
    const partner = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const canonical = [...u.searchParams.entries()]
        .filter(([k]) => k.startsWith('kefu_') && k !== 'kefu_sign')
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k}=${v}`)
        .join('&');
      const valid =
        createHmac('sha256', key).update(canonical).digest('hex') === u.searchParams.get('kefu_sign');
      seen.push(`${u.pathname} ${valid}`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<h1 id="verdict">${valid ? 'signature ok' : 'signature bad'}</h1><p>${u.searchParams.get('kefu_visitor')}</p>`,
      );
    });
    await new Promise<void>((r) => partner.listen(0, '127.0.0.1', r));
    const visitorSock: { s?: VisitorSocket } = {};
    try {
      const port = (partner.address() as AddressInfo).port;
      const p = b.page;
      const tid = (id: string) => p.getByTestId(id);
      await inChinese(p, '/setup/business', 'business-screen');
      await tid('biz-new').click();
      await tid('biz-form-name').fill('CRM');
      await tid('biz-form-url').fill(`http://127.0.0.1:${port}/customer/{visitorid}`);
      await p.getByText('新标签页').click();
      await tid('biz-form-submit').click();
      await tid('biz-row-CRM').waitFor();
      await tid('biz-key-CRM').click();
      await expect.poll(() => tid('biz-key-value').innerText()).toMatch(/^[0-9a-f]{64}$/);
      key = (await tid('biz-key-value').innerText()).trim();
      await p.waitForTimeout(400);
      await screenshot(p, 'business-1-key-zh');
      await p.keyboard.press('Escape');
      await inEnglish(p, '/setup/business', 'business-screen');
      await screenshot(p, 'business-2-en');

      // A chat in the workspace; the system opens for it in a new tab.
      await inChinese(p, '/dialogue', 'dialogue-screen');
      await setReady(p);
      const appid = await accessPoint(srv.url, token, srv.dataDir);
      const userid = randomUser();
      const v: VisitorSocket = io(`${srv.url}/im/user`, {
        transports: ['websocket'],
        query: { appid, userid },
        forceNew: true,
      });
      visitorSock.s = v;
      await once(v, 'welcome');
      expect((await v.emitWithAck('new', { name: '业务访客' })).success).toBe(true);
      await tid(`chat-item-${userid}`).waitFor();
      await tid('business-systems').waitFor();
      await screenshot(p, 'business-3-dialogue-zh');
      const [popup] = await Promise.all([b.context.waitForEvent('page'), tid('biz-open-CRM').click()]);
      await popup.waitForLoadState();
      expect(await popup.locator('#verdict').innerText()).toBe('signature ok');
      expect(seen.filter((x) => x.startsWith('/customer'))).toEqual([`/customer/${userid} true`]);
      await popup.close();

      // Quick files: upload one from the composer, then send it to the visitor in one click.
      await tid('quickfile-btn').click();
      await tid('quickfile-panel').waitFor();
      await p
        .locator('[data-testid="quickfile-upload"]')
        .locator('xpath=ancestor::span[contains(@class,"ant-upload")]//input[@type="file"]')
        .setInputFiles({
          name: '价目表.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('%PDF-1.7 quick file'),
        });
      await tid('quickfile-send-价目表.pdf').waitFor();
      await screenshot(p, 'quickfile-1-zh');
      const gotFile = once(v, 'message', (m: MessageDto) => m.msgtype === 'file');
      await tid('quickfile-send-价目表.pdf').click();
      expect((await gotFile).filename).toBe('价目表.pdf');
      // Shortcuts: Ctrl+Enter sends, Enter breaks the line.
      await tid('shortcuts-btn').click();
      await p.getByText('Ctrl+Enter 发送，Enter 换行').click();
      await expect
        .poll(() => tid('composer-input').getAttribute('placeholder'))
        .toBe('Ctrl+Enter 发送，Enter 换行');
      await screenshot(p, 'shortcuts-zh');
      const gotText = once(v, 'message', (m: MessageDto) => m.msgtype === 'text' && m.calltype === 'out');
      await tid('composer-input').fill('第一行');
      await tid('composer-input').press('Enter');
      await tid('composer-input').pressSequentially('第二行');
      await tid('composer-input').press('Control+Enter');
      expect((await gotText).message).toBe('第一行\n第二行');
      await p.getByText('Enter 发送，Shift+Enter 换行').click();
      await p.keyboard.press('Escape');
      // The same in English.
      await inEnglish(p, '/dialogue', 'dialogue-screen');
      await tid(`chat-item-${userid}`).click();
      await tid('quickfile-btn').click();
      await tid('quickfile-send-价目表.pdf').waitFor();
      await p.waitForTimeout(300);
      await screenshot(p, 'quickfile-2-en');
      // Removed from the list (the message already sent keeps its file).
      await tid('quickfile-delete-价目表.pdf').click();
      await p.locator('.ant-popconfirm .ant-btn-primary').click();
      await p.getByText('No quick files yet').waitFor();
      await p.keyboard.press('Escape');
      await p.evaluate(() => localStorage.setItem('language', 'zh'));
      // Leave the agent not ready for the next tests.
      await tid('agent-state').click();
      await tid('agent-state-notready').click();
      expect(errors).toEqual([]);
    } finally {
      visitorSock.s?.disconnect();
      partner.closeAllConnections();
      await new Promise((r) => partner.close(r));
    }
  });
});

describe('skill groups', () => {
  it("a skill group's routing policy set on /setup/section (zh/en); the server keeps it", async () => {
    const p = b.page;
    const tid = (id: string) => p.getByTestId(id);
    const made = await api<{ id: string }>(srv.url, '/api/organ/save', {
      token,
      body: { name: '售后技能组', skill: true },
    });
    expect(made.success).toBe(true);
    const organid = made.data.id;
    await inChinese(p, '/setup/section', 'section-screen');
    await tid('organ-node-售后技能组').click();
    await tid('skill-policy').waitFor();
    await tid('skill-distribution').click();
    await p.getByText('负载最低（接待数 / 最大接待数 比例最小）').click();
    await tid('skill-lastagent').click();
    await p.locator('.ant-select-dropdown:visible').getByText('否', { exact: true }).click();
    await expect
      .poll(async () => (await api(srv.url, `/api/imAgent/skill?organid=${organid}`, { token })).data)
      .toEqual({ organid, distribution: 'least-busy', lastagent: 'off' });
    await p.waitForTimeout(300);
    await screenshot(p, 'skill-policy-zh');
    await inEnglish(p, '/setup/section', 'section-screen');
    await tid('organ-node-售后技能组').click();
    await tid('skill-policy').waitFor();
    await expect.poll(() => tid('skill-distribution').innerText()).toContain('Least busy');
    await screenshot(p, 'skill-policy-en');
    await p.evaluate(() => localStorage.setItem('language', 'zh'));
    expect(errors).toEqual([]);
  });
});

describe('corporate and personal security', () => {
  it('corporate policy saved through the screen (zh/en); the server applies it', async () => {
    const p = b.page;
    const tid = (id: string) => p.getByTestId(id);
    await inChinese(p, '/setup/corporateSecurity', 'corp-security');
    await expect.poll(() => tid('corp-minLength').inputValue()).toBe('8');
    await tid('corp-minLength').fill('10');
    await tid('corp-ipAllow').fill('203.0.113.0/24');
    await tid('corp-idleMinutes').fill('30');
    await tid('corp-save').click();
    // Saving a list without the admin's own address is refused on the field.
    await p.getByText('当前IP不允许登录').first().waitFor();
    await tid('corp-ipAllow').fill('127.0.0.1\n203.0.113.0/24');
    await tid('corp-save').click();
    await p.getByText('安全策略已保存').first().waitFor();
    const saved = await api<{ policy: { minLength: number; ipAllow: string[]; idleMinutes: number } }>(
      srv.url,
      '/api/security/policy',
      { token },
    );
    expect(saved.data.policy).toMatchObject({
      minLength: 10,
      ipAllow: ['127.0.0.1', '203.0.113.0/24'],
      idleMinutes: 30,
    });
    await screenshot(p, 'security-corporate-zh');
    await inEnglish(p, '/setup/corporateSecurity', 'corp-security');
    await expect.poll(() => p.getByText('Password policy').first().isVisible()).toBe(true);
    await screenshot(p, 'security-corporate-en');
    // Back to no limits for the rest of the run.
    await api(srv.url, '/api/security/policy/save', {
      token,
      body: { minLength: 8, ipAllow: [], idleMinutes: 0 },
    });
    expect(errors).toEqual([]);
  });

  it('an agent of the stock role reaches personal security from the header, and no other setup screen', async () => {
    await addAgents(srv.url, token, [['secagent', '安全坐席']]);
    const other = await openBrowser();
    try {
      const q = other.page;
      await q.goto(`${srv.url}/login?l=zh`);
      await q.getByTestId('login-username').fill('secagent');
      await q.getByTestId('login-password').fill(AGENT_PASSWORD);
      await q.getByTestId('login-submit').click();
      await q.getByTestId('main-menu').waitFor();
      await q.getByTestId('user-menu').click();
      await q.getByTestId('user-menu-security').click();
      await q.getByTestId('security-screen').waitFor();
      expect(new URL(q.url()).pathname).toBe('/setup/personaSecurity');
      // Loaded at that address, the side menu opens setup: it holds that screen alone.
      await q.reload();
      await q.getByTestId('security-screen').waitFor();
      const menu = await q.getByTestId('main-menu').innerText();
      expect(menu).toContain('个人安全');
      expect(menu).not.toContain('企业安全');
      expect(menu).not.toContain('网站接入');
      await q.goto(`${srv.url}/setup/corporateSecurity`);
      await expect.poll(() => new URL(q.url()).pathname).toBe('/401');
    } finally {
      await other.close();
    }
  });

  it('TOTP: enrolled on the personal screen, then the login asks for a code', async () => {
    const p = b.page;
    const tid = (id: string) => p.getByTestId(id);
    await inChinese(p, '/setup/personaSecurity', 'security-screen');
    await tid('security-new').fill('Abc12345!xyz');
    await expect.poll(() => tid('password-strength').getAttribute('data-strength')).toBe('4');
    await expect.poll(() => tid('security-sessions').innerText()).toContain('当前设备');
    await tid('totp-enable').click();
    const secret = (await tid('totp-enrol-secret').innerText()).trim();
    await tid('totp-enrol-qr').waitFor();
    await tid('totp-enrol-code').fill(codeAt(secret, stepOf(Date.now())));
    await tid('totp-enrol-confirm').click();
    await tid('totp-recovery').waitFor();
    await expect.poll(() => tid('totp-state').innerText()).toBe('已开启');
    await screenshot(p, 'security-personal-zh');
    await inEnglish(p, '/setup/personaSecurity', 'security-screen');
    await screenshot(p, 'security-personal-en');
    await p.evaluate(() => localStorage.setItem('language', 'zh'));

    // A fresh browser: the password alone is not enough.
    const other = await openBrowser();
    try {
      const q = other.page;
      await q.goto(`${srv.url}/login?l=zh`);
      await q.getByTestId('login-username').fill('admin');
      await q.getByTestId('login-password').fill(ADMIN_PASSWORD);
      await q.getByTestId('login-submit').click();
      await q.getByTestId('login-step').waitFor();
      expect(await q.getByTestId('login-step').getAttribute('data-step')).toBe('totp_required');
      await q.getByTestId('login-step-code').fill('000000');
      await q.getByTestId('login-step-submit').click();
      await expect.poll(() => q.getByTestId('login-step-error').innerText()).toContain('动态验证码错误');
      await screenshot(q, 'security-login-code-zh');
      // The enrolment used this step's code; the next step's code is accepted.
      await q.getByTestId('login-step-code').fill(codeAt(secret, stepOf(Date.now()) + 1));
      await q.getByTestId('login-step-submit').click();
      await q.getByTestId('main-menu').waitFor();
    } finally {
      await other.close();
    }
    expect(errors).toEqual([]);
  });
});
