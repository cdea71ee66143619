import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseOption, pickCascader, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const notice = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text }).last();
const option = (page: Page, text: string | RegExp) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();
/** A business day (Asia/Shanghai) `days` from today, YYYY-MM-DD. */
const businessDay = (days: number) => new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

interface Resident {
  building: string;
  unit: string;
  room: string;
  name: string;
}

/** A resident of 4号楼 with no care record yet (the demo records owners of 1号楼 to 3号楼): where they live and their name. */
async function unrecordedResident(token: string): Promise<Resident> {
  const ok = <T>(res: { return_code: string; return_msg: string; data: T }) => {
    if (res.return_code !== 'SUCCESS') throw new Error(res.return_msg);
    return res.data;
  };
  const buildings = ok(await api<{ items: Array<{ id: number; title: string }> }>('building_small_list', {}, token)).items;
  const b = buildings.find((x) => x.title === '4号楼')!;
  for (const u of ok(await api<{ items: Array<{ id: number; title: string }> }>('unit_small_list', { bid: b.id }, token)).items) {
    for (const r of ok(await api<{ items: Array<{ id: number; title: string }> }>('room_small_list', { tid: u.id }, token)).items) {
      const people = ok(
        await api<{ items: Array<{ title: string; relation: string; customer_id: number | null }> }>(
          'care_resident_small_list',
          { hid: r.id },
          token,
        ),
      ).items;
      const free = people.find((p) => p.relation === 'owner' && p.customer_id === null);
      if (free) return { building: b.title, unit: u.title, room: r.title, name: free.title.split(' ')[0]! };
    }
  }
  throw new Error('4号楼 has no owner without a care record');
}

