/**
 * Monthly cars (/carpark/moncarlist, /carpark/monthcarlog; docs/product.md#carpark): the days left,
 * renewals at the lot's monthly price of the car's kind or by paying the car's parking bill at the
 * cashier, the renewal orders (written once, never changed), the car's history, and the daily to-do
 * of cars ending soon. A renewal's new end is max(old end, today) + months: it never shortens a
 * lease and never charges for days already past.
 */
import {
  CAR_LOG_ACTION,
  RENEW_PAY_TYPE,
  RENEW_SOURCE,
  enumText,
  fenToYuan,
  normalizePlate,
  payMethodLabel,
  toFen,
  type PayTypeName,
  type RenewalItem,
} from '@wuye/contract';
import { CARPARK_ROLES } from '@wuye/contract/carpark/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { registerDailyJob, registerJobKind } from '../../jobs/queue.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf, type SheetColumn } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import { registerBillPaidListener } from '../fees/billPaid.js';
import { requirePayType } from '../leader/paytypes.js';
import { registerBacklogSource } from '../setup/backlog.js';
import { carLog } from './cars.js';

/** The to-do of a monthly car ending soon: one per car and end day (source id `<car>-<end>`). */
export const carparkBacklog = registerBacklogSource({
  kind: 'carpark',
  roles: CARPARK_ROLES.staff,
  link: (sourceId) => `/carpark/moncarlist?carlicense=${encodeURIComponent(sourceId.split('|')[1] ?? '')}`,
});

const priceColumn = sql<string>`(CASE c.car_type WHEN 'large' THEN l.price_large WHEN 'new_energy' THEN l.price_new_energy ELSE l.price_small END)::text`;

/** The monthly main cars of a community with their lot, space, room and price. */
const monthlyCars = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('cars as c')
    // a monthly car always has its lot and its room (foreign keys; lot_id is set with the lease): left
    // joins, so the list's count reads the monthly cars alone through their index
    .leftJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'c.rid').onRef('l.id', '=', 'c.lot_id'))
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'c.rid').onRef('r.id', '=', 'c.hid'))
    .leftJoin('members as m', (j) => j.onRef('m.rid', '=', 'c.rid').onRef('m.id', '=', 'c.member_id'))
    .leftJoin('parking_spaces as s', (j) => j.onRef('s.rid', '=', 'c.rid').onRef('s.id', '=', 'c.space_id'))
    .where('c.rid', '=', rid)
    .where('c.lease_type', '=', 'M')
    .where('c.main_car_id', 'is', null);

const moncarlist = defineMethod('moncarlist', {
  side: 'community',
  roles: CARPARK_ROLES.staff,
  writes: false,
  summary:
    '月租车列表：车牌、车型、停车场、车位、房屋、车主、起止日期、剩余天数（负数为已过期天数）、该车型月租价；可按停车场、车牌、N 天内到期、已过期筛选，按到期日排序',
  async handler(ctx, input) {
    let qb = monthlyCars(ctx.db, ctx.rid)
      .select(['c.id', 'c.carlicense', 'c.car_type', 'c.lot_id', 'c.start_date', 'c.end_date'])
      .select(sql<string>`coalesce(l.title, '')`.as('lot_title'))
      .select(sql<string>`coalesce(r.address, '')`.as('address'))
      .select(sql<string>`coalesce(s.title, '')`.as('space_title'))
      .select(sql<string>`coalesce(m.realname, '')`.as('realname'))
      .select(sql<string>`coalesce(m.mobile, '')`.as('mobile'))
      .select(sql<number | null>`(c.end_date - current_date)`.as('days_left'))
      .select(priceColumn.as('month_price'));
    if (input.lot_id) qb = qb.where('c.lot_id', '=', input.lot_id);
    if (input.carlicense) qb = qb.where('c.carlicense', 'ilike', likePattern(normalizePlate(input.carlicense)));
    if (typeof input.expiring === 'number')
      qb = qb.where(sql<boolean>`c.end_date BETWEEN current_date AND current_date + ${input.expiring}::int`);
    if (input.expired === 'Y') qb = qb.where(sql<boolean>`c.end_date < current_date`);
    if (input.expired === 'N') qb = qb.where(sql<boolean>`c.end_date >= current_date`);
    const page = await listPage(qb.orderBy('c.end_date').orderBy('c.id'), { ...input, sort: 'asc' } as never, 'c.id', qb);
    return {
      total: page.total,
      items: page.items.map((c) => ({
        ...c,
        id: Number(c.id),
        lot_id: Number(c.lot_id),
        car_type_ch: enumText({ small: { text: '小型车' }, large: { text: '大型车' }, new_energy: { text: '新能源车' } }, c.car_type),
        start_date: c.start_date ?? '',
        end_date: c.end_date ?? '',
        days_left: c.days_left === null ? null : Number(c.days_left),
      })),
    };
  },
});

