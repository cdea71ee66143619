import {
  BILL_STATUS_CH,
  FEE_ROLES,
  capitalAmount,
  fenToYuan,
  toFen,
  type BillStatus,
  type DunningNotice,
  type DunningPrint,
} from '@wuye/contract';
import { sql } from 'kysely';
import { defineMethod, type CommunityCtx } from '../../http/registry.js';
import { today } from '../../lib/wire.js';
import { billLateFee } from './arrears.js';
import { arrearsByRoom, arrearsPage } from './reports.js';

const CALL_ROLES = FEE_ROLES.call;

const feebillcall = defineMethod('feebillcall', {
  side: 'community',
  roles: CALL_ROLES,
  writes: false,
  summary: '催缴：有欠费的房屋（欠费多的在前），勾选后打印催缴通知单（汇总 print_billcall / 明细 print_billcallmx）',
  async handler(ctx, input) {
    const [items, count] = await Promise.all([
      arrearsPage(ctx.db, ctx.rid, input, input),
      ctx.db
        .selectFrom(arrearsByRoom(ctx.db, ctx.rid, input).as('a'))
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { items, total: count.n };
  },
});

/** Notices for the chosen rooms of the community (rooms of other communities are simply absent). */
async function notices(ctx: CommunityCtx, hids: number[], detailed: boolean): Promise<DunningPrint> {
  const day = today();
  const [region, bills] = await Promise.all([
    ctx.db.selectFrom('regions').select(['title', 'phone']).where('id', '=', ctx.rid).executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('fee_bills as b')
      .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
      .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'b.rid').onRef('r.id', '=', 'b.hid'))
      .select([
        'b.id',
        'b.hid',
        'b.title',
        'b.period',
        'b.daterange',
        'b.fee',
        'b.status',
        'b.due_date',
        'r.address',
        billLateFee(day).as('late_fee_now'),
        sql<string>`coalesce((SELECT m.realname || '|' || m.mobile FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
          WHERE rm.rid = b.rid AND rm.hid = b.hid AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1), '|')`.as('owner'),
      ])
      .where('b.rid', '=', ctx.rid)
      .where('b.hid', 'in', [...new Set(hids)])
      .where('b.status', '<>', 'Y')
      .orderBy('b.hid')
      .orderBy('b.period')
      .orderBy('b.id')
      .execute(),
  ]);
  const byRoom = new Map<number, DunningNotice & { fen: bigint; lateFen: bigint }>();
  for (const b of bills) {
    const [owner_name = '', mobile = ''] = b.owner.split('|');
    const n = byRoom.get(b.hid) ?? {
      hid: b.hid,
      address: b.address,
      owner_name,
      mobile,
      bill_count: 0,
      first_period: b.period,
      last_period: b.period,
      arrears: '',
      late_fee: '',
      total: '',
      capital_amount: '',
      fen: 0n,
      lateFen: 0n,
      ...(detailed ? { bills: [] } : {}),
    };
    const fee = toFen(b.fee);
    const late = toFen(b.late_fee_now);
    n.bill_count++;
    n.last_period = b.period;
    n.fen += fee;
    n.lateFen += late;
    n.bills?.push({
      id: b.id,
      title: b.title,
      period: b.period,
      daterange: b.daterange,
      fee: b.fee,
      late_fee: fenToYuan(late),
      due_date: b.due_date,
      status_ch: BILL_STATUS_CH[b.status as BillStatus],
    });
    byRoom.set(b.hid, n);
  }
  return {
    region_title: region.title,
    region_phone: region.phone,
    print_date: day,
    notices: [...byRoom.values()].map(({ fen, lateFen, ...n }) => ({
      ...n,
      arrears: fenToYuan(fen),
      late_fee: fenToYuan(lateFen),
      total: fenToYuan(fen + lateFen),
      capital_amount: capitalAmount(fen + lateFen),
    })),
  };
}

const printBillcall = defineMethod('print_billcall', {
  side: 'community',
  roles: CALL_ROLES,
  writes: false,
  summary: '催缴通知单（汇总）：每户欠费账单数、账期范围、欠费与滞纳金合计（含大写）',
  handler: (ctx, input) => notices(ctx, input.hids, false),
});

const printBillcallmx = defineMethod('print_billcallmx', {
  side: 'community',
  roles: CALL_ROLES,
  writes: false,
  summary: '催缴通知单（明细）：每户逐张列出欠费账单及滞纳金',
  handler: (ctx, input) => notices(ctx, input.hids, true),
});

export const dunningMethods = [feebillcall, printBillcall, printBillcallmx];
