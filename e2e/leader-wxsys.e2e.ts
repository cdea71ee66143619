import { expect, it } from 'vitest';
import { settle } from './antd.js';
import { screenshot } from './browser.js';
import { journey, signIn } from './support.js';

/**
 * The group head office saves its WeChat official account, sees the AppSecret only masked, and
 * tests it in the sandbox (公众号/小程序设置, /setup/setwxsys on the group side).
 */
journey('WeChat settings', ({ page: newPage }) => {
  it('saves the official account, shows its secrets masked and tests it', async () => {
    const appSecret = 'Hq4Wn8Ex2Rk6Ty0Ua3Sd7Fg1Jl5Zc9Vb';
    const token = 'wuyeJourney2026';
    const aesKey = 'Zyxwvutsrqponmlkjihgfedcba9876543210ABCDEFG';
    const page = await newPage();
    await signIn(page, 'leader', undefined, '/setup/setwxsys');
    const oa = page.getByTestId('wxsys-oa');
    // the demo leader holds both permissions: both halves are there
    await expect.poll(() => page.getByTestId('wxsys-mini').count()).toBe(1);
    await expect.poll(() => page.getByTestId('wxsys-oa-app-id').inputValue()).toBe('wx5d3f8a1b2c4e6f70');
    await expect.poll(() => oa.textContent()).toContain('未设置');

    await page.getByTestId('wxsys-oa-name').fill('阳光物业服务号');
    await page.getByTestId('wxsys-oa-app-id').fill('wxd678efh567hg6787');
    await page.getByTestId('wxsys-oa-app-secret').fill(appSecret);
    await page.getByTestId('wxsys-oa-token').fill(token);
    await page.getByTestId('wxsys-oa-aes-key').fill(aesKey);
    await page.getByTestId('wxsys-oa-save').click();

    // written only: the mask, never the secret
    await expect.poll(() => page.getByTestId('wxsys-oa-app-secret-mask').textContent()).toContain(`已设置 ****${appSecret.slice(-4)}`);
    expect(await page.getByTestId('wxsys-oa-app-secret').inputValue()).toBe('');
    expect(await page.content()).not.toContain(appSecret);
    expect(await page.content()).not.toContain(aesKey);

    await page.getByTestId('wxsys-oa-test').click();
    await expect.poll(() => page.locator('.ant-message').textContent()).toContain('公众号测试通过');
    await expect.poll(() => page.getByTestId('wxsys-oa-status').textContent()).toContain('通过');
    await settle(page);
    await screenshot(page, 'leader-wxsys-1440');
  });
});
