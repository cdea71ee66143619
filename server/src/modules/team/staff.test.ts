import { RC } from '@wuye/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let leader: string;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, cashier] = await t.logins('admin', 'admin2', 'cashier');
  leader = await t.login('leader');
});
afterAll(() => t.close());

const ok = (a: { return_code: string; return_msg: string }) => expect(a.return_code, a.return_msg).toBe(RC.SUCCESS);
const refused = (a: { return_code: string; return_msg: string }, msg: string | RegExp, code: string = RC.FAIL) => {
  expect(a.return_code).toBe(code);
  expect(a.return_msg).toMatch(msg);
};

async function roleId(title: string, token = admin): Promise<number> {
  const list = await t.call<{ items: Array<{ id: number; title: string }> }>('role_small_list', { app: 'web' }, token);
  return list.data.items.find((r) => r.title === title)!.id;
}

/** Adds a staff account and signs it in with the password it was given, changed as asked. */
async function staffWith(username: string, roles: number[], rid = 1, by = admin) {
  const added = await t.call<{ id: number; password: string }>(
    'staffadd',
    { username, name: '测试员工', mobile: '', assignments: [{ rid, role_ids: roles }] },
    by,
  );
  ok(added);
  expect(added.data.password).toMatch(/^[A-Za-z0-9]{10}$/);
  const token = await t.login(username, added.data.password);
  // nothing but the change answers until the given password is changed
  refused(await t.call('backlog_list', {}, token), '请先修改管理员设置的临时密码');
  ok(await t.call('sysusereditpassword', { username, password: 'Staff#2026', password2: 'Staff#2026' }, token));
  return { id: added.data.id, token };
}

describe('roles and staff: the 前台收银 walk of the issue', () => {
  let frontDesk: number;
  let staff: { id: number; token: string };

  it('adds a role with the cashier pages and without refunds; an action brings its page', async () => {
    const added = await t.call('roleadd', { title: '前台收银', app: 'web', remark: '前台', codes: ['cashier', 'refund'] }, admin);
    ok(added);
    const info = await t.call('roleinfo', { id: added.data.id }, admin);
    expect(info.data.codes).toEqual(['cashier', 'payment', 'refund']);
    const edited = await t.call(
      'roleedit',
      { id: added.data.id, title: '前台收银', app: 'web', remark: '前台', codes: ['cashier', 'payment'] },
      admin,
    );
    ok(edited);
    frontDesk = added.data.id;
    refused(await t.call('roleadd', { title: '前台收银', app: 'web', codes: ['cashier'] }, admin), '角色名称已存在');
    refused(await t.call('roleadd', { title: '坏角色', app: 'web', codes: ['nope'] }, admin), /未知的权限：nope/);
    refused(await t.call('roleadd', { title: '空角色', app: 'web', codes: [] }, admin), '请至少选择一项权限');
    refused(await t.call('roleadd', { title: '', app: 'web', codes: ['cashier'] }, admin), '请输入角色名称');
  });

  it('a staff member with it signs in, must change the password, sees only its codes and is refused refunds', async () => {
    staff = await staffWith('frontdesk01', [frontDesk]);
    const me = await t.call('sysuserinfo', {}, staff.token);
    // staffWith changed the given password, as the first sign-in must
    expect(me.data.items).toMatchObject({ password_status: 'Y', password_reset: 'N' });
    const info = await t.call('userinfo', {}, staff.token);
    expect(info.data.roles).toEqual(['cashier', 'payment']);
    ok(await t.call('paymentlist', {}, staff.token));
    refused(await t.call('refund_list', {}, staff.token), /权限/, RC.NO_PERMISSION);
    refused(await t.call('refundapply', { payment_id: 1, bill_ids: [1], reason: '测试' }, staff.token), /权限/, RC.NO_PERMISSION);
    refused(await t.call('stafflist', {}, staff.token), /权限/, RC.NO_PERMISSION);
  });

  it('adding refunds to the role lets the open session through on its next call', async () => {
    const edited = await t.call(
      'roleedit',
      { id: frontDesk, title: '前台收银', app: 'web', codes: ['cashier', 'payment', 'refund'] },
      admin,
    );
    ok(edited);
    expect(edited.return_msg).toBe('修改成功，已作用于 1 个账号');
    ok(await t.call('refund_list', {}, staff.token));
    expect((await t.call('userinfo', {}, staff.token)).data.roles).toContain('refund');
  });

  it('shows the account with its community and role, and where each page comes from', async () => {
    const list = await t.call('stafflist', { keyword: 'frontdesk01' }, admin);
    expect(list.data.total).toBe(1);
    expect(list.data.items[0].regions).toEqual([{ rid: 1, title: '阳光花园', roles: [{ id: frontDesk, title: '前台收银' }] }]);
    const access = await t.call('staffaccess', { id: staff.id }, admin);
    const pages = access.data.regions[0].pages as Array<{ code: string; via: string[] }>;
    expect(pages.map((p) => p.code)).toEqual(['cashier', 'payment', 'refund']);
    expect(pages[0]!.via).toEqual(['前台收银']);
    expect((await t.call('stafflist', { role_id: frontDesk }, admin)).data.total).toBe(1);
    expect((await t.call('stafflist', { status: 'N', keyword: 'frontdesk01' }, admin)).data.total).toBe(0);
  });

  it('disabling the account refuses its open session at once', async () => {
    ok(await t.call('staffdisable', { id: staff.id }, admin));
    refused(await t.call('paymentlist', {}, staff.token), '账号已停用，请联系管理员', RC.ILLEGAL_TOKEN);
    await expect(t.login('frontdesk01', 'whatever1')).rejects.toThrow();
    refused(await t.call('staffdisable', { id: staff.id }, admin), '该账号已停用');
    ok(await t.call('staffenable', { id: staff.id }, admin));
  });

  it('a role still held is deleted only with a replacement; built-in roles are never deleted', async () => {
    refused(await t.call('roledel', { id: frontDesk }, admin), '该角色仍有 1 个账号持有，请选择替代角色');
    refused(await t.call('roledel', { id: await roleId('收银员') }, admin), '内置角色不能删除，可以停用');
    ok(await t.call('roledel', { id: frontDesk, replacement_id: await roleId('收银员') }, admin));
    const list = await t.call('stafflist', { keyword: 'frontdesk01' }, admin);
    expect(list.data.items[0].regions[0].roles.map((r: { title: string }) => r.title)).toEqual(['收银员']);
  });
});

