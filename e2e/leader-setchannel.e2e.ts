import { expect, it } from 'vitest';
import { pick, settle } from './antd.js';
import { PHONE, screenshot } from './browser.js';
import { api, apiLogin, journey, signIn } from './support.js';

interface Channel {
  scene: string;
  provider: string;
  enabled: string;
  remark: string;
  in_use: string;
}

/**
 * 支付渠道 (/setup/setchannel on the group side): the head office sees which channel pays each scene
 * now and chooses one for 付款码, the scene no payment flow reads yet, so the journeys beside this
 * one pay as before. The flows that read a scene (续费, 收银台扫码) are the handler tests'.
 */
journey('payment channels', ({ page: newPage }) => {
  it('the group sees what pays each scene and chooses a channel for one', async () => {
    const token = await apiLogin('leader');
    const list = async () => (await api<{ items: Channel[] }>('setchannellist', {}, token, 'group')).data.items;
    const before = (await list()).find((c) => c.scene === 'pay_code')!;
    try {
      const page = await newPage();
      await signIn(page, 'leader', undefined, '/setup/setchannel');
      const table = page.getByTestId('setchannel-table');
      // what pays renewal now, by the group's choice
      await table.getByText('续费扫码支付：沙箱（测试）').waitFor();
      await pick(page, 'setchannel-provider-pay_code', '沙箱（测试）');
      if (!(await page.getByTestId('setchannel-enabled-pay_code').isChecked()))
        await page.getByTestId('setchannel-enabled-pay_code').click();
      await page.getByTestId('setchannel-save-pay_code').click();
      await expect
        .poll(async () => (await list()).find((c) => c.scene === 'pay_code'))
        .toMatchObject({ provider: 'sandbox', enabled: 'Y' });
      await page.getByText('保存成功').first().waitFor();
      await settle(page);
      await screenshot(page, 'leader-setchannel-1440');

      const phone = await newPage(PHONE);
      await signIn(phone, 'leader', undefined, '/setup/setchannel');
      await phone.getByTestId('setchannel-table').getByText('续费扫码支付：沙箱（测试）').waitFor();
      await settle(phone);
      await screenshot(phone, 'leader-setchannel-390');
    } finally {
      await api(
        'setchanneledit',
        { scene: 'pay_code', provider: before.provider || 'sandbox', enabled: 'N', remark: before.remark },
        token,
        'group',
      );
    }
  });
});
