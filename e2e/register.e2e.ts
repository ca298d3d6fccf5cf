import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { IDENTITY_API, type MyIdentityDto } from '@kefu/protocol';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { browserPool, screenshot } from './support/browser';
import { AGENT_PASSWORD, adminToken, api } from './support/dialogue';
import { startLocalOidc, type LocalOidc } from '../apps/server/test/oidc-provider';

/**
 * Self-registration and third-party login in Chromium: a company registers at /register and its
 * administrator logs in; an administrator configures a local OpenID Connect provider on corporate
 * security; an agent logs in through it, links the identity with the account's password, then logs in
 * through it directly. Screenshots in Chinese and English.
 */
let srv: RunningServer;
let oidc: LocalOidc;
let token: string;
const pool = browserPool();
const errors: string[] = [];

async function open(): Promise<Page> {
  const b = await pool.open();
  b.page.on('pageerror', (e) => errors.push(e.message));
  return b.page;
}

async function passwordLogin(p: Page, username: string, password: string) {
  await p.getByTestId('login-username').fill(username);
  await p.getByTestId('login-password').fill(password);
  await p.getByTestId('login-submit').click();
  await p.getByTestId('main-menu').waitFor();
}

beforeAll(async () => {
  ensureConsoleBuilt();
  oidc = await startLocalOidc();
  srv = await startServer({ KEFU_SELF_REGISTER: '1' });
  token = await adminToken(srv.url, ADMIN_PASSWORD);
});
afterAll(async () => {
  await pool.closeAll();
  await srv?.stop();
  await oidc?.close();
});

describe('/register', () => {
  it('a company registers its own tenant and its administrator logs in', async () => {
    const p = await open();
    await p.goto(`${srv.url}/login?l=en`);
    await p.getByTestId('login-register').click();
    await p.getByTestId('register-form').waitFor();
    await p.getByTestId('register-company').fill('Acme Trading');
    await p.getByTestId('register-username').fill('acme.boss');
    await p.getByTestId('register-password').fill('weak');
    await p.getByTestId('register-confirm').fill('weak');
    await p.getByTestId('register-submit').click();
    // The corporate password policy, said by the server on the field.
    await p
      .locator('.ant-form-item-explain-error')
      .filter({ hasText: /policy/ })
      .waitFor();
    await p.getByTestId('register-email').fill('boss@acme.test');
    await p.waitForTimeout(400);
    await screenshot(p, 'register-en');
    await p.getByTestId('register-password').fill('Acme#Boss2026');
    await p.getByTestId('register-confirm').fill('Acme#Boss2026');
    await p.getByTestId('register-submit').click();
    await p.getByTestId('login-registered').waitFor();
    expect(p.url()).toMatch(/\/login\?orgi=[0-9a-f]+/);
    expect(await p.getByTestId('login-username').inputValue()).toBe('acme.boss');
    await p.getByTestId('login-password').fill('Acme#Boss2026');
    await p.getByTestId('login-submit').click();
    await p.getByTestId('main-menu').waitFor();
    const me = await p.evaluate(
      () => JSON.parse(localStorage.getItem('userInfo') ?? '{}') as { orgi?: string },
    );
    expect(me.orgi).toBeTruthy();
    expect(me.orgi).not.toBe('kefu');

    // The same company again is refused, in Chinese.
    const q = await open();
    await q.goto(`${srv.url}/register?l=zh`);
    await q.getByTestId('register-company').fill('acme trading');
    await q.getByTestId('register-username').fill('acme.other');
    await q.getByTestId('register-password').fill('Acme#Boss2026');
    await q.getByTestId('register-confirm').fill('Acme#Boss2026');
    await q.getByTestId('register-submit').click();
    await q.locator('.ant-form-item-explain-error').filter({ hasText: '该企业名称已注册' }).waitFor();
    await q.waitForTimeout(400);
    await screenshot(q, 'register-zh');
  });
});

