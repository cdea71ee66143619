/**
 * The demo of room-sales and other contracts (docs/product.md#crm-contracts): the contract types
 * and their numbering, five sale contracts on vacant rooms (a draft, one in approval, one with its
 * deposit paid and its down payment billed, one overdue, one paid in full), two other contracts
 * (an outsourcing contract in effect without approval, a draft), list prices of the vacant rooms.
 * The bills come from the instalment job and are paid at the cashier's one payment path.
 */
import { addDays, contractFlow, fenToYuan, mulDivRoundHalfUp, toFen, type CustomFieldDef } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { seedCtxOf } from '../../db/seedAs.js';
import { today } from '../../lib/wire.js';
import { writeFlowLog } from '../../lib/workflow.js';
import { house, payBills } from '../fees/cashier.js';
import { insertDraft } from './contracts.js';
import { billDueInstalments } from './contractsMoney.js';
import { syncUnitStates } from './contractsUnits.js';

const SALE_FIELDS: CustomFieldDef[] = [
  { key: 'f1', label: '付款方式', type: 'select', required: true, options: ['一次性付款', '商业按揭', '公积金贷款', '组合贷款'] },
  { key: 'f2', label: '交房日期', type: 'date', required: false, options: [] },
  { key: 'f3', label: '备案号', type: 'text', required: false, options: [] },
];
const OTHER_FIELDS: CustomFieldDef[] = [{ key: 'f1', label: '服务内容', type: 'text', required: true, options: [] }];

/** 16,800 元/㎡ of a room's built area, to the fen. */
const priceOf = (area: string) => fenToYuan(mulDivRoundHalfUp(toFen(area), toFen('16800'), 100n));