/** Extends a monthly main car (and its member cars and its space) by `months`, writing the order and the history. */
export async function renewCar(
  ctx: CommunityCtx,
  carId: number,
  months: number,
  order: {
    amount: string;
    source: 'D' | 'C';
    payType: string;
    /** the group's own way it was taken by (自定义支付方式), and its reference */
    method?: { id: number | null; name: string; ref: string };
    billId?: number;
    receiptNo?: string;
  },
): Promise<RenewalItem> {
  const c = await ctx.db
    .selectFrom('cars')
    .select(['id', 'carlicense', 'lot_id', 'space_id', 'lease_type', 'main_car_id', 'end_date'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', carId)
    .forUpdate()
    .executeTakeFirst();
  if (!c) return fail('车辆不存在');
  if (c.lease_type !== 'M' || c.lot_id === null) fail(`车辆 ${c.carlicense} 不是月租车`);
  if (c.main_car_id !== null) fail(`车辆 ${c.carlicense} 是成员车辆，请为其主车续费`);
  // max(old end, today) + months: a lapsed lease restarts today, a running one is extended from its end
  const { new_end } = await sql<{ new_end: string }>`
    SELECT (greatest(coalesce(${c.end_date}::date, current_date), current_date) + make_interval(months => ${months}::int))::date::text AS new_end`
    .execute(ctx.db)
    .then((r) => r.rows[0]!);
  await ctx.db
    .updateTable('cars')
    .set({ end_date: new_end })
    .where('rid', '=', ctx.rid)
    .where((eb) => eb.or([eb('id', '=', carId), eb('main_car_id', '=', carId)]))
    .execute();
  if (c.space_id !== null)
    await ctx.db
      .updateTable('parking_spaces')
      .set({ end_date: new_end })
      .where('rid', '=', ctx.rid)
      .where('id', '=', Number(c.space_id))
      .execute();
  const row = await ctx.db
    .insertInto('parking_renewals')
    .values({
      rid: ctx.rid,
      car_id: carId,
      carlicense: c.carlicense,
      lot_id: Number(c.lot_id),
      months,
      amount: order.amount,
      old_end: c.end_date,
      new_end,
      source: order.source,
      pay_type: order.payType,
      pay_method_id: order.method?.id ?? null,
      pay_method: order.method?.name ?? '',
      pay_ref: order.method?.ref ?? '',
      bill_id: order.billId ?? null,
      receipt_no: order.receiptNo ?? '',
      cashier_id: ctx.session.accountId,
      cashier_name: ctx.session.name,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await carLog(
    ctx,
    carId,
    c.carlicense,
    'renew',
    `续费 ${months} 个月 ${order.amount} 元（${enumText(RENEW_SOURCE, order.source)}），到期 ${c.end_date ?? '无'} → ${new_end}`,
  );
  // its to-do of the old end is done
  if (c.end_date) await carparkBacklog.settle(ctx.db, ctx.rid, backlogId(carId, c.carlicense, c.end_date), ctx.session.accountId);
  const [item] = await orderRows(ctx.db, ctx.rid).where('o.id', '=', Number(row.id)).execute();
  return toOrder(item!);
}

const backlogId = (carId: number, plate: string, end: string) => `${carId}|${plate}|${end}`;

const moncarrenew = defineMethod('moncarrenew', {
  side: 'community',
  roles: CARPARK_ROLES.staff,
  writes: true,
  summary:
    '月租车续费：按停车场该车型的月租价 × 月数收费，新到期日 = max(原到期日, 今天) + 月数（不缩短、不补收过去的天数）；写入不可更改的续费订单与车辆变更记录',
  async handler(ctx, input) {
    const c = await monthlyCars(ctx.db, ctx.rid)
      .select(['c.id', 'c.carlicense'])
      .select(priceColumn.as('price'))
      .where('c.id', '=', input.id)
      .executeTakeFirst();
    if (!c) {
      const any = await ctx.db
        .selectFrom('cars')
        .select('carlicense')
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.id)
        .executeTakeFirst();
      return fail(any ? `车辆 ${any.carlicense} 不是月租车（或是成员车辆，请为其主车续费）` : '车辆不存在');
    }
    const due = toFen(c.price) * BigInt(input.months);
    if (due === 0n) fail('该停车场未设置此车型的月租价，请先在停车场设置中填写');
    if (toFen(input.amount) !== due) fail(`金额与应收不符：应收 ${fenToYuan(due)} 元，请刷新后重试`);
    // the group's rules for the way (支付方式): a disabled one, a missing reference, an own way of another base are refused
    const method = await requirePayType(ctx.db, ctx.session.groupId, input.pay_type, input.pay_ref, input.pay_method_id);
    const order = await renewCar(ctx, input.id, input.months, {
      amount: fenToYuan(due),
      source: 'D',
      payType: input.pay_type,
      method: { ...method, ref: input.pay_ref },
    });
    return reply(order, `续费成功，新到期日 ${order.new_end}`);
  },
});

// a parking bill paid at the cashier renews a monthly car by the months its fee item bills at a
// time: a bill of the car, or of the space the car rents (a space's 车位管理费 is its holder's rent)
registerBillPaidListener(async (ctx, billIds, receiptNo) => {
  const bills = await ctx.db
    .selectFrom('fee_bills as b')
    .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
    .innerJoin('cars as c', (j) =>
      j
        .onRef('c.rid', '=', 'b.rid')
        .on((eb) =>
          eb.or([eb('c.id', '=', eb.ref('b.car_id')), eb.and([eb('b.car_id', '=', 0), eb('c.space_id', '=', eb.ref('b.space_id'))])]),
        ),
    )
    .leftJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'b.rid').onRef('p.id', '=', 'b.payment_id'))
    .select(['b.id', 'c.id as car_id', 'b.fee', 'i.cycle_months', 'p.pay_method_id'])
    .select(sql<string>`coalesce(p.pay_type, '')`.as('pay_type'))
    .select(sql<string>`coalesce(p.pay_method, '')`.as('pay_method'))
    .select(sql<string>`coalesce(p.pay_ref, '')`.as('pay_ref'))
    .where('b.rid', '=', ctx.rid)
    .where('b.id', 'in', [...billIds])
    .where('b.cost_type', '=', 'parking')
    .where('c.lease_type', '=', 'M')
    .where('c.main_car_id', 'is', null)
    .where('c.lot_id', 'is not', null)
    .orderBy('c.id')
    .orderBy('b.id')
    .execute();
  for (const b of bills)
    await renewCar(ctx, Number(b.car_id), b.cycle_months, {
      amount: String(b.fee),
      source: 'C',
      payType: b.pay_type,
      // the receipt's way, as its row in 收费记录 shows it
      method: { id: b.pay_method_id === null ? null : Number(b.pay_method_id), name: b.pay_method, ref: b.pay_ref },
      billId: Number(b.id),
      receiptNo,
    });
});

const orderRows = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('parking_renewals as o')
    .leftJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'o.rid').onRef('l.id', '=', 'o.lot_id'))
    .select(['o.id', 'o.car_id', 'o.carlicense', 'o.months', 'o.amount', 'o.old_end', 'o.new_end', 'o.source', 'o.pay_type'])
    .select(['o.pay_method', 'o.pay_ref'])
    .select(['o.receipt_no', 'o.cashier_name', 'o.created_at'])
    .select(sql<string>`coalesce(l.title, '')`.as('lot_title'))
    .where('o.rid', '=', rid);