describe('/thirdLogin', () => {
  it('an admin adds the provider; an agent binds with its password, then logs in through the provider directly', async () => {
    // A second administrator (the stock 管理员 role: personal security lives under /setup, which agents lack).
    const roles = await api<Array<{ id: string; name: string }>>(srv.url, '/api/user/listRole', { token });
    const created = await api<{ id: string }>(srv.url, '/api/user/save', {
      token,
      body: {
        username: 'zhou.min',
        uname: '周敏',
        password: AGENT_PASSWORD,
        usertype: '1',
        roles: [roles.data.find((x) => x.name === '管理员')?.id],
      },
    });
    expect(created.success, JSON.stringify(created)).toBe(true);
    const agentId = created.data.id;
    oidc.subject = 'zhou-at-sso';
    oidc.name = 'Zhou Min';

    // Corporate security: add the provider through the form.
    const admin = await open();
    await admin.goto(`${srv.url}/login?l=zh`);
    await passwordLogin(admin, 'admin', ADMIN_PASSWORD);
    await admin.goto(`${srv.url}/setup/corporateSecurity`);
    await admin.getByTestId('idp-new').click();
    await admin.getByTestId('idp-name').fill('Local SSO');
    await admin.getByTestId('idp-issuer').fill(oidc.issuer);
    await admin.getByTestId('idp-clientid').fill(oidc.clientid);
    await admin.getByTestId('idp-clientsecret').fill(oidc.clientsecret);
    await admin.getByTestId('idp-form-submit').click();
    await admin.getByTestId('idp-edit-Local SSO').waitFor();
    expect(await admin.getByTestId('idp-redirect').textContent()).toBe(`${srv.url}/thirdLogin`);
    await admin.getByTestId('idp-form').waitFor({ state: 'hidden' });
    await admin.getByTestId('idp-card').scrollIntoViewIfNeeded();
    await screenshot(admin, 'third-login-providers-zh');
    await admin.evaluate(() => localStorage.setItem('language', 'en'));
    await admin.goto(`${srv.url}/setup/corporateSecurity`);
    await admin.getByTestId('idp-edit-Local SSO').click();
    await admin.getByTestId('idp-form').waitFor();
    await admin.waitForTimeout(500);
    await screenshot(admin, 'third-login-provider-form-en');

    // First time: the provider's identity is not linked → the binding page.
    const p = await open();
    await p.goto(`${srv.url}/login?l=zh`);
    await p.getByTestId('login-provider-Local SSO').waitFor();
    await screenshot(p, 'login-providers-zh');
    await p.getByTestId('login-provider-Local SSO').click();
    await p.waitForURL(/\/thirdLogin\/bind$/);
    expect(oidc.lastAuthorize?.get('code_challenge_method')).toBe('S256');
    await expect.poll(() => p.getByTestId('third-bind-hint').textContent()).toContain('Zhou Min');
    await screenshot(p, 'third-login-bind-zh');
    await p.getByTestId('third-bind-username').fill('zhou.min');
    await p.getByTestId('third-bind-password').fill('Wrong#Pass2026');
    await p.getByTestId('third-bind-submit').click();
    await p.getByTestId('third-login-error').waitFor();
    expect(await p.getByTestId('third-login-error').textContent()).toContain('用户名或密码错误');
    await p.getByTestId('third-bind-password').fill(AGENT_PASSWORD);
    await p.getByTestId('third-bind-submit').click();
    await p.getByTestId('main-menu').waitFor();
    const agentToken = await p.evaluate(() => localStorage.getItem('token') ?? '');
    const mine = await api<MyIdentityDto[]>(srv.url, IDENTITY_API.mine, {
      token: agentToken.replace(/"/g, ''),
    });
    expect(mine.data).toMatchObject([{ providername: 'Local SSO', subject: 'zhou-at-sso' }]);

    // Personal security lists the link.
    await p.goto(`${srv.url}/setup/personaSecurity`);
    await p.getByTestId('identity-unbind-Local SSO').waitFor();
    await p.getByTestId('identities-card').scrollIntoViewIfNeeded();
    await screenshot(p, 'persona-identities-zh');

    // Next time, in English, the provider logs straight in.
    const q = await open();
    await q.goto(`${srv.url}/login?l=en`);
    await q.getByTestId('login-provider-Local SSO').waitFor();
    await screenshot(q, 'login-providers-en');
    await q.getByTestId('login-provider-Local SSO').click();
    await q.getByTestId('main-menu').waitFor();
    const who = await q.evaluate(
      () => JSON.parse(localStorage.getItem('userInfo') ?? '{}') as { id?: string },
    );
    expect(who.id).toBe(agentId);

    // The binding page in English (a fresh unlinked identity).
    oidc.subject = 'someone-new';
    oidc.name = 'New Person';
    const r = await open();
    await r.goto(`${srv.url}/login?l=en`);
    await r.getByTestId('login-provider-Local SSO').click();
    await r.waitForURL(/\/thirdLogin\/bind$/);
    await r.getByTestId('third-bind-hint').waitFor();
    await screenshot(r, 'third-login-bind-en');

    // Unlinked on personal security: the provider no longer opens the account.
    await p.goto(`${srv.url}/setup/personaSecurity`);
    await p.getByTestId('identity-unbind-Local SSO').click();
    await p.getByTestId('confirm-ok').click();
    await expect
      .poll(
        async () =>
          (await api<MyIdentityDto[]>(srv.url, IDENTITY_API.mine, { token: agentToken.replace(/"/g, '') }))
            .data,
      )
      .toEqual([]);
    expect(errors).toEqual([]);
  });
});