export async function seedCrmContracts(db: Kysely<DB>, rid: number): Promise<void> {
  const account = (username: string) =>
    db.selectFrom('accounts').select(['id', 'name']).where('username', '=', username).executeTakeFirst();
  const [leasing, admin, cashier] = await Promise.all([account('leasing'), account('admin'), account('cashier')]);
  if (!leasing || !admin || !cashier) return;
  const ctxOf = (a: { id: number; name: string }) => seedCtxOf(db, rid, a, ['admin']);
  const [byLeasing, byAdmin, byCashier] = [ctxOf(leasing), ctxOf(admin), ctxOf(cashier)];

  await db
    .insertInto('contract_settings')
    .values({ rid, bill_days_ahead: 7, expiring_days: 30 })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const types = await db
    .insertInto('contract_types')
    .values([
      {
        rid,
        name: '商品房买卖合同',
        kind: 'sale',
        prefix: 'HT',
        need_audit: 'Y',
        fields: JSON.stringify(SALE_FIELDS),
        sort: 1,
        created_by: admin.id,
      },
      { rid, name: '车位买卖合同', kind: 'parking', prefix: 'CW', need_audit: 'Y', fields: '[]', sort: 2, created_by: admin.id },
      {
        rid,
        name: '房屋租赁合同',
        kind: 'lease',
        prefix: 'ZL',
        date_format: 'YYYYMM',
        seq_len: 4,
        need_audit: 'Y',
        fields: '[]',
        sort: 3,
        created_by: admin.id,
      },
      {
        rid,
        name: '外包服务合同',
        kind: 'other',
        prefix: 'FW',
        date_format: 'YYYY',
        need_audit: 'N',
        fields: JSON.stringify(OTHER_FIELDS),
        sort: 4,
        created_by: admin.id,
      },
    ])
    .returning(['id', 'kind'])
    .execute();
  const typeOf = (kind: string) => Number(types.find((t) => t.kind === kind)!.id);

  // vacant rooms of the last building, for sale; their list prices
  const vacant = await db
    .selectFrom('rooms')
    .select(['id', 'bid', 'built_area'])
    .where('rid', '=', rid)
    .where('state', '=', 'vacant')
    .orderBy('bid', 'desc')
    .orderBy('id')
    .execute();
  if (vacant.length < 5) return;
  await db
    .insertInto('contract_unit_prices')
    .values(vacant.map((r) => ({ rid, unit_kind: 'room', unit_id: r.id, price: priceOf(r.built_area), created_by: admin.id })))
    .execute();

  const day = today();
  const buyers = [
    { party_name: '林晓东', party_mobile: '13912340001', party_id_card: '330102199003151234' },
    { party_name: '周婉清', party_mobile: '13912340002', party_id_card: '330106198807232345' },
    { party_name: '陈建国', party_mobile: '13912340003', party_id_card: '330104197912113456' },
    { party_name: '吴思远', party_mobile: '13912340004', party_id_card: '330105199201094567' },
    { party_name: '郑雅琪', party_mobile: '13912340005', party_id_card: '330108198505305678' },
  ];
  /** A sale of one vacant room at its list price: deposit 20,000, down payment 30 % of it, the rest by mortgage. */
  const sale = async (i: number, signedDaysAgo: number, plan: Array<[name: '定金' | '首付' | '按揭' | '尾款', dueInDays: number]>) => {
    const room = vacant[i]!;
    const total = toFen(priceOf(room.built_area));
    const deposit = 20_000_00n;
    const down = mulDivRoundHalfUp(total, 30n, 100n) - deposit;
    const amounts: Record<string, bigint> = { 定金: deposit, 首付: down, 按揭: total - deposit - down, 尾款: total - deposit - down };
    const signed = addDays(day, -signedDaysAgo);
    return insertDraft(byLeasing, {
      contract_no: '',
      name: '商品房买卖合同',
      type_id: typeOf('sale'),
      ...buyers[i]!,
      member_id: undefined,
      customer_id: undefined,
      units: [{ unit_kind: 'room', unit_id: Number(room.id), area: room.built_area, price: fenToYuan(total) }],
      total_amount: fenToYuan(total),
      instalments: plan.map(([name, due]) => ({ id: undefined, name, amount: fenToYuan(amounts[name]!), due_date: addDays(day, due) })),
      sign_date: signed,
      start_date: signed,
      end_date: null,
      custom: { f1: i % 2 ? '一次性付款' : '商业按揭', f2: addDays(signed, 365), f3: `杭房备${2026000 + i}` },
      remark: '',
    });
  };

  const submit = async (id: number, daysAgo: number) => {
    await db
      .updateTable('contracts')
      .set({ status: 'A', submitted_by: leasing.id, submitted_at: sql<Date>`now() - ${daysAgo} * interval '1 day'` })
      .where('rid', '=', rid)
      .where('id', '=', id)
      .execute();
    await writeFlowLog(byLeasing, contractFlow.def, id, { transition: 'submit', from: 'D', to: 'A' });
  };
  const approve = async (id: number, opinion: string) => {
    await db
      .updateTable('contracts')
      .set({ status: 'Y', approved_by: admin.id, approved_at: sql<Date>`now()` })
      .where('rid', '=', rid)
      .where('id', '=', id)
      .execute();
    await writeFlowLog(byAdmin, contractFlow.def, id, { transition: 'approve', from: 'A', to: 'Y', input: { opinion } });
  };

  // 1 a draft; 2 waiting for approval (on the approvers' to-do list)
  await sale(0, 0, [
    ['定金', 0],
    ['首付', 30],
    ['按揭', 90],
  ]);
  const waiting = await sale(1, 2, [
    ['定金', -2],
    ['首付', 28],
    ['按揭', 88],
  ]);
  await submit(waiting.id, 1);
  await db
    .insertInto('backlog')
    .values({
      rid,
      kind: 'contractaudit',
      source_id: String(waiting.id),
      title: `审批合同：${waiting.contract_no} 商品房买卖合同`,
      content: `乙方 ${buyers[1]!.party_name}`,
      link: `/crm/contract_audit?id=${waiting.id}`,
      submitter_id: leasing.id,
      submitter_name: leasing.name,
      roles: ['contractaudit'],
    })
    .execute();
  // 3 in effect: its deposit paid, its down payment billed (due in three days), the mortgage later
  const paid = await sale(2, 20, [
    ['定金', -20],
    ['首付', 3],
    ['按揭', 60],
  ]);
  // 4 in effect and overdue: the down payment fell due two weeks ago and is not paid
  const overdue = await sale(3, 45, [
    ['定金', -45],
    ['首付', -15],
    ['尾款', 90],
  ]);
  // 5 paid in full long ago
  const settled = await sale(4, 200, [
    ['定金', -200],
    ['首付', -170],
    ['按揭', -120],
  ]);
  for (const c of [paid, overdue, settled]) {
    await submit(c.id, 3);
    await approve(c.id, '价格与付款方式符合销售政策，同意');
  }
  await syncUnitStates(db, rid, [paid.id, overdue.id, settled.id, waiting.id]);
  await billDueInstalments(db, day, rid);

  // the cashier takes the deposits, and the whole of the settled one
  const take = async (contractId: number, names: Array<'定金' | '首付' | '按揭' | '尾款' | '其他'>) => {
    const bills = await db
      .selectFrom('contract_instalments as i')
      .innerJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'i.rid').onRef('b.id', '=', 'i.bill_id'))
      .select(['b.id', 'b.hid'])
      .where('i.rid', '=', rid)
      .where('i.contract_id', '=', contractId)
      .where('i.name', 'in', names)
      .where('b.status', '<>', 'Y')
      .execute();
    if (!bills.length) return;
    const room = await house(byCashier, Number(bills[0]!.hid));
    await payBills(byCashier, room, {
      billIds: bills.map((b) => Number(b.id)),
      payType: 'transfer',
      useBalance: false,
      discount: '0',
      idempotencyKey: `seed-contract-${contractId}-${names.join('-')}`,
      remark: '购房款',
    });
  };
  await take(paid.id, ['定金']);
  await take(overdue.id, ['定金']);
  await take(settled.id, ['定金', '首付', '按揭']);

  /** an 其他 contract in effect since `daysAgo` (its type needs no approval) */
  const inEffect = async (id: number, daysAgo: number) => {
    await db
      .updateTable('contracts')
      .set({ status: 'Y', submitted_by: leasing.id, submitted_at: sql<Date>`now() - make_interval(days => ${daysAgo})` })
      .where('rid', '=', rid)
      .where('id', '=', id)
      .execute();
    await writeFlowLog(byLeasing, contractFlow.def, id, { transition: 'auto', from: 'D', to: 'Y' });
  };
  // other contracts: outsourcing in effect, landscaping about to end, a venue lease in draft
  const outsourcing = await insertDraft(byLeasing, {
    contract_no: '',
    name: '小区保洁外包服务合同',
    type_id: typeOf('other'),
    party_name: '杭州洁美物业服务有限公司',
    party_mobile: '13857100123',
    party_id_card: '91330100MA2H7XK21Q',
    member_id: undefined,
    customer_id: undefined,
    units: [],
    total_amount: '240000.00',
    instalments: [0, 1, 2, 3].map((q) => ({
      id: undefined,
      name: '其他' as const,
      amount: '60000.00',
      due_date: addDays(day, q * 91 - 30),
    })),
    sign_date: addDays(day, -35),
    start_date: addDays(day, -30),
    end_date: addDays(day, 334),
    custom: { f1: '公共区域日常保洁、垃圾清运' },
    remark: '按季度考核后付款',
  });
  await inEffect(outsourcing.id, 30);
  // a year's landscaping ending within the 即将到期 window: the daily job reminds it (合同到期提醒)
  const landscaping = await insertDraft(byLeasing, {
    contract_no: '',
    name: '绿化养护服务合同',
    type_id: typeOf('other'),
    party_name: '杭州青禾园林绿化有限公司',
    party_mobile: '13857100789',
    party_id_card: '91330110MA2CX8RT5K',
    member_id: undefined,
    customer_id: undefined,
    units: [],
    total_amount: '96000.00',
    instalments: [0, 1].map((h) => ({ id: undefined, name: '其他' as const, amount: '48000.00', due_date: addDays(day, h * 182 - 340) })),
    sign_date: addDays(day, -350),
    start_date: addDays(day, -345),
    end_date: addDays(day, 20),
    custom: { f1: '小区绿地、乔灌木日常养护与季节修剪' },
    remark: '到期前评估是否续签',
  });
  await inEffect(landscaping.id, 345);
  await insertDraft(byLeasing, {
    contract_no: '',
    name: '电梯广告位合作合同',
    type_id: typeOf('other'),
    party_name: '杭州分众文化传播有限公司',
    party_mobile: '13857100456',
    party_id_card: '91330106MA27Y0QX3B',
    member_id: undefined,
    customer_id: undefined,
    units: [],
    total_amount: '36000.00',
    instalments: [{ id: undefined, name: '其他', amount: '36000.00', due_date: addDays(day, 15) }],
    sign_date: day,
    start_date: addDays(day, 15),
    end_date: addDays(day, 380),
    custom: { f1: '12 部电梯轿厢框架广告位' },
    remark: '',
  });
  // the outsourcing contract has no room: its plan is tracked, no bill is made
  await billDueInstalments(db, day, rid);
}
