/**
 * 开票申请: staff (a cashier at the counter) ask for an invoice for an owner, with chosen paid lines
 * and a title; an invoice holder reviews it (the invoiceapply workflow, docs/resources.md): approving
 * issues the invoice as asked, if the lines still have that much left; rejecting says why. Nobody
 * reviews their own application.
 */
import {
  enumText,
  fenToYuan,
  INVOICE_APPLY_STATUS,
  INVOICE_KIND,
  INVOICE_ROLES,
  invoiceApplyFlow,
  TITLE_KIND,
  type Buyer,
  type InvoiceApplyRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { registerBacklogSource } from '../setup/backlog.js';
import { linesQuery, readLines, takeLines } from './core.js';
import { buyerOf, issueLines, settingsForIssue } from './issue.js';

/** An application waits on the reviewers' to-do list (docs/product.md#to-do-list). */
export const applyBacklog = registerBacklogSource({
  kind: 'invoiceapply',
  roles: INVOICE_ROLES.staff,
  link: (id) => `/invoice/invoicewaitlist?tab=apply&id=${id}`,
  hours: 48,
});

function applyQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('invoice_applications as a')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'a.rid').onRef('r.id', '=', 'a.hid'))
    .innerJoin('members as mb', (j) => j.onRef('mb.rid', '=', 'a.rid').onRef('mb.id', '=', 'a.member_id'))
    .selectAll('a')
    .select(['r.address', 'mb.realname as owner_name'])
    .select(
      sql<string>`(SELECT string_agg(v.invoice_no, '、' ORDER BY v.id) FROM invoices v WHERE v.rid = a.rid AND v.id = ANY(a.invoice_ids) AND v.invoice_no <> '')`.as(
        'invoice_nos',
      ),
    )
    .where('a.rid', '=', rid);
}
type Raw = Awaited<ReturnType<ReturnType<typeof applyQuery>['executeTakeFirstOrThrow']>>;
type AppliedLine = { id: number; amount: string };

async function toRow(ctx: CommunityCtx, a: Raw, withLines: boolean): Promise<InvoiceApplyRow> {
  const applied = (typeof a.lines === 'string' ? JSON.parse(a.lines) : a.lines) as AppliedLine[];
  const described = withLines
    ? await linesQuery(ctx.db, ctx.rid)
        .where(
          'pi.id',
          'in',
          applied.map((l) => l.id),
        )
        .execute()
    : [];
  const by = new Map(described.map((l) => [Number(l.id), l]));
  return {
    id: Number(a.id),
    hid: Number(a.hid),
    address: a.address,
    member_id: Number(a.member_id),
    owner_name: a.owner_name,
    buyer_kind: a.buyer_kind as InvoiceApplyRow['buyer_kind'],
    buyer_kind_ch: enumText(TITLE_KIND, a.buyer_kind),
    buyer_title: a.buyer_title,
    buyer_tax_no: a.buyer_tax_no,
    buyer_address_phone: a.buyer_address_phone,
    buyer_bank_account: a.buyer_bank_account,
    buyer_email: a.buyer_email,
    buyer_mobile: a.buyer_mobile,
    kind: a.kind as InvoiceApplyRow['kind'],
    kind_ch: enumText(INVOICE_KIND, a.kind),
    amount: a.amount,
    line_count: applied.length,
    lines: withLines
      ? applied.map((l) => {
          const d = by.get(l.id);
          return { id: l.id, amount: l.amount, item_title: d?.title ?? '', period: d?.period ?? '', receipt_no: d?.receipt_no ?? '' };
        })
      : [],
    status: a.status as InvoiceApplyRow['status'],
    status_ch: enumText(INVOICE_APPLY_STATUS, a.status),
    invoice_ids: a.invoice_ids.map(Number),
    invoice_nos: a.invoice_nos ?? '',
    remark: a.remark,
    applicant: a.applicant,
    mine: a.created_by !== null && Number(a.created_by) === ctx.session.accountId,
    reviewer: a.reviewer,
    review_remark: a.review_remark,
    create_time: wireTime(a.created_at),
    review_time: wireTime(a.reviewed_at),
  };
}

const invoiceapplylist = defineMethod('invoiceapplylist', {
  side: 'community',
  roles: INVOICE_ROLES.apply,
  writes: false,
  summary: '开票申请列表：业主、抬头、金额、状态、申请人、审核人',
  async handler(ctx, input) {
    let qb = applyQuery(ctx.db, ctx.rid);
    if (input.status) qb = qb.where('a.status', '=', input.status);
    if (input.keyword) {
      const k = likePattern(input.keyword);
      qb = qb.where((eb) => eb.or([eb('a.buyer_title', 'like', k), eb('r.address', 'like', k), eb('mb.realname', 'like', k)]));
    }
    const page = await listPage(qb, input, 'a.id');
    return { total: page.total, items: await Promise.all(page.items.map((a) => toRow(ctx, a, false))) };
  },
});

const invoiceapplyinfo = defineMethod('invoiceapplyinfo', {
  side: 'community',
  roles: INVOICE_ROLES.apply,
  writes: false,
  summary: '开票申请详情：所申请的收据明细和金额、抬头、审核结果和发票号',
  async handler(ctx, input) {
    const a = await applyQuery(ctx.db, ctx.rid).where('a.id', '=', input.id).executeTakeFirst();
    if (!a) fail('开票申请不存在');
    return toRow(ctx, a, true);
  },
});

