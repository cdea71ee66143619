import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseOption, pick, pickCascader, rowsOf, stable } from './antd.js';
import { api, apiLogin, journey, signIn } from './support.js';

// one run's names: a journey may run again on the same database
const RUN = String(Date.now() % 100000).padStart(5, '0');
const DOOR = `U${RUN}`;
const DOOR_TITLE = `测试单元门${RUN}`;
const GATE = `G${RUN}`;
const GATE_TITLE = `测试侧门${RUN}`;
const REGION = `测试区域${RUN}`;
// 2号楼's 1101: the demo owner of 1号楼 stays in for the other journeys
const ROOM = '2号楼1单元1101';
// a 24×24 PNG: the owner's face as a phone would upload it
const FACE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAARElEQVR4nGN4+OwNVRDDCDeoomkiRQYB9WMikg3Cagoes4aKQXhMwWXWUPEaNQ2iWjpCM5GgGtrkNYKxjsenowaNaIMA/g8YJMxBt6oAAAAASUVORK5CYII=',
  'base64',
);

let token = '';
let admin = '';
let grantId = 0;
let gateId = 0;
let doorId = 0;
let linkId = 0;
const ok = async <T = any>(method: string, payload: Record<string, unknown>, as = token) => {
  const a = await api<T>(method, payload, as);
  if (a.return_code !== 'SUCCESS') throw new Error(`${method}: ${a.return_msg}`);
  return a.data;
};
const modal = (page: Page) => page.locator('.ant-modal:visible').last();
const grantStatus = async () => (await ok<{ status: string }>('accessgrantinfo', { id: grantId })).status;

