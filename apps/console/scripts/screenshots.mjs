// Walks the console in real Chromium against a running server and saves screenshots:
// login, section, role, loginLog in zh and en, then the admin → role → agent flow.
// Usage: BASE=http://localhost:8090 OUT=/tmp/kefu-shots ADMIN_PASSWORD=… node apps/console/scripts/screenshots.mjs
import { openBrowser } from './lib/browser.mjs';

const BASE = process.env.BASE ?? 'http://localhost:8090';
const OUT = process.env.OUT ?? '/tmp/kefu-shots';
const PASS = process.env.ADMIN_PASSWORD ?? 'Admin#12345';
const stamp = Date.now().toString(36).slice(-4);
const dept = `销售部${stamp}`;
const role = `坐席${stamp}`;
const agent = `agent${stamp}`;

const { ctx, page, errors, shot, tid, login } = await openBrowser({ base: BASE, out: OUT });
async function logout() {
  await tid('logout').click();
  await tid('login-form').waitFor();
}
async function pick(testId, text) {
  await page.locator(`[data-testid="${testId}"]`).click();
  // Dropdowns are virtual lists: type to filter so the option is rendered at all.
  await page.keyboard.type(text);
  await page
    .locator('.ant-select-dropdown:visible, .ant-select-tree-dropdown:visible')
    .getByTitle(text, { exact: true })
    .first()
    .click();
}

try {
  // zh login page (wrong password shows the server message)
  await page.goto(`${BASE}/login?l=zh`);
  await tid('login-submit').click();
  await tid('login-username').fill('admin');
  await tid('login-password').fill('wrong-password');
  await tid('login-submit').click();
  await tid('login-error').waitFor();
  await shot('zh-login');

  await login('admin', PASS);
  await shot('zh-home');

  // department
  await page.goto(`${BASE}/setup/section`);
  await tid('organ-create').click();
  await tid('organ-name').fill(dept);
  await tid('organ-submit').click();
  await tid(`organ-node-${dept}`).waitFor();

  // a throw-away child department, deleted through the "提示" confirm dialog
  await tid(`organ-node-${dept}`).click();
  await tid('organ-create').click();
  await tid('organ-name').fill(`${dept}-tmp`);
  await tid('organ-submit').click();
  await tid(`organ-node-${dept}-tmp`).click();
  await tid('organ-delete').click();
  await tid('confirm-ok').waitFor();
  await page.waitForTimeout(500);
  await shot('zh-confirm-delete');
  await tid('confirm-ok').click();
  await tid(`organ-node-${dept}-tmp`).waitFor({ state: 'detached' });

  // role with a subset of codes: chat, login log, departments
  await page.goto(`${BASE}/setup/role`);
  await tid('role-create').click();
  await tid('role-name').fill(role);
  await tid('role-submit').click();
  await tid(`role-row-${role}`).click();
  for (const code of ['A01', 'A06_A02_A08', 'A09_A02_A01']) await tid(`auth-node-${code}`).click();
  await tid('auth-save').click();
  await page.waitForTimeout(500);
  await shot('zh-role');

  // agent in the department with the role; first a failed submit to see the validators
  await page.goto(`${BASE}/setup/section`);
  await tid(`organ-node-${dept}`).click();
  await tid('user-create').click();
  await tid('user-mobile').fill('123');
  await tid('user-email').fill('bad@');
  await tid('user-submit').click();
  await page.waitForTimeout(400);
  await shot('zh-user-form-errors');
  await tid('user-username').fill(agent);
  await tid('user-password').fill('Agent#12345');
  await tid('user-uname').fill('小王');
  await tid('user-mobile').fill(`139${String(Date.now()).slice(-8)}`);
  await tid('user-email').fill('');
  await pick('user-roles', role);
  await page.keyboard.press('Escape');
  await tid('user-submit').click();
  await page.waitForTimeout(800);
  await shot('zh-user-submitted');
  await tid(`user-edit-${agent}`).waitFor();
  await shot('zh-section');

  // personal security and a placeholder route
  await page.goto(`${BASE}/setup/personaSecurity`);
  await shot('zh-security');
  await page.goto(`${BASE}/monitor`);
  await tid('coming-soon').waitFor();
  await shot('zh-coming-soon');

  await page.goto(`${BASE}/dataAnalysis/loginLog`);
  await tid('loginlog-table').waitFor();
  await page.waitForTimeout(400);
  await shot('zh-loginLog');
  await page.locator('[data-testid="loginlog-range"]').first().click();
  await page.waitForTimeout(300);
  await shot('zh-loginLog-range');
  await page.keyboard.press('Escape');

  // English
  await page.goto(`${BASE}/setup/section?l=en`);
  await page.reload();
  await tid(`organ-node-${dept}`).click();
  await page.waitForTimeout(400);
  await shot('en-section');
  await page.goto(`${BASE}/setup/role`);
  await tid(`role-row-${role}`).click();
  await page.waitForTimeout(400);
  await shot('en-role');
  await page.goto(`${BASE}/dataAnalysis/loginLog`);
  await tid('loginlog-table').waitFor();
  await page.waitForTimeout(400);
  await shot('en-loginLog');
  await logout();
  await shot('en-login');

  // the agent sees only the allowed menus
  await login(agent, 'Agent#12345');
  await page.waitForTimeout(400);
  const menus = await page
    .locator('[data-testid^="menu-/"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  console.log('agent menus:', menus.join(' '));
  await shot('en-agent-home');
  await page.goto(`${BASE}/setup/role`);
  await page.waitForTimeout(300);
  console.log('agent at /setup/role ends on', new URL(page.url()).pathname);
  await shot('en-agent-401');
  await page.goto(`${BASE}/`);
  await tid('main-menu').waitFor();
  await logout();
} catch (e) {
  await shot('failure');
  console.log(errors.join('\n'));
  throw e;
}
console.log(errors.length ? errors.join('\n') : 'no page errors');
await ctx.close();
