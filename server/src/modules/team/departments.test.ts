import { department, position } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { describeResource, otherGroupLeader } from '../../test/describeResource.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

type Dept = { id: number; title: string; parent_id: number | null; parent_title: string; staff_count: number; status_ch: string };

const depts = async (token: string): Promise<Dept[]> => (await s.call('deptlist', { limit: 200 }, token)).data.items;
const deptId = async (token: string, title: string) => (await depts(token)).find((d) => d.title === title)!.id;

describeResource(department, {
  server: () => s,
  async sample(srv, token) {
    const root = (await srv.call('dept_small_list', {}, token)).data.items.find((d: Dept) => d.parent_id === null);
    return { parent_id: root.id, title: '测试部', leader_name: '张三', phone: '13800138000', sort: 9, status: 'Y' };
  },
  edit: { leader_name: '李四', phone: '021-58881239', status: 'N' },
  filters: { title: '测试', status: 'Y' },
  deniedWriter: 'cashier',
  unique: ['parent_id', 'title'],
});

describeResource(position, {
  server: () => s,
  sample: { code: 'T01', title: '测试岗', sort: 20, status: 'Y', remark: '试用' },
  edit: { title: '测试岗二', status: 'N' },
  filters: { code: 'T01', title: '测试岗', status: 'Y' },
  deniedWriter: 'steward',
  unique: ['code'],
});

describe('departments: the demo company', () => {
  it('lists the tree with each parent and its staff', async () => {
    const admin = await s.login('admin');
    const list = await depts(admin);
    const byTitle = new Map(list.map((d) => [d.title, d]));
    const root = byTitle.get('阳光物业服务有限公司')!;
    expect(root.parent_id).toBeNull();
    expect(root.parent_title).toBe('');
    expect(byTitle.get('维修组')!.parent_title).toBe('工程部');
    expect(byTitle.get('客服部')!.parent_id).toBe(root.id);
    expect(byTitle.get('客服部')!.staff_count).toBe(1);
    expect(byTitle.get('财务部')!.staff_count).toBe(5);
    expect(byTitle.get('工程部')!.staff_count).toBe(0);
    expect(byTitle.get('财务部')!.status_ch).toBe('正常');
    const positions = (await s.call('positionlist', { limit: 200 }, admin)).data.items as Array<{ title: string; staff_count: number }>;
    expect(positions.map((p) => p.title)).toEqual(['项目经理', '客服管家', '收银员', '会计', '维修工', '保安', '保洁']);
    expect(positions.find((p) => p.title === '收银员')!.staff_count).toBe(4);
    const small = (await s.call('dept_small_list', {}, admin)).data.items as Array<{ id: number; title: string; parent_id: number | null }>;
    expect(small.find((d) => d.title === '维修组')!.parent_id).toBe(byTitle.get('工程部')!.id);
  });

  it('exports the departments with their parents', async () => {
    const admin = await s.login('admin');
    const file = await s.exportFile('deptexport', {}, admin);
    expect(file.return_code, file.return_msg).toBe('SUCCESS');
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers).toEqual(expect.arrayContaining(['名称', '负责人', '电话', '人数', '上级部门']));
    const rows = sheet.rows.map((r) => r.values);
    expect(rows.find((r) => r['名称'] === '维修组')?.['上级部门']).toBe('工程部');
  });
});

