import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api, apiLogin, journey, signIn } from './support.js';
import { pick, rowsOf, settle, stable } from './antd.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

interface Job {
  id: number;
  name: string;
  status: string;
  recipients: number;
  sent: number;
  failed: number;
}

/** 21:00–08:00 in Shanghai: a job that is not urgent waits for 08:00. */
const quietNow = () => {
  const h = (new Date().getUTCHours() + 8) % 24;
  return h >= 21 || h < 8;
};

journey('setup: 短信任务, an arrears reminder for buildings 1 and 2 from draft to log', ({ page: newPage }) => {
  let page: Page;
  let token: string;
  let jobs: Locator;
  let job: Job;
  let buildings: string[];
  let expected: { recipients: number; messages: number };

  it('shows the jobs, and says the sandbox sends them', async () => {
    token = await apiLogin('admin');
    const small = await api<{ items: Array<{ id: number; title: string }> }>('building_small_list', {}, token);
    buildings = small.data.items.slice(0, 2).map((b) => b.title);
    page = await newPage(DESKTOP);
    await signIn(page, 'admin', undefined, '/setup/smsjob');
    await page.getByTestId('sms-sandbox-notice').waitFor();
    jobs = page.getByTestId('smsjob-page');
    // the demo's reminder, notice (partly failed) and draft
    await jobs.getByText('3号楼停水通知').waitFor();
    expect(await rowsOf(jobs).filter({ hasText: '3号楼停水通知' }).textContent()).toContain('部分失败');
    await settle(page);
    await screenshot(page, 'setup-sms-jobs-1440');
  });

  it('creates a draft: template, its variables mapped, arrears owners of two buildings', async () => {
    await page.getByTestId('smsjob-add').click();
    const form = page.getByTestId('smsjob-form');
    await form.waitFor();
    await page.getByTestId('smsjob-name').fill('欠费催缴（1、2号楼）演练');
    await pick(page, 'smsjob-template', '欠费催缴（SMS_468220001）');
    await pick(page, 'smsjob-var-name', '业主姓名');
    await pick(page, 'smsjob-var-room', '房屋');
    await pick(page, 'smsjob-var-amount', '欠费金额');
    // a multiple select stays open: both buildings picked from one open list
    await page.getByTestId('smsjob-bids').click();
    for (const b of buildings) {
      const option = page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${b}"]`).last();
      await stable(page, option);
      await option.click();
      await expect.poll(() => option.getAttribute('class')).toMatch(/ant-select-item-option-selected/);
    }
    await page.keyboard.press('Escape');
    expect(await form.textContent()).toContain(buildings[1]);
    // quiet hours stay on; at night the journey marks it urgent so it is sent now
    if (quietNow()) await page.getByTestId('smsjob-urgent').click();
    await settle(page);
    await screenshot(page, 'setup-sms-form-1440');
    await page.getByTestId('smsjob-save').click();
    await expect.poll(() => form.isVisible()).toBe(false);
    const list = await api<{ items: Job[] }>('smsjoblist', { name: '演练' }, token);
    job = list.data.items[0]!;
    expect(job.status).toBe('D');
    await expect.poll(() => page.getByTestId(`smsjob-status-${job.id}`).textContent()).toBe('草稿');
  });

  it('previews the recipients and the count, then starts', async () => {
    const p = await api<{ recipients: number; messages: number }>('smsjobpreview', { id: job.id }, token);
    expected = p.data;
    expect(expected.recipients).toBeGreaterThan(0);
    await page.getByTestId(`smsjob-start-${job.id}`).click();
    const preview = page.getByTestId('smsjob-preview');
    await preview.waitFor();
    await expect.poll(() => page.getByTestId('smsjob-preview-recipients').textContent()).toBe(String(expected.recipients));
    expect(await page.getByTestId('smsjob-preview-messages').textContent()).toBe(String(expected.messages));
    expect(await preview.textContent()).toContain('【阳光物业】尊敬的');
    await settle(page);
    await screenshot(page, 'setup-sms-preview-1440');
    await page.getByTestId('smsjob-start-confirm').click();
    // the list follows the job to its end
    await expect.poll(() => page.getByTestId(`smsjob-status-${job.id}`).textContent(), { timeout: 30_000 }).toMatch(/^已完成/);
    await expect.poll(() => page.getByTestId(`smsjob-counts-${job.id}`).textContent()).toBe(`${expected.recipients}/0`);
    await settle(page);
    await screenshot(page, 'setup-sms-done-1440');
  });

  it('opens the log of the job: each message, masked, rendered', async () => {
    await page.getByTestId(`smsjob-log-${job.id}`).click();
    const log = page.getByTestId('smslog-page');
    await log.waitFor();
    await expect.poll(() => log.locator('.ant-pagination-total-text').textContent()).toBe(`共 ${expected.recipients} 条`);
    const texts = await rowsOf(log).allTextContents();
    expect(texts.length).toBe(Math.min(10, expected.recipients));
    for (const t of texts) {
      expect(t).toContain('欠费催缴（1、2号楼）演练');
      expect(t).toMatch(/1\d{2}\*{4}\d{4}/);
      expect(t).toContain('已提交');
    }
    await settle(page);
    await screenshot(page, 'setup-sms-log-1440');
  });

  it('shows the templates, and the settings with a test of the connection', async () => {
    await page.goto('/setup/smsjob');
    await page.getByRole('tab', { name: '短信模板' }).click();
    await page.getByText('SMS_468220001').waitFor();
    await settle(page);
    await screenshot(page, 'setup-sms-templates-1440');
    await page.getByRole('tab', { name: '短信设置' }).click();
    await page.getByTestId('sms-settings').waitFor();
    await page.getByTestId('sms-settings-test').click();
    await expect.poll(() => page.getByTestId('sms-settings-test-result').textContent()).toContain('沙箱通道可用');
    await settle(page);
    await screenshot(page, 'setup-sms-settings-1440');
  });

  it('sends an arrears reminder from 催缴管理 through the same jobs: the form comes filled, the count before the start', async () => {
    await page.goto('/fees/feebillcall');
    await rowsOf(page.getByTestId('feebillcall-page')).first().waitFor();
    await page.getByTestId('call-sms').click();
    const form = page.getByTestId('smsjob-form');
    await form.waitFor();
    expect(await page.getByTestId('smsjob-name').inputValue()).toMatch(/^欠费催缴 \d{4}-\d{2}-\d{2}$/);
    await pick(page, 'smsjob-template', '欠费催缴（SMS_468220001）');
    await pick(page, 'smsjob-var-name', '业主姓名');
    await pick(page, 'smsjob-var-room', '房屋');
    await pick(page, 'smsjob-var-amount', '欠费金额');
    // the owners the reminder above reached were reminded today: this one asks for no gap
    await page.getByLabel('同一号码几天内只提醒一次').fill('0');
    if (quietNow()) await page.getByTestId('smsjob-urgent').click();
    await page.getByTestId('smsjob-save').click();
    await expect.poll(() => form.isVisible()).toBe(false);
    const preview = page.getByTestId('smsjob-preview');
    await preview.waitFor();
    const drafts = await api<{ items: Job[] }>('smsjoblist', { name: '欠费催缴 2' }, token);
    const draft = drafts.data.items[0]!;
    const counted = await api<{ recipients: number }>('smsjobpreview', { id: draft.id }, token);
    expect(counted.data.recipients).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('smsjob-preview-recipients').textContent()).toBe(String(counted.data.recipients));
    await settle(page);
    await screenshot(page, 'fees-feebillcall-sms-1440');
    await page.getByTestId('smsjob-start-confirm').click();
    await expect.poll(() => preview.isVisible()).toBe(false);
    await expect
      .poll(async () => (await api<Job>('smsjobinfo', { id: draft.id }, token)).data.status, { timeout: 30_000 })
      .toMatch(/^[YS]$/);
  });

  it('fits a phone', async () => {
    const phone = await newPage(PHONE);
    await signIn(phone, 'admin', undefined, '/setup/smsjoblog');
    const log = phone.getByTestId('smslog-page');
    await log.waitFor();
    await expect.poll(() => rowsOf(log).count()).toBe(10);
    await settle(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await screenshot(phone, 'setup-sms-log-390');
    await phone.goto('/setup/smsjob');
    await phone.getByTestId('smsjob-page').getByText('3号楼停水通知').waitFor();
    await settle(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await screenshot(phone, 'setup-sms-jobs-390');
  });
});
