import {
  FEE_ROLES,
  BILL_STATUS_CH,
  fenToYuan,
  MSG_FEES,
  toFen,
  type BillStatus,
  type CashierBill,
  type CashierOwnerRoom,
  type Paging,
  type PaymentInfo,
  type PayTypeName,
} from '@wuye/contract';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type Reply } from '../../http/registry.js';
import type { z } from 'zod';
import type { feesMethods } from '@wuye/contract';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { defineExport, type ExportScope } from '../../jobs/exports.js';
import { keywordCount, keywordPage, listPage, pageWithTotal, type KeywordPart } from '../../lib/paging.js';
import { today } from '../../lib/wire.js';
import { moveBalance } from '../cards/ledger.js';
import { balanceFen, houseOwner, payableRooms } from './balance.js';
import { billLateFee, roomArrearsJoin, toArrears } from './arrears.js';
import {
  paymentBase,
  paymentInfo,
  receiptFilters,
  receiptKeyword,
  receiptKeywordParts,
  receiptNumberPart,
  receiptRows,
  toPaymentRow,
} from './payments.js';
import { requirePayType } from '../leader/paytypes.js';
import { billsPaid } from './billPaid.js';
import { approvedDiscount, useDiscount } from './discounts.js';
import { checkDiscount, feeSettings } from './settings.js';

export type Room = Awaited<ReturnType<typeof house>>;

/** The room of the community with its address, or refuses. */
export async function house(ctx: CommunityCtx, hid: number) {
  const room = await ctx.db
    .selectFrom('rooms as r')
    .select(['r.id', 'r.rid', 'r.bid', 'r.tid', 'r.address'])
    .where('r.rid', '=', ctx.rid)
    .where('r.id', '=', hid)
    .executeTakeFirst();
  if (!room) fail('房屋不存在');
  return room;
}

/** Bills of the community with their late fee on `day` (fee_late_fee, the one computation: fees/arrears.ts). */
function billsQuery(ctx: CommunityCtx, day: string) {
  return ctx.db
    .selectFrom('fee_bills as b')
    .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.id', '=', 'b.item_id'))
    .select([
      'b.id',
      'b.hid',
      'b.title',
      'b.cost_type',
      'b.period',
      'b.daterange',
      'b.measure',
      'b.unit_price',
      'b.fee',
      'b.status',
      'b.due_date',
      'b.space_id',
      'b.car_id',
      'i.balance_pay',
      'i.title as item_title',
      billLateFee(day).as('late_fee_now'),
    ])
    .where('b.rid', '=', ctx.rid);
}

/**
 * The other rooms of the community that the room's owner owns (relation owner, living there or not
 * now), with what each owes: the desk offers them, so one receipt pays several rooms of one owner.
 */
async function ownerRooms(ctx: CommunityCtx, hid: number, memberId: number): Promise<CashierOwnerRoom[]> {
  const rows = await sql<{ hid: number; bid: number; tid: number; address: string; bill_count: number; fee: string; late_fee: string }>`
    SELECT r.id AS hid, r.bid, r.tid, r.address, a.bill_count, a.fee::numeric(14,2)::text AS fee, a.late_fee::numeric(14,2)::text AS late_fee
    FROM room_members rm JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
    ${roomArrearsJoin(ctx.rid, sql`r.id`, today(), 'a')}
    WHERE rm.rid = ${ctx.rid} AND rm.member_id = ${memberId} AND rm.relation = 'owner' AND rm.status = 'Y' AND rm.hid <> ${hid}
    ORDER BY r.building_sort, r.bid, r.unit_sort, r.tid, r.floor, r.title`.execute(ctx.db);
  return rows.rows.map((r) => ({ hid: r.hid, bid: r.bid, tid: r.tid, address: r.address, arrears: toArrears(r) }));
}

