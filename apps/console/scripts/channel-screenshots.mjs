// Visitor-channel setup screens in real Chromium against a running server (zh), with a few actions:
// create a website (embed code + copy), each settings screen, working hours with a bad range,
// satisfaction with an opinion, blacklist entries, a leave message allocated and completed.
// Usage: BASE=http://localhost:8093 OUT=/tmp/kefu-vs-shots node apps/console/scripts/channel-screenshots.mjs
import { mkdirSync } from 'node:fs';
import { openBrowser } from './lib/browser.mjs';

const BASE = process.env.BASE ?? 'http://localhost:8093';
const OUT = process.env.OUT ?? '/tmp/kefu-vs-shots';
const PASS = process.env.ADMIN_PASSWORD ?? 'Admin#12345';
mkdirSync(OUT, { recursive: true });
const stamp = Date.now().toString(36).slice(-4);

const { ctx, page, errors, shot, tid, settle, login } = await openBrowser({
  base: BASE,
  out: OUT,
  permissions: ['clipboard-read', 'clipboard-write'],
});

await login('admin', PASS);
const token = await page.evaluate(() => localStorage.getItem('token'));

// Website access: create, embed code, copy.
await page.goto(`${BASE}/setup/websiteAccess`);
await tid('access-screen').waitFor();
await settle();
await tid('access-create').click();
await tid('access-name').fill(`官网${stamp}`);
await tid('access-domain').fill('www.example.com');
await tid('access-submit').click();
await tid('access-code').waitFor();
await page.waitForFunction(() =>
  document.querySelector('[data-testid="access-code"]')?.value.includes('loader.js'),
);
await tid('access-copy').click();
await page
  .getByText('copy succeeded')
  .waitFor({ timeout: 5000 })
  .catch(() => errors.push('no copy succeeded toast'));
await shot('01-access-code');
await page.keyboard.press('Escape');
await settle();
await shot('02-access-list');
await tid(`access-settings-官网${stamp}`).hover();
await settle();
await shot('03-access-settings-menu');

for (const [path, name] of [
  ['consulting', '04-consulting'],
  ['invite', '05-invite'],
  ['dialogue', '06-dialogue'],
  ['information', '07-information'],
]) {
  await page.goto(`${BASE}/setup/${path}`);
  await settle();
  await settle();
  await shot(name);
}
await tid('information-save').click();
await settle();

// FAQ
await page.goto(`${BASE}/setup/faq`);
await tid('faq-screen').waitFor();
await settle();
await shot('08-faq-empty');
await tid('faq-create').click();
await tid('faq-question').fill('工作时间是？');
await tid('faq-answer').fill('周一至周五 9:00-18:00');
await tid('faq-submit').click();
await settle();
await shot('09-faq');

// Working hours: create with a bad range first.
await page.goto(`${BASE}/setup/workingHours`);
await tid('working-hours-screen').waitFor();
await settle();
await shot('10-work-empty');
await tid('work-create').click();
await tid('work-name').fill('默认工作时间');
await settle();
await shot('11-work-form');
await page.locator('[data-testid="work-day-6-add"]').last().click();
await settle();
await tid('work-submit').click();
await settle();
await tid('work-submit').click();
await settle();
await shot('12-work-list');

// Satisfaction
await page.goto(`${BASE}/setup/satisfaction`);
await tid('satisfaction-screen').waitFor();
await settle();
for (const name of ['回复太慢', '态度不好']) {
  await tid('opinion-create').click();
  await tid('opinion-name').fill(name);
  await tid('opinion-submit').click();
  await settle();
}
await tid('opinion-down-回复太慢').click();
await settle();
await shot('13-satisfaction');

// Blacklist
await page.goto(`${BASE}/setup/black`);
await tid('black-screen').waitFor();
await settle();
await shot('14-black-empty');
await tid('black-add-ip').click();
await tid('black-value').fill('999.1.1.1');
await tid('black-submit').click();
await settle();
await shot('15-black-ip-invalid');
await tid('black-value').fill('203.0.113.7');
await tid('black-controltime').fill('24');
await tid('black-submit').click();
await settle();
await tid('black-add-user').click();
await tid('black-value').fill(`visitor${stamp}`);
await tid('black-submit').click();
await settle();
await shot('16-black-list');
await tid('black-clean').click();
await settle();
await shot('17-black-clean-confirm');
await page.keyboard.press('Escape');

// Leave messages: post one as a visitor, then open the drawer, allocate to admin, complete.
await page.evaluate(async () => {
  await fetch('/im/leavemsg', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      appid: 'demo',
      userid: 'visitor-demo',
      name: '张三',
      mobile: '13800138000',
      email: '',
      content: '请尽快回电，谢谢！',
    }),
  });
});
await page.goto(`${BASE}/setup/websiteAccess`);
await tid('leavemsg-open').waitFor();
await page.waitForTimeout(1000);
await shot('18-topbar-leavemsg');
await tid('leavemsg-open').click();
await tid('leavemsg-drawer')
  .waitFor()
  .catch(() => {});
await page.waitForTimeout(1000);
await shot('19-leavemsg-drawer');
const allocate = page.locator('[data-testid^="leavemsg-allocate-"]').first();
await allocate.click();
await tid('leavemsg-agent').click();
await page.keyboard.type('admin');
await page.keyboard.press('Enter');
await tid('leavemsg-allocate-ok').click();
await settle();
await page.locator('[data-testid^="leavemsg-complete-"]').first().click();
await page.locator('.ant-modal textarea').last().fill('已回电');
await tid('leavemsg-complete-ok').click();
await settle();
await shot('20-leavemsg-done');

console.log(JSON.stringify({ token: !!token, errors }, null, 2));
await ctx.close();
