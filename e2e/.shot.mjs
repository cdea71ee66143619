import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:8181';
const [, , user, path, out, w = '1440', h = '900', actions = ''] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: +w, height: +h }, baseURL: base });
await page.goto('/login');
await page.getByTestId('login-username').fill(user);
await page.getByTestId('login-password').fill('demo123456');
await page.keyboard.press('Enter');
await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20000 });
// a weak-password reminder may show
await page.goto(path);
await page.waitForTimeout(2500);
if (actions) {
  for (const step of actions.split(';')) {
    const [kind, id, value] = step.split('|');
    if (kind === 'fill') await page.getByTestId(id).fill(value);
    if (kind === 'click') await page.getByTestId(id).click();
    if (kind === 'wait') await page.waitForTimeout(+id);
    if (kind === 'key') await page.keyboard.press(id);
  }
  await page.waitForTimeout(1500);
}
await page.screenshot({ path: out, fullPage: true });
await browser.close();
