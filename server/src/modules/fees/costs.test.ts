import { addMonths, costItem, costRecord, fenToYuan, toFen, type CostCount } from '@wuye/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../lib/excel.js';
import { today } from '../../lib/wire.js';
import { describeResource } from '../../test/describeResource.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { gradientPng } from '../mobilesys/demoImages.js';
import { costCount, ensureCostCategories } from './costs.js';

let s: TestServer;
let admin2: string;
let finance: string;
let cashier: string;
let reader: string;
let merchant: string;

const db = () => s.database.db;
type Answer = { return_code: string; return_msg: string; data?: unknown };
const ok = (res: Answer) => expect(res.return_code, res.return_msg).toBe('SUCCESS');
const refused = (res: Answer, msg: string) => {
  expect(res.return_code, res.return_msg).toBe('FAIL');
  expect(res.return_msg).toContain(msg);
};
const denied = (res: Answer) => expect(res.return_code, res.return_msg).toBe('NO_PERMISSION');

/** The cost list's filters to try; the category's id is read once the server is up. */
const costFilters: Record<string, unknown> = { keyword: '测试收款单位', pay_range: [today(), today()], status: 'Y' };

beforeAll(async () => {
  s = await startTestServer();
  costFilters.category_id = await nodeId('人工成本', 1, true);
  await s.addAccount('costreader', { roles: ['feecount'], regions: [1], name: '报表查看' });
  await s.addAccount('costmerchant', { roles: ['setfees', 'financecount'], regions: [1], sysType: 'merchant', name: '商户财务' });
  [admin2, finance, cashier, reader, merchant] = await s.logins('admin2', 'finance', 'cashier', 'costreader', 'costmerchant');
});
afterAll(() => s.close());

/** The id of a cost category (parent null) or of an item under one, by name, in a community. */
async function nodeId(name: string, rid = 1, category = false): Promise<number> {
  let q = db().selectFrom('cost_items').select('id').where('rid', '=', rid).where('name', '=', name);
  q = category ? q.where('parent_id', 'is', null) : q.where('parent_id', 'is not', null);
  return Number((await q.executeTakeFirstOrThrow()).id);
}

const sampleCost = async (extra: Record<string, unknown> = {}) => ({
  pay_date: today(),
  item_id: await nodeId('保洁工资'),
  amount: '1234.56',
  payee: '测试收款单位',
  pay_method: 'check',
  handler: '测试经办',
  invoice_no: 'TESTINV001',
  attachments: [],
  remark: '测试登记',
  ...extra,
});

