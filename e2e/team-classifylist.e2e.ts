import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, apiLogin, journey, signIn } from './support.js';
import { animationsDone, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

interface Dept {
  id: number;
  title: string;
  parent_id: number | null;
  parent_title: string;
  leader_name: string;
  staff_count: number;
}

/** The company's departments as the server has them. */
async function departments(token: string): Promise<Dept[]> {
  const res = await api<{ items: Dept[] }>('deptlist', { limit: 200 }, token);
  expect(res.return_code, res.return_msg).toBe('SUCCESS');
  return res.data.items;
}
const byTitle = async (token: string, title: string) => (await departments(token)).find((d) => d.title === title);

/** The table row showing a department, and its depth in the tree (0 at the top). */
const rowOf = (table: Locator, title: string) => rowsOf(table).filter({ has: table.page().getByText(title, { exact: true }) });
const depth = async (row: Locator) => Number((await row.getAttribute('class'))?.match(/ant-table-row-level-(\d+)/)?.[1]);

journey('team: departments and positions (/team/classifylist)', ({ page: newPage }) => {
  let page: Page;
  let token: string;
  let depts: Locator;
  let added: Dept;

  it('shows the company as an open tree, with each department’s staff', async () => {
    token = await apiLogin('admin');
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/team/classifylist');
    depts = page.getByTestId('dept-table');
    await rowOf(depts, '维修组').waitFor();
    expect(await depth(rowOf(depts, '阳光物业服务有限公司'))).toBe(0);
    expect(await depth(rowOf(depts, '工程部'))).toBe(1);
    expect(await depth(rowOf(depts, '维修组'))).toBe(2);
    // 人数 is the server's count of the department's staff
    const finance = (await byTitle(token, '财务部'))!;
    expect(finance.staff_count).toBeGreaterThan(0);
    expect(await rowOf(depts, '财务部').textContent()).toContain(String(finance.staff_count));
    await settle(page);
    await screenshot(page, 'team-classifylist-1440');
  });

  it('adds a sub-department under 工程部 with 新增下级', async () => {
    const works = (await byTitle(token, '工程部'))!;
    await page.getByTestId(`dept-addsub-${works.id}`).click();
    const form = page.getByTestId('dept-form');
    await form.waitFor();
    await expect.poll(() => form.textContent()).toContain('新增部门');
    // the parent is chosen already
    await expect.poll(() => form.getByTestId('dept-parent_id').textContent()).toContain('工程部');
    await form.getByTestId('dept-title').fill('水电组');
    await form.getByTestId('dept-leader_name').fill('刘工');
    await form.getByTestId('dept-phone').fill('1390000');
    await form.getByTestId('dept-save').click();
    // a bad phone is refused on the form, in words
    await expect.poll(() => form.textContent()).toContain('电话格式不正确');
    await form.getByTestId('dept-phone').fill('13900001111');
    await form.getByTestId('dept-save').click();
    await form.waitFor({ state: 'hidden' });
    const row = rowOf(depts, '水电组');
    await row.waitFor();
    expect(await depth(row)).toBe(2);
    added = (await byTitle(token, '水电组'))!;
    expect(added.parent_title).toBe('工程部');
    expect(added.leader_name).toBe('刘工');
    expect(await row.textContent()).toContain('13900001111');
  });

  it('edits it', async () => {
    await page.getByTestId(`dept-edit-${added.id}`).click();
    const form = page.getByTestId('dept-form');
    await form.waitFor();
    await expect.poll(() => form.getByTestId('dept-title').inputValue()).toBe('水电组');
    await form.getByTestId('dept-leader_name').fill('周工');
    await form.getByTestId('dept-save').click();
    await form.waitFor({ state: 'hidden' });
    await expect.poll(() => rowOf(depts, '水电组').textContent()).toContain('周工');
    expect((await byTitle(token, '水电组'))!.leader_name).toBe('周工');
  });

  it('adds a position on the 岗位 tab', async () => {
    await page.getByRole('tab', { name: '岗位' }).click();
    const positions = page.getByTestId('position-table');
    await rowOf(positions, '收银员').waitFor();
    await page.getByTestId('position-add').click();
    const form = page.getByTestId('position-form');
    await form.waitFor();
    await form.getByTestId('position-code').fill('ELEC');
    await form.getByTestId('position-title').fill('电工');
    await form.getByTestId('position-save').click();
    await form.waitFor({ state: 'hidden' });
    await rowOf(positions, '电工').waitFor();
    expect(await rowOf(positions, '电工').textContent()).toContain('ELEC');
    const res = await api<{ items: Array<{ code: string }> }>('positionlist', { title: '电工' }, token);
    expect(res.data.items.map((p) => p.code)).toEqual(['ELEC']);
    await settle(page);
    await screenshot(page, 'team-classifylist-positions-1440');
  });

  it('refuses to delete a department with staff, saying why', async () => {
    await page.getByRole('tab', { name: '部门' }).click();
    const service = (await byTitle(token, '客服部'))!;
    expect(service.staff_count).toBeGreaterThan(0);
    await page.getByTestId(`dept-del-${service.id}`).click();
    await page.getByTestId('confirm-delete-ok').click();
    const refusal = page.locator('.ant-message-notice', { hasText: '该部门下还有员工，请先调整员工所属部门' });
    await refusal.waitFor();
    await animationsDone(page);
    await screenshot(page, 'team-classifylist-refused-1440');
    expect(await byTitle(token, '客服部')).toBeDefined();
    expect(await rowOf(depts, '客服部').count()).toBe(1);
  });

  it('deletes the empty one', async () => {
    await page.getByTestId(`dept-del-${added.id}`).click();
    await page.getByTestId('confirm-delete-ok').click();
    await rowOf(depts, '水电组').waitFor({ state: 'detached' });
    expect(await byTitle(token, '水电组')).toBeUndefined();
    expect(await rowOf(depts, '维修组').count()).toBe(1);
  });

  it('opens the department form from its own address, and returns to the list', async () => {
    const repair = (await byTitle(token, '维修组'))!;
    await page.goto(`/team/categoryedit?id=${repair.id}`);
    const form = page.getByTestId('dept-form');
    await expect.poll(() => form.getByTestId('dept-title').inputValue()).toBe('维修组');
    await form.getByRole('button', { name: /取\s*消/ }).click();
    await page.waitForURL(/\/team\/classifylist$/);
  });

  it('fits a phone: the tree first, its filters behind 筛选, no sideways scrolling', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/team/classifylist');
    const table = phone.getByTestId('dept-table');
    await rowOf(table, '维修组').waitFor();
    await settle(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    expect(await phone.getByTestId('dept-filter-title').isVisible()).toBe(false);
    await screenshot(phone, 'team-classifylist-390');
  });
});
