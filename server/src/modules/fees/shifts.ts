import {
  fenToYuan,
  hasAnyRole,
  PAY_TYPE_CH,
  SHIFT_ALL_ROLES,
  SHIFT_HANDOVER_ROLES,
  SHIFT_READ_ROLES,
  toFen,
  type PayTypeName,
  type ShiftFigures,
  type ShiftMethodRow,
  type ShiftRow,
} from '@wuye/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { z } from 'zod';
import type { feesMethods } from '@wuye/contract';
import type { DB } from '../../db/schema.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import type { CashierShiftsTable } from '../../db/types.generated.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { paymentBase, toPaymentRow } from './payments.js';

/**
 * 交班 (issue 34): a cashier's shift runs from their last hand-over (or their first receipt) to now.
 * Its takings are the receipts they made in it that are not voided, by pay method; beside them the
 * refunds they asked for that were approved in it and their receipts voided in it. Handing over
 * stores those figures (cashier_shifts) and starts the next shift; finance reads every cashier's.
 */

/** How many of a shift's receipts its page and its printed 交班单 list. */
const SHIFT_ITEMS_MAX = 1000;
/** pg_advisory_xact_lock's first key: one hand-over of a cashier at a time */
const HANDOVER_LOCK = 724341;

/** A shift's time window: after `from` (none: from the cashier's first receipt) up to `to`, included. */
interface Window {
  cashierId: number;
  from: Date | null;
  to: Date;
}

const inWindow = (column: string, w: Window) =>
  w.from ? sql`${sql.ref(column)} > ${w.from} AND ${sql.ref(column)} <= ${w.to}` : sql`${sql.ref(column)} <= ${w.to}`;

/** The end of the cashier's last hand-over before `before` (any, when not given). */
async function lastEnd(ctx: CommunityCtx, cashierId: number, before?: Date): Promise<Date | null> {
  let q = ctx.db
    .selectFrom('cashier_shifts')
    .select('ended_at')
    .where('rid', '=', ctx.rid)
    .where('cashier_id', '=', cashierId)
    .orderBy('ended_at', 'desc')
    .limit(1);
  if (before) q = q.where('ended_at', '<', before);
  return (await q.executeTakeFirst())?.ended_at ?? null;
}

async function figures(ctx: CommunityCtx, w: Window, cashierName: string): Promise<ShiftFigures & { empty: boolean; start: Date }> {
  const [methods, voided, refunds] = await Promise.all([
    sql<{ pay_type: PayTypeName; count: number; amount: string; balance_used: string; first: Date }>`
      SELECT pay_type, count(*)::int AS count, sum(paid_amount)::numeric(14,2)::text AS amount,
        sum(balance_used)::numeric(14,2)::text AS balance_used, min(created_at) AS first
      FROM fee_payments WHERE rid = ${ctx.rid} AND cashier_id = ${w.cashierId} AND status <> 'V' AND ${inWindow('created_at', w)}
      GROUP BY pay_type ORDER BY pay_type`.execute(ctx.db),
    sql<{ count: number; amount: string; first: Date | null }>`
      SELECT count(*)::int AS count, coalesce(sum(paid_amount), 0)::numeric(14,2)::text AS amount, min(created_at) AS first
      FROM fee_payments WHERE rid = ${ctx.rid} AND cashier_id = ${w.cashierId} AND status = 'V' AND ${inWindow('voided_at', w)}`.execute(
      ctx.db,
    ),
    sql<{ count: number; amount: string; first: Date | null }>`
      SELECT count(*)::int AS count, coalesce(sum(cash_amount), 0)::numeric(14,2)::text AS amount, min(approved_at) AS first
      FROM fee_refunds WHERE rid = ${ctx.rid} AND applicant_id = ${w.cashierId} AND status = 'Y' AND ${inWindow('approved_at', w)}`.execute(
      ctx.db,
    ),
  ]);
  const rows: ShiftMethodRow[] = methods.rows.map((m) => ({
    pay_type: m.pay_type,
    pay_type_ch: PAY_TYPE_CH[m.pay_type],
    count: m.count,
    amount: m.amount,
    balance_used: m.balance_used,
  }));
  const v = voided.rows[0]!;
  const r = refunds.rows[0]!;
  const firsts = [...methods.rows.map((m) => m.first), v.first, r.first].filter((d): d is Date => !!d);
  const start = w.from ?? (firsts.length ? new Date(Math.min(...firsts.map((d) => d.getTime()))) : w.to);
  const receipts = rows.reduce((s, m) => s + m.count, 0);
  return {
    cashier_name: cashierName,
    start_time: wireTime(start),
    end_time: wireTime(w.to),
    methods: rows,
    receipts,
    receipts_amount: fenToYuan(rows.reduce((s, m) => s + toFen(m.amount), 0n)),
    balance_used: fenToYuan(rows.reduce((s, m) => s + toFen(m.balance_used), 0n)),
    refunds: r.count,
    refunds_amount: r.amount,
    voided: v.count,
    voided_amount: v.amount,
    empty: receipts === 0 && r.count === 0 && v.count === 0,
    start,
  };
}