type OrderRow = Awaited<ReturnType<ReturnType<typeof orderRows>['execute']>>[number];
const toOrder = (o: OrderRow): RenewalItem => ({
  id: Number(o.id),
  car_id: Number(o.car_id),
  carlicense: o.carlicense,
  lot_title: o.lot_title,
  months: o.months,
  amount: String(o.amount),
  old_end: o.old_end ?? '',
  new_end: o.new_end,
  source: o.source as 'D' | 'C',
  source_ch: enumText(RENEW_SOURCE, o.source),
  pay_type: o.pay_type,
  pay_type_ch: o.pay_method
    ? payMethodLabel(o.pay_type as PayTypeName, o.pay_method)
    : o.pay_type === 'balance'
      ? '余额'
      : enumText(RENEW_PAY_TYPE, o.pay_type),
  pay_ref: o.pay_ref,
  receipt_no: o.receipt_no,
  cashier_name: o.cashier_name,
  create_time: wireTime(o.created_at),
});

type DayRange = [string, string] | undefined;
interface OrderFilters {
  car_id?: number;
  carlicense?: string;
  lot_id?: number;
  source?: string;
  date?: DayRange;
}
function filteredOrders(db: Kysely<DB>, rid: number, f: OrderFilters) {
  let qb = orderRows(db, rid);
  if (f.car_id) qb = qb.where('o.car_id', '=', f.car_id);
  if (f.carlicense) qb = qb.where('o.carlicense', 'ilike', likePattern(normalizePlate(f.carlicense)));
  if (f.lot_id) qb = qb.where('o.lot_id', '=', f.lot_id);
  if (f.source) qb = qb.where('o.source', '=', f.source as 'D' | 'C');
  if (f.date) qb = qb.where(withinDays('o.created_at', f.date));
  return qb;
}

