/**
 * Intention deposits (认筹 /crm/intentions; docs/product.md#crm-sales). A deposit takes the next queue
 * number of the community (never given twice) and a fee bill of the room chosen (the sales office or
 * the unit wanted; item 认筹金 under 销售收入, through ensureOwnItem and insertOwnBill), which the cashier
 * takes as any bill. Whether it is paid is its bill's: a bill-paid listener moves the customer to 认筹;
 * a voided receipt makes it unpaid again. A refund is a request of the fees' refund workflow
 * (refundapply, approved by finance); the refund closer marks it 已退款 and keeps its bill paid, so it
 * is never owed again, and the customer steps back from 认筹.
 */
import {
  INTENTION_ITEM,
  INTENTION_STATUS,
  SALES_ROLES,
  enumText,
  fenToYuan,
  intention,
  intentionFlow,
  queueText,
  toFen,
  type IntentionItem,
  type IntentionStatus,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput, type MethodDef, type Reply } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import { flowLog, writeFlowLog } from '../../lib/workflow.js';
import { registerBillPaidListener, registerRefundCloser } from '../fees/billPaid.js';
import { ensureOwnItem, insertOwnBill } from '../fees/ownBills.js';
import { refundMethods } from '../fees/refunds.js';
import {
  actorOf,
  lockCustomer,
  moveStage,
  refuseNotWorking,
  stampViewer,
  viewerOf,
  viewerOfInput,
  type Viewer,
  type ViewerInput,
} from './salesCore.js';

/** The fee item the deposits are billed under, made once per community. */
export const intentionItem = (db: Kysely<DB>, rid: number) =>
  ensureOwnItem(db, rid, { cost: INTENTION_ITEM.cost, title: INTENTION_ITEM.title, remark: '销售客户认筹自动生成' });

/**
 * A deposit's state as read: a registered one is paid when its bill is; a refund request reads
 * 退款中 while it waits, 已退款 once approved, and paid again once rejected.
 */
const stateSql = sql<IntentionStatus>`(CASE
  WHEN i.status = 'P' THEN CASE WHEN b.status = 'Y' THEN 'Y' ELSE 'P' END
  WHEN i.status = 'R' THEN CASE f.status WHEN 'N' THEN CASE WHEN b.status = 'Y' THEN 'Y' ELSE 'P' END WHEN 'Y' THEN 'T' ELSE 'R' END
  ELSE i.status END)`;

const intentionQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('crm_intentions as i')
    .innerJoin('crm_customers as c', (j) => j.onRef('c.rid', '=', 'i.rid').onRef('c.id', '=', 'i.customer_id'))
    .leftJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'i.rid').onRef('b.id', '=', 'i.bill_id'))
    .leftJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'b.rid').onRef('p.id', '=', 'b.payment_id'))
    .leftJoin('fee_refunds as f', (j) => j.onRef('f.rid', '=', 'i.rid').onRef('f.id', '=', 'i.refund_id'))
    .leftJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'i.rid').onRef('r.id', '=', 'i.hid'))
    .leftJoin('accounts as a', 'a.id', 'c.consultant_id')
    .leftJoin('accounts as cr', 'cr.id', 'i.created_by')
    .selectAll('i')
    .select(['c.name as customer_name', 'c.mobile', 'c.consultant_id', 'a.name as consultant_name', 'cr.name as creator', 'r.address'])
    .select(['p.receipt_no', 'b.paid_at as bill_paid_at', 'b.payment_id'])
    .select(stateSql.as('state'))
    .where('i.rid', '=', rid);
type Raw = Awaited<ReturnType<ReturnType<typeof intentionQuery>['executeTakeFirstOrThrow']>>;

const toRow = (i: Raw): IntentionItem => {
  const state = i.state as IntentionStatus;
  const paid = state === 'Y' || state === 'R' || state === 'T';
  return {
    id: Number(i.id),
    queue_no: i.queue_no,
    queue_text: queueText(i.queue_no),
    customer_id: Number(i.customer_id),
    customer_name: i.customer_name,
    mobile: i.mobile,
    consultant_name: i.consultant_name ?? '',
    amount: fenToYuan(toFen(i.amount)),
    hid: Number(i.hid),
    address: i.address ?? '',
    bill_id: i.bill_id === null ? null : Number(i.bill_id),
    receipt_no: paid ? (i.receipt_no ?? '') : '',
    status: state,
    status_ch: enumText(INTENTION_STATUS, state),
    paid_at: paid ? wireTime(i.bill_paid_at ?? i.paid_at) : '',
    refund_id: i.refund_id === null ? null : Number(i.refund_id),
    reason: i.reason,
    remark: i.remark,
    creator: i.creator ?? '',
    create_time: wireTime(i.created_at),
  };
};