/** The cashier's receipts made in the window, voided ones too, newest first (the one just taken on top). */
async function windowReceipts(ctx: CommunityCtx, w: Window) {
  const rows = await paymentBase(ctx.db, ctx.rid)
    .where('p.cashier_id', '=', w.cashierId)
    .where(sql<boolean>`${inWindow('p.created_at', w)}`)
    .orderBy('p.id', 'desc')
    .limit(SHIFT_ITEMS_MAX)
    .execute();
  return rows.map(toPaymentRow);
}

const dbNow = async (ctx: CommunityCtx) => (await sql<{ now: Date }>`SELECT clock_timestamp() AS now`.execute(ctx.db)).rows[0]!.now;

const toShiftRow = (s: Selectable<CashierShiftsTable>): ShiftRow => ({
  id: s.id,
  cashier_name: s.cashier_name,
  start_time: wireTime(s.started_at),
  end_time: wireTime(s.ended_at),
  methods: s.by_method as ShiftMethodRow[],
  receipts: s.receipts,
  receipts_amount: s.receipts_amount,
  balance_used: s.balance_used,
  refunds: s.refunds,
  refunds_amount: s.refunds_amount,
  voided: s.voided,
  voided_amount: s.voided_amount,
  remark: s.remark,
  create_time: wireTime(s.created_at),
});

const shiftcurrent = defineMethod('shiftcurrent', {
  side: 'community',
  roles: SHIFT_HANDOVER_ROLES,
  writes: false,
  summary: '当前班次：本人自上次交班（或第一笔收款）以来的收款（按支付方式）、退款、作废，及收据列表',
  async handler(ctx) {
    const cashierId = ctx.session.accountId;
    const w = { cashierId, from: await lastEnd(ctx, cashierId), to: await dbNow(ctx) };
    const [{ start: _start, ...f }, items] = await Promise.all([figures(ctx, w, ctx.session.name), windowReceipts(ctx, w)]);
    return { ...f, items };
  },
});

