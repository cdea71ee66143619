import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, apiLogin, grouped, journey, signIn } from './support.js';
import { rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

/** A room in arrears, as the arrears report lists it. */
interface Owing {
  hid: number;
  address: string;
  owner_name: string;
  mobile: string;
  bill_count: number;
  total: string;
}

interface Owner {
  name: string;
  mobile: string;
  /** the owner's home and the second room given them here */
  home: Owing;
  second: Owing;
}

/**
 * Owners with a second room in arrears, made for the walk: the owners of rooms in arrears outside
 * 1号楼 and 2号楼 (the other journeys' rooms) are given another such room as owners, so each has two
 * rooms to pay at the counter. Each room of the pairs is used once.
 */
async function ownersWithTwoRooms(token: string, count: number): Promise<Owner[]> {
  const owing = (await api<{ items: Owing[] }>('fees_count_nopay', { limit: 100 }, token)).data.items.filter(
    (r) => r.owner_name && r.bill_count >= 2 && !/^[12]号楼/.test(r.address),
  );
  const tails = new Set<string>();
  const owners: Owner[] = [];
  for (let i = 0; owners.length < count && i + 1 < owing.length; i += 2) {
    const [home, second] = [owing[i]!, owing[i + 1]!];
    // a tail shared with another owner of the walk would find both
    if (tails.has(home.mobile.slice(-4))) continue;
    tails.add(home.mobile.slice(-4));
    const found = await api<{ items: Array<{ id: number }> }>('memberlist', { mobile: home.mobile }, token);
    const member = await api<{ realname: string; mobile: string }>('memberinfo', { id: found.data.items[0]!.id }, token);
    const edited = await api(
      'memberedit',
      {
        id: found.data.items[0]!.id,
        realname: member.data.realname,
        mobile: member.data.mobile,
        rooms: [{ hid: second.hid, relation: 'owner' }],
      },
      token,
    );
    expect(edited.return_code, edited.return_msg).toBe('SUCCESS');
    owners.push({ name: home.owner_name, mobile: home.mobile, home, second });
  }
  expect(owners).toHaveLength(count);
  return owners;
}

const money = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

/**
 * The cashier's walk at the desk: the owner found by the last four digits of the mobile, the
 * owner's second room added, every bill unticked and ticked again, the summary read and confirmed
 * with Enter, two rooms paid on one receipt.
 */
async function payTwoRooms(page: Page, owner: Owner, width: number) {
  await page.goto('/desktop/cashier');
  await page.getByTestId('cashier-page').waitFor();
  await page.getByTestId('cashier-search-input').fill(owner.mobile.slice(-4));
  await page.getByTestId('cashier-search').click();
  const result = page.getByTestId('cashier-search-result').filter({ hasText: owner.home.address }).filter({ hasText: owner.name });
  await result.waitFor();
  expect(await result.textContent()).toContain(`欠费 ${grouped(owner.home.total)} 元`);
  await settle(page);
  await screenshot(page, `fees-counter-search-${width}`);
  await result.click();
  await expect.poll(() => page.getByTestId('cashier-house').textContent()).toContain(owner.home.address);
  // one arrears figure: the desk's 欠费合计 is what the search said
  expect(await page.getByTestId('cashier-arrears').textContent()).toBe(grouped(owner.home.total));
  const bills = page.getByTestId('cashier-bills');
  await expect.poll(() => rowsOf(bills).count()).toBe(owner.home.bill_count);

  await page.getByTestId(`cashier-owner-room-${owner.second.hid}`).click();
  await expect.poll(() => rowsOf(bills).count()).toBe(owner.home.bill_count + owner.second.bill_count);
  // the added room's bills start ticked, as the first room's did
  const ticked = () =>
    rowsOf(bills)
      .filter({ has: page.locator('.ant-checkbox-checked') })
      .count();
  await expect.poll(ticked).toBe(owner.home.bill_count + owner.second.bill_count);
  // every bill unticked: the desk says what is missing and takes nothing
  await bills.locator('thead .ant-checkbox-input').click();
  await expect.poll(() => page.getByTestId('cashier-problem').textContent()).toBe('请选择要缴的账单');
  expect(await page.getByTestId('cashier-confirm').isDisabled()).toBe(true);
  await bills.locator('thead .ant-checkbox-input').click();
  await expect.poll(() => page.getByTestId('cashier-problem').count()).toBe(0);
  const due = money(await page.getByTestId('cashier-due').locator('.ant-statistic-content-value').textContent());
  expect(due).toBeCloseTo(money(owner.home.total) + money(owner.second.total), 2);
  await page.getByTestId('cashier-pay-type').getByText('微信支付').click();
  await settle(page);
  await screenshot(page, `fees-counter-desk-${width}`);
  if (width < 992) expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  await page.getByTestId('cashier-confirm').click();
  const summary = page.getByTestId('cashier-summary');
  await expect
    .poll(() => summary.getByTestId('cashier-summary-rooms').textContent())
    .toBe(`${owner.home.address}、${owner.second.address}`);
  expect(await summary.textContent()).toContain(`账单（${owner.home.bill_count + owner.second.bill_count} 张）`);
  expect(money(await summary.getByTestId('cashier-summary-due').textContent())).toBeCloseTo(due, 2);
  expect(await summary.getByTestId('cashier-summary-pay-type').textContent()).toBe('微信支付');
  expect(await summary.getByTestId('cashier-summary-payer').textContent()).toBe(owner.name);
  await settle(page);
  await screenshot(page, `fees-counter-summary-${width}`);
  // Enter confirms
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/fees\/print\/receipt\/\d+/);
  const receipt = page.getByTestId('receipt');
  await receipt.waitFor();
  // both rooms, in the order of the receipt's lines (the bills' order, not which room was opened first)
  const paid = await api<{ items: Array<{ address: string }> }>(
    'paymentinfo',
    { id: Number(/receipt\/(\d+)/.exec(page.url())![1]) },
    await apiLogin('admin'),
  );
  const rooms = [...new Set(paid.data.items.map((i) => i.address))];
  expect([...rooms].sort()).toEqual([owner.home.address, owner.second.address].sort());
  await expect.poll(() => page.getByTestId('receipt-rooms').textContent()).toBe(`房屋：${rooms.join('、')}`);
  // the A5 receipt on a desk, the 80 mm slip on a phone
  expect(await receipt.textContent()).toMatch(new RegExp(`合计[ ：]${due.toFixed(2)}`));
  await settle(page);
  await screenshot(page, `fees-counter-receipt-${width}`);
  return Number(/receipt\/(\d+)/.exec(page.url())![1]);
}

