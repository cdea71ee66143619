/**
 * Demo costs (docs/product.md#costs) of 阳光花园 and 翠湖苑: the built-in categories, fourteen items
 * under them and fourteen months of costs up to today (so 成本统计 has last year's same months), a
 * few with photos of their receipts, two of each community voided with their reasons.
 */
import { addDays, addMonths, fenToYuan, type CostPayMethod } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { today } from '../../lib/wire.js';
import { gradientPng, storeDemoImage } from '../mobilesys/demoImages.js';
import { ensureCostCategories } from './costs.js';

interface DemoItem {
  category: string;
  name: string;
  payee: string;
  method: CostPayMethod;
  /** yuan a month (阳光花园's; 翠湖苑 pays 70 %) */
  monthly: number;
  /** costs a month (the amount split between them) */
  times: number;
  /** paid every `every` months only */
  every?: number;
  day: number;
  /** a photo of the receipt on the last two months' costs */
  photo?: boolean;
}

const ITEMS: DemoItem[] = [
  { category: '人工成本', name: '保安工资', payee: '员工工资（银行代发）', method: 'transfer', monthly: 48000, times: 1, day: 10 },
  { category: '人工成本', name: '保洁工资', payee: '员工工资（银行代发）', method: 'transfer', monthly: 36000, times: 1, day: 10 },
  { category: '人工成本', name: '管理人员工资', payee: '员工工资（银行代发）', method: 'transfer', monthly: 52000, times: 1, day: 10 },
  { category: '人工成本', name: '社保公积金', payee: '社会保险事业管理中心', method: 'transfer', monthly: 31000, times: 1, day: 15 },
  { category: '能耗', name: '公共区域电费', payee: '国网电力营业厅', method: 'transfer', monthly: 18000, times: 1, day: 8, photo: true },
  { category: '能耗', name: '公共区域水费', payee: '自来水公司', method: 'transfer', monthly: 4200, times: 1, day: 12 },
  {
    category: '维修维护',
    name: '电梯维保',
    payee: '迅达电梯服务有限公司',
    method: 'transfer',
    monthly: 6800,
    times: 1,
    day: 20,
    photo: true,
  },
  { category: '维修维护', name: '消防维保', payee: '安信消防工程有限公司', method: 'check', monthly: 10500, times: 1, every: 3, day: 18 },
  { category: '维修维护', name: '零星维修', payee: '五金建材商行', method: 'cash', monthly: 2400, times: 3, day: 6 },
  { category: '绿化保洁', name: '绿化养护', payee: '绿景园林工程公司', method: 'transfer', monthly: 5200, times: 1, day: 16 },
  { category: '绿化保洁', name: '垃圾清运', payee: '城区环卫清运队', method: 'transfer', monthly: 3000, times: 1, day: 25 },
  { category: '安保', name: '安防器材', payee: '安防器材商行', method: 'cash', monthly: 2600, times: 1, every: 2, day: 22 },
  { category: '办公行政', name: '办公用品', payee: '文具办公用品店', method: 'cash', monthly: 900, times: 2, day: 3 },
  { category: '办公行政', name: '通讯网络', payee: '中国电信营业厅', method: 'transfer', monthly: 899, times: 1, day: 5 },
  { category: '其他', name: '节日慰问', payee: '超市团购部', method: 'other', monthly: 7200, times: 1, every: 6, day: 26 },
];

/** A small deterministic spread (0 to 1) of a cost's amount from its place, so the months differ. */
const spread = (...n: number[]) => (n.reduce((h, x) => (h * 31 + x * 17 + 7) % 9973, 11) % 1000) / 1000;

