import { RC, STAFF_IMPORT_HEADERS } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { workbookBase64 } from '../../test/workbook.js';

let t: TestServer;
let admin: string;
let admin2: string;
let cashier: string;

beforeAll(async () => {
  t = await startTestServer();
  [admin, admin2, cashier] = await t.logins('admin', 'admin2', 'cashier');
}, 120000);
afterAll(() => t.close());

const file = (rows: string[][]) => workbookBase64(STAFF_IMPORT_HEADERS, rows, '员工');

async function upload(rows: string[][], token = admin, password = 'Start#2026') {
  const res = await t.call('staffimport', { filename: 'staff.xlsx', file_base64: await file(rows), password }, token);
  if (res.return_code !== RC.SUCCESS) return { res, job: null };
  await t.runJobs();
  return { res, job: (await t.call('jobinfo', { id: res.data.job_id }, token)).data };
}

describe('staff import', () => {
  it('answers a template naming the current community', async () => {
    const res = await t.call('staffimporttemplate', {}, admin);
    const sheet = await readXlsx(res.data.content_base64);
    expect(sheet.headers).toEqual([...STAFF_IMPORT_HEADERS]);
    expect(sheet.rows[0]!.values['小区']).toBe('阳光花园');
  });

  it('imports nothing when a row is bad, and says why per row', async () => {
    const { job } = await upload([
      ['imp_ok1', '孙一', '13900001111', '工程部', '维修工', '维修工', ''],
      ['admin', '重名', '', '', '', '收银员', ''],
      ['imp ok', '王', '1390000', '不存在部', '不存在岗', '收银员、超级角色', '翠湖苑'],
      ['IMP_OK1', '孙二', '', '', '', '', ''],
    ]);
    expect(job.status).toBe('done');
    const got = (job.result.errors as Array<{ row: number; column: string }>).map((e) => `${e.row}:${e.column}`);
    expect(got).toEqual(['3:账号', '4:账号', '4:姓名', '4:手机号', '4:部门', '4:岗位', '4:角色', '4:小区', '5:账号', '5:角色']);
    const none = await t.database.pool.query(`SELECT count(*)::int AS n FROM accounts WHERE username ILIKE 'imp_ok%'`);
    expect((none.rows[0] as { n: number }).n).toBe(0);
    const report = await readXlsx((await t.call('staffimporterrors', { job_id: job.id }, admin)).data.content_base64);
    expect(report.rows[0]!.values).toMatchObject({ 行号: '3', 列: '账号', 原因: '账号已存在' });
  });

  it('imports good rows with their department, position and roles; each changes the given password first', async () => {
    const { job } = await upload([
      ['imp_tech1', '孙师傅', '13900002222', '阳光物业服务有限公司/工程部/维修组', '维修工', '维修工', '阳光花园'],
      ['imp_desk1', '李前台', '', '客服部', '客服管家', '收银员、客服管家', ''],
    ]);
    expect(job.result).toEqual({ created: 2, errors: [] });
    const list = await t.call('stafflist', { keyword: 'imp_', limit: 10 }, admin);
    expect(list.data.total).toBe(2);
    const desk = (
      list.data.items as Array<{ username: string; dept_title: string; regions: Array<{ title: string; roles: Array<{ title: string }> }> }>
    ).find((s) => s.username === 'imp_desk1')!;
    expect(desk.dept_title).toBe('客服部');
    expect(desk.regions.map((r) => [r.title, r.roles.map((x) => x.title).sort()])).toEqual([['阳光花园', ['客服管家', '收银员']]]);
    const token = await t.login('imp_desk1', 'Start#2026');
    expect((await t.call('backlog_list', {}, token)).return_msg).toBe('请先修改管理员设置的临时密码');
    expect(
      (await t.call('sysusereditpassword', { username: 'imp_desk1', password: 'Desk#2026', password2: 'Desk#2026' }, token)).return_code,
    ).toBe(RC.SUCCESS);
    const info = await t.call('userinfo', {}, token);
    expect(info.data.roles).toEqual(expect.arrayContaining(['cashier', 'steward']));
    // the audit row of the upload keeps no password
    const { rows } = await t.database.pool.query(`SELECT payload FROM audit_log WHERE method = 'staffimport' ORDER BY id DESC LIMIT 1`);
    expect(JSON.stringify(rows[0])).not.toContain('Start#2026');
  });

  it('refuses a weak password, other roles, and what the uploader may not hand out', async () => {
    expect((await upload([['imp_x1', '赵某', '', '', '', '收银员', '']], admin, '123')).res.return_code).toBe(RC.FAIL);
    expect((await upload([['imp_x1', '赵某', '', '', '', '收银员', '']], cashier)).res.return_code).toBe(RC.NO_PERMISSION);
    await t.addAccount('imp_manager', { roles: ['team', 'repairs'] });
    const [manager] = await t.logins('imp_manager');
    const { job } = await upload([['imp_x2', '赵某', '', '', '', '收银员', '']], manager);
    expect(job.result.errors[0]).toMatchObject({ column: '角色', reason: '不能授予本人没有的权限（角色“收银员”）' });
    // another community's jobs and reports are not this one's
    expect((await t.call('staffimporterrors', { job_id: job.id }, admin2)).return_msg).toBe('导入记录不存在');
  });
});
