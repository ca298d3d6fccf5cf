// Session-config setup screens and quick replies in real Chromium against a running server (zh):
// prompt, distribution (switch strategy and save), lineUp, other (a bad transtiptimeout, then a good
// one), quick replies (category tree, replies, repeat error, delete confirm), then English.
// Usage: BASE=http://localhost:8098 OUT=/tmp/kefu-setup-shots node apps/console/scripts/setup-screenshots.mjs
import { mkdirSync } from 'node:fs';
import { openBrowser } from './lib/browser.mjs';

const BASE = process.env.BASE ?? 'http://localhost:8098';
const OUT = process.env.OUT ?? '/tmp/kefu-setup-shots';
const PASS = process.env.ADMIN_PASSWORD ?? 'Admin#12345';
mkdirSync(OUT, { recursive: true });
const stamp = Date.now().toString(36).slice(-4);

const { ctx, page, errors, shot, tid, settle, login } = await openBrowser({ base: BASE, out: OUT });

await login('admin', PASS);

await page.goto(`${BASE}/setup/prompt`);
await tid('sc-prompt').waitFor();
await settle();
await tid('sc-sessionmsg').fill(`您好，欢迎咨询！(${stamp})`);
await tid('sc-prompt-save').click();
await page
  .getByText('保存成功')
  .first()
  .waitFor({ timeout: 5000 })
  .catch(() => errors.push('no prompt save toast'));
await shot('1-prompt', true);

await page.goto(`${BASE}/setup/distribution`);
await tid('sc-allocation').waitFor();
await settle();
await tid('sc-distribution-least-busy').click();
await tid('sc-allocation-save').click();
await page
  .getByText('保存成功')
  .first()
  .waitFor({ timeout: 5000 })
  .catch(() => errors.push('no allocation toast'));
await shot('2-distribution');

await page.goto(`${BASE}/setup/lineUp`);
await tid('sc-lineup').waitFor();
await settle();
await shot('3-lineup');

await page.goto(`${BASE}/setup/other`);
await tid('sc-other').waitFor();
await settle();
await tid('sc-transtiptimeout').fill('61');
await tid('sc-other-save').click();
await settle();
await shot('4-other-bad', true);
await tid('sc-transtiptimeout').fill('12');
await tid('sc-other-save').click();
await page
  .getByText('保存成功')
  .first()
  .waitFor({ timeout: 5000 })
  .catch(() => errors.push('no other toast'));
await shot('4-other', true);

await page.goto(`${BASE}/setup/quickreply`);
await tid('quickreply-screen').waitFor();
await settle();
await shot('5-quickreply-empty');
for (const name of [`售前${stamp}`, `售后${stamp}`]) {
  await tid('qr-type-create').click();
  await tid('qr-type-name').fill(name);
  await tid('qr-type-submit').click();
  await page
    .getByRole('treeitem', { name })
    .first()
    .waitFor({ timeout: 5000 })
    .catch(() => errors.push(`no type ${name}`));
  await settle();
}
await page
  .getByRole('treeitem', { name: `售前${stamp}` })
  .first()
  .click();
for (const [title, content] of [
  ['问候', '您好，请问有什么可以帮您？'],
  ['价格', '具体价格请参考官网报价页面，或留下联系方式，我们的销售会尽快与您联系。'],
]) {
  await tid('qr-create').click();
  await tid('qr-title').fill(`${title}${stamp}`);
  await tid('qr-content').fill(content);
  await tid('qr-submit').click();
  await tid(`qr-row-${title}${stamp}`)
    .waitFor({ timeout: 5000 })
    .catch(() => errors.push(`no reply ${title}`));
  await settle();
}
await shot('6-quickreply');
await tid('qr-create').click();
await tid('qr-title').fill(`问候${stamp}`);
await tid('qr-content').fill('重复标题');
await tid('qr-submit').click();
await settle();
await shot('7-quickreply-repeat');
await page.keyboard.press('Escape');
await settle();
await tid(`qr-delete-价格${stamp}`).click();
await settle();
await shot('8-quickreply-confirm');
await tid('confirm-ok').click();
await settle();

// What the dialogue composer lists (GET /api/quickreply, public + own).
const listed = await page.evaluate(async () => {
  const r = await fetch('/api/quickreply', {
    headers: { authorization: localStorage.getItem('token') ?? '' },
  });
  return (await r.json()).data.map((x) => x.title);
});
if (!listed.some((x) => x.startsWith('问候'))) errors.push(`quickreply list: ${JSON.stringify(listed)}`);

await page.goto(`${BASE}/setup/other`);
await tid('sc-other').waitFor();
await page.evaluate(() => localStorage.setItem('language', 'en'));
await page.reload();
await tid('sc-other').waitFor();
await settle();
await shot('10-other-en', true);
await page.goto(`${BASE}/setup/quickreply`);
await tid('quickreply-screen').waitFor();
await settle();
await shot('11-quickreply-en');

console.log(errors.length ? errors.join('\n') : 'no errors');
await ctx.close();
