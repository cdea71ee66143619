import { FEE_ROLES, BILL_STATUS_CH, type BillStatus } from '@wuye/contract';
import { sql } from 'kysely';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { enqueueJob } from '../../jobs/queue.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { defineExport } from '../../jobs/exports.js';
import { listPage, pageWithTotal } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { applyBillFilters, billBase, billCount, billLookups, billPageRows, billTotal, selectBillRow, toBillRow } from './billQuery.js';
import { previewGeneration } from './generate.js';
import { BILL_GENERATE, BILL_OVERDUE } from './jobs.js';

const feebillgenerate = defineMethod('feebillgenerate', {
  side: 'community',
  roles: FEE_ROLES.bills,
  writes: true,
  summary:
    '生成账单：账期、收费项目、范围（楼栋/单元/房屋）；preview=true 只返回将生成的张数与合计，否则建批次并排队后台任务（jobinfo 查进度）',
  async handler(ctx, input) {
    const itemIds = [...new Set(input.item_ids)];
    const items = await ctx.db
      .selectFrom('fee_items')
      .select(['id', 'status'])
      .where('rid', '=', ctx.rid)
      .where('id', 'in', itemIds)
      .execute();
    if (items.length !== itemIds.length) fail('收费项目不存在');
    if (items.some((i) => i.status !== 'Y')) fail('所选收费项目已停用');
    const scope = { period: input.period, item_ids: itemIds, bid: input.bid, tid: input.tid, hids: input.hids };
    if (input.preview) return { preview: true, ...(await previewGeneration(ctx.db, ctx.rid, scope)) };
    await refuseWhileGenerating(ctx, input.period, itemIds);
    const { count, total_fee } = await previewGeneration(ctx.db, ctx.rid, scope);
    if (count === 0) fail('没有需要生成的账单：所选房屋在该账期已出账，或未绑定所选收费项目');
    const batch = await ctx.db
      .insertInto('fee_batches')
      .values({
        rid: ctx.rid,
        period: input.period,
        item_ids: itemIds,
        filters: JSON.stringify({ bid: input.bid, tid: input.tid, hids: input.hids }),
        created_by: ctx.session.name,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const jobId = await enqueueJob(ctx.db, {
      rid: ctx.rid,
      kind: BILL_GENERATE,
      createdBy: ctx.session.accountId,
      total: count,
      payload: { rid: ctx.rid, batch_id: batch.id, ...scope },
    });
    await ctx.db.updateTable('fee_batches').set({ job_id: jobId }).where('rid', '=', ctx.rid).where('id', '=', batch.id).execute();
    return reply({ preview: false, count, total_fee, job_id: jobId, batch_id: batch.id }, `已开始生成 ${count} 张账单`);
  },
});

/** Key of the lock that lets one community's generations start one at a time (with the community's id). */
const GENERATION_START_LOCK = 724313;

/**
 * Refuses a generation while a batch of the same period and any of the same items is still
 * running: counted before that batch's bills exist, it would count them again and end as an
 * empty batch. Starts are taken one at a time per community (a lock held to the end of the
 * call's transaction), so two started together cannot both find the way clear.
 */
async function refuseWhileGenerating(ctx: CommunityCtx, period: string, itemIds: number[]): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${GENERATION_START_LOCK}, ${ctx.rid}::int)`.execute(ctx.db);
  const running = await ctx.db
    .selectFrom('fee_batches')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('period', '=', period)
    .where('status', '=', 'running')
    .where(sql<boolean>`item_ids && ${sql.val(itemIds)}::bigint[]`)
    .limit(1)
    .executeTakeFirst();
  if (running) fail(`该账期所选收费项目的账单正在生成（批次 ${running.id}），请等待完成后再生成`);
}

const feebatchlist = defineMethod('feebatchlist', {
  side: 'community',
  roles: FEE_ROLES.bills,
  writes: false,
  summary: '账单生成批次：账期、收费项目、状态、张数、合计、已缴张数（有已缴账单的批次不能撤销）',
  async handler(ctx, input) {
    const qb = ctx.db
      .selectFrom('fee_batches as fb')
      .select([
        'fb.id',
        'fb.period',
        'fb.item_ids',
        'fb.status',
        'fb.bill_count',
        'fb.total_fee',
        'fb.job_id',
        'fb.created_by',
        'fb.created_at',
      ])
      .select(
        sql<string>`(SELECT string_agg(i.title, '、' ORDER BY i.id) FROM fee_items i WHERE i.rid = fb.rid AND i.id = ANY(fb.item_ids))`.as(
          'item_titles',
        ),
      )
      .select(
        sql<number>`(SELECT count(*)::int FROM fee_bills b WHERE b.rid = fb.rid AND b.batch_id = fb.id AND b.status = 'Y')`.as(
          'paid_count',
        ),
      )
      .where('fb.rid', '=', ctx.rid);
    const page = await listPage(qb, input, 'fb.id');
    return {
      total: page.total,
      items: page.items.map((b) => ({
        id: b.id,
        period: b.period,
        item_titles: b.item_titles ?? '',
        status: b.status,
        bill_count: b.bill_count,
        total_fee: b.total_fee,
        paid_count: Number(b.paid_count),
        job_id: b.job_id ?? 0,
        create_user: b.created_by,
        create_time: wireTime(b.created_at),
      })),
    };
  },
});

const feebatchcancel = defineMethod('feebatchcancel', {
  side: 'community',
  roles: FEE_ROLES.bills,
  writes: true,
  summary: '撤销一个生成批次：删除该批次的全部账单；批次中有已缴账单或仍在生成时拒绝',
  async handler(ctx, input) {
    const batch = await ctx.db
      .selectFrom('fee_batches')
      .select(['id', 'status'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!batch) fail('批次不存在');
    if (batch.status === 'running') fail('账单正在生成中，请稍后再撤销');
    if (batch.status === 'cancelled') fail('该批次已撤销');
    // lock the batch's bills so a payment cannot slip in between the check and the delete
    const bills = await ctx.db
      .selectFrom('fee_bills')
      .select(['id', 'status'])
      .where('rid', '=', ctx.rid)
      .where('batch_id', '=', input.id)
      .orderBy('id')
      .forUpdate()
      .execute();
    if (bills.some((b) => b.status === 'Y')) fail('该批次已有账单缴费，不能撤销');
    await ctx.db
      .deleteFrom('fee_bill_adjustments')
      .where('rid', '=', ctx.rid)
      .where('bill_id', 'in', ctx.db.selectFrom('fee_bills').select('id').where('rid', '=', ctx.rid).where('batch_id', '=', input.id))
      .execute();
    const res = await ctx.db.deleteFrom('fee_bills').where('rid', '=', ctx.rid).where('batch_id', '=', input.id).executeTakeFirst();
    await ctx.db.updateTable('fee_batches').set({ status: 'cancelled' }).where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    const deleted = Number(res.numDeletedRows);
    return reply({ deleted }, `已撤销，删除账单 ${deleted} 张`);
  },
});

const feebilllist = defineMethod('feebilllist', {
  side: 'community',
  roles: FEE_ROLES.billRead,
  writes: false,
  summary: '账单列表：按楼栋/单元/房屋、费用类型、名称、状态、金额区间、审核标记、关键字、收费项目筛选，10 条一页',
  async handler(ctx, input) {
    if (input.rid !== undefined && input.rid !== ctx.rid) return { items: [], total: 0 };
    const lookups = await billLookups(ctx.db, ctx.rid, input);
    if (lookups.titles?.length === 0) return { items: [], total: 0 };
    const total = billTotal(ctx.db, ctx.rid, input, ctx.services.billCounts, lookups);
    const page = await pageWithTotal(billPageRows(ctx.db, ctx.rid, input, input, lookups), input, total);
    return { total: page.total, items: page.items.map((b) => toBillRow(b)) };
  },
});

const feebillinfo = defineMethod('feebillinfo', {
  side: 'community',
  roles: FEE_ROLES.billRead,
  writes: false,
  summary: '一张账单及其金额调整记录',
  async handler(ctx, input) {
    const b = await selectBillRow(billBase(ctx.db, ctx.rid)).where('b.id', '=', input.id).executeTakeFirst();
    if (!b) fail('账单不存在');
    const adjustments = await ctx.db
      .selectFrom('fee_bill_adjustments')
      .select(['old_fee', 'new_fee', 'reason', 'created_by', 'created_at'])
      .where('rid', '=', ctx.rid)
      .where('bill_id', '=', input.id)
      .orderBy('id')
      .execute();
    return {
      ...toBillRow(b),
      adjustments: adjustments.map((a) => ({
        old_fee: a.old_fee,
        new_fee: a.new_fee,
        reason: a.reason,
        create_user: a.created_by,
        create_time: wireTime(a.created_at),
      })),
    };
  },
});

/** Locks one unpaid bill of the community, or refuses. */
async function lockUnpaid(ctx: CommunityCtx, id: number) {
  const bill = await ctx.db
    .selectFrom('fee_bills')
    .select(['id', 'status', 'fee'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!bill) fail('账单不存在');
  if (bill.status === 'Y') fail('账单已缴费，不能修改或删除');
  return bill;
}

const feebilldel = defineMethod('feebilldel', {
  side: 'community',
  roles: FEE_ROLES.bills,
  writes: true,
  summary: '删除一张未缴账单（已缴账单拒绝；操作记入审计日志）',
  async handler(ctx, input) {
    await lockUnpaid(ctx, input.id);
    const used = await ctx.db
      .selectFrom('fee_payment_items')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('bill_id', '=', input.id)
      .executeTakeFirst();
    if (used) fail('该账单有收费或退款记录，不能删除');
    await ctx.db.deleteFrom('fee_bill_adjustments').where('rid', '=', ctx.rid).where('bill_id', '=', input.id).execute();
    await ctx.db.deleteFrom('fee_bills').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '删除成功');
  },
});

const feeedit = defineMethod('feeedit', {
  side: 'community',
  roles: FEE_ROLES.bills,
  writes: true,
  summary: '调整一张未缴账单的金额，须填写原因；调整记录保留（feebillinfo 可见）',
  async handler(ctx, input) {
    const bill = await lockUnpaid(ctx, input.id);
    if (bill.fee === input.fee) fail('金额没有变化');
    await ctx.db.updateTable('fee_bills').set({ fee: input.fee }).where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    await ctx.db
      .insertInto('fee_bill_adjustments')
      .values({
        rid: ctx.rid,
        bill_id: input.id,
        old_fee: bill.fee,
        new_fee: input.fee,
        reason: input.reason,
        created_by: ctx.session.name,
      })
      .execute();
    return reply(null, '修改成功');
  },
});

const feebillcheck = defineMethod('feebillcheck', {
  side: 'community',
  roles: FEE_ROLES.bills,
  writes: true,
  summary: '设置账单的审核标记（is_check Y/N），可批量',
  async handler(ctx, input) {
    const res = await ctx.db
      .updateTable('fee_bills')
      .set({ is_check: input.is_check })
      .where('rid', '=', ctx.rid)
      .where('id', 'in', [...new Set(input.ids)])
      .executeTakeFirst();
    const updated = Number(res.numUpdatedRows);
    if (updated === 0) fail('账单不存在');
    return reply({ updated }, input.is_check === 'Y' ? `已审核 ${updated} 张账单` : `已取消审核 ${updated} 张账单`);
  },
});

const exportfees = defineExport('exportfees', {
  roles: FEE_ROLES.bills,
  summary: '按账单列表的筛选条件导出 Excel（最多 10 万行）',
  filename: () => `账单_${today()}.xlsx`,
  async check({ db, rid }, input) {
    const counted = billCount(db, rid, input, await billLookups(db, rid, input));
    if (counted) await refuseOversizedExport(db, counted.select('b.id'));
  },
  async sheet({ db, rid }, input) {
    const qb = applyBillFilters(billBase(db, rid), input, rid, await billLookups(db, rid, input));
    const rows = qb ? await selectBillRow(qb).orderBy('b.id', input.sort).limit(EXPORT_MAX).execute() : [];
    return sheetOf(
      '账单',
      [
        { header: '账单ID', value: (b) => b.id },
        { header: '楼栋', value: (b) => b.building_title },
        { header: '单元', value: (b) => b.unit_title },
        { header: '房号', value: (b) => b.house_title },
        { header: '收费项目', value: (b) => b.title, width: 16 },
        { header: '账期', value: (b) => b.period },
        { header: '计费周期', value: (b) => b.daterange, width: 26 },
        { header: '计量', value: (b) => b.measure },
        { header: '单价', value: (b) => b.unit_price },
        { header: '金额', value: (b) => b.fee },
        { header: '滞纳金', value: (b) => b.late_fee },
        { header: '状态', value: (b) => BILL_STATUS_CH[b.status as BillStatus] },
        { header: '应缴日期', value: (b) => b.due_date, width: 12 },
        { header: '缴费时间', value: (b) => b.paid_at, width: 20 },
        { header: '已审核', value: (b) => (b.is_check === 'Y' ? '是' : '否') },
        { header: '生成时间', value: (b) => b.create_time, width: 20 },
      ],
      rows.map((b) => toBillRow(b)),
    );
  },
});

const feebilloverdue = defineMethod('feebilloverdue', {
  side: 'community',
  roles: ['admin'],
  writes: true,
  summary: '立即排队逾期标记任务：本小区过了应缴日期的待缴账单标记为已逾期（N）；系统每天也会自动执行',
  async handler(ctx) {
    const jobId = await enqueueJob(ctx.db, {
      rid: ctx.rid,
      kind: BILL_OVERDUE,
      createdBy: ctx.session.accountId,
      payload: { rid: ctx.rid },
    });
    return reply({ job_id: jobId }, '已排队逾期标记任务');
  },
});

export const billMethods = [
  feebillgenerate,
  feebatchlist,
  feebatchcancel,
  feebilllist,
  feebillinfo,
  feebilldel,
  feeedit,
  feebillcheck,
  exportfees,
  feebilloverdue,
];