const cashierbills = defineMethod('cashierbills', {
  side: 'community',
  roles: FEE_ROLES.cashier,
  writes: false,
  summary: '收银台：一个房屋的未缴账单（含今日滞纳金）、合计、业主与余额',
  async handler(ctx, input) {
    const room = await house(ctx, input.hid);
    const [rows, owner] = await Promise.all([
      billsQuery(ctx, today()).where('b.hid', '=', input.hid).where('b.status', '<>', 'Y').orderBy('b.period').orderBy('b.id').execute(),
      houseOwner(ctx.db, ctx.rid, input.hid),
    ]);
    let feeSum = 0n;
    let lateSum = 0n;
    const items: CashierBill[] = rows.map((b) => {
      const fee = toFen(b.fee);
      const late = toFen(b.late_fee_now);
      feeSum += fee;
      lateSum += late;
      return {
        id: b.id,
        hid: b.hid,
        title: b.title,
        cost_type: b.cost_type,
        period: b.period,
        daterange: b.daterange,
        measure: b.measure,
        unit_price: b.unit_price,
        fee: b.fee,
        late_fee: fenToYuan(late),
        total: fenToYuan(fee + late),
        status: b.status as BillStatus,
        status_ch: BILL_STATUS_CH[b.status as BillStatus],
        due_date: b.due_date,
        space_id: b.space_id,
        car_id: b.car_id,
        balance_pay: b.balance_pay as 'Y' | 'N',
      };
    });
    const card = owner
      ? await ctx.db
          .selectFrom('member_cards')
          .select(['id', 'card_no', 'status'])
          .where('rid', '=', ctx.rid)
          .where('member_id', '=', owner.member_id)
          .where('status', 'in', ['I', 'Y', 'F'])
          .executeTakeFirst()
      : undefined;
    return {
      house: {
        hid: room.id,
        rid: room.rid,
        bid: room.bid,
        tid: room.tid,
        address: room.address,
        owner_name: owner?.realname ?? '',
        member_id: owner?.member_id ?? 0,
        balance: owner?.balance ?? '0.00',
        card_id: card?.id ?? 0,
        card_no: card?.card_no ?? '',
        card_status: card?.status ?? '',
      },
      owner_rooms: owner ? await ownerRooms(ctx, room.id, owner.member_id) : [],
      items,
      totals: { receivable: fenToYuan(feeSum), late_fee: fenToYuan(lateSum), total: fenToYuan(feeSum + lateSum) },
    };
  },
});

