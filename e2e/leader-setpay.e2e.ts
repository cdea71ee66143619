import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { pick, rowsOf, settle } from './antd.js';
import { screenshot } from './browser.js';
import { journey, signIn } from './support.js';

/**
 * The group head office adds a WeChat Pay merchant for 翠湖苑's charging fees, sees its keys only
 * masked, and tests it in the sandbox (支付商户设置, /setup/setpay on the group side).
 */
journey('payment merchants', ({ page: newPage }) => {
  it('adds a WeChat merchant for a community, shows its keys masked and tests it', async () => {
    const privateKey = crypto
      .generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const apiV3 = 'Q7wE9rT2yU4iO6pA8sD1fG3hJ5kL0zX9';
    const page = await newPage();
    await signIn(page, 'leader', undefined, '/setup/setpay');
    const table = page.getByTestId('setpay-table');
    // the demo's group default is there
    await expect.poll(() => table.textContent()).toContain('集团统一收款（微信支付）');

    await page.getByTestId('setpay-add').click();
    await pick(page, 'setpay-rid', '翠湖苑');
    await pick(page, 'setpay-fee-kind', '充电费');
    await page.getByTestId('setpay-title').fill('翠湖苑充电费');
    await page.getByTestId('setpay-mch-id').fill('1230000109');
    await page.getByTestId('setpay-app-id').fill('wxd678efh567hg6787');
    await page.getByTestId('setpay-serial-no').fill('444F4864EA9B34415E7F9A5D5A2C4E5F7B8C9D10');
    await page.getByTestId('setpay-api-v3').fill(apiV3);
    await page.getByTestId('setpay-private-key').fill(privateKey);
    await page.getByTestId('setpay-save').click();

    const row = rowsOf(table).filter({ hasText: '翠湖苑充电费' });
    await expect.poll(() => row.count()).toBe(1);
    // the keys only as their last four characters
    await expect.poll(() => row.textContent()).toContain(`已设置 ****${apiV3.slice(-4)}`);
    expect(await page.content()).not.toContain(apiV3);

    // which merchant 翠湖苑's charging fees now go to
    const applies = rowsOf(page.getByTestId('setpay-applies')).filter({ hasText: '翠湖苑' });
    await expect.poll(() => applies.textContent()).toContain('翠湖苑充电费');

    await row.locator('[data-testid^="setpay-test-"]').first().click();
    await expect.poll(() => page.locator('.ant-message').textContent()).toContain('微信支付测试通过');
    await expect.poll(() => row.textContent()).toContain('通过');
    await settle(page);
    await screenshot(page, 'leader-setpay-1440');
  });
});
