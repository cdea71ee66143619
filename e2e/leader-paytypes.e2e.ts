import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { chartsStill, settle } from './antd.js';
import { screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

/**
 * The head office disables 支付宝 and asks a reference for 银行转账 (支付方式, /setup/paytypelist on
 * the group side); the cashier's desk then offers no 支付宝 and takes a transfer only with its
 * reference, which the receipt keeps. The rules are put back at the end: the other journeys pay
 * with every method.
 */
/** The cashier's desk at a room in arrears far from the other journeys' rooms (`at`: which of them, from the end). */
async function cashierAtOwingRoom(page: Page, at: number): Promise<Page> {
  const owing = await api<{ items: Array<{ hid: number; address: string; owner_name: string }> }>(
    'fees_count_nopay',
    { limit: 100 },
    await apiLogin('admin'),
  );
  const room = owing.data.items.filter((r) => r.owner_name && !/^[12]号楼/.test(r.address)).at(at)!;
  await signIn(page, 'cashier', undefined, `/desktop/cashier?hid=${room.hid}`);
  await expect.poll(() => page.getByTestId('cashier-house').textContent()).toContain(room.address);
  return page;
}

journey('payment methods', ({ page: newPage }) => {
  it('the group sets the rules and the counter follows them', async () => {
    const leaderToken = await apiLogin('leader');
    const restore = async () => {
      for (const [pay_type, sort] of [
        ['alipay', 3],
        ['transfer', 5],
      ] as const) {
        await api('paytypeedit', { pay_type, enabled: 'Y', counted: 'Y', ref_required: 'N', sort, remark: '' }, leaderToken, 'group');
      }
    };
    try {
      const leader = await newPage();
      await signIn(leader, 'leader', undefined, '/setup/paytypelist');
      const table = leader.getByTestId('paytype-table');
      await table.getByText('银行转账', { exact: true }).waitFor();
      await leader.getByTestId('paytype-enabled-alipay').click();
      await leader.getByTestId('paytype-save-alipay').click();
      // saved: the row's draft is gone, its 保存 off again
      await expect.poll(() => leader.getByTestId('paytype-save-alipay').isDisabled()).toBe(true);
      await leader.getByTestId('paytype-ref-transfer').click();
      await leader.getByTestId('paytype-save-transfer').click();
      await expect.poll(() => leader.getByTestId('paytype-save-transfer').isDisabled()).toBe(true);
      const rules = await api<{ items: Array<{ pay_type: string; enabled: string; ref_required: string }> }>(
        'paytypelist',
        {},
        leaderToken,
        'group',
      );
      expect(rules.data.items.find((r) => r.pay_type === 'alipay')).toMatchObject({ enabled: 'N' });
      expect(rules.data.items.find((r) => r.pay_type === 'transfer')).toMatchObject({ ref_required: 'Y' });
      await settle(leader);
      await screenshot(leader, 'leader-paytypes-1440');

      const page = await cashierAtOwingRoom(await newPage(), -1);
      const methods = page.getByTestId('cashier-pay-type');
      await methods.getByText('银行转账', { exact: true }).waitFor();
      expect(await methods.textContent()).not.toContain('支付宝');
      await methods.getByText('银行转账', { exact: true }).click();
      await expect.poll(() => page.getByTestId('cashier-problem').textContent()).toBe('请填写银行转账的凭证号');
      expect(await page.getByTestId('cashier-confirm').isDisabled()).toBe(true);
      await page.getByTestId('cashier-pay-type-ref').fill('BK20261203-0099');
      await expect.poll(() => page.getByTestId('cashier-problem').count()).toBe(0);
      await settle(page);
      await screenshot(page, 'leader-paytypes-cashier-1440');
      await page.getByTestId('cashier-confirm').click();
      const summary = page.getByTestId('cashier-summary');
      await expect.poll(() => summary.getByTestId('cashier-summary-pay-type').textContent()).toBe('银行转账（凭证号 BK20261203-0099）');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/fees\/print\/receipt\/\d+/);
      const paid = await api<{ pay_type: string; pay_ref: string }>(
        'paymentinfo',
        { id: Number(/receipt\/(\d+)/.exec(page.url())![1]) },
        await apiLogin('admin'),
      );
      expect(paid.data).toMatchObject({ pay_type: 'transfer', pay_ref: 'BK20261203-0099' });
    } finally {
      await restore();
    }
  });
  it('the group adds its own way on 银行卡 (beside the demo’s POS机-工行); the counter takes it, the receipt prints it, 财务报表 splits it out, and once used it is only disabled', async () => {
    const leaderToken = await apiLogin('leader');
    let added = 0;
    try {
      const leader = await newPage();
      await signIn(leader, 'leader', undefined, '/setup/paytypelist');
      await leader.getByTestId('paymethod-add').click();
      await leader.getByTestId('paymethod-name').fill('POS机-建行');
      await leader.getByTestId('paymethod-base').getByText('银行卡', { exact: true }).click();
      await leader.getByTestId('paymethod-ref').click();
      await leader.getByTestId('paymethod-save').click();
      const table = leader.getByTestId('paymethod-table');
      await table.getByText('POS机-建行', { exact: true }).waitFor();
      const list = await api<{ methods: Array<{ id: number; name: string; ref_required: string }> }>(
        'paytypelist',
        {},
        leaderToken,
        'group',
      );
      const pos = list.data.methods.find((m) => m.name === 'POS机-建行')!;
      added = pos.id;
      expect(pos.ref_required).toBe('Y');

      const page = await cashierAtOwingRoom(await newPage(), -2);
      const methods = page.getByTestId('cashier-pay-type');
      await methods.getByText('POS机-建行', { exact: true }).click();
      await expect.poll(() => page.getByTestId('cashier-problem').textContent()).toBe('请填写POS机-建行的凭证号');
      await page.getByTestId('cashier-pay-type-ref').fill('CCB-20261205-01');
      await expect.poll(() => page.getByTestId('cashier-problem').count()).toBe(0);
      await page.getByTestId('cashier-confirm').click();
      await expect
        .poll(() => page.getByTestId('cashier-summary').getByTestId('cashier-summary-pay-type').textContent())
        .toBe('POS机-建行（银行卡）（凭证号 CCB-20261205-01）');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/fees\/print\/receipt\/\d+/);
      await expect.poll(() => page.getByTestId('receipt').first().textContent()).toContain('支付方式：POS机-建行（银行卡）');

      // used now: its row says so and offers no delete
      await leader.reload();
      const row = leader.getByTestId('paymethod-table').locator('tr', { hasText: 'POS机-建行' });
      await row.getByText('已使用', { exact: true }).waitFor();
      expect(await leader.getByTestId(`paymethod-del-${pos.id}`).isDisabled()).toBe(true);
      await settle(leader);
      await screenshot(leader, 'leader-paymethods-1440');

      // 财务报表 splits 银行卡 by the own ways: the receipt just taken is under 其中：POS机-建行
      const finance = await newPage();
      await signIn(finance, 'admin', undefined, '/feecounts/financereport');
      const ways = finance.getByTestId('financereport-ways');
      await ways.locator('tr', { hasText: '其中：POS机-建行' }).waitFor();
      await settle(finance);
      await screenshot(finance, 'fees-financereport-ways-1440');
      // and so does 收款统计 by pay type
      await finance.goto('/feecounts/paymentstatis');
      await finance.getByTestId('paymentstatis-table').locator('tr', { hasText: '其中：POS机-建行' }).waitFor();
      await settle(finance);
      await chartsStill(finance);
      await screenshot(finance, 'fees-paymentstatis-ways-1440');
    } finally {
      // the other journeys' counters offer the system's ways only
      if (added)
        await api(
          'paymethodedit',
          { id: added, name: 'POS机-建行', base: 'bankcard', enabled: 'N', ref_required: 'Y', sort: 10, remark: '' },
          leaderToken,
          'group',
        );
    }
  });
});