const recordCount = async (rid = 1) =>
  Number(
    (
      await db()
        .selectFrom('cost_records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('rid', '=', rid)
        .executeTakeFirstOrThrow()
    ).n,
  );

describeResource(costItem, {
  server: () => s,
  sample: { name: '测试分类', sort: 50 },
  edit: { name: '测试分类二', sort: 60 },
  filters: { name: '测试分类', status: 'Y' },
  writer: 'finance',
  deniedWriter: 'cashier',
  unique: ['name'],
});

describeResource(costRecord, {
  server: () => s,
  sample: () => sampleCost(),
  edit: { amount: '1300.00', payee: '测试收款单位二' },
  filters: costFilters,
  writer: 'finance',
  deniedWriter: 'cashier',
});

describe('the demo', () => {
  it('both communities have the seven categories, a dozen items and fourteen months of costs, two voided', async () => {
    for (const token of [finance, admin2]) {
      const tree = (await s.call('costitemlist', { limit: 200 }, token)).data as { items: Array<{ parent_id: number | null }> };
      expect(tree.items.filter((i) => i.parent_id === null).map((i) => (i as unknown as { name: string }).name)).toEqual(
        expect.arrayContaining(['人工成本', '能耗', '维修维护', '绿化保洁', '安保', '办公行政', '其他']),
      );
      expect(tree.items.filter((i) => i.parent_id !== null).length).toBeGreaterThanOrEqual(12);
      const list = (await s.call('costdetaillist', { limit: 200, status: 'X' }, token)).data as { total: number };
      expect(list.total).toBe(2);
      const first = addMonths(`${today().slice(0, 7)}-01`, -13);
      const old = (await s.call('costdetaillist', { pay_range: [first, addMonths(first, 1)] }, token)).data as { total: number };
      expect(old.total).toBeGreaterThan(5);
    }
  });
});

describe('the cost item tree', () => {
  it('two levels: an item under a category, never under an item or another community’s category', async () => {
    const cat = await nodeId('维修维护', 1, true);
    const added = await s.call('costitemadd', { name: '水泵维修', parent_id: cat }, finance);
    ok(added);
    const id = (added.data as { id: number }).id;
    refused(await s.call('costitemadd', { name: '水泵配件', parent_id: id }, finance), '所属分类只能选一级成本分类');
    refused(await s.call('costitemadd', { name: '水泵配件', parent_id: await nodeId('维修维护', 2, true) }, finance), '所选分类不存在');
    // the name once under its parent, free under another
    refused(await s.call('costitemadd', { name: '水泵维修', parent_id: cat }, finance), '已存在');
    ok(await s.call('costitemadd', { name: '水泵维修', parent_id: await nodeId('其他', 1, true) }, finance));
    refused(await s.call('costitemedit', { id, name: '水泵维修', parent_id: id }, finance), '所属分类不能是自己');
    const tree = (await s.call('costitemlist', { limit: 200 }, finance)).data as { items: Array<{ id: number; parent_name: string }> };
    expect(tree.items.find((r) => r.id === id)?.parent_name).toBe('维修维护');
  });

  it('a category holding items is not deleted nor moved under another; an item with costs is not deleted nor made a category', async () => {
    const cat = await nodeId('能耗', 1, true);
    refused(await s.call('costitemdel', { id: cat }, finance), '该分类下还有');
    refused(
      await s.call('costitemedit', { id: cat, name: '能耗', parent_id: await nodeId('其他', 1, true) }, finance),
      '不能再归到其他分类下',
    );
    const item = await nodeId('公共区域电费');
    const del = await s.call('costitemdel', { id: item }, finance);
    refused(del, '条成本记录，不能删除');
    refused(await s.call('costitemedit', { id: item, name: '公共区域电费', parent_id: null }, finance), '不能改为分类');
    const tree = (await s.call('costitemlist', { limit: 200 }, finance)).data as { items: Array<{ id: number; record_count: number }> };
    expect(tree.items.find((r) => r.id === item)!.record_count).toBeGreaterThan(0);
    // the category counts its items' costs
    expect(tree.items.find((r) => r.id === cat)!.record_count).toBeGreaterThanOrEqual(tree.items.find((r) => r.id === item)!.record_count);
  });

  it('a disabled item is not offered for new costs; a cost is never registered on a category', async () => {
    const cat = await nodeId('安保', 1, true);
    const added = await s.call('costitemadd', { name: '对讲机', parent_id: cat, status: 'N' }, finance);
    ok(added);
    const before = await recordCount();
    refused(await s.call('costadd', await sampleCost({ item_id: (added.data as { id: number }).id }), finance), '已停用');
    refused(await s.call('costadd', await sampleCost({ item_id: cat }), finance), '不能直接登记在分类上');
    expect(await recordCount()).toBe(before);
    const small = (await s.call('costitem_small_list', {}, finance)).data as {
      items: Array<{ id: number; title: string; status: string }>;
    };
    expect(small.items.find((i) => i.id === (added.data as { id: number }).id)).toMatchObject({ title: '安保 / 对讲机', status: 'N' });
  });

  it('the default categories are added to a community lacking them, once', async () => {
    expect(await ensureCostCategories(db(), 3)).toBe(7);
    expect(await ensureCostCategories(db(), 3)).toBe(0);
    const res = await s.call('costcategoryinit', {}, finance);
    ok(res);
    expect(res.data).toEqual({ added: 0 });
  });
});

describe('registering a cost', () => {
  it('refuses bad payloads in Chinese and changes nothing', async () => {
    const before = await recordCount();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ amount: '0' }, '金额须大于0'],
      [{ amount: '-5' }, '金额'],
      [{ amount: '12.345' }, '金额'],
      [{ payee: '' }, '请输入收款方'],
      [{ pay_method: 'bitcoin' }, '付款方式'],
      [{ pay_date: '2026-02-30' }, '日期不存在'],
      [{ pay_date: addMonths(today(), 1) }, '付款日期不能晚于今天'],
      [{ attachments: ['http://example.com/a.png'] }, '图片地址无效'],
      [{ item_id: 2_000_000_000 }, '所选成本项目不存在'],
    ];
    for (const [change, msg] of bad) refused(await s.call('costadd', await sampleCost(change), finance), msg);
    expect(await recordCount()).toBe(before);
  });

  it('defaults the handler to who registers, keeps uploaded receipts and registers a retry once', async () => {
    const upload = await s.call(
      'imageupload',
      { file_base64: gradientPng(8, 8, [0, 0, 0], [255, 255, 255]).toString('base64'), filename: '收据.png' },
      finance,
    );
    ok(upload);
    const url = (upload.data as { url: string }).url;
    const payload = await sampleCost({ handler: '', attachments: [url], amount: '88.80', idempotency_key: `cost-test-${Date.now()}` });
    const before = await recordCount();
    const first = await s.call('costadd', payload, finance);
    ok(first);
    const again = await s.call('costadd', payload, finance);
    ok(again);
    expect(again.data).toEqual(first.data);
    expect(await recordCount()).toBe(before + 1);
    const info = (await s.call('costinfo', { id: (first.data as { id: number }).id }, finance)).data as Record<string, unknown>;
    expect(info).toMatchObject({
      handler: '郑会计',
      creator: '郑会计',
      attachments: [url],
      amount: '88.80',
      status: 'Y',
      status_ch: '已登记',
    });
    expect(info).toMatchObject({ category_name: '人工成本', item_name: '保洁工资', pay_method_ch: '支票' });
  });

  it('deletes only a cost registered today; an older one is voided instead', async () => {
    const old = await db()
      .selectFrom('cost_records')
      .select('id')
      .where('rid', '=', 1)
      .where('status', '=', 'Y')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    refused(await s.call('costdel', { id: Number(old.id) }, finance), '只能删除当天登记的成本记录');
  });
});

