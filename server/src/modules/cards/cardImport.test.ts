import { CARD_IMPORT_HEADERS, RC, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { workbookBase64 } from '../../test/workbook.js';

let s: TestServer;
let admin: string;
let admin2: string;
let cashier: string;
let merchant: string;
let running = '';
let stopped = '';

beforeAll(async () => {
  s = await startTestServer();
  [admin, admin2, cashier, merchant] = await s.logins('admin', 'admin2', 'cashier', 'merchant');
  const templates = await s.database.db
    .selectFrom('card_templates')
    .select(['name', 'status'])
    .where('rid', '=', 1)
    .orderBy('id')
    .execute();
  running = templates.find((t) => t.status === 'Y')!.name;
  stopped = templates.find((t) => t.status === 'N')!.name;
});
afterAll(() => s?.close());

const workbook = (rows: Array<Array<string | number>>) => workbookBase64(CARD_IMPORT_HEADERS, rows, '会员卡');

/** Uploads a workbook, runs the job and answers it. */
async function importRows(rows: Array<Array<string | number>>, token = admin) {
  const res = await s.call('cardusimport', { filename: 'cards.xlsx', file_base64: await workbook(rows) }, token);
  expect(res.return_code, res.return_msg).toBe(RC.SUCCESS);
  await s.runJobs();
  return { jobId: res.data.job_id as number, job: (await s.call('jobinfo', { id: res.data.job_id }, token)).data };
}

/** Residents of community 1 without a card (never the demo owner), with what they hold. */
async function residentsWithoutCard(n: number) {
  const rows = await sql<{ id: number; realname: string; mobile: string; balance: string; bonus: number }>`
    SELECT m.id, m.realname, m.mobile, m.balance, m.bonus FROM members m WHERE m.rid = 1 AND m.mobile <> '13800138000'
      AND EXISTS (SELECT 1 FROM room_members rm WHERE rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y')
      AND NOT EXISTS (SELECT 1 FROM member_cards c WHERE c.rid = m.rid AND c.member_id = m.id)
    ORDER BY m.id LIMIT ${n}`.execute(s.database.db);
  return rows.rows;
}

const counts = async () => {
  const db = s.database.db;
  const [cards, members, balance, bonus] = await Promise.all([
    db
      .selectFrom('member_cards')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('rid', '=', 1)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('rid', '=', 1)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('balance_ledger')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('rid', '=', 1)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('bonus_ledger')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('rid', '=', 1)
      .executeTakeFirstOrThrow(),
  ]);
  return { cards: Number(cards.n), members: Number(members.n), balance: Number(balance.n), bonus: Number(bonus.n) };
};

describe('members’ card import', () => {
  it('answers the template workbook with the community’s card as the example', async () => {
    const res = await s.call('cardusimporttemplate', {}, admin);
    const sheet = await readXlsx(res.data.content_base64);
    expect(sheet.headers).toEqual(['卡号', '会员卡', '姓名', '手机号', '会员等级', '标签', '期初余额', '期初积分']);
    expect(sheet.rows[0]!.values['会员卡']).toBe(running);
  });

  it('opens the cards with their opening balances and points as opening ledger rows', async () => {
    const [known] = await residentsWithoutCard(1);
    const before = await counts();
    const { job } = await importRows([
      ['IMP-0001', running, known!.realname, known!.mobile, '银卡', '业主、老会员', '200.50', 300],
      ['IMP-0002', running, '导入新会员', '13712340001', '', '', '88', ''],
    ]);
    expect(job.status).toBe('done');
    expect(job.result).toEqual({ cards: 2, members_added: 1, opening_balance: '288.50', opening_points: 300, errors: [] });
    const list = (await s.call('carduslist', { card_no: 'IMP-000', limit: 10 }, admin)).data.items;
    expect(list).toHaveLength(2);
    const first = list.find((c: { card_no: string }) => c.card_no === 'IMP-0001');
    expect(first).toMatchObject({ member_id: known!.id, level: '银卡会员', tags: ['业主', '老会员'], status: 'Y' });
    // the member's balance and points grew by the opening rows, which name the card
    expect(toFen(first.balance)).toBe(toFen(known!.balance) + 20050n);
    expect(first.bonus).toBe(known!.bonus + 300);
    const ledger = (await s.call('cardledgerlist', { id: first.id, kind: 'balance' }, admin)).data.items[0];
    expect(ledger).toMatchObject({
      orderid: 'QCIMP-0001',
      what: '期初余额',
      amount: '200.50',
      remark: '期初余额（导入）',
      operator: '张经理',
    });
    const points = (await s.call('cardledgerlist', { id: first.id, kind: 'bonus' }, admin)).data.items[0];
    expect(points).toMatchObject({ orderid: 'QCIMP-0001', what: '期初导入', amount: '300' });
    const added = list.find((c: { card_no: string }) => c.card_no === 'IMP-0002');
    expect(added).toMatchObject({ realname: '导入新会员', mobile: '13712340001', level: '普通会员', balance: '88.00', bonus: 0 });
    expect(await counts()).toEqual({
      cards: before.cards + 2,
      members: before.members + 1,
      balance: before.balance + 2,
      bonus: before.bonus + 1,
    });
    // a second import of the same rows: the numbers are taken and the members hold cards
    const again = await importRows([['IMP-0003', running, '导入新会员', '13712340001', '', '', '', '']]);
    expect(again.job.result.errors).toEqual([{ row: 2, column: '手机号', reason: '该会员已有会员卡（卡号 IMP-0002），不能重复开卡' }]);
  });

  it('imports nothing from a bad workbook and lists the rows to fix', async () => {
    const [a, b] = await residentsWithoutCard(2);
    const holder = await s.database.db
      .selectFrom('member_cards as c')
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'c.rid').onRef('m.id', '=', 'c.member_id'))
      .select(['c.card_no', 'm.realname', 'm.mobile'])
      .where('c.rid', '=', 1)
      .where('c.status', '=', 'Y')
      .orderBy('c.id')
      .executeTakeFirstOrThrow();
    const before = await counts();
    const { jobId, job } = await importRows([
      ['BAD-0001', running, a!.realname, a!.mobile, '', '', '10', 10],
      [holder.card_no, '不存在的卡', '某人', '13712349999', '', '', '', ''],
      ['BAD-0003', running, '某人', '1234', '白金', '', '-5', '1.5'],
      ['BAD-0004', running, holder.realname, holder.mobile, '', '', '', ''],
      ['BAD-0001', running, '重复', a!.mobile, '', '', '', ''],
      ['BAD-0006', running, `${b!.realname}X`, b!.mobile, '', '', '', ''],
      ['BAD-0007', stopped, '停用卡', '13712348888', '', '', '', ''],
      ['B!', running, '', '13712347777', '', '', '', ''],
    ]);
    expect(job.status).toBe('done');
    expect(job.result.cards).toBe(0);
    expect(job.result.errors).toEqual([
      { row: 3, column: '卡号', reason: `卡号 ${holder.card_no} 已存在` },
      { row: 3, column: '会员卡', reason: '会员卡“不存在的卡”不存在' },
      { row: 4, column: '手机号', reason: '手机号码格式不正确，应为11位手机号' },
      { row: 4, column: '会员等级', reason: '会员等级应为 普通会员、银卡会员、金卡会员、钻石会员' },
      { row: 4, column: '期初余额', reason: '期初余额应为 0 到 10000000.00 的金额，最多两位小数' },
      { row: 4, column: '期初积分', reason: '期初积分应为 0 到 10000000 的整数' },
      { row: 5, column: '手机号', reason: `该会员已有会员卡（卡号 ${holder.card_no}），不能重复开卡` },
      { row: 6, column: '卡号', reason: '与第 2 行的卡号重复' },
      { row: 6, column: '手机号', reason: '与第 2 行的手机号重复：每位会员只能有一张在用的卡' },
      { row: 7, column: '姓名', reason: `手机号 ${b!.mobile} 已登记为“${b!.realname}”，姓名不一致` },
      { row: 8, column: '会员卡', reason: `会员卡“${stopped}”已停用，不能开卡` },
      { row: 9, column: '卡号', reason: '卡号应为 4 到 32 位字母、数字或 -' },
      { row: 9, column: '姓名', reason: '请填写姓名，最多 30 个字' },
    ]);
    expect(await counts()).toEqual(before);
    const report = await readXlsx((await s.call('cardusimporterrors', { job_id: jobId }, admin)).data.content_base64);
    expect(report.rows[0]!.values).toMatchObject({ 行号: '3', 列: '卡号' });
    // another community's account does not see the job
    expect((await s.call('cardusimporterrors', { job_id: jobId }, admin2)).return_msg).toBe('导入记录不存在');
  });

  it('refuses a balance on a card without stored value, and points on a card without points', async () => {
    const db = s.database.db;
    await db
      .insertInto('card_templates')
      .values({
        rid: 1,
        name: '无储值测试卡',
        color: '#1677ff',
        validity: 'forever',
        supply_balance: 'N',
        supply_bonus: 'N',
        status: 'Y',
      } as never)
      .execute();
    const { job } = await importRows([['NOBAL-01', '无储值测试卡', '储值测试', '13712346666', '', '', '5', 5]]);
    expect(job.result.errors).toEqual([
      { row: 2, column: '期初余额', reason: '会员卡“无储值测试卡”不支持储值，期初余额须为 0' },
      { row: 2, column: '期初积分', reason: '会员卡“无储值测试卡”不积分，期初积分须为 0' },
    ]);
  });

  it('refuses wrong files, other roles and merchants', async () => {
    const file = await workbook([['ROLE-0001', running, '角色测试', '13712345555', '', '', '', '']]);
    expect((await s.call('cardusimport', { filename: 'a.csv', file_base64: 'eA==' }, admin)).return_msg).toContain('.xlsx');
    const noHeaders = await workbookBase64(['卡号', '姓名'], [['X0001', '某人']]);
    expect((await s.call('cardusimport', { filename: 'a.xlsx', file_base64: noHeaders }, admin)).return_msg).toContain('缺少列');
    expect((await s.call('cardusimport', { filename: 'a.xlsx' }, admin)).return_msg).toContain('file_base64');
    expect((await s.call('cardusimport', { filename: 'a.xlsx', file_base64: file }, cashier)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('cardusimport', { filename: 'a.xlsx', file_base64: file }, merchant)).return_code).toBe(RC.NO_PERMISSION);
    expect((await s.call('cardusimporttemplate', {}, cashier)).return_code).toBe(RC.NO_PERMISSION);
  });
});