const shifthandover = defineMethod('shifthandover', {
  side: 'community',
  roles: SHIFT_HANDOVER_ROLES,
  writes: true,
  summary: '交班：保存本人当前班次的收款（按支付方式）、退款、作废合计，下一班次从此刻开始；同一 idempotency_key 重复提交只交一次',
  async handler(ctx, input) {
    const cashierId = ctx.session.accountId;
    await sql`SELECT pg_advisory_xact_lock(${HANDOVER_LOCK}, ${cashierId}::int)`.execute(ctx.db);
    const byKey = await ctx.db
      .selectFrom('cashier_shifts')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('idempotency_key', '=', input.idempotency_key)
      .executeTakeFirst();
    if (byKey) {
      if (byKey.cashier_id !== cashierId) fail('该交班请求编号已被使用，请刷新后重试');
      return reply(toShiftRow(byKey), '已交班');
    }
    const w = { cashierId, from: await lastEnd(ctx, cashierId), to: await dbNow(ctx) };
    const f = await figures(ctx, w, ctx.session.name);
    if (f.empty) fail('本班次没有收款、退款或作废，无需交班');
    const row = await ctx.db
      .insertInto('cashier_shifts')
      .values({
        rid: ctx.rid,
        cashier_id: cashierId,
        cashier_name: ctx.session.name,
        started_at: f.start,
        ended_at: w.to,
        by_method: JSON.stringify(f.methods),
        receipts: f.receipts,
        receipts_amount: f.receipts_amount,
        balance_used: f.balance_used,
        refunds: f.refunds,
        refunds_amount: f.refunds_amount,
        voided: f.voided,
        voided_amount: f.voided_amount,
        remark: input.remark,
        idempotency_key: input.idempotency_key,
        created_by: cashierId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return reply(toShiftRow(row), `已交班：收款 ${f.receipts} 笔，合计 ${f.receipts_amount} 元`);
  },
});

type ShiftFilters = Pick<z.infer<(typeof feesMethods)['shiftlist']>, 'cashier' | 'start_date' | 'end_date'>;

/** Whether the user reads every cashier's hand-overs, or only their own. */
const readsAll = (ctx: CommunityCtx) => hasAnyRole(ctx.session.roles, SHIFT_ALL_ROLES);

/** The hand-overs of community `rid` that the list's filters choose (shiftlist, shiftlistexport). */
function filteredShifts(db: Kysely<DB>, rid: number, input: ShiftFilters) {
  let qb = db.selectFrom('cashier_shifts as s').selectAll('s').where('s.rid', '=', rid);
  if (input.cashier) qb = qb.where(sql<boolean>`s.cashier_name ${sql.raw(containsOperator(input.cashier))} ${likePattern(input.cashier)}`);
  if (input.start_date) qb = qb.where(sql<boolean>`s.ended_at >= ${input.start_date}::date`);
  if (input.end_date) qb = qb.where(sql<boolean>`s.ended_at < ${input.end_date}::date + 1`);
  return qb;
}

const shiftlist = defineMethod('shiftlist', {
  side: 'community',
  roles: SHIFT_READ_ROLES,
  writes: false,
  summary: '交班记录：收银员看本人的，财务看本小区全部；按收银员、交班日期区间筛选，默认新的在前',
  async handler(ctx, input) {
    let qb = filteredShifts(ctx.db, ctx.rid, input);
    if (!readsAll(ctx)) qb = qb.where('s.cashier_id', '=', ctx.session.accountId);
    const page = await listPage(qb, input, 's.id');
    return { total: page.total, items: page.items.map((s) => toShiftRow(s)) };
  },
});

/** The methods' columns of the export: one per way of paying that any hand-over of the sheet used. */
const methodColumns = (rows: ShiftRow[]) =>
  [...new Set(rows.flatMap((r) => r.methods.map((m) => m.pay_type)))].sort().map((type) => ({
    header: PAY_TYPE_CH[type],
    value: (r: ShiftRow) => r.methods.find((m) => m.pay_type === type)?.amount ?? '0.00',
  }));

const shiftlistexport = defineExport('shiftlistexport', {
  // finance reconciles every cashier's hand-overs; a cashier reads their own on the page
  roles: SHIFT_ALL_ROLES,
  summary: '按交班记录的筛选条件导出 Excel：每次交班的时段、各支付方式收款、余额抵扣、退款、作废与备注（最多 10 万行）',
  filename: () => `交班记录_${today()}.xlsx`,
  async check(scope, input) {
    await refuseOversizedExport(scope.db, filteredShifts(scope.db, scope.rid, input).clearSelect().select('s.id'));
  },
  async sheet(scope, input) {
    const rows = (await filteredShifts(scope.db, scope.rid, input).orderBy('s.id', input.sort).limit(EXPORT_MAX).execute()).map((s) =>
      toShiftRow(s),
    );
    return sheetOf(
      '交班记录',
      [
        { header: '收银员', value: (r) => r.cashier_name },
        { header: '开始时间', value: (r) => r.start_time, width: 20 },
        { header: '交班时间', value: (r) => r.end_time, width: 20 },
        { header: '收据数', value: (r) => r.receipts },
        { header: '收款合计', value: (r) => r.receipts_amount },
        ...methodColumns(rows),
        { header: '余额抵扣', value: (r) => r.balance_used },
        { header: '退款笔数', value: (r) => r.refunds },
        { header: '退款金额', value: (r) => r.refunds_amount },
        { header: '作废笔数', value: (r) => r.voided },
        { header: '作废金额', value: (r) => r.voided_amount },
        { header: '备注', value: (r) => r.remark, width: 24 },
      ],
      rows,
    );
  },
});

const shiftinfo = defineMethod('shiftinfo', {
  side: 'community',
  roles: SHIFT_READ_ROLES,
  writes: false,
  summary: '一张交班单：合计（按支付方式）、退款、作废与本班次的收据，用于打印',
  async handler(ctx, input) {
    const s = await ctx.db
      .selectFrom('cashier_shifts')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!s || (!readsAll(ctx) && s.cashier_id !== ctx.session.accountId)) fail('交班单不存在');
    const from = await lastEnd(ctx, s.cashier_id, s.ended_at);
    const [region, items] = await Promise.all([
      ctx.db.selectFrom('regions').select('title').where('id', '=', ctx.rid).executeTakeFirstOrThrow(),
      windowReceipts(ctx, { cashierId: s.cashier_id, from, to: s.ended_at }),
    ]);
    return { ...toShiftRow(s), region_title: region.title, items };
  },
});

export const shiftMethods = [shiftcurrent, shifthandover, shiftlist, shiftinfo, shiftlistexport];