journey(
  'customer care: a record from an owner, a group affair for a building with one done, the birthday rule’s affair',
  ({ page: newPage }) => {
    let page: Page;
    let resident: Resident;
    let customerUrl = '';
    const birthday = `1952${businessDay(2).slice(4)}`;

    it('adds a care record from an owner of 4号楼: the owner’s data comes in and the profile shows the link', async () => {
      resident = await unrecordedResident(await apiLogin('admin'));
      page = await newPage(DESKTOP);
      // 冯顾问 holds care, not contact_whole: mobiles show masked, and a masked one sent back keeps the owner's
      await signIn(page, 'sales', undefined, '/crm/addcus');
      const form = page.getByTestId('carecustomer-form');
      await form.waitFor();
      await pickCascader(page, form.getByTestId('carecustomer-hid'), [resident.building, resident.unit, resident.room]);
      await page.getByTestId('carecustomer-member_id').click();
      await chooseOption(page, option(page, resident.name));
      // the owner's name and mobile come in
      await expect.poll(() => form.getByTestId('carecustomer-realname').inputValue()).toBe(resident.name);
      await expect.poll(() => form.getByTestId('carecustomer-mobile').inputValue()).toMatch(/^1\d{2}\*{4}\d{4}$/);
      const day = form.getByTestId('carecustomer-birthday');
      await day.click();
      await day.fill(birthday);
      await day.press('Enter');
      await form.getByTestId('carecustomer-attention').click();
      await chooseOption(page, option(page, '独居老人'));
      await page.keyboard.press('Escape');
      await form.getByTestId('carecustomer-steward_id').click();
      await chooseOption(page, option(page, '冯顾问'));
      await form.getByTestId('carecustomer-family_notes').fill(`子女在外地，紧急联系人 ${RUN}`);
      // the top of the form: the owner chosen and what came in
      await form.evaluate((e) => e.scrollIntoView());
      await settle(page);
      await screenshot(page, 'crm-care-add-1440');
      await page.getByTestId('carecustomer-save').click();
      await notice(page, '添加成功').waitFor();
      await expect.poll(() => page.url()).toContain('/crm/customshow?id=');
      customerUrl = new URL(page.url()).pathname + new URL(page.url()).search;
      const profile = page.getByTestId('carecustomer-profile');
      await profile.waitFor();
      for (const text of [resident.name, '已关联住户', '独居老人', birthday, '冯顾问', `紧急联系人 ${RUN}`])
        await expect.poll(() => profile.textContent()).toContain(text);
      await settle(page);
      await screenshot(page, 'crm-care-profile-1440');
      // the same owner again is refused before it is saved
      await page.goto('/crm/addcus');
      await pickCascader(page, page.getByTestId('carecustomer-hid'), [resident.building, resident.unit, resident.room]);
      await page.getByTestId('carecustomer-member_id').click();
      await chooseOption(page, option(page, resident.name));
      await page.getByTestId('carecustomer-recorded').waitFor();
      expect(await page.getByTestId('carecustomer-save').isDisabled()).toBe(true);
    });

    it('creates a group affair for 2号楼 after the preview: one affair a customer, each on its assignee’s list', async () => {
      await page.goto('/crm/groupaffairadds');
      await page.getByTestId('care-group-bid').click();
      await chooseOption(page, option(page, /^2号楼$/));
      await page.getByTestId('care-group-preview').click();
      const count = page.getByTestId('care-group-count');
      await count.waitFor();
      const total = Number((await count.textContent())!.match(/共 (\d+) 位/)![1]);
      expect(total).toBeGreaterThan(1);
      await page.getByTestId('care-group-title').fill(`中秋慰问 ${RUN}`);
      await page.getByTestId('care-group-assignee').click();
      await chooseOption(page, option(page, '冯顾问'));
      await page.getByTestId('care-group-content').fill('上门送月饼，了解近况');
      await settle(page);
      await screenshot(page, 'crm-care-group-1440');
      await page.getByTestId('care-group-create').click();
      await page.getByTestId('care-group-confirm').click();
      await notice(page, `已为 ${total} 位客户新增事务`).waitFor();
      const batch = page
        .locator('[data-testid^="care-batch-"]')
        .filter({ hasText: `中秋慰问 ${RUN}` })
        .first();
      await batch.waitFor();
      await expect.poll(() => batch.textContent()).toContain(`0/${total}`);

      // 查看事务: the list of the group affair, one marked done with its result
      await batch.getByText('查看事务').click();
      await expect.poll(() => page.url()).toContain('/crm/affair?batch_id=');
      const table = page.getByTestId('careaffair-table');
      await expect.poll(() => rowsOf(table).count()).toBe(Math.min(total, 10));
      const first = rowsOf(table).first();
      await first.getByText('完成', { exact: true }).click();
      await page.getByTestId('careaffair-done-result').fill('已送达，老人身体很好');
      await page.getByTestId('careaffair-done-ok').click();
      await notice(page, '已完成').waitFor();
      await expect.poll(() => rowsOf(table).filter({ hasText: '已送达，老人身体很好' }).count()).toBe(1);
      await expect.poll(() => page.getByTestId('careaffair-bar-Y').textContent()).toContain('1');
      await settle(page);
      await screenshot(page, 'crm-care-affairs-1440');
      await page.goto('/crm/groupaffairadds');
      await expect
        .poll(() =>
          page
            .locator('[data-testid^="care-batch-"]')
            .filter({ hasText: `中秋慰问 ${RUN}` })
            .first()
            .textContent(),
        )
        .toContain(`1/${total}`);
    });

    it('runs the birthday rule: its affair shows on the record and on 冯顾问’s to-do list', async () => {
      await page.goto('/crm/setaffair');
      const rules = page.getByTestId('affairrule-table');
      await expect.poll(() => rowsOf(rules).filter({ hasText: '业主生日祝福' }).count()).toBe(1);
      await settle(page);
      await screenshot(page, 'crm-care-rules-1440');
      await page.getByTestId('affairrule-run').click();
      await notice(page, /已按规则生成 \d+ 条关怀事务/).waitFor();
      await page.goto(customerUrl);
      const history = page.getByTestId('care-history');
      await expect.poll(() => history.textContent()).toContain('规则：业主生日祝福');
      expect(await history.textContent()).toContain(`计划 ${businessDay(2)}`);
      // the to-do list, oldest first: the newest on its last page; 去处理 opens the affair
      await page.goto('/setup/backlog');
      const main = page.locator('.app-main-inner');
      await rowsOf(main).first().waitFor();
      const pages = main.locator('.ant-pagination-item');
      if (await pages.count()) await pages.last().click();
      const todo = rowsOf(main).filter({ hasText: `生日祝福：${resident.name}` });
      await todo.waitFor();
      await settle(page);
      await screenshot(page, 'crm-care-backlog-1440');
      await todo.getByText('去处理').click();
      await expect.poll(() => page.url()).toContain('/crm/affair?id=');
      await expect.poll(() => page.getByTestId('careaffair-detail').textContent()).toContain(resident.name);
      await settle(page);
      await screenshot(page, 'crm-care-affair-detail-1440');
    });

    it('fits a phone: the records, the affairs and the group affairs', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'sales', undefined, '/crm/customerlist');
      for (const [path, ready, name] of [
        ['/crm/customerlist', 'carecustomer-table', 'crm-care-list-390'],
        ['/crm/affair', 'careaffair-table', 'crm-care-affairs-390'],
        ['/crm/groupaffairadds', 'care-batches', 'crm-care-group-390'],
        [customerUrl, 'carecustomer-profile', 'crm-care-profile-390'],
      ] as const) {
        await phone.goto(path);
        await phone.getByTestId(ready).waitFor();
        if (ready.endsWith('-table')) await rowsOf(phone.getByTestId(ready)).first().waitFor();
        await settle(phone);
        expect(await noSidewaysScroll(phone), path).toBeLessThanOrEqual(0);
        await screenshot(phone, name);
      }
    });
  },
);
