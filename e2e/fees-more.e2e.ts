import { expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { api, apiLogin, businessMonth, journey, signIn } from './support.js';
import { chooseOption, pick, pickMonth, pickRoom, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { xlsxUpload } from './files.js';

const toFen = (yuan: string) => Math.round(Number(yuan) * 100);
const yuan = (fen: number) => (fen / 100).toFixed(2);

journey('fees: meter reading to water bill, quick payment with receipt, fee settings', ({ page: newPage }) => {
  let page: Page;
  const period = businessMonth(1); // the generation page's default period
  const USAGE = '15.50';
  const WATER_PRICE = '4.20';

  it('enters a reading for 1号楼1单元101: the previous one is pre-filled and the usage computed', async () => {
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/fees/meterreading');
    const list = page.getByTestId('meterreading-page');
    await list.waitFor();
    // the demo's readings of last month, newest first, with their bills
    await expect.poll(() => rowsOf(list).count()).toBeGreaterThan(0);
    // (a remote meter's reading of another journey may be newer)
    await expect.poll(() => rowsOf(list).filter({ hasText: '生活用水' }).count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'fees-meterreading-1440');

    await page.getByTestId('meter-add').click();
    const modal = page.getByTestId('meter-modal');
    await modal.waitFor();
    // 上次读数 is pre-filled for the room and the period shown: first the form's own period, then
    // the one picked; the reading goes on from the picked period's
    const prefill = page.waitForResponse((r) => {
      const body = r.request().postData() ?? '';
      return body.includes('"method":"meterreadingprev"') && body.includes(`"period":"${period}"`);
    });
    await pickRoom(page, 'meter-room', '1号楼', '1单元', '101');
    await pickMonth(page, 'meter-period', period);
    const prev = ((await (await prefill).json()) as { data: { last_reading: string } }).data.last_reading;
    const last = page.getByTestId('meter-last');
    await expect.poll(async () => Number(await last.inputValue())).toBe(Number(prev));
    const lastReading = await last.inputValue();
    expect(lastReading).toMatch(/^\d+\.\d{2}$/);
    expect(Number(lastReading)).toBeGreaterThan(100);
    const thisReading = yuan(toFen(lastReading) + toFen(USAGE));
    await page.getByTestId('meter-this').fill(thisReading);
    await expect.poll(() => page.getByTestId('meter-quantity').textContent()).toBe(USAGE);
    await settle(page);
    await screenshot(page, 'fees-meterreading-add-1440');
    await page.getByTestId('meter-save').click();
    await modal.waitFor({ state: 'hidden' });
    const row = rowsOf(list).filter({ hasText: '1号楼1单元101' }).filter({ hasText: period });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain(USAGE);
    expect(await row.textContent()).toContain('未出账');
  });

  it("generates that month's water bills for 1号楼1单元 and the bill of 101 is usage x price", async () => {
    await page.goto('/fees/feebillworkadd');
    await page.getByTestId('feebillworkadd-page').waitFor();
    await pick(page, 'gen-items', '生活用水');
    await page.keyboard.press('Escape');
    await pickRoom(page, 'gen-scope', '1号楼', '1单元');
    await page.getByTestId('gen-preview').click();
    await expect.poll(() => page.getByTestId('gen-preview-result').textContent()).toMatch(/\d/);
    await page.getByTestId('gen-confirm').click();
    await expect.poll(() => page.getByTestId('gen-progress').textContent(), { timeout: 30_000 }).toMatch(/已生成 \d+ 张账单/);

    await page.goto('/fees/feebilllist');
    await page.getByTestId('feebilllist-page').waitFor();
    await pickRoom(page, 'bill-place', '1号楼', '1单元', '101');
    await pick(page, 'bill-item', '生活用水');
    await page.getByTestId('table-page-search').click();
    const bill = rowsOf(page.getByTestId('feebilllist-page')).filter({ hasText: `${period}-01 ~` });
    await expect.poll(() => bill.count()).toBe(1);
    const text = (await bill.textContent()) ?? '';
    const amount = yuan(Math.round((toFen(USAGE) * toFen(WATER_PRICE)) / 100));
    expect(amount).toBe('65.10');
    expect(text).toContain(amount);
    expect(text).toContain(USAGE);
    expect(text).toContain('4.2000');
    await settle(page);
    await screenshot(page, 'fees-water-bill-1440');
    // the reading now shows its bill
    await page.goto('/fees/meterreading');
    const row = rowsOf(page.getByTestId('meterreading-page')).filter({ hasText: '1号楼1单元101' }).filter({ hasText: period });
    await expect.poll(() => row.textContent()).toContain(`待缴 ${amount}`);
  });

  it('sets the receipt heading and note in the fee settings', async () => {
    await page.goto('/setup/setfees');
    await page.getByTestId('setfees-page').waitFor();
    await expect.poll(() => page.getByTestId('setfees-due-day').inputValue()).toBe('15');
    await page.getByTestId('setfees-title').fill('阳光花园物业服务中心收款收据');
    await page.getByTestId('setfees-footnote').fill('本收据为缴费凭证，请妥善保管。服务电话 021-58881234');
    await settle(page);
    await screenshot(page, 'fees-setfees-1440');
    await page.getByTestId('setfees-save').click();
    await expect.poll(() => page.getByTestId('setfees-page').textContent()).toContain('最近由 张经理');
  });

  it("takes a quick payment of two one-off charges for 陈建国's home and prints the receipt", async () => {
    const cashier = await newPage(DESKTOP);
    await signIn(cashier, 'cashier', undefined, '/fees/quickpay');
    await cashier.getByTestId('quickpay-page').waitFor();
    // a broad keyword: the first 50 houses and a hint to type more
    await cashier.getByTestId('quickpay-search-input').fill('13');
    await cashier.getByTestId('quickpay-search').click();
    await cashier.getByTestId('quickpay-search-more').waitFor();
    expect(await cashier.getByTestId('quickpay-search-result').count()).toBe(50);
    await cashier.getByTestId('quickpay-search-input').fill('13800138000');
    await cashier.getByTestId('quickpay-search').click();
    await expect.poll(() => cashier.getByTestId('quickpay-search-more').count()).toBe(0);
    await cashier.getByTestId('quickpay-search-result').filter({ hasText: '1号楼1单元1101' }).click();
    await expect.poll(() => cashier.getByTestId('quickpay-house').textContent()).toContain('1号楼1单元1101');
    expect(await cashier.getByTestId('quickpay-house').textContent()).toContain('陈建国');
    // 临时收费 warns of nothing before anything was typed, and of a missing amount once a charge is named
    await cashier.getByTestId('quickpay-totals').waitFor();
    expect(await cashier.getByTestId('quickpay-problem').count()).toBe(0);
    expect(await cashier.locator('.ant-card-head-title').first().textContent()).toBe('临时收费');

    const lines = cashier.getByTestId('quickpay-lines');
    await lines.locator('[data-testid^="quickpay-title-"]').nth(0).fill('装修垃圾清运费');
    await expect.poll(() => cashier.getByTestId('quickpay-problem').textContent()).toBe('请填写大于 0 的收费金额');
    await lines.locator('[data-testid^="quickpay-amount-"]').nth(0).fill('200');
    await cashier.getByTestId('quickpay-add-line').click();
    await lines.locator('[data-testid^="quickpay-title-"]').nth(1).fill('门禁卡工本费');
    await lines.locator('[data-testid^="quickpay-amount-"]').nth(1).fill('20.5');
    await cashier.getByTestId('quickpay-pay-type').getByText('微信').click();
    await expect.poll(() => cashier.getByTestId('quickpay-total').textContent()).toContain('220.50');
    await settle(cashier);
    await screenshot(cashier, 'fees-quickpay-1440');

    await cashier.getByTestId('quickpay-confirm').click();
    await cashier.waitForURL(/\/fees\/print\/receipt\/\d+/);
    const paymentId = Number(/receipt\/(\d+)/.exec(cashier.url())![1]);
    const receipt = cashier.getByTestId('receipt');
    await receipt.waitFor();
    const text = (await receipt.textContent()) ?? '';
    for (const s of ['阳光花园物业服务中心收款收据', '1号楼1单元1101', '装修垃圾清运费', '门禁卡工本费', '合计 220.50', '支付方式：微信'])
      expect(text).toContain(s);
    expect(await cashier.getByTestId('receipt-capital').textContent()).toBe('贰佰贰拾元伍角');
    expect(await cashier.getByTestId('receipt-footnote').textContent()).toContain('请妥善保管');
    await settle(cashier);
    await screenshot(cashier, 'fees-quickpay-receipt-1440');

    // print: the browser's print dialog is replaced by a counter here
    await cashier.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed++;
      };
    });
    await cashier.getByTestId('receipt-print').click();
    expect(await cashier.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    const token = await apiLogin('cashier');
    await expect.poll(async () => (await api<{ print_count: number }>('paymentinfo', { id: paymentId }, token)).data.print_count).toBe(1);
    const info = await api<{ items: Array<{ title: string; fee: string }>; pay_type: string; receipt_no: string }>(
      'paymentinfo',
      { id: paymentId },
      token,
    );
    expect(info.data.items.map((i) => [i.title, i.fee])).toEqual([
      ['装修垃圾清运费', '200.00'],
      ['门禁卡工本费', '20.50'],
    ]);

    // the payment list finds it by receipt number and exports it
    await cashier.goto('/fees/payment');
    await cashier.getByTestId('payment-page').waitFor();
    await cashier.getByTestId('payment-receipt-no').fill(info.data.receipt_no);
    await cashier.getByTestId('table-page-search').click();
    await expect.poll(() => rowsOf(cashier.getByTestId('payment-page')).count()).toBe(1);
    const [download] = await Promise.all([cashier.waitForEvent('download'), cashier.getByTestId('table-page-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^收费记录_.*\.xlsx$/);
    await api('feesettingedit', {}, await apiLogin('admin'));
  });

  it('tops up the owner balance of 1号楼1单元1101 at the cashier once, however often OK is clicked', async () => {
    const token = await apiLogin('admin');
    const home = (await api('getkeywordtohouses', { keywords: '13800138000' }, token)).data.items.find((h: { address: string }) =>
      h.address.includes('1号楼1单元1101'),
    );
    const balanceOf = async () => (await api('housebalance', { hid: home.hid }, token)).data.balance as string;
    const before = await balanceOf();
    await page.goto('/desktop/cashier');
    await page.getByTestId('cashier-page').waitFor();
    await pickRoom(page, 'cashier-room', '1号楼', '1单元', '1101');
    await page.getByTestId('cashier-topup').click();
    await page.getByTestId('topup-amount').fill('100.00');
    await screenshot(page, 'fees-topup-1440');
    // every top-up call the page makes, and how many have been answered
    const calls = { sent: 0, answered: 0 };
    const topup = (r: Request) => r.method() === 'POST' && (r.postDataJSON() as { method?: string } | null)?.method === 'balancetopup';
    const sent = (r: Request) => void (topup(r) && calls.sent++);
    const answered = (r: Request) => void (topup(r) && calls.answered++);
    page.on('request', sent);
    page.on('requestfinished', answered);
    page.on('requestfailed', answered);
    const ok = page.getByTestId('topup-save');
    await ok.click();
    await ok.click({ timeout: 500 }).catch(() => undefined); // an impatient second click
    await expect.poll(balanceOf).toBe(yuan(toFen(before) + 10000));
    // once the dialog has closed and every call it sent is answered, the money moved once
    await page.getByTestId('topup-amount').waitFor({ state: 'hidden' });
    await expect.poll(() => calls.sent > 0 && calls.answered === calls.sent).toBe(true);
    page.off('request', sent);
    page.off('requestfinished', answered);
    page.off('requestfailed', answered);
    expect(await balanceOf()).toBe(yuan(toFen(before) + 10000));
  });

  it('binds the parking fee to one space of a lot and to all cars', async () => {
    await page.goto('/fees/bindfee');
    const table = page.getByTestId('bindfee-page');
    await table.waitFor();
    await page.getByTestId('bind-add').click();
    await pick(page, 'bind-item', '地下车位管理费');
    await page.getByTestId('bind-scope').getByText('单个车位', { exact: true }).click();
    await pick(page, 'bind-lot', '地面停车场');
    await page.getByTestId('bind-targets').click();
    await page.keyboard.type('B-002');
    await chooseOption(page, page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="地面停车场 B-002"]'));
    await page.keyboard.press('Escape');
    await settle(page);
    await screenshot(page, 'fees-bindfee-space-1440');
    await page.getByTestId('bind-save').click();
    const space = rowsOf(table).filter({ hasText: '地面停车场 B-002' });
    await expect.poll(() => space.count()).toBe(1);
    expect(await space.textContent()).toContain('单个车位');

    await page.getByTestId('bind-add').click();
    await pick(page, 'bind-item', '地下车位管理费');
    await page.getByTestId('bind-scope').getByText('车辆', { exact: true }).click();
    await page.getByTestId('bind-all-cars').click();
    await page.getByTestId('bind-save').click();
    await expect.poll(() => rowsOf(table).filter({ hasText: '全部车辆' }).count()).toBe(1);
    // the demo's lot binding is listed as well
    expect(await rowsOf(table).filter({ hasText: '地下车位管理费' }).filter({ hasText: '地下停车场A区' }).count()).toBe(1);
  });

  it('fits the new pages on a phone', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/fees/quickpay');
    const overflows: Record<string, number> = {};
    const overflow = () => phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    for (const [url, testId] of [
      ['/fees/quickpay', 'quickpay-page'],
      ['/fees/meterreading', 'meterreading-page'],
      ['/setup/setfees', 'setfees-page'],
    ] as const) {
      await phone.goto(url);
      await phone.getByTestId(testId).waitFor();
      await settle(phone);
      overflows[url] = await overflow();
      await screenshot(phone, `fees-390-${testId}`);
    }
    expect(Object.entries(overflows).filter(([, px]) => px > 0)).toEqual([]);
  });
});

journey('fees: historical bill import', ({ page: newPage }) => {
  it('uploads old bills, follows the job and lists the import with its bills', async () => {
    const file = await xlsxUpload(
      '2023年5月账单.xlsx',
      ['楼栋', '单元', '房号', '收费项目', '账期', '金额', '状态', '缴费日期'],
      [
        ['4号楼', '2单元', '1403', '物业服务费', '2023-05', '223.75', '已缴', '2023-05-20'],
        ['4号楼', '2单元', '1404', '物业服务费', '2023-05', '263.00', '', ''],
      ],
    );

    const page = await newPage();
    await signIn(page, 'admin', undefined, '/fees/feeimportlist');
    const table = page.getByTestId('feeimport-page');
    await table.waitFor();
    await page.locator('input[type=file][accept=".xlsx"]').setInputFiles(file);
    await page.getByTestId('import-progress').waitFor();
    // the list reloads when the job finishes
    const row = rowsOf(table).filter({ hasText: '2023年5月账单.xlsx' });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => row.textContent()).toContain('导入成功');
    await settle(page);
    await screenshot(page, 'fees-import-1440');

    const bills = await api('feebilllist', { period: '2023-05', sort: 'asc' }, await apiLogin('admin'));
    expect(bills.data.items.map((b: { house_title: string; status: string; fee: string }) => [b.house_title, b.status, b.fee])).toEqual([
      ['1403', 'Y', '223.75'],
      ['1404', 'N', '263.00'],
    ]);
  });
});

journey('fees: the imports page', ({ page: newPage }) => {
  it('uploads meter readings on 收费数据导入: a file with a bad row is refused whole with its error report, the corrected one goes in', async () => {
    const period = businessMonth(3);
    const good = [
      ['1号楼', '2单元', '201', '生活用水', period, '', '99990.00', '导入'],
      ['1号楼', '2单元', '202', '生活用水', period, '', '99980.00', ''],
    ];
    const headers = ['楼栋', '单元', '房号', '收费项目', '账期', '上次读数', '本次读数', '备注'];
    const page = await newPage();
    await signIn(page, 'admin', undefined, '/fees/upload-excels');
    await page.getByTestId('upload-excels').waitFor();
    await page.getByRole('tab', { name: '抄表读数' }).click();
    const panel = page.getByTestId('meterimport-page');
    await panel.waitFor();
    const upload = async (name: string, rows: string[][]) => {
      await panel.locator('input[type=file][accept=".xlsx"]').setInputFiles(await xlsxUpload(name, headers, rows));
      const row = rowsOf(panel).filter({ hasText: name });
      await expect.poll(() => row.locator('td').nth(2).innerText(), { timeout: 30_000 }).toMatch(/校验未通过|导入成功|导入失败/);
      // 状态, 行数, 导入读数, 错误行
      return { row, cells: (await row.locator('td').allInnerTexts()).slice(2, 6) };
    };

    const refused = await upload(`抄表${period}-初稿.xlsx`, [...good, ['1号楼', '2单元', '9999', '生活用水', period, '', '10.00', '']]);
    expect(refused.cells).toEqual(['校验未通过', '3', '0', '1']);
    const download = page.waitForEvent('download');
    await refused.row.getByRole('button', { name: '下载错误报告' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
    const token = await apiLogin('admin');
    const readings = () =>
      api<{ items: Array<{ this_reading: string }> }>('meterreadinglist', { period, page: 1, limit: 10 }, token).then((r) =>
        r.data.items.map((x) => x.this_reading).sort(),
      );
    expect(await readings()).toEqual([]);

    const done = await upload(`抄表${period}.xlsx`, good);
    expect(done.cells).toEqual(['导入成功', '2', '2', '0']);
    await settle(page);
    await screenshot(page, 'fees-upload-excels-meter-1440');
    expect(await readings()).toEqual(['99980.00', '99990.00']);
  });
});