/** The payment a key already made, if any. */
export async function byKey(ctx: CommunityCtx, key: string) {
  return ctx.db
    .selectFrom('fee_payments')
    .select(['id', 'hid'])
    .where('rid', '=', ctx.rid)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** A retry with the same key answers the payment it made, once it is sure the key was used for this room. */
export async function replay(ctx: CommunityCtx, found: { id: number; hid: number | null }, hid: number) {
  if (found.hid !== hid) fail('该收费请求编号已用于其他房屋，请刷新后重试');
  return reply(await paymentInfo(ctx.db, ctx.rid, found.id), '收费成功');
}

/** Next receipt number of the community: one counter row, bumped in the payment's transaction, after the settings' prefix. */
export async function nextReceiptNo(ctx: CommunityCtx, prefix: string): Promise<string> {
  const res = await sql<{ last_no: number }>`
    INSERT INTO fee_receipt_counters (rid, last_no) VALUES (${ctx.rid}, 1)
    ON CONFLICT (rid) DO UPDATE SET last_no = fee_receipt_counters.last_no + 1
    RETURNING last_no`.execute(ctx.db);
  return prefix + String(res.rows[0]!.last_no).padStart(8, '0');
}

/**
 * What other areas do in a payment's transaction once it is written (the invoices' 自动开票, the
 * coupon rules' gifts); what a hook answers is said to the cashier after 收费成功.
 */
export type AfterPayment = (
  ctx: CommunityCtx,
  payment: { id: number; pay_type: string; member_id: number | null },
) => Promise<string[] | void>;
const afterPaymentHooks: AfterPayment[] = [];
export function afterPayment(hook: AfterPayment): void {
  afterPaymentHooks.push(hook);
}

/** What other areas undo in the transaction that voids a payment or refunds lines of it (the coupons a rule gave). */
export type PaymentUndone = (ctx: CommunityCtx, payment: { id: number; receipt_no: string }) => Promise<void>;
const paymentUndoneHooks: PaymentUndone[] = [];
export function onPaymentUndone(hook: PaymentUndone): void {
  paymentUndoneHooks.push(hook);
}
/** Called once the payment's status and lines say what is left of it. */
export async function paymentUndone(ctx: CommunityCtx, payment: { id: number; receipt_no: string }): Promise<void> {
  for (const hook of paymentUndoneHooks) await hook(ctx, payment);
}

export interface PayRequest {
  billIds: number[];
  payType: PayTypeName;
  /** the group's own way on payType (paytypelist), when one was chosen */
  payMethodId?: number | undefined;
  /** the reference the group's rules for the method may ask for (paytypelist) */
  payRef?: string | undefined;
  /** undefined: exactly what is due */
  paidAmount?: string | undefined;
  useBalance: boolean;
  discount: string;
  idempotencyKey: string;
  remark: string;
  /** who paid, when not the room's owner */
  payerName?: string;
  /** an approved discount request of the cashier's for exactly these bills (discounts.ts) */
  discountRequestId?: number | undefined;
}

/**
 * The one payment path (cashier desk and quick payments), inside the caller's transaction:
 * locks the bills in id order, computes late fees, discount (within the fee settings), balance
 * used and change to the balance, numbers the receipt, writes payment and lines, marks the bills
 * paid and moves the owner's balance. The bills are the room's, or also of other rooms its owner
 * owns in the community (one receipt for several rooms of one owner; the receipt is the room's,
 * each line names its bill's room). The caller has checked the key was not used.
 */
export async function payBills(ctx: CommunityCtx, room: Room, req: PayRequest): Promise<Reply<PaymentInfo>> {
  const method = await requirePayType(ctx.db, ctx.session.groupId, req.payType, req.payRef, req.payMethodId);
  const hid = room.id;
  const ids = [...new Set(req.billIds)].sort((a, b) => a - b);
  // lock in id order so two cashiers never deadlock; a second payer waits here, then sees Y
  const locked = await ctx.db
    .selectFrom('fee_bills')
    .select(['id', 'hid', 'status'])
    .where('rid', '=', ctx.rid)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  const again = await byKey(ctx, req.idempotencyKey);
  if (again) return replay(ctx, again, hid);
  if (locked.length !== ids.length) fail(MSG_FEES.billNotFound);
  // the owner's row (and with it who owns which room) is locked before the rooms are checked
  const owner = await houseOwner(ctx.db, ctx.rid, hid, true);
  if (locked.some((b) => b.hid !== hid)) {
    const rooms = await payableRooms(ctx.db, ctx.rid, hid, owner?.member_id);
    if (locked.some((b) => !rooms.has(b.hid))) fail(owner ? '所选账单不属于该业主的房屋' : '所选账单不属于该房屋');
  }
  if (locked.some((b) => b.status === 'Y')) fail(MSG_FEES.billPaid);

  const bills = await billsQuery(ctx, today()).where('b.id', 'in', ids).orderBy('b.id').execute();
  const lines = bills.map((b) => ({ ...b, lateFen: toFen(b.late_fee_now) }));
  const receivable = lines.reduce((s, b) => s + toFen(b.fee), 0n);
  const late = lines.reduce((s, b) => s + b.lateFen, 0n);
  const discount = toFen(req.discount);
  if (discount > receivable + late) fail('优惠金额不能大于应收合计');
  const settings = await feeSettings(ctx.db, ctx.rid);
  // a discount above the cap a manager approved: for exactly these bills, once (locked until the payment commits)
  const approved = req.discountRequestId ? await approvedDiscount(ctx, req.discountRequestId, ids, receivable, discount) : undefined;
  checkDiscount(settings, discount, receivable + late, ctx.session.roles, !!approved);
  const total = receivable + late - discount;

  const useBalance = req.useBalance || req.payType === 'balance';
  // the balance pays only the items that allow it (收费项目's 余额支付)
  const barred = [...new Set(lines.filter((b) => b.balance_pay !== 'Y').map((b) => b.item_title))];
  if (req.payType === 'balance' && barred.length) fail(`收费项目「${barred.join('、')}」不允许余额支付，请选择其他支付方式`);
  const payable = barred.length ? lines.filter((b) => b.balance_pay === 'Y').reduce((s, b) => s + toFen(b.fee) + b.lateFen, 0n) : total;
  const cap = payable < total ? payable : total;
  const balanceUsed = useBalance ? (balanceFen(owner) < cap ? balanceFen(owner) : cap) : 0n;
  const due = total - balanceUsed;
  if (req.payType === 'balance' && due > 0n) fail(`业主余额不足，还差 ${fenToYuan(due)} 元`);
  const paid = req.paidAmount === undefined ? due : toFen(req.paidAmount);
  if (paid < due) fail(`实收金额不能少于应收金额 ${fenToYuan(due)} 元`);
  const toBalance = paid - due;
  if (toBalance > 0n && !owner) fail('该房屋没有登记业主，多收的金额无法转入余额，请按应收金额收款');

  const receiptNo = await nextReceiptNo(ctx, settings.receipt_prefix);
  const payment = await ctx.db
    .insertInto('fee_payments')
    .values({
      rid: ctx.rid,
      receipt_no: receiptNo,
      hid: room.id,
      bid: room.bid,
      tid: room.tid,
      member_id: owner?.member_id ?? null,
      payer_name: req.payerName || owner?.realname || '',
      receivable: fenToYuan(receivable),
      late_fee: fenToYuan(late),
      discount: fenToYuan(discount),
      balance_used: fenToYuan(balanceUsed),
      due: fenToYuan(due),
      paid_amount: fenToYuan(paid),
      to_balance: fenToYuan(toBalance),
      pay_type: req.payType,
      pay_method_id: method.id,
      pay_method: method.name,
      pay_ref: req.payRef ?? '',
      cashier_id: ctx.session.accountId,
      cashier_name: ctx.session.name,
      idempotency_key: req.idempotencyKey,
      remark: req.remark,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (approved) await useDiscount(ctx, approved, payment.id, receiptNo);
  await ctx.db
    .insertInto('fee_payment_items')
    .values(
      lines.map((b) => ({
        rid: ctx.rid,
        payment_id: payment.id,
        bill_id: b.id,
        cost_type: b.cost_type,
        // a parking bill names its space or plate on the receipt
        title: b.space_id || b.car_id ? `${b.title}（${b.measure}）` : b.title,
        period: b.period,
        daterange: b.daterange,
        fee: b.fee,
        late_fee: fenToYuan(b.lateFen),
      })),
    )
    .execute();
  for (const b of lines) {
    await ctx.db
      .updateTable('fee_bills')
      .set({ status: 'Y', paid_at: sql`now()`, payment_id: payment.id, late_fee: fenToYuan(b.lateFen) })
      .where('rid', '=', ctx.rid)
      .where('id', '=', b.id)
      .execute();
  }
  await billsPaid(ctx, ids, receiptNo);
  const notes: string[] = [];
  for (const hook of afterPaymentHooks) {
    notes.push(...((await hook(ctx, { id: payment.id, pay_type: req.payType, member_id: owner?.member_id ?? null })) ?? []));
  }
  if (owner) {
    const common = { rid: ctx.rid, memberId: owner.member_id, hid: room.id, orderid: receiptNo, createUser: ctx.session.name };
    await moveBalance(ctx.db, {
      ...common,
      fen: balanceUsed,
      ioType: 2,
      feetype: bills[0]?.cost_type ?? 'property',
      paytype: 'balance',
      remark: `收据 ${receiptNo} 余额抵扣`,
    });
    await moveBalance(ctx.db, {
      ...common,
      fen: toBalance,
      ioType: 1,
      feetype: 'recharge',
      paytype: req.payType,
      remark: `收据 ${receiptNo} 多收转入余额`,
    });
  }
  return reply(await paymentInfo(ctx.db, ctx.rid, payment.id), notes.length ? `收费成功；${notes.join('；')}` : '收费成功');
}

const cashierpay = defineMethod('cashierpay', {
  side: 'community',
  roles: FEE_ROLES.cashier,
  writes: true,
  summary:
    '收银台收费（一个事务）：锁定账单（可含同一业主在本小区的多个房屋，一张收据）、计滞纳金、优惠、余额抵扣；实收不少于应收，多收转入业主余额；生成连续收据号；同一 idempotency_key 重试只收一次',
  async handler(ctx, input) {
    const first = await byKey(ctx, input.idempotency_key);
    if (first) return replay(ctx, first, input.hid);
    const room = await house(ctx, input.hid);
    return payBills(ctx, room, {
      billIds: input.bill_ids,
      payType: input.pay_type,
      payMethodId: input.pay_method_id,
      payRef: input.pay_ref,
      paidAmount: input.paid_amount,
      useBalance: input.use_balance,
      discount: input.discount,
      idempotencyKey: input.idempotency_key,
      remark: input.remark,
      payerName: input.payer_name,
      discountRequestId: input.discount_request_id,
    });
  },
});

type PaymentFilters = Omit<z.output<(typeof feesMethods)['paymentexport']>, 'sort'>;

/**
 * The payment list's filters as conditions on the receipt `p`: date range (receipt day), pay type,
 * cashier, receipt no, room, and a keyword (address / payer / receipt no, receiptKeyword).
 */
async function paymentConditions(ctx: ExportScope, f: PaymentFilters): Promise<Array<RawBuilder<SqlBool>>> {
  const c = receiptFilters(f);
  if (f.keyword) c.push(await receiptKeyword(ctx.db, ctx.rid, f.keyword, { receiptNo: true }));
  return c;
}

/** The receipts meeting the conditions, with their room address (paymentBase). */
function filteredPayments(ctx: ExportScope, conditions: Array<RawBuilder<SqlBool>>) {
  let qb = paymentBase(ctx.db, ctx.rid);
  for (const c of conditions) qb = qb.where(c);
  return qb;
}

/**
 * The receipts meeting the conditions, counted from fee_payments alone: every receipt has its
 * room, unit and building (015_room_move.sql keeps them its room's), and the conditions are on the
 * receipt. Through the address joins a community's 483,000 receipts took 116 ms to count.
 */
function receiptCount(ctx: ExportScope, conditions: Array<RawBuilder<SqlBool>>) {
  let qb = ctx.db.selectFrom('fee_payments as p').where('p.rid', '=', ctx.rid);
  for (const c of conditions) qb = qb.where(c);
  return qb;
}

const paymentlist = defineMethod('paymentlist', {
  side: 'community',
  roles: FEE_ROLES.payments,
  writes: false,
  summary: '收费记录（收据）：按日期区间、支付方式、收银员、收据号、关键字（地址/业主/收据号）、房屋筛选，默认新的在前',
  async handler(ctx, input) {
    const { receipt_no, ...others } = input;
    // the page is searched by the keyword's parts, else by the receipt number, which beside a keyword is one more filter
    const searched = input.keyword
      ? await receiptKeywordParts(ctx.db, ctx.rid, input.keyword, { receiptNo: true })
      : receipt_no
        ? [receiptNumberPart(ctx.rid, receipt_no)]
        : undefined;
    const filters = receiptFilters(input.keyword ? input : others);
    const page = searched
      ? await searchedReceipts(ctx, filters, searched, input)
      : await listPage(filteredPayments(ctx, filters), input, 'p.id', receiptCount(ctx, filters));
    return { total: page.total, items: page.items.map(toPaymentRow) };
  },
});

/**
 * A page of the receipts meeting `filters` and any of `parts`, picked part by part from the receipts
 * alone (keywordPage), their addresses joined for the page's rows only: joined first, a common
 * number's 11,000 receipts took 150 ms to page (docs/perf/history.md#round-19).
 */
function searchedReceipts(ctx: ExportScope, filters: Array<RawBuilder<SqlBool>>, parts: KeywordPart[], paging: Paging) {
  const rows = receiptRows(ctx.rid, filters);
  const items = filteredPayments(ctx, [keywordPage(rows, parts, paging)])
    .orderBy('p.id', paging.sort)
    .execute();
  return pageWithTotal(items, paging, () => keywordCount(ctx.db, rows, parts));
}

const paymentexport = defineExport('paymentexport', {
  roles: FEE_ROLES.payments,
  summary: '按收费记录的筛选条件导出 Excel（含收费项目明细，最多 10 万行）',
  filename: () => `收费记录_${today()}.xlsx`,
  async check(scope, input) {
    await refuseOversizedExport(scope.db, receiptCount(scope, await paymentConditions(scope, input)).select('p.id'));
  },
  async sheet(scope, input) {
    const rows = await filteredPayments(scope, await paymentConditions(scope, input))
      .select(
        sql<string>`(SELECT string_agg(pi.title || ' ' || pi.period, '、' ORDER BY pi.id) FROM fee_payment_items pi
        WHERE pi.rid = p.rid AND pi.payment_id = p.id)`.as('titles'),
      )
      .orderBy('p.id', input.sort)
      .limit(EXPORT_MAX)
      .execute();
    return sheetOf(
      '收费记录',
      [
        { header: '收据号', value: (p) => p.receipt_no, width: 14 },
        { header: '房屋', value: (p) => p.address, width: 18 },
        { header: '缴费人', value: (p) => p.payer_name },
        { header: '收费项目', value: (p) => p.titles, width: 36 },
        { header: '应收', value: (p) => p.receivable },
        { header: '滞纳金', value: (p) => p.late_fee },
        { header: '优惠', value: (p) => p.discount },
        { header: '合计', value: (p) => p.total },
        { header: '余额抵扣', value: (p) => p.balance_used },
        { header: '实收', value: (p) => p.paid_amount },
        { header: '转入余额', value: (p) => p.to_balance },
        { header: '支付方式', value: (p) => p.pay_type_ch },
        { header: '状态', value: (p) => p.status_ch },
        { header: '已退金额', value: (p) => p.refunded_amount },
        { header: '收银员', value: (p) => p.cashier_name },
        { header: '收款时间', value: (p) => p.create_time, width: 20 },
        { header: '备注', value: (p) => p.remark, width: 20 },
      ],
      rows.map((p) => ({ ...toPaymentRow(p), titles: p.titles ?? '' })),
    );
  },
});

const paymentinfoMethod = defineMethod('paymentinfo', {
  side: 'community',
  roles: FEE_ROLES.payments,
  writes: false,
  summary: '一笔收费的收据数据：账单明细、金额、支付方式、收银员、大写金额（capital_amount）',
  async handler(ctx, input) {
    return paymentInfo(ctx.db, ctx.rid, input.id);
  },
});

const paymentprint = defineMethod('paymentprint', {
  side: 'community',
  roles: FEE_ROLES.payments,
  writes: true,
  summary: '记录一次收据打印（补打次数）',
  async handler(ctx, input) {
    const row = await ctx.db
      .updateTable('fee_payments')
      .set({ print_count: sql`print_count + 1` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .returning('print_count')
      .executeTakeFirst();
    if (!row) fail('收费记录不存在');
    return reply({ print_count: row.print_count }, '已记录打印');
  },
});

export const cashierMethods = [cashierbills, cashierpay, paymentlist, paymentexport, paymentinfoMethod, paymentprint];
