import { BILL_STATUS_CH, FEE_ROLES, fenToYuan, toFen, type ConBill, type ConBillRoom } from '@wuye/contract';
import { sql } from 'kysely';
import { fail } from '../../http/errors.js';
import { defineMethod } from '../../http/registry.js';
import { today } from '../../lib/wire.js';
import { billLateFee } from './arrears.js';

export const CONBILL_ROLES = FEE_ROLES.conbill;

/**
 * 合并账单 (/fees/conbill): the unpaid bills (pending and overdue) of the room's current owner across
 * all the rooms the owner owns in the community (the cashier desk's owner rooms), optionally of a
 * range of periods, each with its late fee today (fee_late_fee, fees/arrears.ts), by room with
 * subtotals and a total. A room without a current owner is combined alone. The owner's rooms come
 * from room_members by member; each room's bills through fee_bills_unpaid (rid, hid).
 */
const conbill = defineMethod('conbill', {
  side: 'community',
  roles: CONBILL_ROLES,
  writes: false,
  summary: '合并账单：房屋业主名下本小区全部房屋的未缴账单（含今日滞纳金），按房屋小计与合计，可限账期区间',
  async handler(ctx, input): Promise<ConBill> {
    if (input.start_period && input.end_period && input.start_period > input.end_period) fail('开始账期不能晚于结束账期');
    const room = await ctx.db
      .selectFrom('rooms')
      .select(['id', 'address'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.hid)
      .executeTakeFirst();
    if (!room) return fail('房屋不存在');
    const owner = (
      await sql<{ member_id: number; realname: string; mobile: string }>`
      SELECT m.id AS member_id, m.realname, m.mobile FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = ${ctx.rid} AND rm.hid = ${input.hid} AND rm.relation = 'owner' AND rm.status = 'Y' ORDER BY rm.id LIMIT 1`.execute(
        ctx.db,
      )
    ).rows[0];
    const day = today();
    const rooms = owner
      ? sql`SELECT rm.hid FROM room_members rm WHERE rm.rid = ${ctx.rid} AND rm.member_id = ${owner.member_id}
          AND rm.relation = 'owner' AND rm.status = 'Y'`
      : sql`SELECT ${input.hid}::bigint`;
    const { rows } = await sql<{
      hid: number;
      address: string;
      id: number;
      title: string;
      period: string;
      daterange: string;
      fee: string;
      late_fee: string;
      status: string;
    }>`
      SELECT r.id AS hid, r.address, b.id, b.title, b.period, b.daterange, b.fee::numeric(14,2)::text AS fee, ${billLateFee(day)} AS late_fee, b.status
      FROM rooms r
      JOIN fee_bills b ON b.rid = r.rid AND b.hid = r.id AND b.status <> 'Y'
      JOIN fee_items i ON i.rid = b.rid AND i.id = b.item_id
      WHERE r.rid = ${ctx.rid} AND r.id IN (${rooms})
        ${input.start_period ? sql`AND b.period >= ${input.start_period}` : sql``}
        ${input.end_period ? sql`AND b.period <= ${input.end_period}` : sql``}
      ORDER BY r.building_sort, r.bid, r.unit_sort, r.tid, r.floor, r.title, r.id, b.period, b.id`.execute(ctx.db);
    const byRoom: ConBillRoom[] = [];
    let [fee, late, count] = [0n, 0n, 0];
    for (const r of rows) {
      let at = byRoom[byRoom.length - 1];
      if (!at || at.hid !== Number(r.hid)) {
        at = { hid: Number(r.hid), address: r.address, bills: [], subtotal: { fee: '0.00', late_fee: '0.00', total: '0.00' } };
        byRoom.push(at);
      }
      const f = toFen(r.fee);
      const l = toFen(r.late_fee);
      at.bills.push({
        id: Number(r.id),
        title: r.title,
        period: r.period,
        daterange: r.daterange,
        fee: r.fee,
        late_fee: r.late_fee,
        total: fenToYuan(f + l),
        status: r.status,
        status_ch: BILL_STATUS_CH[r.status as 'E'] ?? r.status,
      });
      const sf = toFen(at.subtotal.fee) + f;
      const sl = toFen(at.subtotal.late_fee) + l;
      at.subtotal = { fee: fenToYuan(sf), late_fee: fenToYuan(sl), total: fenToYuan(sf + sl) };
      fee += f;
      late += l;
      count += 1;
    }
    return {
      hid: room.id,
      owner_name: owner?.realname ?? '',
      mobile: owner?.mobile ?? '',
      today: day,
      rooms: byRoom,
      totals: { fee: fenToYuan(fee), late_fee: fenToYuan(late), total: fenToYuan(fee + late), bill_count: count },
    };
  },
});

export const conbillMethods = [conbill];
