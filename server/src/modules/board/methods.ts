/**
 * The management board's widgets (docs/product.md#management-board): one read per widget, each
 * stamped with when it was read. They answer a board session (`board: true`), the read-only session
 * a board window trades its one-time code for, and a signed-in console alike. Each reads kept totals
 * or an index in time order, so a lobby screen refreshing all day costs the database little.
 */
import {
  addMonths,
  BOARD_FEED_SIZE,
  BOARD_OLD_ARREARS_MONTHS,
  BOARD_TREND_MONTHS,
  DEVICE_ONLINE_MS,
  fenToYuan,
  PAY_TYPE_CH,
  toFen,
  type BoardAlert,
  type BoardCommunityRow,
  type BoardFeedItem,
} from '@wuye/contract';
import { sql } from 'kysely';
import { defineMethod } from '../../http/registry.js';
import { dayStart, today, wireTime } from '../../lib/wire.js';
import { feeDashboard, rate } from '../fees/reports.js';
import { paymentTotals } from '../fees/totals.js';
import { patrolDashboard } from '../patrols/records.js';
import { repairDashboard } from '../steward/repairReports.js';
import { maskName } from '../steward/scores.js';

const online = sql<boolean>`last_heartbeat > now() - ${`${DEVICE_ONLINE_MS / 1000} seconds`}::interval`;
const money = (expr: string) => sql<string>`coalesce(${sql.raw(expr)}, 0)::numeric(14,2)::text`;
const percent = (part: number, whole: number) => (whole === 0 ? '0.0' : ((part * 100) / whole).toFixed(1));
const stamp = () => wireTime(new Date());

/** 京A***5: a plate on a lobby screen, its province, letter and last character. */
export function maskPlate(plate: string): string {
  const chars = [...plate];
  return chars.length <= 3 ? plate : `${chars.slice(0, 2).join('')}***${chars[chars.length - 1]}`;
}

/** what every widget of the community board is: a staff read the board session may call */
const board = { roles: 'staff', writes: false, board: true } as const;

const boardassets = defineMethod('boardassets', {
  side: 'community',
  ...board,
  summary: '看板·资产：楼栋、房屋与入住（入住、出租）、车位与已售已租、设备与在线数',
  async handler(ctx) {
    const r = await sql<{
      buildings: number;
      rooms: number;
      occupied: number;
      spaces: number;
      spaces_taken: number;
      devices: number;
      devices_online: number;
    }>`
      SELECT (SELECT count(*)::int FROM buildings WHERE rid = ${ctx.rid}) AS buildings,
             r.rooms, r.occupied, s.spaces, s.spaces_taken, d.devices, d.devices_online
      FROM (SELECT count(*)::int AS rooms, count(*) FILTER (WHERE state IN ('occupied', 'rented'))::int AS occupied
            FROM rooms WHERE rid = ${ctx.rid}) r,
           (SELECT count(*)::int AS spaces, count(*) FILTER (WHERE status <> 'idle')::int AS spaces_taken
            FROM parking_spaces WHERE rid = ${ctx.rid}) s,
           (SELECT count(*)::int AS devices, count(*) FILTER (WHERE ${online})::int AS devices_online
            FROM devices WHERE rid = ${ctx.rid} AND enabled = 'Y') d`.execute(ctx.db);
    const x = r.rows[0]!;
    return { ...x, vacant: x.rooms - x.occupied, occupancy: percent(x.occupied, x.rooms), as_of: stamp() };
  },
});

const boardmoney = defineMethod('boardmoney', {
  side: 'community',
  ...board,
  summary: '看板·收费：本月账期的应收、实收、收费率，今日收款笔数与金额，当前欠费',
  async handler(ctx) {
    const day = today();
    const [month, takings, owing] = await Promise.all([
      feeDashboard(ctx.db, ctx.rid),
      paymentTotals(ctx.db, ctx.rid, day, day)
        .select([sql<number>`coalesce(sum(payments), 0)::int`.as('count'), money('sum(paid_amount)').as('amount')])
        .executeTakeFirstOrThrow(),
      sql<{ fee: string }>`SELECT ${money('sum(bills * fee)')} AS fee FROM fee_unpaid_fees WHERE rid = ${ctx.rid}`.execute(ctx.db),
    ]);
    return {
      month: month.month,
      receivable: month.receivable,
      received: month.received,
      rate: month.rate,
      today_amount: takings.amount,
      today_count: takings.count,
      arrears: owing.rows[0]!.fee,
      as_of: stamp(),
    };
  },
});