function visible(viewer: Viewer) {
  if (viewer.manager) return sql<boolean>`true`;
  const me = viewer.accountId;
  return sql<boolean>`(c.consultant_id = ${me} OR c.consultant_id IS NULL OR i.created_by = ${me})`;
}

type Filters = HandlerInput<'intentionexport'> & ViewerInput;

function filtered(db: Kysely<DB>, rid: number, f: Filters, viewer: Viewer) {
  let qb = intentionQuery(db, rid).where(visible(viewer));
  if (f.customer_id) qb = qb.where('i.customer_id', '=', Number(f.customer_id));
  if (f.status) qb = qb.where(stateSql, '=', String(f.status) as IntentionStatus);
  if (f.keyword) {
    const k = String(f.keyword);
    const queueNo = /^\d{1,9}$/.test(k) ? Number(k) : 0;
    qb = qb.where((eb) =>
      eb.or([eb('c.name', containsOperator(k), likePattern(k)), eb('c.mobile', 'like', likePattern(k)), eb('i.queue_no', '=', queueNo)]),
    );
  }
  if (f.create_time) qb = qb.where(withinDays('i.created_at', f.create_time as [string, string]));
  return qb;
}

export async function intentionRow(ctx: CommunityCtx, id: number): Promise<IntentionItem> {
  const r = await intentionQuery(ctx.db, ctx.rid)
    .where('i.id', '=', id)
    .where(visible(viewerOf(ctx.session)))
    .executeTakeFirst();
  if (!r) return fail('认筹不存在');
  return toRow(r);
}

/** The next queue number of the community: one counter, bumped in the call's transaction, never given back. */
async function nextQueueNo(db: Kysely<DB>, rid: number): Promise<number> {
  const r = await sql<{ n: number }>`
    INSERT INTO crm_sales_settings (rid, queue_last) VALUES (${rid}, 1)
    ON CONFLICT (rid) DO UPDATE SET queue_last = crm_sales_settings.queue_last + 1
    RETURNING queue_last AS n`.execute(db);
  return Number(r.rows[0]!.n);
}

/** Refuses a room an owner lives in: the deposit is the customer's money, billed on the sales office or an unsold unit. */
async function refuseOwnedRoom(db: Kysely<DB>, rid: number, hid: number): Promise<void> {
  const owner = await db
    .selectFrom('room_members as rm')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'rm.rid').onRef('m.id', '=', 'rm.member_id'))
    .select('m.realname')
    .where('rm.rid', '=', rid)
    .where('rm.hid', '=', hid)
    .where('rm.relation', '=', 'owner')
    .where('rm.status', '=', 'Y')
    .executeTakeFirst();
  if (owner) fail(`所选房屋已有业主（${owner.realname}），认筹金不能记在业主的房屋上，请选择售楼处或未售房源`);
}

/** A live deposit of the customer (registered and not cancelled, refunded or refunded-pending-approval). */
async function liveDeposit(db: Kysely<DB>, rid: number, customerId: number) {
  return db
    .selectFrom('crm_intentions as i')
    .leftJoin('fee_refunds as f', (j) => j.onRef('f.rid', '=', 'i.rid').onRef('f.id', '=', 'i.refund_id'))
    .select('i.queue_no')
    .where('i.rid', '=', rid)
    .where('i.customer_id', '=', customerId)
    .where((eb) => eb.or([eb('i.status', '=', 'P'), eb.and([eb('i.status', '=', 'R'), eb('f.status', '<>', 'Y')])]))
    .executeTakeFirst();
}

