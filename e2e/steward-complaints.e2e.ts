import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, journey, signIn, signInSteward, stewardToken } from './support.js';
import { animationsDone, pick, pickCascader, rowsOf, settle, stable } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

// names of this run: the journey may run again on the same database
const RUN = Date.now().toString(36).slice(-4);
const CONTENT = `3号楼门口垃圾堆积无人清理${RUN}`;
const ORDER = `水泵房巡检${RUN}`;

/** Clicks an action of a transition and fills its form, then waits for the modal to go. */
async function act(page: Page, testId: string, okTestId: string, fill?: () => Promise<void>) {
  // the detail drawer's button (the list's row has one of the same name behind it)
  await page.locator('.ant-drawer').getByTestId(testId).click();
  await page.getByTestId(okTestId).waitFor();
  await animationsDone(page);
  await fill?.();
  await page.getByTestId(okTestId).click();
  await page.getByTestId(okTestId).waitFor({ state: 'hidden' });
}

journey(
  'steward: 投诉建议 from registration to 已完成, an overdue one, and an internal order sent back then accepted',
  ({ page: newPage }) => {
    let page: Page;
    let complaintId = 0;
    let orderId = 0;
    let handlerLabel = '';

    it('lists the complaints with the counts per state; an overdue one shows 超时', async () => {
      const token = await stewardToken();
      const staff = await api<{ items: Array<{ id: number; name: string; roles_ch: string }> }>('complaint_staff_small_list', {}, token);
      const me = staff.data.items.find((s) => s.name === '钱管家')!;
      handlerLabel = `${me.name}（${me.roles_ch}）`;
      page = await newPage(DESKTOP);
      await signInSteward(page, '/steward/complaintlist');
      const table = page.getByTestId('complaintlist-page');
      await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(0);
      const overdue = page.getByTestId('complaint-bar-overdue');
      await overdue.click();
      await expect.poll(async () => (await rowsOf(table).allTextContents()).every((t) => t.includes('超时'))).toBe(true);
      expect(await rowsOf(table).count()).toBeGreaterThan(0);
      await settle(page);
      await screenshot(page, 'steward-complaintlist-overdue-1440');
      await page.getByTestId('complaint-bar-all').click();
    });

    it('registers a complaint: 待受理, with its deadlines', async () => {
      await page.getByTestId('complaint-add').click();
      await page.getByTestId('complaint-save').waitFor();
      await animationsDone(page);
      await pick(page, 'complaint-category', '环境卫生');
      await page.getByTestId('complaint-contact').fill('马女士');
      await page.getByTestId('complaint-phone').fill('13912340000');
      await page.getByTestId('complaint-content').fill(CONTENT);
      await page.getByTestId('complaint-save').click();
      // the detail of the new complaint opens
      const detail = page.getByTestId('complaint-detail');
      await detail.waitFor();
      await expect.poll(() => detail.textContent()).toContain(CONTENT);
      expect(await detail.textContent()).toContain('待受理');
      complaintId = Number(new URL(page.url()).searchParams.get('id'));
      expect(complaintId).toBeGreaterThan(0);
    });

    it('accepts it with a handler, replies to the owner, finishes it with a note, and records the rating → 已完成', async () => {
      const detail = page.getByTestId('complaint-detail');
      await act(page, `complaint-accept-${complaintId}`, 'complaint-accept-ok', () => pick(page, 'complaint-accept-handler', handlerLabel));
      await expect.poll(() => detail.textContent()).toContain('处理中');
      await act(page, `complaint-reply-${complaintId}`, 'complaint-reply-ok', () =>
        page.getByTestId('complaint-reply-content').fill('已安排保洁下午清理'),
      );
      await expect.poll(() => detail.textContent()).toContain('已安排保洁下午清理');
      // the note is required
      await detail.getByTestId(`complaint-finish-${complaintId}`).click();
      await page.getByTestId('complaint-finish-ok').waitFor();
      await animationsDone(page);
      await page.getByTestId('complaint-finish-ok').click();
      await page.getByText('请填写办结说明').waitFor();
      await page.getByTestId('complaint-finish-note').fill('垃圾已清运，地面已冲洗');
      await page.getByTestId('complaint-finish-ok').click();
      await page.getByTestId('complaint-finish-ok').waitFor({ state: 'hidden' });
      await expect.poll(() => detail.textContent()).toContain('待评价');
      await act(page, `complaint-rate-${complaintId}`, 'complaint-rate-ok', async () => {
        await page.getByTestId('complaint-rate-rating').locator('li').nth(3).click();
        await page.getByTestId('complaint-rate-text').fill('处理及时');
      });
      await expect.poll(() => detail.textContent()).toContain('已完成');
      const timeline = detail.getByTestId('complaint-timeline');
      const text = (await timeline.textContent()) ?? '';
      for (const step of ['提交', '受理', '回复业主', '办结', '评价']) expect(text).toContain(step);
      expect(text).toContain('垃圾已清运，地面已冲洗');
      await settle(page);
      await screenshot(page, 'steward-complaint-detail-1440');
      await page.keyboard.press('Escape');
      const row = rowsOf(page.getByTestId('complaintlist-page')).filter({ hasText: CONTENT });
      await expect.poll(() => row.textContent()).toContain('已完成');
    });

    it('turns a complaint into a repair ticket (type picked, the rest from the complaint) and follows the links both ways', async () => {
      const token = await stewardToken();
      const cats = await api<{ items: Array<{ id: number; title: string }> }>('complaintcategory_small_list', {}, token);
      const added = await api<{ id: number }>(
        'complaintadd',
        {
          kind: 'C',
          category_id: cats.data.items[0]!.id,
          contact: '吴先生',
          phone: '13912341111',
          content: `卫生间楼板渗水到楼下${RUN}`,
          photos: [],
        },
        token,
      );
      const id = added.data.id;
      await page.goto(`/steward/complaintlist?id=${id}`);
      const detail = page.getByTestId('complaint-detail');
      await expect.poll(() => detail.textContent()).toContain(`卫生间楼板渗水到楼下${RUN}`);
      await detail.getByTestId(`complaint-torepair-${id}`).click();
      const dialog = page.locator('.ant-modal').filter({ hasText: '转为报修单' });
      await page.getByTestId('complaint-torepair-ok').waitFor();
      await animationsDone(page);
      // reporter, phone and content come from the complaint
      expect(await dialog.getByTestId('complaint-torepair-reporter').inputValue()).toBe('吴先生');
      expect(await dialog.getByTestId('complaint-torepair-phone').inputValue()).toBe('13912341111');
      await dialog.locator('.ant-form-item').filter({ hasText: '报修类型' }).locator('.ant-select').click();
      const leaf = page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper[title="水管漏水"]');
      await stable(page, leaf);
      await leaf.click();
      await pickCascader(page, dialog.getByTestId('complaint-torepair-room'), ['1号楼', '1单元', '1101']);
      await settle(page);
      await screenshot(page, 'steward-complaint-torepair-1440');
      await page.getByTestId('complaint-torepair-ok').click();
      await page.getByTestId('complaint-torepair-ok').waitFor({ state: 'hidden' });
      const link = detail.getByTestId('complaint-repair-link');
      await expect.poll(() => link.textContent()).toMatch(/^BX\d+/);
      expect(await detail.textContent()).toContain('处理中');
      expect(await detail.getByTestId('complaint-timeline').textContent()).toContain('转为报修单');
      expect(await detail.getByTestId(`complaint-torepair-${id}`).count()).toBe(0);
      const no = (await link.textContent())!;
      await link.click();
      // the repairs page opens the ticket's detail, which links back to the complaint
      const back = page.getByTestId('repair-complaint-link');
      await back.waitFor();
      expect(await back.textContent()).toBe(`TS${String(id).padStart(6, '0')}`);
      expect(await page.locator('.ant-drawer:visible').textContent()).toContain(no);
      await back.click();
      await expect.poll(() => page.getByTestId('complaint-detail').textContent()).toContain(no);
      await page.keyboard.press('Escape');
    });

    it('投诉统计 under the fee reports: this month by type, then by handler, with the totals and the chart', async () => {
      await page.goto('/feecounts/complaintcount');
      const report = page.getByTestId('complaintcount-page');
      await report.waitFor();
      const totals = page.getByTestId('complaintcount-totals');
      await expect.poll(() => totals.textContent()).toMatch(/登记\s*[1-9]/);
      await expect
        .poll(() => rowsOf(page.getByTestId('complaintcount-table')).allTextContents())
        .toEqual(
          expect.arrayContaining([expect.stringContaining('投诉'), expect.stringContaining('建议'), expect.stringContaining('咨询')]),
        );
      await page.getByTestId('complaintcount-group').getByText('按处理人').click();
      await expect.poll(() => page.getByTestId('complaintcount-table').textContent()).toContain('钱管家');
      await page.getByTestId('complaintcount-chart').locator('canvas').first().waitFor();
      await settle(page);
      await screenshot(page, 'steward-complaintcount-1440');
    });

    it('an internal order with two checklist items: 待处理 → 处理中 → 待验收 → sent back → 待验收 → 已完成 with a score', async () => {
      await page.goto('/steward/internalorder');
      const table = page.getByTestId('internalorder-page');
      await expect.poll(() => rowsOf(table).count()).toBeGreaterThan(0);
      await page.getByTestId('internalorder-add').click();
      await page.getByTestId('internalorder-save').waitFor();
      await animationsDone(page);
      await page.getByTestId('internalorder-title').fill(ORDER);
      await page.getByTestId('internalorder-location').fill('地下一层水泵房');
      await pick(page, 'internalorder-handlers', '钱管家');
      await page.keyboard.press('Escape');
      await page.getByTestId('internalorder-item-input-0').fill('检查水泵压力');
      await page.getByTestId('internalorder-item-add').click();
      await page.getByTestId('internalorder-item-input-1').fill('检查漏水');
      await page.getByTestId('internalorder-save').click();
      const detail = page.getByTestId('internalorder-detail');
      await detail.waitFor();
      await expect.poll(() => detail.textContent()).toContain('待处理');
      orderId = Number(new URL(page.url()).searchParams.get('id'));
      expect(orderId).toBeGreaterThan(0);

      await detail.getByTestId(`internalorder-start-${orderId}`).click();
      await page.getByTestId('internalorder-start-confirm').click();
      await expect.poll(() => detail.textContent()).toContain('处理中');
      for (const n of [1, 2]) {
        await page.getByTestId(`internalorder-check-${n}`).click();
        await expect.poll(() => detail.textContent()).toContain(`检查项（${n}/2）`);
      }
      // each step is seen in the timeline once the detail shows it (a state's word alone is in the
      // timeline's earlier steps already)
      const timeline = detail.getByTestId('internalorder-timeline');
      const times = async (step: string) => ((await timeline.textContent()) ?? '').split(step).length - 1;
      await act(page, `internalorder-submit-${orderId}`, 'internalorder-submit-ok');
      await expect.poll(() => times('提交验收')).toBe(1);
      await act(page, `internalorder-reject-${orderId}`, 'internalorder-reject-ok', () =>
        page.getByTestId('internalorder-reject-note').fill('请附上压力表照片'),
      );
      await expect.poll(() => times('退回原因：请附上压力表照片')).toBe(1);
      expect(await detail.textContent()).toContain('处理中');
      await act(page, `internalorder-submit-${orderId}`, 'internalorder-submit-ok');
      await expect.poll(() => times('提交验收')).toBe(2);
      await act(page, `internalorder-accept-${orderId}`, 'internalorder-accept-ok', () =>
        page.getByTestId('internalorder-accept-score').locator('li').nth(4).click(),
      );
      await expect.poll(() => times('验收通过')).toBe(1);
      expect(await detail.textContent()).toContain('已完成');
      const text = (await timeline.textContent()) ?? '';
      for (const step of ['提交', '开始处理', '勾选检查项', '提交验收', '退回', '验收通过']) expect(text).toContain(step);
      await settle(page);
      await screenshot(page, 'steward-internalorder-detail-1440');
      await page.keyboard.press('Escape');
      const row = rowsOf(table).filter({ hasText: ORDER });
      await expect.poll(() => row.textContent()).toContain('5 分');
    });

    it('reads on a phone', async () => {
      const phone = await newPage(PHONE);
      await signIn(phone, 'tech', undefined, '/steward/internalorder');
      await expect.poll(() => rowsOf(phone.getByTestId('internalorder-page')).count()).toBeGreaterThan(0);
      await settle(phone);
      await screenshot(phone, 'steward-internalorder-390');
    });
  },
);
