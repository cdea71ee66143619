/**
 * The demo's leases (docs/product.md#crm-leases): a dozen on the two shops of 阳光花园 and the
 * ground floors of 6号楼, made through the product's own methods (drafted by 陈招商 `leasing`,
 * approved by 张经理 `admin`, paid at the cashier by 赵收银), so every screen of the part has
 * something in it: an escalating shop lease, one with a rent-free month, one ending this month, one
 * in approval, a draft, one returned, one voided, one renewed and its renewal, one checked out with
 * part of its deposit kept, one past its end, and rent overdue.
 */
import { addDays, addMonths, INVOICE_ITEM_SUGGESTIONS, monthEnd } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { runAs, seedCtx } from '../../db/seedAs.js';
import { today } from '../../lib/wire.js';
import { house, payBills } from '../fees/cashier.js';

const first = (day: string, months: number) => `${addMonths(day, months).slice(0, 7)}-01`;

export async function seedCrmLeases(db: Kysely<DB>, rid: number): Promise<void> {
  const leasing = await seedCtx(db, rid, 'leasing', ['rentroom', 'tenant', 'crm']);
  const admin = await seedCtx(db, rid, 'admin', ['admin']);
  const cashier = await seedCtx(db, rid, 'cashier', ['cashier', 'fees', 'payment', 'refund']);
  const finance = await seedCtx(db, rid, 'finance', ['financecount', 'setfees', 'feecount', 'invoicelist']);
  if (!leasing || !admin || !cashier || !finance) return;
  const day = today();
  const rooms = await db
    .selectFrom('rooms as r')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'r.rid').onRef('b.id', '=', 'r.bid'))
    .innerJoin('units as u', (j) => j.onRef('u.rid', '=', 'r.rid').onRef('u.id', '=', 'r.tid'))
    .select(['r.id', 'r.title', 'b.title as building', 'u.title as unit'])
    .where('r.rid', '=', rid)
    .where((eb) => eb.or([eb('r.title', 'in', ['S01', 'S02']), eb.and([eb('b.title', '=', '6号楼'), eb('r.floor', '<=', 2)])]))
    .orderBy('r.id')
    .execute();
  const room = (building: string, unit: string, title: string) =>
    Number(rooms.find((r) => r.building === building && r.unit === unit && r.title === title)?.id ?? 0);
  const S01 = room('1号楼', '1单元', 'S01');
  const S02 = room('1号楼', '1单元', 'S02');
  if (!S01 || !S02) return;
  const r6 = (unit: 1 | 2, title: string) => room('6号楼', `${unit}单元`, title);

  const base = {
    contact: '',
    id_card: '',
    rent_mode: 'M',
    deposit: '0',
    cycle_months: 1,
    bill_ahead_days: 15,
    free_periods: [],
    escalation_kind: 'none',
    escalation_value: '0',
    escalation_years: 1,
    charges: [],
    remark: '',
  };
  const draft = (v: Record<string, unknown>) => runAs(leasing, 'leaseadd', { ...base, ...v });
  const submit = (id: number) => runAs(leasing, 'leasesubmit', { id });
  const approve = async (id: number, remark = '同意，按合同执行') => {
    await submit(id);
    await runAs(admin, 'leaseapprove', { id, approve: true, remark });
  };
  /** Pays a lease's bills at the cashier (one receipt each): all of them but those `keep` says to leave owing. */
  const pay = async (leaseId: number, keep: (b: { kind: string; seq: number; due_date: string }) => boolean = () => false) => {
    const bills = await db
      .selectFrom('lease_bills as lb')
      .innerJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'lb.rid').onRef('b.id', '=', 'lb.bill_id'))
      .select(['b.id', 'b.hid', 'b.fee', 'b.status', 'b.due_date', 'lb.kind', 'lb.seq'])
      .where('lb.rid', '=', rid)
      .where('lb.lease_id', '=', leaseId)
      .where('b.status', '<>', 'Y')
      .orderBy('b.id')
      .execute();
    for (const b of bills) {
      if (keep(b)) continue;
      await payBills(cashier, await house(cashier, Number(b.hid)), {
        billIds: [Number(b.id)],
        payType: b.kind === 'deposit' ? 'transfer' : 'wechat',
        useBalance: false,
        discount: '0.00',
        idempotencyKey: `lease-seed-${b.id}`,
        remark: '',
        payerName: '',
      });
    }
  };

  // 1 阳光便利店: a company on S01 for two years, 5 % more after the first year (the rise came two months ago)
  {
    const start = first(day, -14);
    const l = await draft({
      tenant_kind: 'C',
      tenant_name: '阳光便利店（上海）有限公司',
      contact: '王立新',
      mobile: '13916001001',
      id_card: '91310115MA1K3YJ73R',
      hids: [S01],
      start_date: start,
      end_date: addDays(addMonths(start, 24), -1),
      rent_price: '8000.00',
      deposit: '16000.00',
      escalation_kind: 'percent',
      escalation_value: '5',
      escalation_years: 1,
      charges: [{ name: '物业费', monthly: '280.00' }],
      remark: '沿街便利店，营业时间 7:00-23:00',
    });
    await approve(l.id);
    // this month's bills still owing
    await pay(l.id, (b) => b.due_date >= first(day, 0));
  }
  // 2 康宁大药房: S02 priced per m², quarterly, the first month rent-free for fitting out
  {
    const start = first(day, -7);
    const l = await draft({
      tenant_kind: 'C',
      tenant_name: '康宁大药房连锁有限公司',
      contact: '陈晓燕',
      mobile: '13916001002',
      hids: [S02],
      start_date: start,
      end_date: addDays(addMonths(start, 36), -1),
      rent_mode: 'A',
      rent_price: '150.00',
      deposit: '21750.00',
      cycle_months: 3,
      bill_ahead_days: 20,
      free_periods: [{ start, end: monthEnd(start) }],
      charges: [{ name: '物业费', monthly: '362.50' }],
      remark: '首月装修免租，物业费照缴',
    });
    await approve(l.id);
    await pay(l.id);
  }
  // 3 a flat ending this month (即将到期, on the leasing staff's to-do list)
  const endingThisMonth = monthEnd(day) > addDays(day, 3) ? monthEnd(day) : addDays(day, 20);
  {
    const l = await draft({
      tenant_kind: 'P',
      tenant_name: '刘晓梅',
      mobile: '13916001003',
      hids: [r6(1, '101')],
      start_date: addDays(addMonths(endingThisMonth, -12), 1),
      end_date: endingThisMonth,
      rent_price: '4200.00',
      deposit: '8400.00',
      cycle_months: 3,
    });
    await approve(l.id);
    await pay(l.id);
  }
  // 4 in approval: a studio from next month
  {
    const start = first(day, 1);
    const l = await draft({
      tenant_kind: 'P',
      tenant_name: '赵一鸣',
      mobile: '13916001004',
      hids: [r6(1, '102')],
      start_date: start,
      end_date: addDays(addMonths(start, 12), -1),
      rent_price: '3800.00',
      deposit: '7600.00',
      charges: [{ name: '停车费', monthly: '300.00' }],
    });
    await submit(l.id);
  }
  // 5 a draft, 6 returned with the approver's opinion
  {
    const start = first(day, 1);
    await draft({
      tenant_kind: 'C',
      tenant_name: '小蜜蜂教育科技有限公司',
      contact: '孙老师',
      mobile: '13916001005',
      hids: [r6(1, '103')],
      start_date: start,
      end_date: addDays(addMonths(start, 24), -1),
      rent_price: '6500.00',
      deposit: '13000.00',
      cycle_months: 6,
      escalation_kind: 'amount',
      escalation_value: '300',
    });
    const back = await draft({
      tenant_kind: 'P',
      tenant_name: '周建华',
      mobile: '13916001006',
      hids: [r6(1, '104')],
      start_date: start,
      end_date: addDays(addMonths(start, 12), -1),
      rent_price: '3000.00',
      deposit: '3000.00',
    });
    await submit(back.id);
    await runAs(admin, 'leaseapprove', { id: back.id, approve: false, remark: '租金低于指导价，押金应为两个月' });
  }
  // 7 checked out three months ago, a month after a rise in its costs: part of the deposit kept, the rest refunded
  {
    const start = first(day, -10);
    const l = await draft({
      tenant_kind: 'P',
      tenant_name: '吴海涛',
      mobile: '13916001007',
      hids: [r6(2, '101')],
      start_date: start,
      end_date: addDays(addMonths(start, 12), -1),
      rent_price: '4000.00',
      deposit: '8000.00',
    });
    await approve(l.id);
    const exit = addDays(first(day, -3), 14);
    await pay(l.id, (b) => b.kind !== 'deposit' && b.due_date > exit);
    await runAs(leasing, 'signout', {
      id: l.id,
      kind: 'E',
      date: exit,
      reason: '工作调动，提前退租',
      readings: [
        { name: '电表', reading: '3260.40' },
        { name: '水表', reading: '418.20' },
      ],
      damages: [{ name: '厨房台面烫伤修补', amount: '450.00' }],
      penalties: [],
      deposit_kept: '4000.00',
      kept_reason: '提前退租，按合同扣留一个月租金',
    });
  }
  // 8 renewed: the old lease runs out next month, its renewal approved
  {
    const start = addDays(addMonths(first(day, 1), -12), 9);
    const old = await draft({
      tenant_kind: 'P',
      tenant_name: '郑雅文',
      mobile: '13916001008',
      hids: [r6(2, '102')],
      start_date: start,
      end_date: addDays(addMonths(start, 12), -1),
      rent_price: '4500.00',
      deposit: '9000.00',
    });
    await approve(old.id);
    await pay(old.id);
    const from = addMonths(start, 12);
    const renewal = await runAs(leasing, 'rerent', {
      id: old.id,
      ...base,
      tenant_kind: 'P',
      tenant_name: '郑雅文',
      mobile: '13916001008',
      hids: [r6(2, '102')],
      start_date: from,
      end_date: addDays(addMonths(from, 24), -1),
      rent_price: '4650.00',
      escalation_kind: 'percent',
      escalation_value: '3',
      escalation_years: 1,
    });
    await approve(renewal.id, '老租户续租，同意');
  }
  // 9 rent overdue: two periods unpaid
  {
    const start = first(day, -5);
    const l = await draft({
      tenant_kind: 'P',
      tenant_name: '钱志强',
      mobile: '13916001009',
      hids: [r6(2, '103')],
      start_date: start,
      end_date: addDays(addMonths(start, 12), -1),
      rent_price: '3600.00',
      deposit: '7200.00',
    });
    await approve(l.id);
    await pay(l.id, (b) => b.kind === 'rent' && b.due_date >= first(day, -2));
  }
  // 10 past its end, not checked out yet
  {
    const end = addDays(day, -6);
    const start = addDays(addMonths(end, -12), 1);
    const l = await draft({
      tenant_kind: 'P',
      tenant_name: '孙丽娜',
      mobile: '13916001010',
      hids: [r6(2, '104')],
      start_date: start,
      end_date: end,
      rent_price: '3900.00',
      deposit: '3900.00',
    });
    await approve(l.id);
    await pay(l.id);
  }
  // 11 voided before it took effect, 12 a yearly lease from next month
  {
    const start = first(day, 2);
    const v = await draft({
      tenant_kind: 'P',
      tenant_name: '冯晓东',
      mobile: '13916001011',
      hids: [r6(1, '201')],
      start_date: start,
      end_date: addDays(addMonths(start, 12), -1),
      rent_price: '3500.00',
    });
    await runAs(leasing, 'leasevoid', { id: v.id, reason: '客户另选房源' });
    const y = await draft({
      tenant_kind: 'C',
      tenant_name: '城市之光设计工作室',
      contact: '林默',
      mobile: '13916001012',
      hids: [r6(1, '202'), r6(2, '202')],
      start_date: first(day, 1),
      end_date: addDays(addMonths(first(day, 1), 36), -1),
      rent_mode: 'A',
      rent_price: '45.00',
      deposit: '20000.00',
      cycle_months: 12,
      bill_ahead_days: 30,
      escalation_kind: 'percent',
      escalation_value: '4',
      escalation_years: 1,
    });
    await approve(y.id);
  }
  // finance approved the check-out's refunds: the deposit's rest and the days paid after it
  const refunds = await db.selectFrom('lease_signouts').select('refund_ids').where('rid', '=', rid).execute();
  for (const id of refunds.flatMap((r) => r.refund_ids))
    await runAs(finance, 'refundapprove', { id: Number(id), approve: true, remark: '核对无误，同意退款' });
  // the lease items invoiced as the others are (the invoices' demo maps every item but the deposits)
  const settings = await db.selectFrom('invoice_settings').select('rid').where('rid', '=', rid).executeTakeFirst();
  if (settings) {
    const items = await db
      .selectFrom('fee_items as i')
      .leftJoin('invoice_item_maps as m', (j) => j.onRef('m.rid', '=', 'i.rid').onRef('m.item_id', '=', 'i.id'))
      .select(['i.id', 'i.cost_type'])
      .where('i.rid', '=', rid)
      .where('i.remark', '=', '租赁合同自动生成')
      .where('i.cost_type', '<>', 'deposit')
      .where('m.item_id', 'is', null)
      .execute();
    for (const i of items) {
      const s = INVOICE_ITEM_SUGGESTIONS[i.cost_type] ?? INVOICE_ITEM_SUGGESTIONS.rent!;
      await runAs(finance, 'invoiceitemmapset', {
        item_id: Number(i.id),
        goods_name: s.goods_name,
        tax_code: s.tax_code,
        rate: s.rate,
        tax_included: 'Y',
        special: 'none',
      });
    }
  }
  // a room marked rentable by hand, never leased: the occupancy report counts it vacant
  const spare = r6(1, '203');
  if (spare) await db.insertInto('lease_rentable_rooms').values({ rid, hid: spare, created_by: leasing.session.accountId }).execute();
}
