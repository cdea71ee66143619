import { fenToYuan, PAY_TYPE_CH, toFen, type RegionDesktop, type RoomBoardItem } from '@wuye/contract';
import { FEE_ROLES } from '@wuye/contract/fees/roles';
import { sql } from 'kysely';
import { defineMethod } from '../../http/registry.js';
import { fail } from '../../http/errors.js';
import { today } from '../../lib/wire.js';
import { billLateFee, toArrears } from './arrears.js';
import { paymentTotals } from './totals.js';
import { naturalName, placeOrder } from '../../lib/placeOrder.js';

const money = (col: string) => sql<string>`coalesce(sum(${sql.raw(col)}), 0)::numeric(14,2)::text`;

/**
 * The community desktop's figures the home page's methods (feedashboard, backlog_list) and the
 * payment list do not answer. Four set-based statements, each read once over the community.
 */
const regiondesktop = defineMethod('regiondesktop', {
  side: 'community',
  roles: FEE_ROLES.payments,
  writes: false,
  summary: '小区桌面：今日各支付方式收款、当前欠费（含滞纳金）、房屋按状态计数、业主数',
  async handler(ctx): Promise<RegionDesktop> {
    const day = today();
    const [byType, arrears, rooms, owners] = await Promise.all([
      // today's takings from the payments' kept totals, as the payment reports read them
      paymentTotals(ctx.db, ctx.rid, day, day)
        .select(['pay_type', sql<number>`sum(payments)::int`.as('count'), money('paid_amount').as('amount')])
        .groupBy('pay_type')
        .having(sql`sum(payments)`, '<>', 0)
        .orderBy('pay_type')
        .execute(),
      // what every room owes today: the same fee and late fee as room_arrears, summed over the
      // community from the unpaid bills' kept totals (202611290400_fee_unpaid_totals.sql): bills of
      // one item, due date and fee share their late fee, so a group's is its count times one bill's;
      // the rooms that owe are kept counted
      sql<{ rooms: number; bill_count: number; fee: string; late_fee: string }>`
        WITH g AS (
          SELECT t.item_id, t.due_date, t.fee, sum(t.bills) AS bills FROM fee_unpaid_fees t WHERE t.rid = ${ctx.rid}
          GROUP BY t.item_id, t.due_date, t.fee HAVING sum(t.bills) <> 0
        )
        SELECT
          (SELECT coalesce(sum(o.rooms), 0)::int FROM fee_unpaid_owing o WHERE o.rid = ${ctx.rid}) AS rooms,
          coalesce(sum(g.bills), 0)::int AS bill_count,
          coalesce(sum(g.bills * g.fee), 0)::numeric(14,2)::text AS fee,
          coalesce(sum(g.bills * fee_late_fee(g.fee, g.due_date, ${day}::date, i.late_fee_rule, i.late_fee_rate,
            i.late_fee_grace_days, i.late_fee_cap_percent)::numeric(14,2)), 0)::numeric(14,2)::text AS late_fee
        FROM g JOIN fee_items i ON i.rid = ${ctx.rid} AND i.id = g.item_id`
        .execute(ctx.db)
        .then((r) => r.rows[0]!),
      ctx.db
        .selectFrom('rooms')
        .select(['state', sql<number>`count(*)::int`.as('n')])
        .where('rid', '=', ctx.rid)
        .groupBy('state')
        .execute(),
      ctx.db
        .selectFrom('room_members')
        .select(sql<number>`count(DISTINCT member_id)::int`.as('n'))
        .where('rid', '=', ctx.rid)
        .where('relation', '=', 'owner')
        .where('status', '=', 'Y')
        .executeTakeFirstOrThrow(),
    ]);
    const byState = { vacant: 0, occupied: 0, rented: 0, renovating: 0 };
    for (const r of rooms) byState[r.state] = r.n;
    let todayFen = 0n;
    let todayCount = 0;
    for (const r of byType) {
      todayFen += toFen(r.amount);
      todayCount += r.count;
    }
    return {
      day,
      today: {
        items: byType.map((r) => ({ ...r, label: PAY_TYPE_CH[r.pay_type] })),
        count: todayCount,
        amount: fenToYuan(todayFen),
      },
      arrears: { ...arrears, total: fenToYuan(toFen(arrears.fee) + toFen(arrears.late_fee)) },
      rooms: {
        total: byState.vacant + byState.occupied + byState.rented + byState.renovating,
        // lived in: by its owners or by tenants
        occupied: byState.occupied + byState.rented,
        vacant: byState.vacant,
        by_state: byState,
      },
      owners: owners.n,
    };
  },
});