describe('staff: scope, guards and bad input', () => {
  it("another community's administrator neither sees nor assigns this community's staff", async () => {
    const { id } = await staffWith('scope01', [await roleId('维修工')]);
    refused(
      await t.call('staffedit', { id, name: '改名', assignments: [{ rid: 2, role_ids: [await roleId('维修工', admin2)] }] }, admin2),
      '员工账号不存在',
    );
    refused(await t.call('staffdisable', { id }, admin2), '员工账号不存在');
    expect((await t.call('stafflist', { keyword: 'scope01' }, admin2)).data.total).toBe(0);
    refused(
      await t.call(
        'staffadd',
        { username: 'scope02', name: '越权员工', assignments: [{ rid: 1, role_ids: [await roleId('维修工', admin2)] }] },
        admin2,
      ),
      '只能分配当前小区，其他小区请切换后分配',
    );
  });

  it('the group side lists the whole group and assigns any of its communities', async () => {
    const list = await t.call('stafflist', { limit: 100 }, leader, 'group');
    ok(list);
    const rids = new Set((list.data.items as Array<{ regions: Array<{ rid: number }> }>).flatMap((s) => s.regions.map((r) => r.rid)));
    expect([...rids].sort()).toEqual(expect.arrayContaining([1, 2]));
    const roles = await t.call('role_small_list', { app: 'web' }, leader, 'group');
    const tech = roles.data.items.find((r: { title: string }) => r.title === '维修工').id;
    ok(
      await t.call(
        'staffadd',
        {
          username: 'group01',
          name: '集团员工',
          assignments: [
            { rid: 1, role_ids: [tech] },
            { rid: 2, role_ids: [tech] },
          ],
        },
        leader,
        'group',
      ),
    );
  });

  it('keeps an enabled administrator in every community and never disables oneself', async () => {
    const me = (await t.call('stafflist', { keyword: 'admin2' }, leader, 'group')).data.items[0];
    refused(
      await t.call('staffdisable', { id: (await t.call('stafflist', { keyword: '张经理' }, admin)).data.items[0].id }, admin),
      '不能停用本人的账号',
    );
    ok(await t.call('staffdisable', { id: me.id }, leader, 'group'));
    const self = (await t.call('stafflist', { keyword: '张经理' }, admin)).data.items[0];
    refused(
      await t.call('staffedit', { id: self.id, name: '张经理', assignments: [{ rid: 1, role_ids: [await roleId('收银员')] }] }, admin),
      '阳光花园至少需要一个启用的管理员',
    );
    refused(
      await t.call(
        'staffdisable',
        { id: (await t.call('stafflist', { keyword: '张经理' }, leader, 'group')).data.items[0].id },
        leader,
        'group',
      ),
      '阳光花园至少需要一个启用的管理员',
    );
    ok(await t.call('staffenable', { id: me.id }, leader, 'group'));
  });

  it('a manager without admin hands out only what they hold and cannot act on a higher account', async () => {
    ok(await t.call('roleadd', { title: '人事专员', app: 'web', codes: ['team', 'memberbasis'] }, admin));
    const hr = await staffWith('hr01', [await roleId('人事专员')]);
    refused(
      await t.call('roleadd', { title: '越权角色', app: 'web', codes: ['team', 'cashier'] }, hr.token),
      /不能授予本人没有的权限：收银台/,
    );
    refused(
      await t.call(
        'staffadd',
        { username: 'hr02', name: '越权员工', assignments: [{ rid: 1, role_ids: [await roleId('管理员')] }] },
        hr.token,
      ),
      /不能授予本人没有的权限/,
    );
    const cashierRow = (await t.call('stafflist', { keyword: 'cashier' }, admin)).data.items.find(
      (s: { username: string }) => s.username === 'cashier',
    );
    refused(await t.call('staffdisable', { id: cashierRow.id }, hr.token), '该账号的权限高于本人，不能操作');
    ok(
      await t.call(
        'staffadd',
        { username: 'hr03', name: '客服新人', assignments: [{ rid: 1, role_ids: [await roleId('人事专员')] }] },
        hr.token,
      ),
    );
  });

  it('refuses bad input with the rule it broke, and roles to those without team', async () => {
    refused(
      await t.call('staffadd', { username: 'ab', name: '短账号', assignments: [{ rid: 1, role_ids: [1] }] }, admin),
      '账号为4到30位字母、数字或下划线',
    );
    refused(await t.call('staffadd', { username: 'nobody01', name: '无小区', assignments: [] }, admin), '请至少分配一个小区及其角色');
    refused(
      await t.call('staffadd', { username: 'nobody02', name: '无角色', assignments: [{ rid: 1, role_ids: [] }] }, admin),
      '每个小区至少选择一个角色',
    );
    refused(
      await t.call('staffadd', { username: 'admin', name: '重名', assignments: [{ rid: 1, role_ids: [await roleId('收银员')] }] }, admin),
      '账号已存在',
    );
    refused(
      await t.call('staffadd', { username: 'badrole01', name: '坏角色', assignments: [{ rid: 1, role_ids: [999999] }] }, admin),
      '角色不存在',
    );
    refused(
      await t.call('staffadd', { username: 'mobile01', name: '坏手机', mobile: '123', assignments: [{ rid: 1, role_ids: [1] }] }, admin),
      /手机号码格式不正确/,
    );
    refused(await t.call('rolelist', {}, cashier), /权限/, RC.NO_PERMISSION);
    refused(
      await t.call('roleedit', { id: await roleId('管理员'), title: '管理员', app: 'web', codes: ['cashier'] }, admin),
      '管理员角色拥有全部权限，不能修改',
    );
  });

  it("places an account in a department and a position of the company; a department's filter takes in those under it", async () => {
    const depts = (await t.call('dept_small_list', {}, admin)).data.items as Array<{ id: number; title: string }>;
    const positions = (await t.call('position_small_list', {}, admin)).data.items as Array<{ id: number; title: string }>;
    const engineering = depts.find((d) => d.title === '工程部')!.id;
    const repairs = depts.find((d) => d.title === '维修组')!.id;
    const fixer = positions.find((p) => p.title === '维修工')!.id;
    const added = await t.call(
      'staffadd',
      {
        username: 'placed01',
        name: '维修新人',
        dept_id: repairs,
        position_id: fixer,
        assignments: [{ rid: 1, role_ids: [await roleId('维修工')] }],
      },
      admin,
    );
    ok(added);
    const row = (await t.call('stafflist', { keyword: 'placed01' }, admin)).data.items[0];
    expect(row).toMatchObject({ dept_title: '维修组', position_title: '维修工' });
    const underEngineering = (await t.call('stafflist', { dept_id: engineering, limit: 100 }, admin)).data.items as Array<{
      username: string;
    }>;
    expect(underEngineering.map((s) => s.username)).toEqual(expect.arrayContaining(['placed01', 'tech']));
    expect(underEngineering.map((s) => s.username)).not.toContain('cashier');
    refused(
      await t.call(
        'staffedit',
        { id: added.data.id, name: '维修新人', dept_id: 999999, assignments: [{ rid: 1, role_ids: [await roleId('维修工')] }] },
        admin,
      ),
      '部门不存在',
    );
    refused(await t.call('deptdel', { id: repairs }, admin), /该部门下还有员工/);
  });

  it('exports the staff list', async () => {
    const list = await t.call('stafflist', { limit: 200 }, admin);
    const file = await t.exportFile('staffexport', {}, admin);
    ok(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(file.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(list.data.total + 1);
    expect((ws.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['账号', '姓名', '手机']);
  });
});