journey(
  'fees: the cashier desk, search by tail digits, a summary to confirm, two rooms on one receipt, a discount approved',
  ({ page: newPage }) => {
    let owners: Owner[] = [];
    let admin = '';

    it('finds owners with two rooms in arrears for the walk', async () => {
      admin = await apiLogin('admin');
      owners = await ownersWithTwoRooms(admin, 3);
    });

    it('at 1440×900: finds the owner by the last four digits, confirms the summary with Enter and pays both rooms on one receipt', async () => {
      const page = await newPage(DESKTOP);
      await signIn(page, 'cashier', undefined, '/desktop/cashier');
      const owner = owners[0]!;
      const paymentId = await payTwoRooms(page, owner, 1440);
      const info = await api<{ receipt_no: string; items: Array<{ hid: number }> }>('paymentinfo', { id: paymentId }, admin);
      expect(new Set(info.data.items.map((i) => i.hid))).toEqual(new Set([owner.home.hid, owner.second.hid]));
      // both rooms owe nothing now, as the owner search and the drawer say
      const found = await api<{ items: Array<{ hid: number; arrears: { total: string } }> }>(
        'getkeywordtohouses',
        { keywords: owner.mobile },
        admin,
      );
      expect(found.data.items.filter((i) => [owner.home.hid, owner.second.hid].includes(i.hid)).map((i) => i.arrears.total)).toEqual([
        '0.00',
        '0.00',
      ]);
    });

    it('at 390×844: the same walk on a phone, without sideways scrolling of the page', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'cashier', undefined, '/desktop/cashier');
      await payTwoRooms(phone, owners[1]!, 390);
    });

    it('above the cap the cashier asks for an approval, the finance manager approves it, the cashier uses it once', async () => {
      const owner = owners[2]!;
      const page = await newPage(DESKTOP);
      await signIn(page, 'cashier', undefined, `/desktop/cashier?hid=${owner.home.hid}`);
      await expect.poll(() => page.getByTestId('cashier-house').textContent()).toContain(owner.home.address);
      // half of what the room owes: above the cashier's 20 %
      const half = (Math.floor(money(owner.home.total) * 50) / 100).toFixed(2);
      await page.getByTestId('cashier-discount').fill(half);
      await expect.poll(() => page.getByTestId('cashier-problem').textContent()).toMatch(/^优惠超过收银员上限/);
      await page.getByTestId('cashier-discount-apply').click();
      await page.getByTestId('discount-apply-reason').fill('楼上漏水损坏装修，经理同意减免');
      await settle(page);
      await screenshot(page, 'fees-counter-discount-apply-1440');
      await page.getByTestId('discount-apply-save').click();
      const waiting = page.getByTestId('cashier-discounts');
      await expect.poll(() => waiting.textContent()).toContain('待审批');

      const finance = await newPage(DESKTOP);
      await signIn(finance, 'finance', undefined, '/fees/discountlist');
      const row = rowsOf(finance.getByTestId('discountlist-page')).filter({ hasText: owner.home.address });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain(half);
      await row.locator('[data-testid^="discount-approve-"]').click();
      await finance.getByTestId('discount-approve-remark').fill('同意');
      await finance.getByTestId('discount-approve-ok').click();
      await expect.poll(() => row.textContent()).toContain('已批准');
      await settle(finance);
      await screenshot(finance, 'fees-counter-discountlist-1440');

      // the cashier's desk sees it approved and uses it
      await page.getByTestId('cashier-discounts-refresh').click();
      const use = waiting.locator('[data-testid^="cashier-discount-use-"]');
      await use.waitFor();
      await use.click();
      await expect.poll(() => page.getByTestId('cashier-problem').count()).toBe(0);
      await page.getByTestId('cashier-confirm').click();
      await expect
        .poll(() => page.getByTestId('cashier-summary-discount').textContent())
        .toMatch(new RegExp(`^${grouped(half)} 元（优惠审批 #\\d+）$`));
      await page.getByTestId('cashier-summary-ok').click();
      await page.waitForURL(/\/fees\/print\/receipt\/\d+/);
      await expect.poll(() => page.getByTestId('receipt').textContent()).toContain(`优惠 ${half}`);

      // used: the list says so and its timeline tells the whole story
      await finance.reload();
      await expect.poll(() => row.textContent()).toContain('已使用');
      await row.locator('[data-testid^="discount-log-"]').click();
      const timeline = finance.getByTestId('discount-timeline');
      await expect.poll(() => timeline.textContent()).toContain('收款使用');
      for (const step of ['提交', '批准', '申请原因：楼上漏水损坏装修，经理同意减免', '审批意见：同意'])
        expect(await timeline.textContent()).toContain(step);
      await settle(finance);
      await screenshot(finance, 'fees-counter-discount-timeline-1440');
    });
  },
);