/**
 * 从楼栋选房: one building's rooms with their state, current owners and arrears today, in one
 * statement: the building's unpaid bills summed per room (through the unpaid-by-building index, the
 * late fee by fee_late_fee as room_arrears computes it) and the owners gathered per room, both joined
 * to the building's rooms — no query per room, whatever the building's size.
 */
const roomboard = defineMethod('roomboard', {
  side: 'community',
  roles: FEE_ROLES.payments,
  writes: false,
  summary: '从楼栋选房：一栋楼的全部房屋（单元、楼层、状态、业主、今日欠费含滞纳金），一次查询',
  async handler(ctx, input) {
    const building = await ctx.db
      .selectFrom('buildings')
      .select(['id', 'title'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.bid)
      .executeTakeFirst();
    if (!building) return fail('楼栋不存在');
    const day = today();
    const rows = await sql<{
      id: number;
      bid: number;
      tid: number;
      unit_title: string;
      title: string;
      floor: number;
      state: RoomBoardItem['state'];
      address: string;
      built_area: string;
      owners: RoomBoardItem['owners'] | null;
      bill_count: number;
      fee: string;
      late_fee: string;
    }>`
      WITH owed AS (
        SELECT b.hid, count(*)::int AS bill_count, sum(b.fee) AS fee, sum(${billLateFee(day)}::numeric) AS late_fee
        FROM fee_bills b JOIN fee_items i ON i.rid = b.rid AND i.id = b.item_id
        WHERE b.rid = ${ctx.rid} AND b.bid = ${input.bid} AND b.status <> 'Y'
        GROUP BY b.hid
      ), owners AS (
        SELECT rm.hid, json_agg(json_build_object('member_id', m.id, 'name', m.realname, 'mobile', m.mobile) ORDER BY rm.id) AS owners
        FROM rooms r
        JOIN room_members rm ON rm.rid = r.rid AND rm.hid = r.id AND rm.relation = 'owner' AND rm.status = 'Y'
        JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
        WHERE r.rid = ${ctx.rid} AND r.bid = ${input.bid}
        GROUP BY rm.hid
      )
      SELECT r.id, r.bid, r.tid, u.title AS unit_title, r.title, r.floor, r.state, r.address, r.built_area::text AS built_area,
        o.owners, coalesce(a.bill_count, 0)::int AS bill_count,
        coalesce(a.fee, 0)::numeric(14,2)::text AS fee, coalesce(a.late_fee, 0)::numeric(14,2)::text AS late_fee
      FROM rooms r
      JOIN units u ON u.rid = r.rid AND u.id = r.tid
      LEFT JOIN owed a ON a.hid = r.id
      LEFT JOIN owners o ON o.hid = r.id
      WHERE r.rid = ${ctx.rid} AND r.bid = ${input.bid}
      ORDER BY ${sql.join(placeOrder('u.'))}, r.tid, r.floor DESC, ${sql.join(naturalName('r.title'))}, r.id
      LIMIT 5000`.execute(ctx.db);
    return {
      building,
      items: rows.rows.map(({ bill_count, fee, late_fee, owners, ...r }) => ({
        ...r,
        owners: owners ?? [],
        arrears: toArrears({ bill_count, fee, late_fee }),
      })),
    };
  },
});

export const desktopMethods = [regiondesktop, roomboard];
