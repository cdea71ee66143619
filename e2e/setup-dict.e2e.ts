import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, apiLogin, journey, signIn } from './support.js';
import { animationsDone, pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

interface Category {
  id: number;
  module: string;
  title: string;
  use_count: number;
}

const categories = async (token: string, module?: string): Promise<Category[]> => {
  const res = await api<{ items: Category[] }>('categorylist', { limit: 200, ...(module ? { module } : {}) }, token);
  expect(res.return_code, res.return_msg).toBe('SUCCESS');
  return res.data.items;
};
const rowOf = (table: Locator, text: string) => rowsOf(table).filter({ hasText: text });

journey('setup: 数据字典 renames a word everywhere; 业务分类 added, refused while in use, moved and deleted', ({ page: newPage }) => {
  let page: Page;
  let token: string;

  it('renames a bill status on the dictionary page', async () => {
    token = await apiLogin('admin');
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/setup/dict_list?type=bill_status');
    const items = page.getByTestId('dict-items');
    await rowOf(items, '已逾期').waitFor();
    // the system's values: only their labels change
    expect(await page.getByTestId('dict-add').count()).toBe(0);
    await settle(page);
    await screenshot(page, 'setup-dict-1440');

    await page.getByTestId('dict-rename-N').click();
    await page.getByTestId('dict-new-label').fill('欠费未缴');
    await page.getByTestId('dict-label-save').click();
    // the page redraws with the new word beside the code's own
    await rowOf(items, '欠费未缴').waitFor();
    expect(await rowOf(items, '欠费未缴').textContent()).toContain('已逾期');
    const labels = await api<{ labels: Record<string, Record<string, string>> }>('dictlabels', {}, token);
    expect(labels.data.labels).toEqual({ bill_status: { N: '欠费未缴' } });
    await settle(page);
    await screenshot(page, 'setup-dict-renamed-1440');
  });

  it('the bill list shows the new word in its rows and its status filter', async () => {
    await page.goto('/fees/feebilllist');
    const table = page.locator('.ant-table').first();
    await rowOf(table, '欠费未缴').first().waitFor();
    expect(await rowOf(table, '已逾期').count()).toBe(0);
    await pick(page, 'bill-status', '欠费未缴');
    await page.getByTestId('table-page-search').click();
    await expect.poll(async () => (await rowsOf(table).allTextContents()).every((t) => t.includes('欠费未缴'))).toBe(true);
    await settle(page);
    await screenshot(page, 'setup-dict-billlist-1440');
  });

  it('restores the word with 恢复默认', async () => {
    await page.goto('/setup/dict_list?type=bill_status');
    const items = page.getByTestId('dict-items');
    await rowOf(items, '欠费未缴').waitFor();
    await page.getByTestId('dict-rename-N').click();
    await page.getByTestId('dict-label-reset').click();
    await expect
      .poll(async () => (await rowOf(items, '已逾期').count()) === 1 && (await rowOf(items, '欠费未缴').count()) === 0)
      .toBe(true);
    expect((await api('dictlabels', {}, token)).data.labels).toEqual({});
  });

  it('adds an owner tag to an editable type', async () => {
    await page.getByTestId('dict-type-owner_tag').click();
    const items = page.getByTestId('dict-items');
    await rowOf(items, '独居老人').waitFor();
    await page.getByTestId('dict-add').click();
    await page.getByTestId('dict-label').fill('新入住');
    await page.getByTestId('dict-value').fill('new comer');
    await page.getByTestId('dict-save').click();
    await page.getByText('字典值不能包含空格').waitFor();
    await page.getByTestId('dict-value').fill('newcomer');
    await page.getByTestId('dict-save').click();
    await rowOf(items, '新入住').waitFor();
    expect(await rowOf(items, '新入住').textContent()).toContain('newcomer');
  });

  it('adds a category on its own address, then deletes it', async () => {
    await page.goto('/setup/categoryadd');
    const form = page.getByTestId('category-form');
    await form.waitFor();
    await pick(page, 'category-module', '社区活动');
    await form.getByTestId('category-title').fill('读书会');
    await form.getByTestId('category-save').click();
    await form.waitFor({ state: 'hidden' });
    // back on the list, with the new category; the form's tab closed with it
    await page.waitForURL((url) => url.pathname === '/setup/category');
    const tabs = async () => (await page.getByTestId('tag').allInnerTexts()).map((t) => t.trim());
    await expect.poll(async () => (await tabs()).includes('业务分类') && !(await tabs()).includes('新增分类')).toBe(true);
    const table = page.getByTestId('category-table');
    await rowOf(table, '读书会').waitFor();
    const added = (await categories(token, 'activity')).find((c) => c.title === '读书会')!;
    expect(added.use_count).toBe(0);
    // a name once in its module
    await page.getByTestId('category-add').click();
    await pick(page, 'category-module', '社区活动');
    await form.getByTestId('category-title').fill('读书会');
    await form.getByTestId('category-save').click();
    await page.locator('.ant-message-notice', { hasText: '“社区活动”中已有分类“读书会”' }).waitFor();
    await form.locator('.ant-modal-close').click();
    await form.waitFor({ state: 'hidden' });

    await page.getByTestId(`category-del-${added.id}`).click();
    await page.getByTestId('confirm-delete-ok').click();
    await expect.poll(() => rowOf(table, '读书会').count()).toBe(0);
    expect((await categories(token, 'activity')).some((c) => c.id === added.id)).toBe(false);
  });

  it('refuses to delete a category in use, then moves its activities and deletes it', async () => {
    const table = page.getByTestId('category-table');
    const activity = await categories(token, 'activity');
    const used = activity.find((c) => c.use_count > 0)!;
    const other = activity.find((c) => c.id !== used.id)!;
    await page.getByTestId(`category-del-${used.id}`).click();
    // the confirmation done zooming in, or the click lands where 确定 was a frame before
    await page.getByTestId('confirm-delete-ok').waitFor();
    await animationsDone(page);
    await page.getByTestId('confirm-delete-ok').click();
    await page.locator('.ant-message-notice', { hasText: `该分类下还有 ${used.use_count} 条活动` }).waitFor();
    expect((await categories(token, 'activity')).some((c) => c.id === used.id)).toBe(true);
    await settle(page);
    await screenshot(page, 'setup-category-refused-1440');

    await page.getByTestId(`category-move-${used.id}`).click();
    await pick(page, 'category-move-target', other.title);
    await page.getByRole('button', { name: '移走并删除' }).last().click();
    await expect.poll(() => table.locator(`[data-testid=category-del-${used.id}]`).count()).toBe(0);
    const after = (await categories(token, 'activity')).find((c) => c.id === other.id)!;
    expect(after.use_count).toBe(other.use_count + used.use_count);
    await expect.poll(async () => (await rowOf(table, other.title).first().textContent()) ?? '').toContain(String(after.use_count));
  });

  it('the head office adds a group item from the group side, which every community sees', async () => {
    const leaderPage = await newPage(DESKTOP);
    await signIn(leaderPage, 'leader', undefined, '/setup/dict_list?type=owner_tag');
    const items = leaderPage.getByTestId('dict-items');
    await items.locator('.ant-empty-description', { hasText: '暂无数据' }).waitFor();
    // the community's own tags are kept in the community, and the form offers the group only
    expect(await rowOf(items, '独居老人').count()).toBe(0);
    await leaderPage.getByTestId('dict-add').click();
    expect(await leaderPage.getByRole('radio', { name: '本小区' }).count()).toBe(0);
    expect(await leaderPage.getByRole('radio', { name: '集团（各小区共用）' }).isChecked()).toBe(true);
    await leaderPage.getByTestId('dict-label').fill('租户');
    await leaderPage.getByTestId('dict-value').fill('tenant');
    await leaderPage.getByTestId('dict-save').click();
    await rowOf(items, '租户').waitFor();
    await settle(leaderPage);
    await screenshot(leaderPage, 'setup-dict-group-1440');
    // the community's picker offers it beside its own
    const small = await api<{ items: { value: string; label: string }[] }>('dict_small_list', { type: 'owner_tag' }, token);
    expect(small.data.items.map((i) => i.label)).toEqual(expect.arrayContaining(['租户', '独居老人']));
    await leaderPage.getByTestId('dict-del-tenant').click();
    await leaderPage.getByTestId('dict-del-ok').click();
    await expect.poll(() => rowOf(items, '租户').count()).toBe(0);
  });

  it('fits a phone: the dictionary picks its type from a list above the items', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/setup/dict_list');
    await phone.getByTestId('dict-type-select').waitFor();
    await pick(phone, 'dict-type-select', '支付方式');
    await rowOf(phone.getByTestId('dict-items'), '微信支付').waitFor();
    await settle(phone);
    await screenshot(phone, 'setup-dict-390');
    await phone.goto('/setup/category');
    await rowsOf(phone.getByTestId('category-table')).first().waitFor();
    await settle(phone);
    await screenshot(phone, 'setup-category-390');
  });
});
