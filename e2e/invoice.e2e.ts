import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { usccValid } from '@wuye/contract/invoice/invoices';
import { fenToYuan as yuan, toFen as fen } from '@wuye/contract/money';
import { api, apiLogin, grouped, journey, signIn } from './support.js';
import { pick, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

/** 5号楼's 1101: one property bill, a room no other journey pays (1号楼1单元1101 is theirs). */
const ROOM = '5号楼1单元1101';
const PROPERTY_CODE = '3040801010000000000';
/** a company buyer, its credit code carrying its check digit */
const BUYER = { title: '上海星河科技有限公司', tax_no: '91310000MA1FL8TQ23' };
/** the seller as the settings page takes it */
const SELLER = { name: '阳光花园物业服务有限公司', tax_no: '91330100MA2AXXXX07' };

/** A room's id by its building, unit and number, through the dropdowns' lists. */
async function roomId(token: string, building: string, unit: string, room: string): Promise<number> {
  type Small = { items: Array<{ id: number; title: string }> };
  const idOf = (r: { data: Small }, title: string) => r.data.items.find((i) => i.title === title)?.id ?? 0;
  const bid = idOf(await api<Small>('building_small_list', {}, token), building);
  const tid = idOf(await api<Small>('unit_small_list', { bid }, token), unit);
  return idOf(await api<Small>('room_small_list', { tid }, token), room);
}

/** The waiting list narrowed to one receipt. */
async function waitingFor(page: Page, receiptNo: string) {
  await page.goto('/invoice/invoicewaitlist');
  await page.getByTestId('invoice-wait').waitFor();
  await page.getByTestId('invoice-wait-keyword').fill(receiptNo);
  await page.getByTestId('table-page-search').click();
}

/** A row of the waiting list, by its receipt line. */
const waitRow = (page: Page, lineId: number) => page.locator(`[data-testid="invoice-wait"] tr.ant-table-row[data-row-key="${lineId}"]`);

/** The invoices of a receipt on the invoice list, with what each row's status says. */
async function invoicesOf(page: Page, paymentId: number) {
  await page.goto(`/invoice/invoicelist?payment_id=${paymentId}`);
  await page.getByTestId('invoicelist-payment').waitFor();
}
const statusOf = (page: Page, id: number) => page.getByTestId(`invoice-status-${id}`).getAttribute('data-status');

journey(
  'invoice: map the property fee, issue a company invoice in two halves, reverse one, refuse a refund until both are reversed',
  ({ page: newPage }) => {
    let admin = '';
    let page: Page;
    let hid = 0;
    let paymentId = 0;
    let receiptNo = '';
    let lineId = 0;
    let total = 0n;
    let half = 0n;
    /** the payer, when the receipt names one: a title typed at issue is kept for them */
    let memberId: number | null = null;
    /** the payer's titles saved before the walk (the demo saves some) */
    let savedTitles = 0;
    const invoiceIds: number[] = [];

    it('the buyer’s and the seller’s codes carry their check digits', async () => {
      expect(usccValid(BUYER.tax_no)).toBe(true);
      expect(usccValid(SELLER.tax_no)).toBe(true);
      admin = await apiLogin('admin');
      hid = await roomId(admin, '5号楼', '1单元', '1101');
      expect(hid, `${ROOM} not found`).toBeGreaterThan(0);
    });

    it('on 开票设置: saves the seller and maps the property fee to 物业管理服务 at 6 %', async () => {
      page = await newPage(DESKTOP);
      await signIn(page, 'admin', undefined, '/invoice/invoiceset');
      await page.getByTestId('invoiceset-form').waitFor();
      // a wrong check digit is refused at the field, as the server would
      await page.getByTestId('invoiceset-seller_tax_no').fill('91330100MA2AXXXX08');
      await page.getByTestId('invoiceset-seller_name').fill(SELLER.name);
      await page.getByTestId('invoiceset-save').click();
      await page.getByText('统一社会信用代码校验位不正确，请核对').waitFor();
      await page.getByTestId('invoiceset-seller_tax_no').fill(SELLER.tax_no);
      await page.getByTestId('invoiceset-payee').fill('李收款');
      await page.getByTestId('invoiceset-save').click();
      await page.locator('.ant-notification-notice').filter({ hasText: '保存成功' }).first().waitFor();
      await page.getByTestId('invoiceset-test').click();
      await page.getByTestId('invoiceset-test-result').waitFor();

      const items = await api<{ items: Array<{ item_id: number; item_title: string; cost_type: string; mapped: 'Y' | 'N' }> }>(
        'invoiceitemmaplist',
        { limit: 200 },
        admin,
      );
      const property = items.data.items.find((i) => i.cost_type === 'property' && i.item_title.includes('物业'))!;
      expect(property, 'the demo has a property fee item').toBeTruthy();
      await page.getByTestId('itemmap-filter-title').fill(property.item_title);
      await page.getByTestId('itemmap-page').getByTestId('table-page-search').click();
      // the demo maps its items: the mapping is cleared first (after a confirmation), then set again
      if (property.mapped === 'Y') {
        await page.getByTestId(`itemmap-del-${property.item_id}`).click();
        await page.getByTestId('itemmap-del-confirm').click();
      }
      await page.getByTestId(`itemmap-unset-${property.item_id}`).waitFor();
      await page.getByTestId(`itemmap-set-${property.item_id}`).click();
      const form = page.getByTestId('itemmap-form');
      await form.waitFor();
      // an unmapped item opens with the suggestion for its cost type
      expect(await page.getByTestId('itemmap-goods_name').inputValue()).toBe('物业管理服务');
      await page.getByTestId('itemmap-tax_code').fill(PROPERTY_CODE);
      await pick(page, 'itemmap-rate', '6%');
      await settle(page);
      await screenshot(page, 'invoice-itemmap-1440');
      await page.getByTestId('itemmap-save').click();
      await form.waitFor({ state: 'hidden' });
      const row = page.locator(`[data-testid="itemmap-page"] tr.ant-table-row[data-row-key="${property.item_id}"]`);
      await expect.poll(() => row.textContent()).toContain(PROPERTY_CODE);
      expect(await row.textContent()).toContain('6%');
    });

    it('takes the room’s payment at the cashier; the line waits on 待开票 with all of it left', async () => {
      await page.goto(`/desktop/cashier?hid=${hid}`);
      await expect.poll(() => page.getByTestId('cashier-house').textContent()).toContain(ROOM);
      await page.getByTestId('cashier-pay-type').getByText('微信支付').click();
      await expect.poll(() => page.getByTestId('cashier-problem').count()).toBe(0);
      await page.getByTestId('cashier-confirm').click();
      await page.getByTestId('cashier-summary-ok').click();
      await page.waitForURL(/\/fees\/print\/receipt\/\d+/);
      paymentId = Number(/receipt\/(\d+)/.exec(page.url())![1]);
      const info = await api<{ receipt_no: string }>('paymentinfo', { id: paymentId }, admin);
      receiptNo = info.data.receipt_no;

      const waiting = await api<{ items: Array<{ id: number; left: string; item_title: string; rate: string; member_id: number | null }> }>(
        'invoicewaitlist',
        { receipt_no: receiptNo },
        admin,
      );
      const line = waiting.data.items.find((l) => l.rate === '6')!;
      expect(line, 'the property line waits at 6 %').toBeTruthy();
      lineId = line.id;
      memberId = line.member_id;
      if (memberId)
        savedTitles = (await api<{ items: unknown[] }>('invoicetitle_small_list', { member_ids: [memberId] }, admin)).data.items.length;
      total = fen(line.left);
      half = total / 2n;

      await waitingFor(page, receiptNo);
      const row = waitRow(page, lineId);
      await expect.poll(() => row.textContent()).toContain('未开票');
      expect(await row.textContent()).toContain(grouped(yuan(total)));
      expect(await row.textContent()).toContain('6%');
    });

    it('issues a company invoice for half of it, kept as the owner’s title, and waits on the list for 已开具', async () => {
      await waitRow(page, lineId).locator('.ant-checkbox-input').check();
      await page.getByTestId('invoice-issue').click();
      const dialog = page.getByTestId('invoice-issue-dialog');
      await dialog.waitFor();
      await page.getByTestId(`invoice-issue-amount-${lineId}`).fill(yuan(total + 1n));
      await dialog.getByText(`不能超过 ${yuan(total)}`).waitFor();
      await page.getByTestId(`invoice-issue-amount-${lineId}`).fill(yuan(half));
      // an owner with saved titles starts on the default one: a new one is typed instead
      if (savedTitles > 0) await page.getByTestId('invoice-issue-titles').getByText('填写新的抬头').click();
      await page.getByTestId('invoice-buyer-kind').getByText('企业').click();
      await page.getByTestId('invoice-buyer-title').fill(BUYER.title);
      await page.getByTestId('invoice-buyer-tax_no').fill(BUYER.tax_no);
      if (memberId) await page.getByTestId('invoice-buyer-save').check();
      // the preview: one invoice of 物业管理服务 at 6 %, tax separated
      await expect.poll(() => page.getByTestId('invoice-preview-total').textContent()).toContain(`价税合计 ${grouped(yuan(half))} 元`);
      expect(await page.getByTestId('invoice-preview').textContent()).toContain('*物业管理服务');
      await settle(page);
      await screenshot(page, 'invoice-issue-1440');
      await page.getByTestId('invoice-issue-ok').click();
      await dialog.waitFor({ state: 'hidden' });

      await invoicesOf(page, paymentId);
      const status = page.locator('[data-testid^="invoice-status-"]');
      await expect.poll(() => status.count()).toBe(1);
      invoiceIds.push(Number((await status.first().getAttribute('data-testid'))!.replace('invoice-status-', '')));
      // 开票中 turns 已开具 by itself: the list asks again while a row is with the provider
      await expect.poll(() => statusOf(page, invoiceIds[0]!), { timeout: 30_000 }).toBe('Y');
      expect(await page.getByTestId(`invoice-status-${invoiceIds[0]}`).textContent()).toContain('已开具');
    });

    it('issues the rest to the saved title; the line is gone from 待开票', async () => {
      await waitingFor(page, receiptNo);
      const row = waitRow(page, lineId);
      await expect.poll(() => row.textContent()).toContain('部分开票');
      expect(await row.textContent()).toContain(grouped(yuan(total - half)));
      await row.locator('.ant-checkbox-input').check();
      await page.getByTestId('invoice-issue').click();
      const dialog = page.getByTestId('invoice-issue-dialog');
      await dialog.waitFor();
      // all that is left, by default
      expect(await page.getByTestId(`invoice-issue-amount-${lineId}`).inputValue()).toBe(yuan(total - half));
      if (memberId) {
        // the title kept the first time is offered beside the owner's others
        const titles = page.getByTestId('invoice-issue-titles');
        await expect.poll(() => titles.textContent()).toContain(BUYER.title);
        await titles.locator('label.ant-radio-wrapper', { hasText: BUYER.title }).click();
        expect(await titles.locator('.ant-radio-wrapper-checked').textContent()).toContain(BUYER.title);
      } else {
        await page.getByTestId('invoice-buyer-kind').getByText('企业').click();
        await page.getByTestId('invoice-buyer-title').fill(BUYER.title);
        await page.getByTestId('invoice-buyer-tax_no').fill(BUYER.tax_no);
      }
      await expect.poll(() => page.getByTestId('invoice-preview-total').textContent()).toContain(grouped(yuan(total - half)));
      await page.getByTestId('invoice-issue-ok').click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByTestId('table-page-search').click();
      await expect.poll(() => waitRow(page, lineId).count()).toBe(0);

      await invoicesOf(page, paymentId);
      const status = page.locator('[data-testid^="invoice-status-"]');
      await expect.poll(() => status.count()).toBe(2);
      const ids = await status.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-testid')!.replace('invoice-status-', ''))));
      invoiceIds.push(ids.find((id) => id !== invoiceIds[0])!);
      await expect.poll(() => statusOf(page, invoiceIds[1]!), { timeout: 30_000 }).toBe('Y');

      // its PDF, and its detail: the receipt line it covers, tax separated
      const download = page.waitForEvent('download');
      await page.getByTestId(`invoice-pdf-${invoiceIds[1]}`).click();
      expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
      await page.getByTestId(`invoice-info-${invoiceIds[1]}`).click();
      const lines = page.getByTestId('invoice-detail').getByTestId('invoice-lines');
      await expect.poll(() => lines.textContent()).toContain(receiptNo);
      expect(await lines.textContent()).toContain(ROOM);
      await page.keyboard.press('Escape');
      await page.getByTestId('invoice-detail').waitFor({ state: 'hidden' });
    });

    it('reverses the first invoice in full: a red invoice beside it, and its half is back on 待开票', async () => {
      await page.getByTestId(`invoice-red-${invoiceIds[0]}`).click();
      const dialog = page.getByTestId('invoice-red-dialog');
      await dialog.waitFor();
      await pick(page, 'invoice-red-reason', '开票有误');
      await expect.poll(() => page.getByTestId('invoice-red-ok').textContent()).toContain(`全额红冲 ${grouped(yuan(half))} 元`);
      await page.getByTestId('invoice-red-ok').click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => statusOf(page, invoiceIds[0]!), { timeout: 30_000 }).toBe('R');
      // the red one stands beside it, issued
      await expect.poll(() => page.locator('[data-testid^="invoice-status-"]').count()).toBe(3);
      await expect.poll(() => page.locator('[data-testid^="invoice-status-"][data-status="Y"]').count(), { timeout: 30_000 }).toBe(2);
      await settle(page);
      await screenshot(page, 'invoice-list-1440');

      await waitingFor(page, receiptNo);
      const row = waitRow(page, lineId);
      await expect.poll(() => row.textContent()).toContain('部分开票');
      expect(await row.textContent()).toContain(grouped(yuan(half)));
    });

    it('a refund of the payment is refused with 红冲 while the second invoice stands; 去红冲 leads there, and after it the refund is taken', async () => {
      const tryRefund = async () => {
        await page.goto('/fees/payment');
        await page.getByTestId('payment-receipt-no').fill(receiptNo);
        await page.getByTestId('table-page-search').click();
        await page.getByTestId(`payment-refund-${paymentId}`).click();
        await page.getByTestId('refund-apply-reason').fill('业主搬离，退还物业费');
        await page.getByTestId('refund-apply-save').click();
      };
      await tryRefund();
      const refused = page.getByTestId('refund-apply-invoiced');
      await refused.waitFor();
      expect(await refused.textContent()).toContain('红冲');
      await settle(page);
      await screenshot(page, 'invoice-refund-refused-1440');
      await page.getByTestId('refund-apply-goto-red').click();
      await page.waitForURL(new RegExp(`/invoice/invoicelist\\?payment_id=${paymentId}&receipt_no=${receiptNo}$`));
      // the chip names the receipt by its number
      await page.getByTestId('invoicelist-payment').getByText(`收据 ${receiptNo} 的发票`).waitFor();
      await page.getByTestId(`invoice-red-${invoiceIds[1]}`).click();
      await page.getByTestId('invoice-red-dialog').waitFor();
      await pick(page, 'invoice-red-reason', '退款');
      await page.getByTestId('invoice-red-ok').click();
      await page.getByTestId('invoice-red-dialog').waitFor({ state: 'hidden' });
      await expect.poll(() => statusOf(page, invoiceIds[1]!), { timeout: 30_000 }).toBe('R');

      await tryRefund();
      await page.locator('.ant-notification-notice').filter({ hasText: '成功' }).first().waitFor();
      await expect.poll(() => page.getByTestId('refund-apply-reason').count()).toBe(0);
      const refunds = await api<{ items: Array<{ receipt_no: string; status: string }> }>('refund_list', { sort: 'desc' }, admin);
      expect(refunds.data.items.find((r) => r.receipt_no === receiptNo)?.status).toBe('E');
    });

    it("a to-do's link opens the application it names", async () => {
      const applies = await api<{ items: Array<{ id: number; status: string }> }>('invoiceapplylist', { sort: 'desc', status: 'W' }, admin);
      const waiting = applies.data.items[0]!;
      await page.goto(`/invoice/invoicewaitlist?tab=apply&id=${waiting.id}`);
      const drawer = page.getByTestId('invoiceapply-drawer');
      await drawer.getByText(`开票申请 #${waiting.id}`).waitFor();
      await drawer.getByText('开票明细').waitFor();
      await drawer.locator('.ant-drawer-close').click();
      await expect.poll(() => new URL(page.url()).search).toBe('?tab=apply');
    });

    it('at 390×844 the three pages draw without sideways scrolling of the page', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'admin', undefined, '/invoice/invoicelist');
      for (const path of ['/invoice/invoicelist', '/invoice/invoicewaitlist', '/invoice/invoiceset']) {
        await phone.goto(path);
        await phone
          .locator('[data-testid="invoicelist-page"], [data-testid="invoice-wait"], [data-testid="invoiceset-form"]')
          .first()
          .waitFor();
        await settle(phone);
        await screenshot(phone, `invoice${path.replace(/\//g, '-')}-390`);
        expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      }
    });
  },
);
