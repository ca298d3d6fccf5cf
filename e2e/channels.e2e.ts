import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackConfigDto, ChannelAppDto, SnsAccountDto } from '@kefu/protocol';
import { ADMIN_PASSWORD, ensureConsoleBuilt, startServer, type RunningServer } from './support/server';
import { openBrowser, screenshot, switchLanguage } from './support/browser';
import { adminToken, api, login, setReady } from './support/dialogue';
import { startFakePlatform } from '../apps/server/test/fake-platform/index';

/**
 * WeChat customer service end to end: the server (as npm start runs it) talks to the local fake platform
 * (WECOM_API_BASE); the admin saves the corp, syncs its KF accounts on /setup/wechat, and answers a WeChat
 * user from /dialogue in Chromium; the reply arrives at the fake as a kf/send_msg for that user.
 */
describe('WeChat KF in the console', () => {
  let fake: Awaited<ReturnType<typeof startFakePlatform>>;
  let srv: RunningServer;
  let browser: Awaited<ReturnType<typeof openBrowser>> | null = null;

  beforeAll(async () => {
    ensureConsoleBuilt();
    fake = await startFakePlatform();
    srv = await startServer({
      WECOM_API_BASE: fake.bases.wecom,
      WECHAT_API_BASE: fake.bases.wechat,
      DOUYIN_API_BASE: fake.bases.douyin,
      BAIDU_API_BASE: fake.bases.baidu,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.stop();
    await fake?.stop();
  });

  it('setup screen, then an agent in /dialogue answers a WeChat user and the reply reaches the platform', async () => {
    const token = await adminToken(srv.url, ADMIN_PASSWORD);
    const corp = await api<ChannelAppDto>(srv.url, '/api/snsAccount/save', {
      token,
      body: {
        channel: 'wechat',
        name: '示例企业',
        platformAppId: fake.wecom.corpid,
        secret: fake.wecom.secret,
      },
    });
    expect(corp.success, JSON.stringify(corp)).toBe(true);
    const cb = await api<CallbackConfigDto>(srv.url, `/api/wechat/kf/getCallbackConfig?id=${corp.data.id}`, {
      token,
    });
    fake.wecom.push = {
      url: cb.data.url,
      token: cb.data.token,
      aeskey: cb.data.aeskey,
      receiveId: fake.wecom.corpid,
    };
    // Saving the URL in WeCom runs the handshake: the plaintext echo comes back byte for byte.
    expect(await fake.wecom.handshake('8765432109876543210')).toEqual({
      status: 200,
      body: '8765432109876543210',
    });
    const kfid = fake.wecom.addAccount('售后客服');

    browser = await openBrowser();
    const { page } = browser;
    await login(page, srv.url, 'admin', ADMIN_PASSWORD);
    await page.goto(`${srv.url}/setup/wechat`);
    await page.getByTestId('wechat-screen').waitFor();
    await page.getByTestId('wechat-callback-url').waitFor();
    await page.getByTestId('wechat-pull').click();
    await page.getByTestId('wechat-table').getByText('售后客服').waitFor();
    await screenshot(page, 'channels-wechat-setup-zh');
    await switchLanguage(page, 'English');
    await page.getByText('Service accounts').waitFor();
    await screenshot(page, 'channels-wechat-setup-en');
    await switchLanguage(page, '简体中文');
    const accounts = await api<SnsAccountDto[]>(srv.url, '/api/wechat/kf/associationList', { token });
    expect(accounts.data.map((a) => a.extid)).toEqual([kfid]);

    await page.goto(`${srv.url}/dialogue`);
    await page.getByTestId('dialogue-screen').waitFor();
    await setReady(page);
    await fake.wecom.customerSays(kfid, 'wmE2eCustomer01', { text: '你好，请问发货了吗？' });
    await page.getByTestId('message-in').filter({ hasText: '你好，请问发货了吗？' }).waitFor();
    await page.getByTestId('chat-pane-channel').filter({ hasText: '微信客服' }).waitFor();
    await page.getByTestId('channel-bar').waitFor();
    // The assignment notice went out first: four of the five messages remain.
    await expect.poll(() => page.getByTestId('channel-bar-quota').getAttribute('data-remaining')).toBe('4');

    const input = page.getByTestId('composer-input');
    await input.fill('您好，今天已经发货了');
    await input.press('Enter');
    await expect
      .poll(() => fake.wecom.sent.filter((s) => s.msgtype === 'text').map((s) => s.body.content))
      .toContain('您好，今天已经发货了');
    const sent = fake.wecom.sent.find((s) => s.body.content === '您好，今天已经发货了')!;
    expect(sent).toMatchObject({ touser: 'wmE2eCustomer01', open_kfid: kfid });
    await expect.poll(() => page.getByTestId('channel-bar-quota').getAttribute('data-remaining')).toBe('3');
    // No recall on WeChat: the withdraw action is disabled with its reason.
    await page.getByTestId('message-withdraw-disabled').first().waitFor();
    await screenshot(page, 'channels-dialogue-wechat-zh');
    await switchLanguage(page, 'English');
    await page.getByTestId('channel-bar').getByText('messages left').waitFor();
    await screenshot(page, 'channels-dialogue-wechat-en');
  });

  it("a Douyin user's chat: the composer offers only what Douyin carries (text), the others disabled with the reason", async () => {
    const token = await adminToken(srv.url, ADMIN_PASSWORD);
    const saved = await api<ChannelAppDto>(srv.url, '/api/snsAccount/save', {
      token,
      body: {
        channel: 'douyin',
        name: '抖音号',
        platformAppId: fake.douyin.clientKey,
        secret: fake.douyin.clientSecret,
      },
    });
    expect(saved.success, JSON.stringify(saved)).toBe(true);
    fake.douyin.webhook = `${srv.url}/webhook/douyin/${saved.data.id}`;
    expect((await fetch(`${srv.url}/webhook/douyin/${saved.data.id}/oauth?code=e2ecode`)).status).toBe(200);
    const page = browser!.page;
    await switchLanguage(page, '简体中文');
    await fake.douyin.userSays('e2e_douyin_open_id_01', '抖音上问一下');
    const item = page.locator('[data-testid^="chat-item-douyin:"]');
    await item.first().click();
    await page.getByTestId('message-in').filter({ hasText: '抖音上问一下' }).waitFor();
    for (const kind of ['image', 'file', 'voice']) {
      const btn = page.getByTestId(`upload-${kind}-btn`);
      await expect.poll(() => btn.getAttribute('data-refused')).toBe('true');
      expect(await btn.isDisabled()).toBe(true);
    }
    await page.getByTestId('upload-image-btn').hover({ force: true });
    await page.getByRole('tooltip').filter({ hasText: '该平台不能发送' }).waitFor();
    expect(await page.getByTestId('composer-input').isDisabled()).toBe(false);
    await screenshot(page, 'channels-dialogue-douyin-zh');
    // Back on the WeChat KF chat, which carries images, files and voice: enabled.
    await page.locator('[data-testid^="chat-item-wechat:"]').first().click();
    await expect.poll(() => page.getByTestId('upload-image-btn').isDisabled()).toBe(false);
  });

  it('official accounts and mini-programs: the list, the binding and the auto-replies, in zh and en', async () => {
    const token = await adminToken(srv.url, ADMIN_PASSWORD);
    const oa = fake.wechat.addApp();
    const saved = await api<ChannelAppDto>(srv.url, '/api/wechat/save', {
      token,
      body: { name: '示例服务号', platformAppId: oa.appid, secret: oa.secret },
    });
    expect(saved.success, JSON.stringify(saved)).toBe(true);
    const accounts = await api<SnsAccountDto[]>(srv.url, '/api/snsAccount/list?channel=weixin', { token });
    await api(srv.url, '/api/wechat/imr/save', {
      token,
      body: {
        accountid: accounts.data[0]!.id,
        kind: 'keyword',
        keyword: '营业时间',
        reply: '我们每天 9:00-18:00 营业',
      },
    });
    const mini = fake.wechat.addApp();
    await api(srv.url, '/api/weApp/save', {
      token,
      body: { name: '商城小程序', platformAppId: mini.appid, secret: mini.secret, format: 'json' },
    });
    const page = browser!.page;
    await switchLanguage(page, '简体中文');
    await page.goto(`${srv.url}/setup/officialAccount`);
    await page.getByTestId('apps-weixin-table').getByText('示例服务号').waitFor();
    await page.getByTestId('apps-weixin-imr-示例服务号').click();
    await page.getByTestId('imr-weixin-table').getByText('我们每天 9:00-18:00 营业').waitFor();
    await page.waitForTimeout(500);
    await screenshot(page, 'channels-official-imr-zh');
    await page.locator('.ant-modal-close:visible').click();
    await page.getByTestId('imr-weixin-table').waitFor({ state: 'detached' });
    await page.getByTestId('apps-weixin-binding-示例服务号').click();
    await page.getByTestId('apps-weixin-binding-url').waitFor();
    await page.waitForTimeout(500);
    await screenshot(page, 'channels-official-binding-zh');
    await page.locator('.ant-modal-close:visible').click();
    await page.getByTestId('apps-weixin-binding-url').waitFor({ state: 'detached' });
    await page.goto(`${srv.url}/setup/weapp`);
    await page.getByTestId('apps-weapp-table').getByText('商城小程序').waitFor();
    await screenshot(page, 'channels-weapp-zh');
    await switchLanguage(page, 'English');
    await page.getByTestId('apps-weapp-new').getByText('Connect a mini-program').waitFor();
    await screenshot(page, 'channels-weapp-en');
  });

  it("an official account's robot is chosen in its form and listed; the robot answers the account's users first", async () => {
    const token = await adminToken(srv.url, ADMIN_PASSWORD);
    const robot = await api<{ id: string }>(srv.url, '/api/xiaoe/config/save', {
      token,
      body: { name: '小智', welcome: '您好，我是小智' },
    });
    expect(robot.success, JSON.stringify(robot)).toBe(true);
    const page = browser!.page;
    await switchLanguage(page, '简体中文');
    await page.goto(`${srv.url}/setup/officialAccount`);
    await page.getByTestId('apps-weixin-edit-示例服务号').click();
    await page.getByTestId('apps-weixin-form-robot').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '小智' }).click();
    await page.waitForTimeout(300);
    await screenshot(page, 'channels-official-robot-form-zh');
    await page.getByTestId('apps-weixin-form-submit').click();
    await page
      .getByTestId('apps-weixin-table')
      .getByTestId('channel-robot-cell')
      .filter({ hasText: '小智' })
      .waitFor();
    await page.getByTestId('apps-weixin-form').waitFor({ state: 'hidden' });
    await page.waitForTimeout(300);
    await screenshot(page, 'channels-official-robot-zh');
    const accounts = await api<SnsAccountDto[]>(srv.url, '/api/snsAccount/list?channel=weixin', { token });
    expect(accounts.data.find((a) => a.name === '示例服务号')).toMatchObject({ robotid: robot.data.id });
    await switchLanguage(page, 'English');
    await page.getByTestId('apps-weixin-table').getByText('Robot', { exact: true }).waitFor();
    await screenshot(page, 'channels-official-robot-en');
    await page.getByTestId('apps-weixin-edit-示例服务号').click();
    await page
      .getByTestId('apps-weixin-form')
      .getByText('No robot')
      .or(page.getByTestId('apps-weixin-form').getByText('Robot', { exact: true }))
      .first()
      .waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'channels-official-robot-form-en');
    await page.locator('.ant-modal-close:visible').click();

    // WeChat KF accounts choose theirs with the skill group.
    await switchLanguage(page, '简体中文');
    await page.goto(`${srv.url}/setup/wechat`);
    await page.getByTestId('wechat-assoc-售后客服').click();
    await page.getByTestId('wechat-assoc-robot').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '小智' }).click();
    await page.getByTestId('wechat-assoc-form').getByText('用户先由机器人接待', { exact: false }).waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'channels-wechat-assoc-robot-zh');
    await page.locator('.ant-modal-close:visible').click();

    // A follower writes: the robot greets from the account (the fake receives it by custom/send).
    const oa = [...fake.wechat.apps.values()].find(
      (a) => a.appid === accounts.data.find((x) => x.name === '示例服务号')!.platformAppId,
    )!;
    const cb = await api<CallbackConfigDto>(
      srv.url,
      `/api/wechat/scan?id=${accounts.data.find((x) => x.name === '示例服务号')!.appid}`,
      { token },
    );
    fake.wechat.target(oa.appid, {
      url: cb.data.url,
      token: cb.data.token,
      aeskey: cb.data.aeskey,
      receiveId: oa.appid,
    });
    await fake.wechat.userSays(oa.appid, 'oE2eRobotUser000000000001', { text: '你好' });
    await expect
      .poll(() =>
        fake.wechat.sent.filter((x) => x.touser === 'oE2eRobotUser000000000001').map((x) => x.body.content),
      )
      .toContain('您好，我是小智');
  });

  it("a KF account's welcome is set on /setup/wechat and goes out when a customer enters the session", async () => {
    const token = await adminToken(srv.url, ADMIN_PASSWORD);
    const kf = (await api<SnsAccountDto[]>(srv.url, '/api/wechat/kf/associationList', { token })).data.find(
      (a) => a.name === '售后客服',
    )!;
    const page = browser!.page;
    await switchLanguage(page, '简体中文');
    await page.goto(`${srv.url}/setup/wechat`);
    await page.getByTestId('wechat-imr-售后客服').click();
    await page.getByTestId('imr-wechat-table').waitFor();
    await page.getByTestId('imr-wechat-new').click();
    await page.getByTestId('imr-wechat-kind').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '欢迎语' }).click();
    await page.getByTestId('imr-wechat-reply').fill('您好，欢迎咨询售后服务');
    await page.getByTestId('imr-wechat-form-submit').click();
    await page.getByTestId('imr-wechat-form').waitFor({ state: 'hidden' });
    await page.getByTestId('imr-wechat-table').getByText('您好，欢迎咨询售后服务').waitFor();
    await page.waitForTimeout(400);
    await screenshot(page, 'channels-wechat-imr-zh');
    const rules = await api<Array<{ kind: string; reply: string }>>(
      srv.url,
      `/api/wechat/kf/imr/list?accountid=${kf.id}`,
      { token },
    );
    expect(rules.data).toEqual([
      expect.objectContaining({ kind: 'subscribe', reply: '您好，欢迎咨询售后服务' }),
    ]);

    await fake.wecom.customerSays(kf.extid, 'wmE2eWelcome01', {
      event: { event_type: 'enter_session', scene: 'site' },
    });
    await expect
      .poll(() => fake.wecom.sent.filter((x) => x.touser === 'wmE2eWelcome01').map((x) => x.body.content))
      .toContain('您好，欢迎咨询售后服务');
    const welcome = fake.wecom.sent.find((x) => x.body.content === '您好，欢迎咨询售后服务')!;
    // The welcome goes by send_msg_on_event with the event's code.
    expect(fake.wecom.welcomeCodes.get(String(welcome.body.code))?.used).toBe(true);

    await page.locator('.ant-modal-close:visible').click();
    await page.getByTestId('imr-wechat-table').waitFor({ state: 'detached' });
    await switchLanguage(page, 'English');
    await page.getByTestId('wechat-imr-售后客服').click();
    await page.getByTestId('imr-wechat-table').getByText('Welcome', { exact: true }).waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'channels-wechat-imr-en');
    await page.locator('.ant-modal-close:visible').click();
  });
});
