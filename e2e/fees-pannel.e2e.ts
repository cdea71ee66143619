import { expect, it } from 'vitest';
import { api, apiLogin, grouped, journey, signIn } from './support.js';
import { settle } from './antd.js';
import { DESKTOP, screenshot } from './browser.js';

/** 'YYYY-MM-DD' of today plus `days` in the business calendar (Asia/Shanghai), whatever the machine's zone. */
function businessDay(days = 0): string {
  return new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

journey('fees: the report home (报表首页, /feecounts/pannelindex)', ({ page: newPage }) => {
  it('admin picks 近30天, reads 实收 as the server counts it, opens 收款统计 on the period and a report from a tile', async () => {
    const token = await apiLogin('admin');
    const page = await newPage(DESKTOP);
    // the report area opens on its home
    await signIn(page, 'admin', undefined, '/feecounts');
    await page.waitForURL((u) => u.pathname === '/feecounts/pannelindex');
    await page.getByTestId('pannelindex-page').waitFor();

    const range = { start_date: businessDay(-29), end_date: businessDay(0) };
    const res = await api('pannelindex', range, token);
    expect(res.return_code, res.return_msg).toBe('SUCCESS');
    expect(Number(res.data.figures.received)).toBeGreaterThan(0);

    await page.getByTestId('pannel-period').getByText('近30天', { exact: true }).click();
    await expect.poll(() => page.getByTestId('pannel-range-text').textContent()).toBe(`${range.start_date} 至 ${range.end_date}`);
    const received = page.getByTestId('pannel-card-received');
    await expect.poll(() => received.textContent()).toContain(grouped(res.data.figures.received));
    await expect.poll(() => page.getByTestId('pannel-card-payments').textContent()).toContain(String(res.data.figures.payments));
    // the four sections and the tiles of the reports that exist
    for (const s of ['fees', 'orders', 'passage', 'other']) await page.getByTestId(`pannel-section-${s}`).waitFor();
    await page.getByTestId('pannel-tile-/feecounts/fees_count').waitFor();
    await settle(page);
    await screenshot(page, 'fees-pannel-1440');

    // the 实收 card opens 收款统计 on the same days, with the same total
    await received.click();
    await page.waitForURL((u) => u.pathname === '/feecounts/paymentstatis' && u.searchParams.get('start_date') === range.start_date);
    await page.getByTestId('paymentstatis-page').waitFor();
    await expect.poll(() => page.getByTestId('paymentstatis-page').textContent()).toContain(grouped(res.data.figures.received));
    // and what the methods the group counts in 实收 took (支付方式)
    const stats = await api('paymentstatis', { ...range, group_by: 'pay_type' }, token);
    await expect
      .poll(() => page.getByTestId('paymentstatis-page').textContent())
      .toContain(`其中计入实收¥${grouped(stats.data.counted_amount)}`);
    await settle(page);
    await screenshot(page, 'fees-paymentstatis-1440');

    // back on the home, a tile opens its report
    await page.goBack();
    await page.getByTestId('pannelindex-page').waitFor();
    await page.getByTestId('pannel-tile-/feecounts/month_fees').click();
    await page.waitForURL((u) => u.pathname === '/feecounts/month_fees');
  });
});