const monthcarorderlist = defineMethod('monthcarorderlist', {
  side: 'community',
  roles: CARPARK_ROLES.staff,
  writes: false,
  summary:
    '月租续费订单：车牌、停车场、月数、金额、原到期日、新到期日、来源（停车管理/收银台）、支付方式、收据号、收款人、时间；可按车辆、车牌、停车场、来源、日期筛选（最新在前）',
  async handler(ctx, input) {
    const qb = filteredOrders(ctx.db, ctx.rid, input);
    const page = await listPage(qb.orderBy('o.id', 'desc'), { ...input, sort: 'desc' } as never, 'o.id', qb);
    return { total: page.total, items: page.items.map(toOrder) };
  },
});

const ORDER_COLUMNS: SheetColumn<RenewalItem>[] = [
  { header: 'ID', value: (r) => r.id, width: 8 },
  { header: '车牌号', value: (r) => r.carlicense },
  { header: '停车场', value: (r) => r.lot_title },
  { header: '月数', value: (r) => r.months },
  { header: '金额（元）', value: (r) => r.amount },
  { header: '原到期日', value: (r) => r.old_end },
  { header: '新到期日', value: (r) => r.new_end },
  { header: '来源', value: (r) => r.source_ch },
  { header: '支付方式', value: (r) => r.pay_type_ch },
  { header: '凭证号', value: (r) => r.pay_ref },
  { header: '收据号', value: (r) => r.receipt_no },
  { header: '收款人', value: (r) => r.cashier_name },
  { header: '时间', value: (r) => r.create_time },
];

const monthcarorderexport = defineExport('monthcarorderexport', {
  roles: CARPARK_ROLES.staff,
  summary: '按当前筛选条件导出月租续费订单（Excel）',
  filename: () => `月租续费订单_${today()}.xlsx`,
  check: async ({ db, rid }, input) => refuseOversizedExport(db, filteredOrders(db, rid, input)),
  async sheet({ db, rid }, input) {
    const rows = await filteredOrders(db, rid, input).orderBy('o.id', 'desc').limit(EXPORT_MAX).execute();
    return sheetOf('月租续费订单', ORDER_COLUMNS, rows.map(toOrder));
  },
});

interface LogFilters {
  car_id?: number;
  carlicense?: string;
  action?: string;
  date?: DayRange;
}
function filteredLogs(db: Kysely<DB>, rid: number, f: LogFilters) {
  let qb = db
    .selectFrom('parking_car_logs as g')
    .select(['g.id', 'g.car_id', 'g.carlicense', 'g.action', 'g.content', 'g.created_by_name', 'g.created_at'])
    .where('g.rid', '=', rid);
  if (f.car_id) qb = qb.where('g.car_id', '=', f.car_id);
  if (f.carlicense) qb = qb.where('g.carlicense', 'ilike', likePattern(normalizePlate(f.carlicense)));
  if (f.action) qb = qb.where('g.action', '=', f.action);
  if (f.date) qb = qb.where(withinDays('g.created_at', f.date));
  return qb;
}
type LogRow = Awaited<ReturnType<ReturnType<typeof filteredLogs>['execute']>>[number];
const toLog = (g: LogRow) => ({
  id: Number(g.id),
  car_id: Number(g.car_id),
  carlicense: g.carlicense,
  action: g.action as keyof typeof CAR_LOG_ACTION,
  action_ch: enumText(CAR_LOG_ACTION, g.action),
  content: g.content,
  created_by_name: g.created_by_name,
  create_time: wireTime(g.created_at),
});