describe('departments: the rules', () => {
  it('refuses to put a department under itself or under one of its own sub-departments', async () => {
    const admin = await s.login('admin');
    const works = await deptId(admin, '工程部');
    const repair = await deptId(admin, '维修组');
    const under = await s.call('deptedit', { id: works, title: '工程部', parent_id: repair }, admin);
    expect(under.return_code).toBe('FAIL');
    expect(under.return_msg).toBe('不能把部门移到它自己或它的下级部门之下');
    const self = await s.call('deptedit', { id: works, title: '工程部', parent_id: works }, admin);
    expect(self.return_msg).toBe('不能把部门移到它自己或它的下级部门之下');
    expect((await depts(admin)).find((d) => d.id === works)!.parent_title).toBe('阳光物业服务有限公司');
    // moving a department to the top level and back is fine
    expect((await s.call('deptedit', { id: repair, title: '维修组', parent_id: null }, admin)).return_msg).toBe('保存成功');
    expect((await s.call('deptedit', { id: repair, title: '维修组', parent_id: works }, admin)).return_msg).toBe('保存成功');
  });

  it('refuses a title twice among siblings, and allows it under another parent', async () => {
    const admin = await s.login('admin');
    const root = await deptId(admin, '阳光物业服务有限公司');
    const dup = await s.call('deptadd', { parent_id: root, title: '客服部' }, admin);
    expect(dup.return_code).toBe('FAIL');
    expect(dup.return_msg).toBe('该上级部门下已有“客服部”');
    const other = await s.call('deptadd', { parent_id: await deptId(admin, '工程部'), title: '客服部' }, admin);
    expect(other.return_msg).toBe('添加成功');
    expect((await s.call('deptdel', { id: other.data.id }, admin)).return_msg).toBe('删除成功');
  });

  it('refuses to delete a department with sub-departments or staff, and a position staff hold', async () => {
    const admin = await s.login('admin');
    const works = await s.call('deptdel', { id: await deptId(admin, '工程部') }, admin);
    expect(works.return_code).toBe('FAIL');
    expect(works.return_msg).toBe('该部门下还有下级部门，请先删除或移走下级部门');
    const service = await s.call('deptdel', { id: await deptId(admin, '客服部') }, admin);
    expect(service.return_msg).toBe('该部门下还有员工，请先调整员工所属部门');
    const cashier = (await s.call('positionlist', { title: '收银员' }, admin)).data.items[0];
    const held = await s.call('positiondel', { id: cashier.id }, admin);
    expect(held.return_msg).toBe('该岗位下还有员工，请先调整员工岗位');
    expect((await depts(admin)).some((d) => d.title === '客服部')).toBe(true);
  });

  it("gives another group's head office nothing of the first group's, whatever ids it sends", async () => {
    const admin = await s.login('admin');
    const outsider = await otherGroupLeader(s);
    const works = await deptId(admin, '工程部');
    expect((await s.call('deptlist', {}, outsider, 'group')).data.total).toBe(0);
    expect((await s.call('dept_small_list', {}, outsider, 'group')).data.items).toEqual([]);
    expect((await s.call('deptedit', { id: works, title: '接管' }, outsider, 'group')).return_msg).toBe('部门不存在');
    expect((await s.call('deptdel', { id: await deptId(admin, '环境部') }, outsider, 'group')).return_msg).toBe('部门不存在');
    const under = await s.call('deptadd', { parent_id: works, title: '渗透部' }, outsider, 'group');
    expect(under.return_msg).toBe('上级部门不存在');
    // its own tree starts at the top, apart from the first group's (the same title is no duplicate)
    expect((await s.call('deptadd', { title: '工程部' }, outsider, 'group')).return_msg).toBe('添加成功');
    expect((await s.call('positionadd', { code: 'PM', title: '项目经理' }, outsider, 'group')).return_msg).toBe('添加成功');
    const mine = await depts(admin);
    expect(mine.find((d) => d.id === works)!.title).toBe('工程部');
    expect(mine.filter((d) => d.title === '工程部')).toHaveLength(1);
  });

  it("refuses roles without 'team', on reads and writes; a 'team' role manages them", async () => {
    const [cashier, steward, merchant] = await Promise.all([s.login('cashier'), s.login('steward'), s.login('merchant')]);
    for (const token of [cashier, steward, merchant]) {
      expect((await s.call('deptlist', {}, token)).return_code).toBe('NO_PERMISSION');
      expect((await s.call('deptadd', { title: '越权部' }, token)).return_code).toBe('NO_PERMISSION');
      expect((await s.call('positionadd', { code: 'X1', title: '越权岗' }, token)).return_code).toBe('NO_PERMISSION');
      expect((await s.call('positionexport', {}, token)).return_code).toBe('NO_PERMISSION');
    }
    await s.addAccount('hr1', { roles: ['team'], name: '人事专员' });
    const hr = await s.login('hr1');
    expect((await s.call('deptlist', {}, hr)).return_code).toBe('SUCCESS');
    const added = await s.call('positionadd', { code: 'HR', title: '人事专员' }, hr);
    expect(added.return_msg).toBe('添加成功');
    expect((await s.call('positiondel', { id: added.data.id }, hr)).return_msg).toBe('删除成功');
  });

  it('answers bad payloads in Chinese, naming what is wrong', async () => {
    const admin = await s.login('admin');
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['deptadd', { title: '' }, /请输入部门名称/],
      ['deptadd', { title: '客服二部', phone: 'abc' }, /电话格式不正确/],
      ['deptadd', { title: '客服二部', sort: -1 }, /排序|sort|不能小于|最小/],
      ['deptadd', { title: '客服二部', parent_id: 'x' }, /parent_id|上级|整数/],
      ['deptedit', { title: '客服二部' }, /id/],
      ['positionadd', { code: '项目', title: '新岗' }, /编码只能包含字母、数字、下划线和短横线/],
      ['positionadd', { code: 'A1', title: 'x'.repeat(31) }, /title|30/],
    ];
    for (const [method, payload, message] of cases) {
      const res = await s.call(method, payload, admin);
      expect(res.return_code, `${method} ${JSON.stringify(payload)}`).toBe('FAIL');
      expect(res.return_msg).toMatch(message);
      expect(res.return_msg).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it("lets the group's head office manage them on the group side", async () => {
    const leader = await s.login('leader');
    const root = (await s.call('dept_small_list', {}, leader, 'group')).data.items.find((d: Dept) => d.parent_id === null);
    const added = await s.call('deptadd', { parent_id: root.id, title: '品质部', leader_name: '王总' }, leader, 'group');
    expect(added.return_msg).toBe('添加成功');
    const admin = await s.login('admin');
    expect((await depts(admin)).find((d) => d.id === added.data.id)!.parent_title).toBe('阳光物业服务有限公司');
    expect((await s.call('deptdel', { id: added.data.id }, leader, 'group')).return_msg).toBe('删除成功');
  });
});
