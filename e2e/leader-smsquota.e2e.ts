import { expect, it } from 'vitest';
import { rowsOf, settle } from './antd.js';
import { DESKTOP, screenshot } from './browser.js';
import { journey, signIn } from './support.js';

const digits = (t: string | null) => Number((t ?? '').replace(/[^\d]/g, ''));

/**
 * The head office tops up the group's SMS package (短信额度, /setup/smsquota on the group side):
 * the balance grows by what was bought, after a confirmation, and the ledger has its row.
 */
journey('SMS quota: a top-up raises the balance and is written in the ledger', ({ page: newPage }) => {
  it('tops up 1,000 messages through the confirmation', async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'leader', undefined, '/setup/smsquota');
    const balance = page.getByTestId('smsquota-balance');
    await expect.poll(async () => digits(await balance.textContent())).toBeGreaterThan(0);
    const before = digits(await balance.textContent());

    await page.getByTestId('smsquota-topup').click();
    await page.getByTestId('smsquota-count').fill('1000');
    await page.getByTestId('smsquota-note').fill('采购短信套餐');
    await page.getByTestId('smsquota-dialog-ok').click();
    await page.getByTestId('smsquota-confirm-ok').click();

    await expect.poll(async () => digits(await balance.textContent())).toBe(before + 1000);
    const ledger = page.getByTestId('smsquota-ledger');
    await expect.poll(async () => (await rowsOf(ledger).first().innerText()).includes('采购短信套餐')).toBe(true);
    const row = await rowsOf(ledger).first().innerText();
    expect(row).toContain('充值');
    expect(row).toContain(String(before + 1000));
    await settle(page);
    await screenshot(page, 'leader-smsquota-1440');
  });
});