describe('voiding a cost', () => {
  it('keeps it listed with its reason, leaves it out of the sums, refuses a second void, an edit and a delete', async () => {
    const added = await s.call('costadd', await sampleCost({ amount: '500.05', payee: '作废测试单位' }), finance);
    ok(added);
    const id = (added.data as { id: number }).id;
    const filter = { keyword: '作废测试单位' };
    const before = (await s.call('costdetaillist', filter, finance)).data as {
      total: number;
      sums: { amount: string; count: number; voided: number };
    };
    expect(before.sums).toEqual({ amount: '500.05', count: 1, voided: 0 });
    refused(await s.call('costvoid', { id, reason: '' }, finance), '请填写作废原因');
    denied(await s.call('costvoid', { id, reason: '试试' }, reader));
    const voided = await s.call('costvoid', { id, reason: '收款方开错发票' }, finance);
    ok(voided);
    expect(voided.return_msg).toBe('已作废');
    expect(voided.data).toMatchObject({ id, status: 'X', status_ch: '已作废', void_reason: '收款方开错发票', voider: '郑会计' });
    const after = (await s.call('costdetaillist', filter, finance)).data as {
      total: number;
      sums: { amount: string; count: number; voided: number };
    };
    expect(after.total).toBe(1);
    expect(after.sums).toEqual({ amount: '0.00', count: 0, voided: 1 });
    refused(await s.call('costvoid', { id, reason: '再来一次' }, finance), '该成本记录已处理');
    refused(await s.call('costedit', { ...(await sampleCost()), id }, finance), '已作废，不能修改');
    refused(await s.call('costdel', { id }, finance), '不能删除');
    const log = (await s.call('costlog', { id }, reader)).data as { items: Array<{ transition: string; operator: string }> };
    expect(log.items.map((l) => l.transition)).toEqual(['create', 'void']);
  });

  it('the sums of a filter are the registered costs it finds, to the fen', async () => {
    const from = addMonths(`${today().slice(0, 7)}-01`, -6);
    const filter = { category_id: await nodeId('维修维护', 1, true), pay_range: [from, today()] as [string, string] };
    const answer = (await s.call('costdetaillist', { ...filter, limit: 200 }, finance)).data as {
      total: number;
      items: Array<{ amount: string; status: string }>;
      sums: { amount: string; count: number; voided: number };
    };
    expect(answer.total).toBe(answer.items.length);
    const registered = answer.items.filter((r) => r.status === 'Y');
    expect(answer.sums.amount).toBe(fenToYuan(registered.reduce((t, r) => t + toFen(r.amount), 0n)));
    expect(answer.sums.count).toBe(registered.length);
    expect(answer.sums.voided).toBe(answer.items.length - registered.length);
    expect(answer.sums.voided).toBeGreaterThanOrEqual(1);
  });
});

