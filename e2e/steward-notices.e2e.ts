import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, apiLogin, journey, signInSteward, stewardToken } from './support.js';
import { animationsDone, pick, rowsOf, settle } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

// names of this run: the journey may run again on the same database
const RUN = Date.now().toString(36).slice(-4);
const TITLE = `1号楼停电检修${RUN}`;

journey(
  'steward: a notice to 1号楼, its households before publishing, its read receipts, SMS to the unread, withdrawn',
  ({ page: newPage }) => {
    let page: Page;
    let households = 0;
    let id = 0;

    it('writes a notice to 1号楼 and sees its household count as the scope is chosen', async () => {
      const token = await stewardToken();
      const bid = (await api<{ items: Array<{ id: number; title: string }> }>('building_small_list', {}, token)).data.items.find(
        (b) => b.title === '1号楼',
      )!.id;
      households = (await api<{ households: number }>('noticereach', { scope: 'building', scope_ids: [bid], audience: 'all' }, token)).data
        .households;
      expect(households).toBeGreaterThan(0);

      page = await newPage(DESKTOP);
      await signInSteward(page, '/steward/notices');
      await page.getByTestId('notice-page').waitFor();
      await page.getByTestId('notice-add').click();
      await page.waitForURL(/\/steward\/noticesadd$/);
      await page.getByTestId('notice-form').waitFor();
      await page.getByTestId('notice-title').fill(TITLE);
      await pick(page, 'notice-type', '停水停电');
      const area = page.getByTestId('notice-editor-area');
      await area.click();
      await page.getByTestId('editor-heading').click();
      await page.keyboard.type('停电时间');
      await page.keyboard.press('Enter');
      await page.getByTestId('editor-paragraph').click();
      await page.keyboard.type('本周四 9:00–12:00 配电房检修，');
      await page.getByTestId('editor-bold').click();
      await page.keyboard.type('电梯停运');
      await page.getByTestId('editor-bold').click();
      await page.keyboard.type('，请提前安排。');
      await page.getByTestId('notice-scope').getByText('按楼栋').click();
      await pick(page, 'notice-bids', '1号楼');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('notice-reach').textContent()).toContain(`范围内 ${households} 户`);
      await settle(page);
      await screenshot(page, 'steward-noticesadd-1440');
      await page.getByTestId('notice-save').click();
      await page.waitForURL(/\/steward\/notices$/);
      const row = rowsOf(page.getByTestId('notice-page')).filter({ hasText: TITLE });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain('草稿');
      id = Number(await row.locator('td').first().textContent());
      const info = await api<{ body: string }>('noticeinfo', { id }, token);
      expect(info.data.body).toContain('本周四 9:00–12:00 配电房检修，');
      expect(info.data.body).toMatch(/<h3>停电时间<\/h3>/);
      expect(info.data.body).toMatch(/<b>电梯停运<\/b>|<strong>电梯停运<\/strong>/);
    });

    it('publishes after seeing the households in scope', async () => {
      await page.getByTestId(`notice-publish-${id}`).click();
      const reach = page.getByTestId('notice-publish-reach');
      await reach.waitFor();
      expect(await page.getByTestId('publish-households').textContent()).toBe(`${households} 户`);
      await animationsDone(page);
      await screenshot(page, 'steward-notice-publish-1440');
      await page.getByTestId('notice-publish-ok').click();
      await expect.poll(() => page.getByTestId(`notice-status-${id}`).textContent()).toBe('已发布');
      await expect.poll(() => page.getByTestId(`notice-reads-${id}`).textContent()).toBe(`0/${households} 户（0.0%）`);
    });

    it('opens its read receipts: a row per household, the totals, the unread filter', async () => {
      await page.getByTestId(`notice-reads-${id}`).click();
      await page.waitForURL(/\/steward\/readnumlist\?id=/);
      await page.getByTestId('readnum-page').waitFor();
      await expect.poll(() => page.getByTestId('readnum-title').textContent()).toBe(TITLE);
      const totals = page.getByTestId('readnum-totals');
      await expect.poll(() => totals.textContent()).toContain(`目标户数${households}户`);
      await expect.poll(() => totals.textContent()).toContain(`未读${households}户`);
      await expect.poll(() => rowsOf(page.getByTestId('readnum-page')).count()).toBe(Math.min(10, households));
      expect(await page.getByTestId('readnum-page').textContent()).toContain(`共 ${households} 条`);
      await pick(page, 'readnum-read', '未读');
      await page
        .getByTestId('readnum-page')
        .getByRole('button', { name: /搜\s*索/ })
        .click();
      await expect.poll(() => page.getByTestId('readnum-page').textContent()).toContain(`共 ${households} 条`);
      await settle(page);
      await screenshot(page, 'steward-readnumlist-1440');
    });

    it('re-sends to the unread by SMS and shows what was sent', async () => {
      await page.getByTestId('readnum-resend').click();
      const preview = page.getByTestId('resend-preview');
      await preview.waitFor();
      await expect.poll(() => preview.textContent()).toContain('沙箱');
      await expect.poll(() => page.getByTestId('resend-template').textContent()).toContain('公告提醒');
      await page.getByTestId('resend-ok').click();
      await expect.poll(() => page.locator('.ant-modal-confirm-title').last().textContent()).toBe('已提交短信补发');
      await page.locator('.ant-modal-confirm-btns button').last().click();
      // the page shows the re-send and its SMS job's state at once; the job sends in the background
      const resends = page.getByTestId('readnum-resends');
      await expect.poll(() => resends.textContent()).toMatch(/短信补发 \d+ 户：(待发送|发送中|已完成|部分失败)/);
      // the sandbox keeps what it would have sent: the SMS log (the setup area's, read as admin) fills
      const admin = await apiLogin('admin');
      const list = await api<{ resends: Array<{ sms_job_id: number; households: number }> }>(
        'noticereadlist',
        { id },
        await stewardToken(),
      );
      const smsJob = list.data.resends[0]!.sms_job_id;
      await expect
        .poll(async () => (await api<{ total: number }>('smsjoblog', { sms_job_id: smsJob, submit_status: 'S' }, admin)).data.total, {
          timeout: 120_000,
          interval: 2000,
        })
        .toBeGreaterThan(0);
      // and the page, asked again, shows the job's progress (a busy machine may still be sending)
      await page
        .getByTestId('readnum-page')
        .getByRole('button', { name: /搜\s*索/ })
        .click();
      await expect.poll(() => resends.textContent()).toMatch(/短信补发 \d+ 户：(发送中|已完成|部分失败)，成功 \d+ 条/);
      await screenshot(page, 'steward-readnumlist-resent-1440');
    });

    it('after publishing, an edit changes only valid-until and pinned; then the notice is withdrawn', async () => {
      await page.goto(`/steward/noticesedit?id=${id}`);
      await page.getByTestId('notice-locked').waitFor();
      expect(await page.getByTestId('notice-title').isDisabled()).toBe(true);
      await page.getByTestId('notice-pinned').click();
      await page.getByTestId('notice-save').click();
      await page.waitForURL(/\/steward\/notices$/);
      const title = page.getByTestId(`notice-title-${id}`);
      await expect.poll(() => title.locator('[aria-label="置顶"]').count()).toBe(1);
      // the server refuses a content change all the same
      const token = await stewardToken();
      const info = (await api<Record<string, unknown>>('noticeinfo', { id }, token)).data;
      const changed = await api('noticeedit', { ...info, id, title: '改过的标题', send_at: '', valid_until: '' }, token);
      expect(changed.return_msg).toBe('公告已发布，只能修改有效期和置顶；如需更正内容，请复制后重新发布');

      await page.getByTestId(`notice-withdraw-${id}`).click();
      await page.getByTestId('notice-withdraw-ok').click();
      await expect.poll(() => page.getByTestId(`notice-status-${id}`).textContent()).toBe('已撤回');
      expect(await page.getByTestId(`notice-publish-${id}`).count()).toBe(0);
      await settle(page);
      await screenshot(page, 'steward-notices-1440');
    });

    it('chooses units of two buildings and rooms of two units, each counted, and keeps them on edit', async () => {
      const token = await stewardToken();
      const small = async (method: string, payload: Record<string, unknown>) =>
        (await api<{ items: Array<{ id: number; title: string }> }>(method, payload, token)).data.items;
      const [b1, b2] = await small('building_small_list', {});
      const [u1] = await small('unit_small_list', { bid: b1!.id });
      const [u2] = await small('unit_small_list', { bid: b2!.id });
      const reachOf = async (scope: string, ids: number[]) =>
        (await api<{ households: number }>('noticereach', { scope, scope_ids: ids, audience: 'all' }, token)).data.households;

      await page.goto('/steward/noticesadd');
      await page.getByTestId('notice-form').waitFor();
      await page.getByTestId('notice-title').fill(`两栋单元通知${RUN}`);
      await page.getByTestId('notice-editor-area').click();
      await page.keyboard.type('本周六两栋楼单元门禁升级。');
      await page.getByTestId('notice-scope').getByText('按单元').click();
      await pick(page, 'notice-bid', b1!.title);
      await pick(page, 'notice-tids', `${b1!.title}${u1!.title}`);
      await page.keyboard.press('Escape');
      await pick(page, 'notice-bid', b2!.title);
      await pick(page, 'notice-tids', `${b2!.title}${u2!.title}`);
      await page.keyboard.press('Escape');
      const tags = page.getByTestId('notice-tids').locator('.ant-select-selection-item');
      await expect.poll(() => tags.allInnerTexts()).toEqual([`${b1!.title}${u1!.title}`, `${b2!.title}${u2!.title}`]);
      const both = await reachOf('unit', [u1!.id, u2!.id]);
      await expect.poll(() => page.getByTestId('notice-reach').textContent()).toContain(`范围内 ${both} 户`);
      await page.getByTestId('notice-save').click();
      await page.waitForURL(/\/steward\/notices$/);
      const row = rowsOf(page.getByTestId('notice-page')).filter({ hasText: `两栋单元通知${RUN}` });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain(`${b1!.title}${u1!.title}、${b2!.title}${u2!.title}`);

      // the draft opens with both units named, under the building of the first
      const draft = Number(await row.locator('td').first().textContent());
      await page.goto(`/steward/noticesedit?id=${draft}`);
      await expect.poll(() => tags.allInnerTexts()).toEqual([`${b1!.title}${u1!.title}`, `${b2!.title}${u2!.title}`]);

      // rooms of two units
      await page.getByTestId('notice-scope').getByText('按房屋').click();
      const rooms1 = await small('room_small_list', { tid: u1!.id });
      const rooms2 = await small('room_small_list', { tid: u2!.id });
      await pick(page, 'notice-bid', b1!.title);
      await pick(page, 'notice-tid', u1!.title);
      await pick(page, 'notice-hids', `${b1!.title}${u1!.title}${rooms1[0]!.title}`, true);
      await page.keyboard.press('Escape');
      await pick(page, 'notice-bid', b2!.title);
      await pick(page, 'notice-tid', u2!.title);
      await pick(page, 'notice-hids', `${b2!.title}${u2!.title}${rooms2[0]!.title}`, true);
      await page.keyboard.press('Escape');
      const roomTags = page.getByTestId('notice-hids').locator('.ant-select-selection-item');
      await expect.poll(() => roomTags.count()).toBe(2);
      const two = await reachOf('room', [rooms1[0]!.id, rooms2[0]!.id]);
      await expect.poll(() => page.getByTestId('notice-reach').textContent()).toContain(`范围内 ${two} 户`);
    });

    it('fits a phone', async () => {
      const phone = await newPage(PHONE);
      await signInSteward(phone, `/steward/readnumlist?id=${id}`);
      await phone.getByTestId('readnum-page').waitFor();
      await expect.poll(() => phone.getByTestId('readnum-totals').textContent()).toContain(`目标户数${households}户`);
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      await settle(phone);
      await screenshot(phone, 'steward-readnumlist-390');
    });
  },
);