const monthcarlog = defineMethod('monthcarlog', {
  side: 'community',
  roles: CARPARK_ROLES.staff,
  writes: false,
  summary: '车辆变更记录：新增、编辑、释放车位、分配车位、续费、删除，含操作内容、操作人与时间；可按车辆、车牌、操作、日期筛选（最新在前）',
  async handler(ctx, input) {
    const qb = filteredLogs(ctx.db, ctx.rid, input);
    const page = await listPage(qb.orderBy('g.id', 'desc'), { ...input, sort: 'desc' } as never, 'g.id', qb);
    return { total: page.total, items: page.items.map(toLog) };
  },
});

const monthcarlogexport = defineExport('monthcarlogexport', {
  roles: CARPARK_ROLES.staff,
  summary: '按当前筛选条件导出车辆变更记录（Excel）',
  filename: () => `车辆变更记录_${today()}.xlsx`,
  check: async ({ db, rid }, input) => refuseOversizedExport(db, filteredLogs(db, rid, input)),
  async sheet({ db, rid }, input) {
    const rows = (await filteredLogs(db, rid, input).orderBy('g.id', 'desc').limit(EXPORT_MAX).execute()).map(toLog);
    const columns: SheetColumn<ReturnType<typeof toLog>>[] = [
      { header: 'ID', value: (r) => r.id, width: 8 },
      { header: '车牌号', value: (r) => r.carlicense },
      { header: '操作', value: (r) => r.action_ch },
      { header: '内容', value: (r) => r.content, width: 40 },
      { header: '操作人', value: (r) => r.created_by_name },
      { header: '时间', value: (r) => r.create_time },
    ];
    return sheetOf('车辆变更记录', columns, rows);
  },
});

/** Raises a to-do for each monthly car ending within its lot's warning days (once per car and end day). */
export async function raiseExpiring(db: Kysely<DB>, rid?: number): Promise<number> {
  let qb = db
    .selectFrom('cars as c')
    .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'c.rid').onRef('l.id', '=', 'c.lot_id'))
    .leftJoin('parking_spaces as s', (j) => j.onRef('s.rid', '=', 'c.rid').onRef('s.id', '=', 'c.space_id'))
    .select(['c.rid', 'c.id', 'c.carlicense', 'c.end_date', 'l.title as lot_title'])
    .select(sql<string>`coalesce(s.title, '')`.as('space_title'))
    .select(sql<number>`(c.end_date - current_date)`.as('days'))
    .where('c.lease_type', '=', 'M')
    .where('c.main_car_id', 'is', null)
    .where('c.end_date', 'is not', null)
    .where(sql<boolean>`c.end_date BETWEEN current_date AND current_date + l.warn_days`)
    // once per car and end day: a to-do already raised (pending or done) is left alone
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('backlog as b')
            .select('b.id')
            .whereRef('b.rid', '=', 'c.rid')
            .where('b.kind', '=', 'carpark')
            .where('b.source_id', '=', sql<string>`c.id || '|' || c.carlicense || '|' || c.end_date::text`),
        ),
      ),
    );
  if (rid !== undefined) qb = qb.where('c.rid', '=', rid);
  const cars = await qb.orderBy('c.rid').orderBy('c.id').limit(5000).execute();
  for (const c of cars)
    await carparkBacklog.raise(db, c.rid, {
      sourceId: backlogId(Number(c.id), c.carlicense, c.end_date!),
      title: `月租车 ${c.carlicense} ${Number(c.days) === 0 ? '今天' : `${c.days} 天后`}到期`,
      content: `${c.lot_title}${c.space_title ? ` ${c.space_title}` : ''}，到期日 ${c.end_date}，请提醒车主续费`,
    });
  return cars.length;
}

export const MONTHLY_EXPIRING = 'carpark_monthly_expiring';
registerJobKind(MONTHLY_EXPIRING, async (ctx) => {
  await raiseExpiring(ctx.db);
});
registerDailyJob(MONTHLY_EXPIRING, {});

export const monthlyModule = [moncarlist, moncarrenew, monthcarorderlist, monthcarorderexport, monthcarlog, monthcarlogexport];