/** The tickets still open, and those past a deadline, of repairs and complaints. */
async function ticketFigures(ctx: { db: Parameters<typeof repairDashboard>[0]; rid: number }) {
  const monthStart = dayStart(`${today().slice(0, 7)}-01`);
  const [repairs, month, complaints] = await Promise.all([
    repairDashboard(ctx.db, ctx.rid),
    ctx.db
      .selectFrom('repair_tickets')
      .select([sql<number>`count(*)::int`.as('finished'), sql<string | null>`round(avg(rate_overall), 1)::text`.as('satisfaction')])
      .where('rid', '=', ctx.rid)
      .where('finished_at', '>=', monthStart)
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('complaints')
      .select([
        sql<number>`count(*)::int`.as('open'),
        sql<number>`count(*) FILTER (WHERE respond_overdue_at IS NOT NULL OR close_overdue_at IS NOT NULL)::int`.as('overdue'),
      ])
      .where('rid', '=', ctx.rid)
      .where('status', 'in', ['W', 'D'])
      .executeTakeFirstOrThrow(),
  ]);
  return { repairs, month, complaints };
}

const boardorders = defineMethod('boardorders', {
  side: 'community',
  ...board,
  summary: '看板·工单：报修未完成、超时、今日新增、本月完成与满意度（本月评价的平均分），投诉未完成与超时',
  async handler(ctx) {
    const { repairs, month, complaints } = await ticketFigures(ctx);
    return {
      repairs_open: repairs.open,
      repairs_overdue: repairs.overdue,
      repairs_today: repairs.today,
      repairs_finished_month: month.finished,
      satisfaction: month.satisfaction ?? '',
      complaints_open: complaints.open,
      complaints_overdue: complaints.overdue,
      as_of: stamp(),
    };
  },
});

const boardalerts = defineMethod('boardalerts', {
  side: 'community',
  ...board,
  summary: `看板·预警：欠费超过 ${BOARD_OLD_ARREARS_MONTHS} 个月的账单、离线设备、超时报修与投诉、关阀中的表`,
  async handler(ctx) {
    const before = addMonths(today(), -BOARD_OLD_ARREARS_MONTHS);
    const [old, devices, tickets, valves] = await Promise.all([
      sql<{ bills: number; fee: string }>`
        SELECT coalesce(sum(bills), 0)::int AS bills, ${money('sum(bills * fee)')} AS fee
        FROM fee_unpaid_fees WHERE rid = ${ctx.rid} AND due_date < ${before}::date`.execute(ctx.db),
      ctx.db
        .selectFrom('devices')
        .select(sql<number>`count(*) FILTER (WHERE NOT coalesce(${online}, false))::int`.as('n'))
        .where('rid', '=', ctx.rid)
        .where('enabled', '=', 'Y')
        .executeTakeFirstOrThrow(),
      ticketFigures(ctx),
      ctx.db
        .selectFrom('meters')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('rid', '=', ctx.rid)
        .where('valve', '=', 'closed')
        .executeTakeFirstOrThrow(),
    ]);
    const items: BoardAlert[] = [
      {
        key: 'old_arrears',
        label: `欠费超过 ${BOARD_OLD_ARREARS_MONTHS} 个月`,
        count: old.rows[0]!.bills,
        amount: old.rows[0]!.fee,
      },
      { key: 'devices_offline', label: '设备离线', count: devices.n, amount: null },
      { key: 'repairs_overdue', label: '报修超时', count: tickets.repairs.overdue, amount: null },
      { key: 'complaints_overdue', label: '投诉超时', count: tickets.complaints.overdue, amount: null },
      { key: 'valves_closed', label: '表计关阀', count: valves.n, amount: null },
    ];
    return { items, as_of: stamp() };
  },
});

const boardpatrols = defineMethod('boardpatrols', {
  side: 'community',
  ...board,
  summary: '看板·今日巡更：任务数、应巡点与已巡点、完成率、未完成的任务数',
  async handler(ctx) {
    return { ...(await patrolDashboard(ctx.db, ctx.rid)), as_of: stamp() };
  },
});