const resourceMethods = defineResource(intention, {
  table: 'crm_intentions',
  async values(input, ctx) {
    const c = await lockCustomer(ctx, Number(input.customer_id));
    refuseNotWorking(viewerOf(ctx.session), c);
    if (c.stage === 'invalid') fail(`客户「${c.name}」已标记无效，请先重新激活`);
    if (c.stage === 'subscribe' || c.stage === 'sign') fail(`客户「${c.name}」已${c.stage === 'sign' ? '签约' : '认购'}，不再认筹`);
    const live = await liveDeposit(ctx.db, ctx.rid, c.id);
    if (live) fail(`客户「${c.name}」已有认筹（${queueText(live.queue_no)}），不能重复认筹`);
    const hid = input.hid === undefined ? c.hid : Number(input.hid);
    if (!hid) return fail('请选择缴费房屋（售楼处或客户的意向房源）');
    await refuseOwnedRoom(ctx.db, ctx.rid, hid);
    const queueNo = await nextQueueNo(ctx.db, ctx.rid);
    const item = await intentionItem(ctx.db, ctx.rid);
    const period = today().slice(0, 7);
    const billId = await insertOwnBill(ctx.db, ctx.rid, {
      hid,
      item,
      title: `${INTENTION_ITEM.title}-${c.name}（${queueText(queueNo)}）`,
      period,
      fee: String(input.amount),
      source: 'intention',
    });
    // the bills' key is one bill of an item a room and month: a second deposit on the room this month waits for the next
    if (billId === null) {
      const other = await ctx.db
        .selectFrom('fee_bills as b')
        .leftJoin('crm_intentions as i', (j) => j.onRef('i.rid', '=', 'b.rid').onRef('i.bill_id', '=', 'b.id'))
        .leftJoin('crm_customers as oc', (j) => j.onRef('oc.rid', '=', 'i.rid').onRef('oc.id', '=', 'i.customer_id'))
        .select(['oc.name', 'i.queue_no'])
        .where('b.rid', '=', ctx.rid)
        .where('b.hid', '=', hid)
        .where('b.item_id', '=', item.id)
        .where('b.period', '=', period)
        .executeTakeFirst();
      const whose = other?.name ? `（客户「${other.name}」，${queueText(Number(other.queue_no))}）` : '';
      fail(`所选房屋本月已有一张认筹金账单${whose}；同一房屋每月只能记一张认筹金账单，请选择客户的意向房源或其他未售房屋`);
    }
    return {
      customer_id: c.id,
      amount: input.amount,
      hid,
      remark: input.remark,
      queue_no: queueNo,
      bill_id: billId,
      created_by: ctx.session.accountId,
    };
  },
  async after(ctx, id, values) {
    await writeFlowLog(ctx, intentionFlow.def, id, {
      transition: 'create',
      from: '',
      to: 'P',
      input: { queue_no: queueText(Number(values.queue_no)), amount: fenToYuan(toFen(String(values.amount))) },
    });
  },
  replace: {
    list: defineMethod('intentionlist', {
      side: 'community',
      roles: SALES_ROLES.staff,
      writes: false,
      summary: '认筹列表：排号、客户、认筹金额、缴费房屋、收据号、缴费时间、状态（待缴费、已缴费、退款中、已退款、已取消）',
      async handler(ctx, input) {
        const page = await listPage(filtered(ctx.db, ctx.rid, input, viewerOf(ctx.session)), input, 'i.id');
        return { total: page.total, items: page.items.map(toRow) };
      },
    }),
    info: defineMethod('intentioninfo', {
      side: 'community',
      roles: SALES_ROLES.staff,
      writes: false,
      summary: '认筹详情',
      handler: (ctx, input) => intentionRow(ctx, input.id),
    }),
    export: defineExport('intentionexport', {
      roles: SALES_ROLES.staff,
      summary: '按筛选条件导出认筹记录',
      filename: () => `认筹记录_${today()}.xlsx`,
      async check(scope, input) {
        stampViewer(scope as CommunityCtx, input);
        await refuseOversizedExport(scope.db, filtered(scope.db, scope.rid, input as Filters, viewerOfInput(input as Filters)));
      },
      async sheet({ db, rid }, input) {
        const f = input as Filters;
        const rows = (await filtered(db, rid, f, viewerOfInput(f)).orderBy('i.id', f.sort).limit(EXPORT_MAX).execute()).map(toRow);
        return sheetOf(
          '认筹记录',
          [
            { header: '排号', value: (r: IntentionItem) => r.queue_text },
            { header: '客户', value: (r) => r.customer_name },
            { header: '手机号', value: (r) => r.mobile, width: 14, contact: 'mobile' },
            { header: '置业顾问', value: (r) => r.consultant_name },
            { header: '认筹金额', value: (r) => Number(r.amount) },
            { header: '缴费房屋', value: (r) => r.address, width: 18 },
            { header: '收据号', value: (r) => r.receipt_no, width: 14 },
            { header: '缴费时间', value: (r) => r.paid_at, width: 20 },
            { header: '状态', value: (r) => r.status_ch },
            { header: '取消/退款原因', value: (r) => r.reason, width: 24 },
            { header: '备注', value: (r) => r.remark, width: 20 },
            { header: '登记人', value: (r) => r.creator },
            { header: '登记时间', value: (r) => r.create_time, width: 20 },
          ],
          rows,
        );
      },
    }),
  },
  summaries: {
    add: '登记认筹（本人客户或销售经理）：取下一个排号（不重复使用），在所选房屋（售楼处或意向房源，不能是有业主的房屋）生成认筹金账单，到收银台缴费',
  },
});