describe('成本统计', () => {
  /** The registered costs of community 1 by item and month, read straight from the table. */
  async function byHand(year: number) {
    const rows = await db()
      .selectFrom('cost_records')
      .select(['item_id', 'pay_date', 'amount', 'status'])
      .where('rid', '=', 1)
      .where('pay_date', '>=', `${year - 1}-01-01`)
      .where('pay_date', '<=', `${year}-12-31`)
      .execute();
    const out = new Map<string, { fen: bigint; n: number }>();
    for (const r of rows.filter((x) => x.status === 'Y')) {
      const key = `${r.item_id}|${r.pay_date.slice(0, 7)}`;
      const v = out.get(key) ?? { fen: 0n, n: 0 };
      out.set(key, { fen: v.fen + toFen(String(r.amount)), n: v.n + 1 });
    }
    return out;
  }

  it('matches the registered costs to the fen: each item and month, the year to date, last year’s same months, shares', async () => {
    const year = Number(today().slice(0, 4));
    const month = Number(today().slice(5, 7));
    const res = await s.call('costcount', {}, reader);
    ok(res);
    const report = res.data as CostCount;
    expect(report.year).toBe(year);
    expect(report.through_month).toBe(month);
    const hand = await byHand(year);
    const at = (item: number, y: number, m: number) => hand.get(`${item}|${y}-${String(m).padStart(2, '0')}`) ?? { fen: 0n, n: 0 };
    const items = report.rows.filter((r) => r.level === 'item');
    expect(items.length).toBeGreaterThanOrEqual(12);
    let grand = 0n;
    for (const r of items) {
      let total = 0n;
      let last = 0n;
      for (let m = 1; m <= 12; m++) {
        expect(r.months[m - 1], `${r.name} ${m}月`).toBe(fenToYuan(at(r.id, year, m).fen));
        expect(r.counts[m - 1]).toBe(at(r.id, year, m).n);
        if (m <= month) {
          total += at(r.id, year, m).fen;
          last += at(r.id, year - 1, m).fen;
        }
      }
      expect(r.total, r.name).toBe(fenToYuan(total));
      expect(r.last_total, r.name).toBe(fenToYuan(last));
      expect(r.change).toBe(fenToYuan(total - last));
      grand += total;
    }
    expect(report.totals.total).toBe(fenToYuan(grand));
    // a category is the sum of its items
    for (const c of report.rows.filter((r) => r.level === 'category')) {
      const sum = items.filter((r) => r.parent_id === c.id).reduce((t, r) => t + toFen(r.total), 0n);
      expect(c.total).toBe(fenToYuan(sum));
    }
    const shares = report.rows.filter((r) => r.level === 'category').reduce((t, r) => t + toFen(r.share), 0n);
    expect(Number(fenToYuan(shares))).toBeCloseTo(100, 0);
    // the year before's same months: the demo has fourteen months, so the months up to last month have figures
    expect(toFen(report.totals.last_total)).toBeGreaterThan(0n);
  });

  it('a voided cost leaves its month at once', async () => {
    const year = Number(today().slice(0, 4));
    const item = await nodeId('垃圾清运');
    const added = await s.call('costadd', await sampleCost({ item_id: item, amount: '321.09' }), finance);
    ok(added);
    const month = Number(today().slice(5, 7)) - 1;
    const row = () => costCount(db(), 1, year).then((r) => r.rows.find((x) => x.id === item && x.level === 'item')!);
    const withIt = await row();
    ok(await s.call('costvoid', { id: (added.data as { id: number }).id, reason: '测试作废' }, finance));
    const without = await row();
    expect(toFen(withIt.months[month]!) - toFen(without.months[month]!)).toBe(32109n);
    expect(withIt.counts[month]! - without.counts[month]!).toBe(1);
  });

  it('counts the months up to the day it is asked for: a past year whole, a year to come none', async () => {
    const year = Number(today().slice(0, 4));
    const march = await costCount(db(), 1, year, `${year}-03-15`);
    expect(march.through_month).toBe(3);
    for (const r of march.rows) expect(r.total).toBe(fenToYuan(r.months.slice(0, 3).reduce((t, v) => t + toFen(v), 0n)));
    const past = await costCount(db(), 1, year - 1);
    expect(past.through_month).toBe(12);
    expect(past.totals.total).toBe(fenToYuan(past.totals.months.reduce((t, v) => t + toFen(v), 0n)));
    const coming = await costCount(db(), 1, year + 1);
    expect(coming.through_month).toBe(0);
    expect(coming.totals.total).toBe('0.00');
  });

  it('exports the report as shown', async () => {
    const file = await s.exportFile('costcountexport', {}, finance);
    ok(file);
    const sheet = await readXlsx(file.data.content_base64);
    expect(sheet.headers).toEqual(expect.arrayContaining(['成本分类', '成本项目', '1月', '12月', '本年累计', '上年同期', '同比增减']));
    const report = (await s.call('costcount', {}, finance)).data as CostCount;
    const totals = sheet.rows.find((r) => r.values['成本分类'] === '合计')!;
    expect(totals.values['本年累计']).toBe(report.totals.total);
    expect(sheet.rows.length).toBe(report.rows.length + 1);
  });
});