const invoiceapplyadd = defineMethod('invoiceapplyadd', {
  side: 'community',
  roles: INVOICE_ROLES.apply,
  writes: true,
  summary: '为业主提交开票申请：所选收据明细（须为该业主的，金额不超过剩余可开）和抬头，由开票人员审核后开具',
  async handler(ctx, input) {
    const settings = await settingsForIssue(ctx);
    const byId = await readLines(
      ctx,
      input.lines.map((l) => l.id),
      false,
    );
    const taken = takeLines(byId, input.lines, settings);
    const first = taken[0]!.line;
    if (first.member_id === null || Number(first.member_id) !== input.member_id) fail('所选费用不是该业主缴纳的');
    const buyer: Buyer = await buyerOf(ctx, input, input.member_id, input.kind);
    const amount = taken.reduce((s, t) => s + t.amountFen, 0n);
    const row = await ctx.db
      .insertInto('invoice_applications')
      .values({
        rid: ctx.rid,
        hid: Number(first.hid),
        member_id: input.member_id,
        buyer_kind: buyer.kind,
        buyer_title: buyer.title,
        buyer_tax_no: buyer.tax_no,
        buyer_address_phone: buyer.address_phone,
        buyer_bank_account: buyer.bank_account,
        buyer_email: buyer.email,
        buyer_mobile: buyer.mobile,
        kind: input.kind,
        lines: JSON.stringify(taken.map((t) => ({ id: Number(t.line.id), amount: fenToYuan(t.amountFen) }))),
        amount: fenToYuan(amount),
        remark: input.remark,
        applicant: ctx.session.name,
        created_by: ctx.session.accountId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await writeFlowLog(ctx, invoiceApplyFlow.def, id, {
      transition: 'create',
      from: '',
      to: 'W',
      input: { amount: fenToYuan(amount), title: buyer.title },
    });
    await applyBacklog.raise(ctx.db, ctx.rid, {
      sourceId: id,
      title: `审核开票申请：${buyer.title} ${fenToYuan(amount)} 元`,
      content: input.remark || `${first.receipt_no} 等 ${taken.length} 条费用`,
      submitter: ctx.session,
    });
    return reply({ id, amount: fenToYuan(amount) }, `已提交开票申请，金额 ${fenToYuan(amount)} 元`);
  },
});

function notOwnApplication(ctx: CommunityCtx, row: { created_by?: unknown }) {
  if (row.created_by !== null && row.created_by !== undefined && Number(row.created_by) === ctx.session.accountId) {
    fail('不能审核自己提交的开票申请，请由其他开票人员处理');
  }
}

const reviewed = (ctx: CommunityCtx, input: { remark?: unknown }) => ({
  reviewer: ctx.session.name,
  review_remark: String(input.remark ?? ''),
  reviewed_at: sql<Date>`now()`,
});

const applyFlowMethods = defineWorkflow(invoiceApplyFlow, {
  table: 'invoice_applications',
  answer: async (ctx, id) => toRow(ctx, await applyQuery(ctx.db, ctx.rid).where('a.id', '=', id).executeTakeFirstOrThrow(), true),
  transitions: {
    approve: {
      async run(ctx, row) {
        notOwnApplication(ctx, row);
        const settings = await settingsForIssue(ctx);
        const applied = (typeof row.lines === 'string' ? JSON.parse(row.lines) : row.lines) as AppliedLine[];
        const buyer: Buyer = {
          kind: row.buyer_kind as Buyer['kind'],
          title: String(row.buyer_title),
          tax_no: String(row.buyer_tax_no),
          address_phone: String(row.buyer_address_phone),
          bank_account: String(row.buyer_bank_account),
          email: String(row.buyer_email),
          mobile: String(row.buyer_mobile),
        };
        const issued = await issueLines(ctx, settings, applied, {
          buyer,
          kind: row.kind as 'p' | 's',
          remark: String(row.remark ?? ''),
          applicationId: Number(row.id),
        });
        await ctx.db
          .updateTable('invoice_applications')
          .set({ invoice_ids: issued.ids })
          .where('rid', '=', ctx.rid)
          .where('id', '=', Number(row.id))
          .execute();
        await applyBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: reviewed,
      message: '已同意，发票开具中',
    },
    reject: {
      async run(ctx, row, input) {
        if (!String(input.remark ?? '').trim()) fail('请填写驳回原因');
        notOwnApplication(ctx, row);
        await applyBacklog.settle(ctx.db, ctx.rid, Number(row.id), ctx.session.accountId);
      },
      set: reviewed,
      message: '已驳回',
    },
  },
  logRoles: INVOICE_ROLES.apply,
  summaries: {
    invoiceapplyreview:
      '审核开票申请（开票人员，不能审核自己的申请）：同意即按申请开具发票（费用须仍有足够的可开票金额），或驳回并说明原因',
    invoiceapplylog: '开票申请的处理记录：提交、同意或驳回，谁、何时、意见',
  },
});

export const applicationMethods = [invoiceapplylist, invoiceapplyinfo, invoiceapplyadd, ...applyFlowMethods];