journey(
  'access control: a unit door and a region, a face granted, approved and pushed, an offline device back, a pass, a move-out',
  ({ page: newPage }) => {
    it('adds a unit-door device (online at once: a simulated terminal) and a region of it and a side gate', async () => {
      token = await apiLogin('access');
      admin = await apiLogin('admin');
      const page = await newPage();
      await signIn(page, 'access', undefined, '/carpark/hardwareadd');
      const form = page.getByTestId('accessdevice-form');
      await form.waitFor();
      await page.getByTestId('accessdevice-code').fill(DOOR);
      await page.getByTestId('accessdevice-title').fill(DOOR_TITLE);
      await modal(page).getByText('单元门', { exact: true }).click();
      await pick(page, 'accessdevice-bid', '2号楼');
      await pick(page, 'accessdevice-tid', '1单元');
      await page.getByTestId('accessdevice-ip').fill('192.168.1.88');
      await page.getByTestId('accessdevice-save').click();
      await form.waitFor({ state: 'hidden' });
      const table = page.getByTestId('accessdevice-table');
      const row = rowsOf(table).filter({ hasText: DOOR_TITLE });
      await row.waitFor();
      expect(await row.textContent()).toContain('在线');
      doorId = Number(((await row.locator('[data-testid^="device-open-"]').getAttribute('data-testid')) ?? '').replace('device-open-', ''));

      // the side gate (added through the API): it will be the device that goes offline
      gateId = (await ok<{ id: number }>('accessdeviceadd', { code: GATE, title: GATE_TITLE, location: 'community' })).id;

      await page.goto(page.url().replace(/\/carpark\/.*$/, '/carpark/setregions'));
      await page.getByTestId('accessregion-add').click();
      await page.getByTestId('accessregion-form').waitFor();
      await page.getByTestId('accessregion-title').fill(REGION);
      // a multiple select stays open between choices
      await page.getByTestId('accessregion-device_ids').click();
      for (const title of [`${DOOR} ${DOOR_TITLE}`, `${GATE} ${GATE_TITLE}`]) {
        const option = page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${title}"]`).last();
        await option.click();
        await expect.poll(() => option.getAttribute('class')).toContain('selected');
      }
      await page.keyboard.press('Escape');
      await page.getByTestId('accessregion-save').click();
      await page.getByTestId('accessregion-form').waitFor({ state: 'hidden' });
      await rowsOf(page.getByTestId('accessregion-table')).filter({ hasText: REGION }).waitFor();
    });

    it('switches the side gate off in the simulator', async () => {
      const page = await newPage();
      await signIn(page, 'access', undefined, '/carpark/accesssim');
      await pick(page, 'sim-device', `${GATE} ${GATE_TITLE}`);
      await page.getByTestId('sim-offline').click();
      await expect.poll(() => page.getByTestId('sim-offline').getAttribute('aria-checked')).toBe('true');
    });

    it('the home card counts the doors offline with today’s visitors, and opens the offline ones', async () => {
      const page = await newPage();
      await signIn(page, 'access');
      const card = page.getByTestId('card-access');
      const figures = await ok<{ total: number; offline: number; expected: number; arrived: number }>('accessdashboard', {});
      // the demo's door set offline at least
      expect(figures.offline).toBeGreaterThan(0);
      await expect.poll(() => card.textContent()).toContain(`${figures.offline} / ${figures.total}`);
      expect(await card.textContent()).toContain(`今日预约访客 ${figures.expected} · 已到访 ${figures.arrived}`);
      await card.click();
      await page.waitForURL(/\/carpark\/current_device\?online=N/);
      const rows = rowsOf(page.getByTestId('accessdevice-table'));
      await expect.poll(() => rows.count()).toBeGreaterThan(0);
      for (const text of await rows.allTextContents()) expect(text).toContain('离线');
    });

    it('grants 1101’s owner a face (uploaded), approves it: P, then held on the door and failed on the offline gate', async () => {
      const home = (
        await ok<{ items: Array<{ hid: number; address: string }> }>('getkeywordtohouses', { keywords: ROOM }, admin)
      ).items.find((h) => h.address === ROOM)!;
      const owner = (
        await ok<{ items: Array<{ id: number; realname: string; rooms: Array<{ id: number; hid: number }> }> }>(
          'memberlist',
          { hid: home.hid, living: 'Y', relation: 'owner', limit: 50 },
          admin,
        )
      ).items[0]!;
      const page = await newPage();
      await signIn(page, 'access', undefined, '/carpark/currentadd');
      await page.getByTestId('grant-form').waitFor();
      await pickCascader(page, page.getByTestId('grant-room'), ['2号楼', '1单元', '1101']);
      await page.getByTestId('grant-member').click();
      await chooseOption(
        page,
        page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: owner.realname }).first(),
      );
      await pick(page, 'grant-regions', REGION);
      await page.keyboard.press('Escape');
      await page.getByTestId('grant-face-file').setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: FACE });
      await page.getByTestId('grant-face').locator('img').first().waitFor();
      await page.getByTestId('grant-save').click();
      await page.getByTestId('grant-form').waitFor({ state: 'hidden' });
      const list = await ok<{ items: Array<{ id: number; status: string; member_id: number; region_titles: string }> }>('accessgrantlist', {
        hid: home.hid,
        status: 'W',
      });
      const mine = list.items.find((g) => g.member_id === owner.id && g.region_titles === REGION)!;
      grantId = mine.id;
      // the owner's tie to the room (getkeywordtohouses answers the tie's id)
      linkId = (
        await ok<{ items: Array<{ id: number; address: string; realname: string }> }>(
          'getkeywordtohouses',
          { keywords: owner.realname },
          admin,
        )
      ).items.find((h) => h.address === ROOM && h.realname === owner.realname)!.id;

      await page.goto(page.url().replace(/\/carpark\/.*$/, '/carpark/currentexamine'));
      await page.getByTestId(`examine-${grantId}`).click();
      const info = page.getByTestId('grant-info');
      await info.waitFor();
      await info.getByTestId('grant-info-photo').waitFor();
      await page.getByTestId(`accessgrant-approve-${grantId}`).click();
      const confirm = page.getByTestId('accessgrant-approve-ok');
      // the confirmation slides in: a click before it settles is lost
      await stable(page, confirm);
      await confirm.click();
      await confirm.waitFor({ state: 'hidden' });
      // P at once, then the door holds it and the offline gate fails
      await expect.poll(() => info.getByTestId('grant-info-status').textContent(), { timeout: 10_000 }).toMatch(/下发中|驳回或下发失败/);
      const devices = info.getByTestId('grant-info-devices');
      await expect.poll(() => rowsOf(devices).filter({ hasText: DOOR_TITLE }).textContent(), { timeout: 30_000 }).toContain('已下发');
      await expect.poll(() => rowsOf(devices).filter({ hasText: GATE_TITLE }).textContent(), { timeout: 30_000 }).toContain('失败');
      expect(await info.getByTestId('grant-info-status').textContent()).toContain('驳回或下发失败');
    });

    it('brings the gate back: the push completes by itself and the grant shows Y', async () => {
      const page = await newPage();
      await signIn(page, 'access', undefined, '/carpark/accesssim');
      await pick(page, 'sim-device', `${GATE} ${GATE_TITLE}`);
      await expect.poll(() => page.getByTestId('sim-offline').getAttribute('aria-checked')).toBe('true');
      await page.getByTestId('sim-offline').click();
      await expect.poll(() => page.getByTestId('sim-online').textContent(), { timeout: 10_000 }).toBe('在线');
      await expect.poll(grantStatus, { timeout: 30_000, interval: 1000 }).toBe('Y');
      await rowsOf(page.getByTestId('sim-persons'))
        .filter({ hasText: `grant:${grantId}` })
        .waitFor({ timeout: 10_000 });

      const sync = await newPage();
      await signIn(sync, 'access', undefined, '/carpark/face_user_synclog');
      await sync.getByTestId(`sync-${grantId}-${gateId}`).waitFor();
      expect(await sync.getByTestId(`sync-${grantId}-${gateId}`).textContent()).toBe('已下发');
    });

    it('room codes: the new doors got their rooms’ codes; a code set by hand goes to every door serving the room; the log shows the one that failed', async () => {
      const page = await newPage();
      await signIn(page, 'access', undefined, '/carpark/roomcode');
      const table = page.getByTestId('roomcode-page');
      await page.getByTestId('roomcode-filter-keyword').fill(ROOM);
      await page.getByTestId('roomcode-filter-keyword').press('Enter');
      const row = rowsOf(table).filter({ hasText: ROOM });
      await expect.poll(() => rowsOf(table).count()).toBe(1);
      expect(await row.textContent()).toContain('2-1-1101');
      const hid = Number(
        ((await row.locator('[data-testid^="roomcode-edit-"]').getAttribute('data-testid')) ?? '').replace('roomcode-edit-', ''),
      );
      // the unit door and the side gate added above were sent the room's code when they were added
      const sent = await ok<{ items: Array<{ device_id: number; state: string }> }>('roomsynclist', { keyword: '2-1-1101', limit: 50 });
      expect(sent.items.map((c) => c.device_id)).toEqual(expect.arrayContaining([doorId, gateId]));

      await page.getByTestId(`roomcode-edit-${hid}`).click();
      await modal(page).getByTestId('roomcode-code').fill(`R${RUN}`);
      await modal(page).getByTestId('roomcode-call').fill(`9${RUN}`);
      await page.getByTestId('roomcode-save').click();
      await modal(page).waitFor({ state: 'hidden' });
      await page.getByTestId('roomcode-filter-keyword').fill(`R${RUN}`);
      await page.getByTestId('roomcode-filter-keyword').press('Enter');
      await expect.poll(() => row.textContent()).toContain(`9${RUN}`);
      // every door answers but the demo's gate that is off (南门): 同步失败, its error in the tooltip
      await expect
        .poll(
          async () => {
            await page.getByTestId('table-page-search').click();
            return page.getByTestId(`roomcode-state-${hid}`).textContent();
          },
          { timeout: 60_000, interval: 1000 },
        )
        .toBe('同步失败');

      // the generate dialog previews its templates; the rooms keep their codes unless told
      await page.getByTestId('roomcode-generate').click();
      await expect.poll(() => modal(page).textContent()).toContain('1号楼2单元1103 → 1-2-1103');
      await page.getByTestId('roomcode-code-template').fill('{b}{x}');
      await expect.poll(() => modal(page).textContent()).toContain('不认识的占位符');
      await page.getByTestId('roomcode-code-template').fill('{b}-{u}-{f:2}{r:2}');
      await page.getByTestId('roomcode-generate-ok').click();
      await page.locator('.ant-notification-notice').filter({ hasText: '跳过已有编码' }).last().waitFor();

      await page.goto(page.url().replace(/\/carpark\/.*$/, '/carpark/room_construct_sync_log'));
      const log = page.getByTestId('roomsync-page');
      await page.getByTestId('roomsync-filter-keyword').fill(`R${RUN}`);
      await page.getByTestId('roomsync-filter-keyword').press('Enter');
      // the room's commands, the code sent when the doors were added among them: the new code's,
      // answered by the doors as the user refreshes
      const sentNow = rowsOf(log).filter({ hasText: `R${RUN}` });
      await sentNow.filter({ hasText: '南门人行闸机' }).filter({ hasText: '失败' }).waitFor();
      await expect
        .poll(
          async () => {
            await page.getByTestId('table-page-search').click();
            return sentNow.filter({ hasText: DOOR_TITLE }).filter({ hasText: '已完成' }).count();
          },
          { timeout: 60_000, interval: 1000 },
        )
        .toBe(1);
    });

    it('simulates a pass at the unit door: it opens and shows in currentlog and the owner drawer’s current tab', async () => {
      const page = await newPage();
      await signIn(page, 'access', undefined, '/carpark/accesssim');
      await pick(page, 'sim-device', `${DOOR} ${DOOR_TITLE}`);
      await page.getByTestId('sim-person').click();
      await page.keyboard.type('1101');
      await chooseOption(
        page,
        page
          .locator('.ant-select-dropdown:visible .ant-select-item-option')
          .filter({ hasText: ROOM })
          .filter({ hasText: '已生效' })
          .first(),
      );
      await page.getByTestId('sim-pass-face').click();
      await expect.poll(() => page.getByTestId('sim-result').textContent()).toContain('已开门');
      await page.getByTestId('sim-pass-unknown').click();
      await expect.poll(() => page.getByTestId('sim-result').textContent()).toContain('陌生人脸');

      await page.goto(page.url().replace(/\/carpark\/.*$/, '/carpark/currentlog'));
      const table = page.getByTestId('pass-page');
      await rowsOf(table).filter({ hasText: DOOR_TITLE }).filter({ hasText: '开门' }).first().waitFor();
      await rowsOf(table).filter({ hasText: DOOR_TITLE }).filter({ hasText: '陌生人' }).first().waitFor();

      const home = (
        await ok<{ items: Array<{ hid: number; address: string; bid: number; tid: number }> }>(
          'getkeywordtohouses',
          { keywords: ROOM },
          admin,
        )
      ).items.find((h) => h.address === ROOM)!;
      const tab = await ok<{ items: Array<{ room_name: string }> }>(
        'housecurrentlist',
        { rid: 1, hid: home.hid, page: 1, limit: 10, sort: 'desc', device: doorId },
        admin,
      );
      expect(tab.items.length).toBeGreaterThan(0);
      expect(tab.items[0]!.room_name).toBe(DOOR_TITLE);
    });

    it('moves the owner out: the grant is revoked on every device', async () => {
      expect(linkId).toBeGreaterThan(0);
      await ok('membermoveout', { id: linkId }, admin);
      await expect
        .poll(async () => (await ok<{ devices: unknown[]; revoked: string }>('accessgrantinfo', { id: grantId })).devices.length, {
          timeout: 30_000,
          interval: 1000,
        })
        .toBe(0);
      const page = await newPage();
      await signIn(page, 'access', undefined, '/carpark/current');
      await page.getByTestId('grant-page').waitFor();
      const info = await ok<{ revoked: string; reason: string }>('accessgrantinfo', { id: grantId });
      expect(info).toMatchObject({ revoked: 'Y', reason: '迁出注销' });
      const sim = await ok<{ persons: Array<{ subject: string }> }>('accesssiminfo', { device_id: doorId });
      expect(sim.persons.map((p) => p.subject)).not.toContain(`grant:${grantId}`);
    });
  },
);