describe('who may', () => {
  it('a cashier neither reads nor writes costs; a report reader reads them and the report but writes nothing', async () => {
    for (const m of ['costdetaillist', 'costitemlist', 'costcount']) denied(await s.call(m, {}, cashier));
    ok(await s.call('costdetaillist', {}, reader));
    ok(await s.call('costcount', {}, reader));
    denied(await s.call('costadd', await sampleCost(), reader));
    denied(await s.call('costitemadd', { name: '只读测试' }, reader));
    denied(await s.call('costcategoryinit', {}, reader));
  });

  it('a merchant account never, whatever codes it holds', async () => {
    for (const m of ['costdetaillist', 'costitemlist', 'costcount', 'costitem_small_list']) denied(await s.call(m, {}, merchant));
    denied(await s.call('costadd', await sampleCost(), merchant));
  });

  it('another community’s ids read 不存在 and change nothing', async () => {
    const theirs = await db().selectFrom('cost_records').select('id').where('rid', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    const id = Number(theirs.id);
    const before = await db().selectFrom('cost_records').selectAll().where('rid', '=', 1).where('id', '=', id).executeTakeFirstOrThrow();
    refused(await s.call('costinfo', { id }, admin2), '成本记录不存在');
    refused(await s.call('costvoid', { id, reason: '越权' }, admin2), '成本记录不存在');
    refused(await s.call('costlog', { id }, admin2), '成本记录不存在');
    refused(await s.call('costedit', { ...(await sampleCost({ item_id: await nodeId('保洁工资', 2) })), id }, admin2), '成本记录不存在');
    refused(await s.call('costadd', await sampleCost(), admin2), '所选成本项目不存在');
    refused(await s.call('costitemedit', { id: await nodeId('保洁工资'), name: 'x' }, admin2), '成本项目不存在');
    refused(await s.call('costitemdel', { id: await nodeId('保洁工资') }, admin2), '成本项目不存在');
    const list = (await s.call('costdetaillist', { limit: 200, item_id: await nodeId('保洁工资') }, admin2)).data as { total: number };
    expect(list.total).toBe(0);
    const after = await db().selectFrom('cost_records').selectAll().where('rid', '=', 1).where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });
});