const boardfeed = defineMethod('boardfeed', {
  side: 'community',
  ...board,
  summary: `看板·实时动态：最近 ${BOARD_FEED_SIZE} 条缴费、车辆进出与开门，姓名与车牌打码`,
  async handler(ctx) {
    const n = BOARD_FEED_SIZE;
    const [payments, gates, doors] = await Promise.all([
      ctx.db
        .selectFrom('fee_payments')
        .select(['id', 'created_at', 'payer_name', 'paid_amount', 'pay_type'])
        .where('rid', '=', ctx.rid)
        .where('status', '<>', 'V')
        .orderBy('created_at', 'desc')
        .limit(n)
        .execute(),
      ctx.db
        .selectFrom('parking_gate_events as e')
        .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'e.rid').onRef('l.id', '=', 'e.lot_id'))
        .select(['e.id', 'e.event_at', 'e.plate', 'e.direction', 'e.decision', 'l.title'])
        .where('e.rid', '=', ctx.rid)
        .orderBy('e.event_at', 'desc')
        .limit(n)
        .execute(),
      ctx.db
        .selectFrom('access_passes as p')
        .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'p.rid').onRef('d.id', '=', 'p.device_id'))
        .select(['p.id', 'p.rec_time', 'p.person_name', 'p.result', 'd.title'])
        .where('p.rid', '=', ctx.rid)
        .orderBy('p.rec_time', 'desc')
        .limit(n)
        .execute(),
    ]);
    const items: Array<BoardFeedItem & { time: number }> = [
      ...payments.map((p) => ({
        key: `payment-${p.id}`,
        time: new Date(p.created_at).getTime(),
        at: wireTime(new Date(p.created_at)),
        kind: 'payment' as const,
        text: `${maskName(p.payer_name) || '业主'} 缴费 ¥${fenToYuan(toFen(p.paid_amount))}（${PAY_TYPE_CH[p.pay_type]}）`,
      })),
      ...gates.map((g) => ({
        key: `gate-${g.id}`,
        time: new Date(g.event_at).getTime(),
        at: wireTime(new Date(g.event_at)),
        kind: 'gate' as const,
        text: `${maskPlate(g.plate)} ${g.direction === 'I' ? '驶入' : '驶出'} ${g.title}${g.decision === 'refuse' ? '（未放行）' : ''}`,
      })),
      ...doors.map((d) => ({
        key: `door-${d.id}`,
        time: new Date(d.rec_time).getTime(),
        at: wireTime(new Date(d.rec_time)),
        kind: 'door' as const,
        text: `${maskName(d.person_name) || '访客'} ${d.result === 'open' ? '开门' : '开门被拒'} ${d.title}`,
      })),
    ];
    items.sort((a, b) => b.time - a.time || b.key.localeCompare(a.key));
    return { items: items.slice(0, n).map(({ time: _time, ...item }) => item), as_of: stamp() };
  },
});

const boardgroup = defineMethod('boardgroup', {
  side: 'group',
  roles: 'staff',
  writes: false,
  board: true,
  summary: `看板·集团：本月各小区的应收、实收与收费率排名，集团近 ${BOARD_TREND_MONTHS} 个月的应收与实收`,
  async handler(ctx) {
    const month = today().slice(0, 7);
    const from = addMonths(`${month}-01`, -(BOARD_TREND_MONTHS - 1)).slice(0, 7);
    // the bills' kept totals (fees/totals.ts), as each community's own fee report reads them
    const [regions, totals] = await Promise.all([
      ctx.db.selectFrom('regions').select(['id', 'title']).where('group_id', '=', ctx.session.groupId).orderBy('id').execute(),
      sql<{ rid: number; period: string; receivable: string; received: string }>`
        SELECT t.rid, t.period, ${money('sum(t.fee)')} AS receivable, ${money("sum(t.fee) FILTER (WHERE t.status = 'Y')")} AS received
        FROM fee_bill_totals t JOIN regions r ON r.id = t.rid
        WHERE r.group_id = ${ctx.session.groupId} AND t.period >= ${from} AND t.period <= ${month}
        GROUP BY t.rid, t.period`.execute(ctx.db),
    ]);
    const byRegion = new Map<number, { receivable: bigint; received: bigint }>();
    const byMonth = new Map<string, { receivable: bigint; received: bigint }>();
    for (let m = from; m <= month; m = addMonths(`${m}-01`, 1).slice(0, 7)) byMonth.set(m, { receivable: 0n, received: 0n });
    for (const t of totals.rows) {
      const trend = byMonth.get(t.period)!;
      trend.receivable += toFen(t.receivable);
      trend.received += toFen(t.received);
      if (t.period !== month) continue;
      const region = byRegion.get(Number(t.rid)) ?? { receivable: 0n, received: 0n };
      region.receivable += toFen(t.receivable);
      region.received += toFen(t.received);
      byRegion.set(Number(t.rid), region);
    }
    const row = (v: { receivable: bigint; received: bigint }) => {
      const receivable = fenToYuan(v.receivable);
      const received = fenToYuan(v.received);
      return { receivable, received, rate: rate(received, receivable) };
    };
    const ranking: BoardCommunityRow[] = regions
      .map((r) => ({ rid: Number(r.id), title: r.title, ...row(byRegion.get(Number(r.id)) ?? { receivable: 0n, received: 0n }) }))
      .sort((a, b) => Number(toFen(b.rate) - toFen(a.rate)) || a.rid - b.rid);
    const current = byMonth.get(month)!;
    return {
      month,
      communities: regions.length,
      ...row(current),
      ranking,
      trend: [...byMonth].map(([m, v]) => ({ month: m, ...row(v) })),
      as_of: stamp(),
    };
  },
});

export const boardModule = [boardassets, boardmoney, boardorders, boardalerts, boardpatrols, boardfeed, boardgroup];