export async function seedCosts(db: Kysely<DB>): Promise<void> {
  const day = today();
  const thisMonth = `${day.slice(0, 7)}-01`;
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'name', 'username'])
    .where('username', 'in', ['finance', 'admin2'])
    .execute();
  for (const [rid, registrar, factor] of [
    [1, 'finance', 1],
    [2, 'admin2', 0.7],
  ] as const) {
    const by = accounts.find((a) => a.username === registrar)!;
    await ensureCostCategories(db, rid, by.id);
    const categories = new Map(
      (await db.selectFrom('cost_items').select(['id', 'name']).where('rid', '=', rid).where('parent_id', 'is', null).execute()).map(
        (c) => [c.name, c.id],
      ),
    );
    const itemIds = await db
      .insertInto('cost_items')
      .values(ITEMS.map((it, i) => ({ rid, parent_id: categories.get(it.category)!, name: it.name, sort: i + 1, created_by: by.id })))
      .returning('id')
      .execute();
    const photos = [
      await storeDemoImage(db, rid, '电费发票.png', gradientPng(120, 160, [250, 250, 245], [200, 215, 235])),
      await storeDemoImage(db, rid, '维保单.png', gradientPng(120, 160, [255, 250, 235], [225, 210, 180])),
    ];
    const rows = [];
    for (let back = 13; back >= 0; back--) {
      const month = addMonths(thisMonth, -back);
      const monthIndex = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7));
      for (const [i, it] of ITEMS.entries()) {
        if (it.every && monthIndex % it.every !== 0) continue;
        for (let k = 0; k < it.times; k++) {
          const payDay = addDays(month, Math.min(27, it.day - 1 + k * 9));
          if (payDay > day) continue;
          // the month's share of the item, ±8 % from month to month, in fen
          const yuan = ((it.monthly * (it.every ?? 1)) / it.times) * factor * (0.92 + 0.16 * spread(rid, i, monthIndex, k));
          const fen = BigInt(Math.round(yuan * 100));
          rows.push({
            rid,
            pay_date: payDay,
            item_id: itemIds[i]!.id,
            amount: fenToYuan(fen),
            payee: it.payee,
            pay_method: it.method,
            handler: it.method === 'cash' ? '钱管家' : by.name,
            invoice_no: it.method === 'cash' ? '' : `FP${payDay.replace(/-/g, '')}${String(i + 1).padStart(2, '0')}${k}`,
            attachments: it.photo && back <= 1 ? [photos[it.name === '电梯维保' ? 1 : 0]!] : [],
            remark: it.every ? `${it.every} 个月一付` : '',
            created_by: by.id,
            // registered that morning (today's: just now)
            created_at: payDay === day ? new Date() : new Date(`${payDay}T10:30:00+08:00`),
          });
        }
      }
    }
    const saved = await db.insertInto('cost_records').values(rows).returning(['id', 'item_id', 'amount', 'created_at']).execute();
    await db
      .insertInto('workflow_logs')
      .values(
        saved.map((r) => ({
          rid,
          flow: 'cost',
          row_id: r.id,
          transition: 'create',
          from_state: '',
          to_state: 'Y',
          input: JSON.stringify({ amount: r.amount, item: ITEMS[itemIds.findIndex((x) => x.id === r.item_id)]!.name }),
          operator: by.name,
          created_by: by.id,
          created_at: r.created_at,
        })),
      )
      .execute();
    // two mistakes voided the day after: a repair registered twice, office supplies with a wrong amount
    const voids = [
      { name: '零星维修', back: 2, reason: '重复登记，与同日另一笔为同一张收据' },
      { name: '办公用品', back: 1, reason: '金额录入错误，已按正确金额重新登记' },
    ];
    for (const v of voids) {
      const itemId = itemIds[ITEMS.findIndex((it) => it.name === v.name)]!.id;
      const from = addMonths(thisMonth, -v.back);
      const row = await db
        .selectFrom('cost_records')
        .select(['id', 'created_at'])
        .where('rid', '=', rid)
        .where('item_id', '=', itemId)
        .where('pay_date', '>=', from)
        .where('pay_date', '<', addMonths(from, 1))
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const at = new Date(new Date(row.created_at).getTime() + 86_400_000);
      await db
        .updateTable('cost_records')
        .set({ status: 'X', void_reason: v.reason, voided_at: at, voided_by: by.id })
        .where('rid', '=', rid)
        .where('id', '=', row.id)
        .execute();
      await db
        .insertInto('workflow_logs')
        .values({
          rid,
          flow: 'cost',
          row_id: row.id,
          transition: 'void',
          from_state: 'Y',
          to_state: 'X',
          input: JSON.stringify({ reason: v.reason }),
          operator: by.name,
          created_by: by.id,
          created_at: at,
        })
        .execute();
    }
  }
  await sql`ANALYZE cost_items, cost_records`.execute(db);
}