/** The deposit under lock, with its state as read, for a transition. */
async function lockIntention(ctx: CommunityCtx, id: number) {
  const locked = await ctx.db
    .selectFrom('crm_intentions')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!locked) return fail('认筹不存在');
  const r = await intentionQuery(ctx.db, ctx.rid).where('i.id', '=', id).executeTakeFirstOrThrow();
  refuseNotWorking(viewerOf(ctx.session), {
    consultant_id: r.consultant_id === null ? null : Number(r.consultant_id),
    name: r.customer_name,
  });
  return r;
}

/** The transition's state check on the state as read (the workflow's `from`). */
function refuseMovedOn(r: Raw, transition: keyof typeof intentionFlow.def.transitions): void {
  const t = intentionFlow.def.transitions[transition];
  if (!(t.from as readonly string[]).includes(String(r.state)))
    fail(`该认筹${enumText(INTENTION_STATUS, String(r.state))}，不能${t.label}`);
}

const refundApply = refundMethods.find((m) => m.name === 'refundapply')!;

const intentioncancel = defineMethod('intentioncancel', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: true,
  summary: '取消未缴费的认筹：删除其认筹金账单（收银台不能再收），排号作废不再使用',
  async handler(ctx, payload) {
    const input = { id: Number(payload.id), reason: String(payload.reason) };
    const r = await lockIntention(ctx, input.id);
    refuseMovedOn(r, 'cancel');
    // a bill with a receipt's lines behind it (a voided receipt) keeps its history: it stays, and the cashier refuses it
    let kept = false;
    if (r.bill_id !== null) {
      const bill = await ctx.db
        .selectFrom('fee_bills')
        .select(['id', 'status'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', r.bill_id)
        .forUpdate()
        .executeTakeFirst();
      if (bill?.status === 'Y') fail('认筹金已缴费，请办理退款');
      const lines = bill
        ? await ctx.db
            .selectFrom('fee_payment_items')
            .select('id')
            .where('rid', '=', ctx.rid)
            .where('bill_id', '=', bill.id)
            .executeTakeFirst()
        : undefined;
      kept = !!lines;
      await ctx.db
        .updateTable('crm_intentions')
        .set({ status: 'C', bill_id: kept ? r.bill_id : null, reason: input.reason, updated_at: sql`now()` })
        .where('rid', '=', ctx.rid)
        .where('id', '=', r.id)
        .execute();
      if (bill && !kept) {
        await ctx.db.deleteFrom('fee_bill_adjustments').where('rid', '=', ctx.rid).where('bill_id', '=', bill.id).execute();
        await ctx.db.deleteFrom('fee_bills').where('rid', '=', ctx.rid).where('id', '=', bill.id).execute();
      }
    }
    await writeFlowLog(ctx, intentionFlow.def, Number(r.id), { transition: 'cancel', from: 'P', to: 'C', input: { reason: input.reason } });
    const done = kept ? '认筹已取消；账单有作废的收费记录，予以保留，收银台不再收取' : '认筹已取消，账单已删除';
    return reply(await intentionRow(ctx, Number(r.id)), done);
  },
});

const intentionrefund = defineMethod('intentionrefund', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: true,
  summary: '认筹金退款申请：按其收据提交退款流程（refundapply，财务审核）；审核通过后为已退款，客户退出认筹',
  async handler(ctx, payload) {
    const input = { id: Number(payload.id), reason: String(payload.reason) };
    const r = await lockIntention(ctx, input.id);
    refuseMovedOn(r, 'refund');
    if (r.payment_id === null) return fail('认筹金的缴费记录不存在，无法退款');
    const parsed = refundApply.schema.parse({
      payment_id: Number(r.payment_id),
      bill_ids: [Number(r.bill_id)],
      reason: `认筹金退款（${queueText(r.queue_no)}，客户 ${r.customer_name}）：${input.reason}`.slice(0, 200),
    });
    const applied = (await (refundApply.spec.handler as (c: CommunityCtx, i: unknown) => Promise<Reply<{ id: number; amount: string }>>)(
      ctx,
      parsed,
    )) as Reply<{ id: number; amount: string }>;
    await ctx.db
      .updateTable('crm_intentions')
      .set({ status: 'R', refund_id: applied.data.id, reason: input.reason, updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', r.id)
      .execute();
    await writeFlowLog(ctx, intentionFlow.def, Number(r.id), {
      transition: 'refund',
      from: 'Y',
      to: 'R',
      input: { reason: input.reason, refund_id: `#${applied.data.id}` },
    });
    return reply(await intentionRow(ctx, Number(r.id)), `已提交退款申请，金额 ${applied.data.amount} 元，待财务审核`);
  },
});

const intentionlog = defineMethod('intentionlog', {
  side: 'community',
  roles: SALES_ROLES.staff,
  writes: false,
  summary: '认筹的处理记录：登记、缴费、取消、退款申请与完成',
  async handler(ctx, input) {
    await intentionRow(ctx, input.id);
    return { items: await flowLog(ctx.db, ctx.rid, intentionFlow.def, input.id) };
  },
});

// the deposit's bill paid at the cashier: the customer moves to 认筹 (from 报备, 有效 or 来访)
registerBillPaidListener(async (ctx, billIds, receiptNo) => {
  const rows = await ctx.db
    .selectFrom('crm_intentions')
    .select(['id', 'customer_id', 'queue_no', 'amount', 'status'])
    .where('rid', '=', ctx.rid)
    .where('bill_id', 'in', [...billIds])
    .orderBy('id')
    .execute();
  for (const r of rows) {
    if (r.status === 'C' || r.status === 'T')
      fail(`认筹（${queueText(r.queue_no)}）已${r.status === 'C' ? '取消' : '退款'}，其认筹金账单不能再收费`);
    await ctx.db
      .updateTable('crm_intentions')
      .set({ paid_at: sql`now()`, updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', r.id)
      .execute();
    await writeFlowLog(ctx, intentionFlow.def, Number(r.id), { transition: 'pay', from: 'P', to: 'Y', input: { receipt_no: receiptNo } });
    await moveStage(
      ctx.db,
      ctx.rid,
      Number(r.customer_id),
      {
        from: ['report', 'valid', 'visit'],
        to: 'pledge',
        step: 'pledge',
        input: { queue_no: queueText(r.queue_no), amount: fenToYuan(toFen(r.amount)), receipt_no: receiptNo },
      },
      actorOf(ctx),
    );
  }
});

// an approved refund of a deposit: 已退款, its bill kept paid (never owed again), the customer out of 认筹
registerRefundCloser(async (ctx, billIds) => {
  const rows = await ctx.db
    .selectFrom('crm_intentions')
    .select(['id', 'customer_id', 'bill_id', 'queue_no'])
    .where('rid', '=', ctx.rid)
    .where('bill_id', 'in', [...billIds])
    .where('status', '=', 'R')
    .execute();
  for (const r of rows) {
    await ctx.db
      .updateTable('crm_intentions')
      .set({ status: 'T', updated_at: sql`now()` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', r.id)
      .execute();
    await writeFlowLog(ctx, intentionFlow.def, Number(r.id), { transition: 'refunded', from: 'R', to: 'T' });
    const visited = await ctx.db
      .selectFrom('crm_customers')
      .select('visit_count')
      .where('rid', '=', ctx.rid)
      .where('id', '=', r.customer_id)
      .executeTakeFirst();
    await moveStage(
      ctx.db,
      ctx.rid,
      Number(r.customer_id),
      {
        from: ['pledge'],
        to: visited && visited.visit_count > 0 ? 'visit' : 'valid',
        step: 'unpledge',
        input: { queue_no: queueText(r.queue_no) },
      },
      actorOf(ctx),
    );
  }
  return rows.map((r) => Number(r.bill_id));
});

export const salesIntentionMethods: MethodDef[] = [...resourceMethods, intentioncancel, intentionrefund, intentionlog];
