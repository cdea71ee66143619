import { expect, it } from 'vitest';
import { pick, rowsOf, settle } from './antd.js';
import { screenshot } from './browser.js';
import { api, apiLogin, journey, signIn, signInSteward, stewardToken } from './support.js';

type Cell = { event: string; recipient: string; channel: string; enabled: 'Y' | 'N' };

/**
 * 消息设置 and 站内消息 (docs/product.md#notifications): the head office texts the reporter of a new
 * repair (报修提交 × 业主 × 短信) and sets the daily cap; a ticket registered by phone reaches the
 * desk's 站内消息, which opens the ticket and marks it read; the group's 发送记录 shows the
 * reporter's SMS. The cell and the cap are put back at the end. Then 微信: an owner bound to a follower
 * of the official account (公众号粉丝) gets the template message of a new repair, and the log shows it
 * sent to the follower's masked open id.
 */
journey('message settings', ({ page: newPage }) => {
  it('the group decides who hears of an event, the desk reads it in the console', async () => {
    const leaderToken = await apiLogin('leader');
    const before = await api<{ cells: Cell[]; quiet_enabled: string; quiet_from: number; quiet_to: number; daily_cap: number }>(
      'messagesetinfo',
      {},
      leaderToken,
      'group',
    );
    const restore = () =>
      api(
        'messagesetedit',
        {
          cells: before.data.cells,
          quiet_enabled: before.data.quiet_enabled,
          quiet_from: before.data.quiet_from,
          quiet_to: before.data.quiet_to,
          daily_cap: before.data.daily_cap,
        },
        leaderToken,
        'group',
      );
    try {
      const leader = await newPage();
      await signIn(leader, 'leader', undefined, '/setup/message');
      const cell = leader.getByTestId('message-cell-repair_submit-owner-sms');
      await cell.waitFor();
      expect(await cell.isChecked()).toBe(false);
      // an owner has no console: no 站内消息 box in the owner column
      expect(await leader.getByTestId('message-cell-repair_submit-owner-inbox').count()).toBe(0);
      await cell.click();
      // quiet hours off, so the SMS goes now whatever the hour the journey runs
      await leader.getByTestId('message-quiet').click();
      await leader.locator('input[data-testid=message-daily-cap], [data-testid=message-daily-cap] input').fill('20');
      await leader.getByTestId('message-save').click();
      await expect.poll(() => leader.getByTestId('message-save').isDisabled()).toBe(true);
      const saved = await api<{ cells: Cell[]; daily_cap: number; quiet_enabled: string }>('messagesetinfo', {}, leaderToken, 'group');
      expect(saved.data).toMatchObject({ daily_cap: 20, quiet_enabled: 'N' });
      expect(saved.data.cells.find((c) => c.event === 'repair_submit' && c.recipient === 'owner' && c.channel === 'sms')?.enabled).toBe(
        'Y',
      );
      await settle(leader);
      await screenshot(leader, 'setup-message-1440');

      // a public-area ticket the administrator registered by phone: the desk's staff hear of it in
      // their 站内消息 (who registered it is not told of their own doing)
      const desk = await stewardToken();
      const admin = await apiLogin('admin');
      const types = await api<{ items: Array<{ id: number; area: string; status: string }> }>('repairtypelist', { limit: 100 }, desk);
      const type = types.data.items.find((t) => t.area === 'P' && t.status === 'Y')!;
      const phone = `1370000${String(Date.now()).slice(-4)}`;
      const made = await api<{ id: number; no: string }>(
        'repairadd',
        { source: 'T', type_id: type.id, place: '地下车库B2电梯厅', reporter: '孙女士', phone, content: '电梯厅顶灯闪烁' },
        admin,
      );
      expect(made.return_msg).toContain('已登记报修');

      const page = await newPage();
      await signInSteward(page, '/setup/backlog');
      const button = page.getByTestId('backlog-inbox');
      await button.waitFor();
      await button.click();
      await page.waitForURL(/\/setup\/inbox/);
      const list = page.getByTestId('inbox-page');
      const row = rowsOf(list).filter({ hasText: `新报修待派单：${made.data.no}` });
      await row.waitFor();
      await row.locator('[data-testid^=inbox-unread-]').waitFor();
      await settle(page);
      await screenshot(page, 'setup-inbox-1440');
      const unread = (await api<{ unread: number }>('inboxcount', {}, desk)).data.unread;
      await row.getByText('查看', { exact: true }).click();
      await page.waitForURL(new RegExp(`/steward/repairs\\?id=${made.data.id}`));
      await expect.poll(async () => (await api<{ unread: number }>('inboxcount', {}, desk)).data.unread).toBe(unread - 1);

      // the group's log: the reporter's SMS of the new ticket, sent by the job
      await leader.getByRole('tab', { name: '发送记录' }).click();
      const log = leader.getByTestId('message-log');
      await pick(leader, 'message-log-event', '报修提交');
      await leader.getByTestId('message-log-keyword').fill(phone.slice(-4));
      await log.getByTestId('table-page-search').click();
      const sms = rowsOf(log).filter({ hasText: made.data.no });
      await sms.waitFor();
      await expect
        .poll(async () => {
          await log.getByTestId('table-page-search').click();
          return sms.locator('[data-testid^=message-log-status-]').textContent();
        })
        .toBe('已发送');
      expect(await sms.textContent()).toContain(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
      await settle(leader);
      await screenshot(leader, 'setup-message-log-1440');
    } finally {
      await restore();
    }
  });

  it('tells an owner bound to a follower of the official account by 微信', async () => {
    const leaderToken = await apiLogin('leader');
    const admin = await apiLogin('admin');
    const before = await api<{ cells: Cell[] }>('messagesetinfo', {}, leaderToken, 'group');
    const cellWas = before.data.cells.find((c) => c.event === 'repair_submit' && c.recipient === 'owner' && c.channel === 'wechat')!;
    // a new owner of some room, and a follower no one is bound to (the list's last, away from other journeys' first)
    const mobile = `1360000${String(Date.now()).slice(-4)}`;
    const rooms = await api<{ items: Array<{ id: number }> }>('roomlist', { page: 30, limit: 1 }, admin);
    const member = await api<{ id: number }>(
      'memberadd',
      { realname: '微信业主', mobile, rooms: [{ hid: rooms.data.items[0]!.id, relation: 'tenant' }] },
      admin,
    );
    expect(member.return_code, member.return_msg).toBe('SUCCESS');
    const fans = await api<{ items: Array<{ id: number; openid: string }> }>(
      'wxfanslist',
      { bound: 'N', subscribed: 'Y', limit: 50 },
      admin,
    );
    const fan = fans.data.items[fans.data.items.length - 1]!;
    expect((await api('wxfansbind', { id: fan.id, member_id: member.data.id }, admin)).return_code).toBe('SUCCESS');
    try {
      const leader = await newPage();
      await signIn(leader, 'leader', undefined, '/setup/message');
      const cell = leader.getByTestId('message-cell-repair_submit-owner-wechat');
      await cell.waitFor();
      if (!(await cell.isChecked())) await cell.click();
      await leader.getByTestId('message-save').click();
      await expect.poll(() => leader.getByTestId('message-save').isDisabled()).toBe(true);

      const desk = await stewardToken();
      const types = await api<{ items: Array<{ id: number; area: string; status: string }> }>('repairtypelist', { limit: 100 }, desk);
      const type = types.data.items.find((t) => t.area === 'P' && t.status === 'Y')!;
      const made = await api<{ id: number; no: string }>(
        'repairadd',
        { source: 'T', type_id: type.id, place: '3号楼大堂', reporter: '微信业主', phone: mobile, content: '大堂门禁刷卡无反应' },
        desk,
      );
      expect(made.return_msg).toContain('已登记报修');

      await leader.getByRole('tab', { name: '发送记录' }).click();
      const log = leader.getByTestId('message-log');
      await pick(leader, 'message-log-channel', '微信');
      await leader.getByTestId('message-log-keyword').fill(mobile.slice(-4));
      const row = rowsOf(log).filter({ hasText: made.data.no });
      await expect
        .poll(async () => {
          await log.getByTestId('table-page-search').click();
          return (await row.count()) ? row.locator('[data-testid^=message-log-status-]').textContent() : '';
        })
        .toBe('已发送');
      expect(await row.textContent()).toContain(`${fan.openid.slice(0, 6)}****${fan.openid.slice(-4)}`);
      await settle(leader);
      await screenshot(leader, 'setup-message-wechat-1440');
    } finally {
      await api('wxfansunbind', { id: fan.id }, admin);
      await api(
        'messagesetedit',
        { ...(await api<Record<string, unknown>>('messagesetinfo', {}, leaderToken, 'group')).data, cells: [cellWas] },
        leaderToken,
        'group',
      );
    }
  });
});
