import { expect, it } from 'vitest';
import { settle } from './antd.js';
import { screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

const HELP = 'https://help.example.com/wuye-group';

/**
 * The head office sets the help address once for all its communities (/setup/setsys on the group
 * side); 翠湖苑, which has none of its own, shows it in its top bar, and its own settings page shows
 * the group's value in the empty field. The group's default is put back at the end.
 */
journey('the group defaults of 系统设置', ({ page: newPage }) => {
  it('the group sets the help address and a community without its own follows it', async () => {
    const leaderToken = await apiLogin('leader');
    const before = await api<{ help_work_url: string }>('groupsysinfo', {}, leaderToken, 'group');
    try {
      const leader = await newPage();
      await signIn(leader, 'leader', undefined, '/setup/setsys');
      await leader.getByTestId('setsys-page').getByText('系统设置（集团默认）').waitFor();
      await leader.getByTestId('setsys-tab-help').click();
      await leader.getByTestId('setsys-help_work_url').fill(HELP);
      await leader.getByTestId('setsys-save-help').click();
      await leader.getByText('未单独设置的小区随之生效').first().waitFor();
      await settle(leader);
      await screenshot(leader, 'setup-groupsys-1440');

      const admin2 = await newPage();
      // wide enough for the top bar to show 帮助 as an icon
      await admin2.setViewportSize({ width: 1920, height: 1080 });
      await signIn(admin2, 'admin2', undefined, '/setup/setsys');
      // the top bar's 帮助 opens the group's address
      await expect.poll(() => admin2.getByTestId('navbar-help').getAttribute('href')).toBe(HELP);
      // the community's own field is empty and says whose value applies
      await admin2.getByTestId('setsys-tab-help').click();
      const own = admin2.getByTestId('setsys-help_work_url');
      await expect.poll(() => own.getAttribute('placeholder')).toBe(`跟随集团：${HELP}`);
      expect(await own.inputValue()).toBe('');
      await admin2.setViewportSize({ width: 1440, height: 900 });
      await settle(admin2);
      await screenshot(admin2, 'setup-groupsys-community-1440');
    } finally {
      const restored = await api('setgroupsysinfo', { help_work_url: before.data.help_work_url }, leaderToken, 'group');
      expect(restored.return_code, restored.return_msg).toBe('SUCCESS');
    }
  });
});
