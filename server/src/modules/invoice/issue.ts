/**
 * The waiting list (invoicewaitlist), the preview and issuing (invoiceissue), retrying a failed
 * invoice, red-letter reversal (invoicered) and the job that calls the platform
 * (docs/product.md#invoices).
 */
import {
  enumText,
  fenToYuan,
  INVOICE_ROLES,
  PAY_TYPE,
  RED_REASON,
  toFen,
  WAIT_LINE_STATUS,
  type Buyer,
  type InvoicePreview,
  type InvoiceWaitRow,
  type PayTypeName,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { BizError, fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { registerJobKind } from '../../jobs/queue.js';
import { sheetOf } from '../../lib/excel.js';
import { onceByKey } from '../../lib/onceByKey.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import { afterPayment } from '../fees/cashier.js';
import { receiptKeyword } from '../fees/payments.js';
import {
  deliverInvoice,
  groupInvoices,
  holdOnBlue,
  INVOICE_JOB,
  invoiceSettings,
  leftFen,
  linesQuery,
  lockLines,
  readLines,
  moveInvoiced,
  nextInvoiceId,
  previewLines,
  providerFor,
  queueIssue,
  rateCh,
  rateKey,
  receivedFen,
  redIssued,
  releaseHeld,
  requestOf,
  serialOf,
  splitTax,
  takeLines,
  writeBlueInvoice,
  type InvoiceSettingsRow,
  type TakenLine,
} from './core.js';

type WaitFilters = HandlerInput<'invoicewaitexport'>;

/** The lines with something left to invoice (the partial index fee_payment_items_invoiceable), filtered. */
async function waiting(db: Kysely<DB>, rid: number, f: WaitFilters) {
  let qb = linesQuery(db, rid)
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'b.rid').onRef('r.id', '=', 'b.hid'))
    .select(['r.address', 'p.payer_name', 'p.pay_type', 'p.cashier_name', 'pi.daterange'])
    .where('pi.refunded', '=', 'N')
    .where('pi.bill_id', 'is not', null)
    .where('pi.cost_type', '<>', 'deposit')
    .where(sql<boolean>`pi.fee + pi.late_fee - pi.discount - pi.invoiced > 0`)
    .where('p.status', 'in', ['Y', 'P']);
  // the receipts the keyword names (room address, payer, number), found first through their own indexes
  if (f.keyword) qb = qb.where(await receiptKeyword(db, rid, f.keyword, { receiptNo: true }));
  // a building's lines through its rooms' receipts: walking the community's lines newest first for
  // a building's few took half a second (bench/README.md#invoices)
  if (f.bid) {
    const bid = f.bid;
    qb = qb
      .where('b.bid', '=', bid)
      .where('p.hid', 'in', (eb) => eb.selectFrom('rooms').select('id').where('rid', '=', rid).where('bid', '=', bid));
  }
  if (f.hid) qb = qb.where('b.hid', '=', f.hid);
  if (f.member_id) qb = qb.where('p.member_id', '=', f.member_id);
  if (f.item_id) qb = qb.where('b.item_id', '=', f.item_id);
  if (f.cost_type) qb = qb.where('pi.cost_type', '=', f.cost_type);
  if (f.pay_type) qb = qb.where('p.pay_type', '=', f.pay_type as PayTypeName);
  if (f.cashier_name) qb = qb.where('p.cashier_name', '=', f.cashier_name);
  if (f.rate) qb = qb.where('m.rate', '=', f.rate);
  if (f.receipt_no) qb = qb.where('p.receipt_no', '=', f.receipt_no);
  if (f.paid) qb = qb.where(withinDays('p.created_at', f.paid));
  return qb;
}

/**
 * The count and sums of the waiting lines, from their kept totals (invoice_wait_totals) when the
 * filters are among those kept (building, item, cost type, payment method, rate through the item's
 * mapping): a community's 700,000 waiting lines took seconds to count (bench/README.md#invoices).
 * Undefined for other filters, whose lines are few enough to sum.
 */
function keptWaitSums(db: Kysely<DB>, rid: number, f: WaitFilters) {
  if (f.keyword || f.hid || f.member_id || f.cashier_name || f.receipt_no || f.paid) return undefined;
  let q = db
    .selectFrom('invoice_wait_totals as t')
    .select([
      sql<string>`coalesce(sum(t.lines), 0)::text`.as('lines'),
      sql<string>`coalesce(sum(t.received), 0)::text`.as('received'),
      sql<string>`coalesce(sum(t.invoiced), 0)::text`.as('invoiced'),
    ])
    .where('t.rid', '=', rid);
  if (f.bid) q = q.where('t.bid', '=', f.bid);
  if (f.item_id) q = q.where('t.item_id', '=', f.item_id);
  if (f.cost_type) q = q.where('t.cost_type', '=', f.cost_type);
  if (f.pay_type) q = q.where('t.pay_type', '=', f.pay_type);
  if (f.rate) {
    const rate = f.rate;
    q = q.where('t.item_id', 'in', (eb) =>
      eb.selectFrom('invoice_item_maps as m').select('m.item_id').where('m.rid', '=', rid).where('m.rate', '=', rate),
    );
  }
  return q.executeTakeFirstOrThrow();
}

type WaitRaw = Awaited<ReturnType<Awaited<ReturnType<typeof waiting>>['executeTakeFirstOrThrow']>>;

const toWaitRow = (l: WaitRaw): InvoiceWaitRow => ({
  id: Number(l.id),
  payment_id: Number(l.payment_id),
  receipt_no: l.receipt_no,
  hid: Number(l.hid),
  address: l.address,
  member_id: l.member_id === null ? null : Number(l.member_id),
  owner_name: l.payer_name,
  item_id: Number(l.item_id),
  item_title: l.title,
  cost_type: l.cost_type,
  period: l.period,
  daterange: l.daterange,
  received: fenToYuan(receivedFen(l)),
  late_fee: l.late_fee,
  discount: l.discount,
  invoiced: l.invoiced,
  left: fenToYuan(leftFen(l)),
  paid_at: wireTime(l.paid_at),
  pay_type: l.pay_type,
  pay_type_ch: enumText(PAY_TYPE, l.pay_type),
  cashier_name: l.cashier_name,
  rate: l.rate === null ? '' : rateKey(l.rate),
  rate_ch: l.rate === null ? '' : rateCh(l.rate),
  goods_name: l.goods_name ?? '',
  status: toFen(l.invoiced) > 0n ? 'P' : 'N',
  status_ch: enumText(WAIT_LINE_STATUS, toFen(l.invoiced) > 0n ? 'P' : 'N'),
});

const invoicewaitlist = defineMethod('invoicewaitlist', {
  side: 'community',
  roles: INVOICE_ROLES.apply,
  writes: false,
  summary: '待开票费用：已收款且还有可开票金额的收据明细（实收 = 费用 + 滞纳金 − 优惠分摊；可开 = 实收 − 已开票），押金除外',
  async handler(ctx, input) {
    const qb = await waiting(ctx.db, ctx.rid, input);
    // the count and sums of every filtered line, beside the page
    const sums =
      keptWaitSums(ctx.db, ctx.rid, input) ??
      qb
        .clearSelect()
        .select([
          sql<string>`count(*)::text`.as('lines'),
          sql<string>`coalesce(sum(pi.fee + pi.late_fee - pi.discount), 0)::text`.as('received'),
          sql<string>`coalesce(sum(pi.invoiced), 0)::text`.as('invoiced'),
        ])
        .executeTakeFirstOrThrow();
    const [page, t] = await Promise.all([listPage(qb, input, 'pi.id', async () => Number((await sums).lines)), sums]);
    return {
      total: page.total,
      items: page.items.map(toWaitRow),
      sums: {
        received: fenToYuan(toFen(t.received)),
        invoiced: fenToYuan(toFen(t.invoiced)),
        left: fenToYuan(toFen(t.received) - toFen(t.invoiced)),
      },
    };
  },
});

const invoicewaitexport = defineExport('invoicewaitexport', {
  roles: INVOICE_ROLES.apply,
  summary: '按当前筛选条件导出待开票费用（Excel）',
  filename: () => `待开票费用_${today()}.xlsx`,
  async sheet({ db, rid }, input) {
    const rows = (await (await waiting(db, rid, input)).orderBy('pi.id', 'desc').limit(50_000).execute()).map(toWaitRow);
    return sheetOf(
      '待开票费用',
      [
        { header: '收据号', value: (r) => r.receipt_no, width: 18 },
        { header: '房屋', value: (r) => r.address, width: 20 },
        { header: '业主', value: (r) => r.owner_name },
        { header: '收费项目', value: (r) => r.item_title, width: 16 },
        { header: '所属期间', value: (r) => r.period },
        { header: '实收', value: (r) => r.received },
        { header: '已开票', value: (r) => r.invoiced },
        { header: '可开票', value: (r) => r.left },
        { header: '税率', value: (r) => r.rate_ch || '未设置映射' },
        { header: '收款时间', value: (r) => r.paid_at, width: 20 },
        { header: '支付方式', value: (r) => r.pay_type_ch },
        { header: '收银员', value: (r) => r.cashier_name },
        { header: '状态', value: (r) => r.status_ch },
      ],
      rows,
    );
  },
});

/** The settings, refusing to invoice before they are saved. */
export async function settingsForIssue(ctx: CommunityCtx): Promise<InvoiceSettingsRow> {
  const s = await invoiceSettings(ctx.db, ctx.rid);
  if (!s) fail('尚未完成开票设置（销方信息），请先在开票设置中保存');
  return s;
}

const invoicepreview = defineMethod('invoicepreview', {
  side: 'community',
  roles: INVOICE_ROLES.apply,
  writes: false,
  summary: '开票预览：所选费用按合并规则分成几张发票，每张按开票项目和税率汇总，价税分离，优惠显示为折扣行',
  async handler(ctx, input) {
    const settings = await settingsForIssue(ctx);
    const byId = await readLines(
      ctx,
      input.lines.map((l) => l.id),
      false,
    );
    return previewOf(takeLines(byId, input.lines, settings), settings.merge_rule);
  },
});

function previewOf(taken: TakenLine[], rule: string): InvoicePreview {
  let amount = 0n;
  let exTax = 0n;
  let tax = 0n;
  const invoices = groupInvoices(taken, rule).map((g) => {
    const lines = previewLines(g);
    const a = lines.reduce((s, l) => s + toFen(l.amount), 0n);
    const e = g.reduce((s, t) => s + splitTax(t.amountFen, t.line.rate!).exTax, 0n);
    amount += a;
    exTax += e;
    tax += a - e;
    return { lines, amount: fenToYuan(a), ex_tax: fenToYuan(e), tax: fenToYuan(a - e), line_ids: g.map((t) => Number(t.line.id)) };
  });
  const members = [...new Set(taken.map((t) => t.line.member_id).filter((m): m is NonNullable<typeof m> => m !== null))].map(Number);
  return { invoices, amount: fenToYuan(amount), ex_tax: fenToYuan(exTax), tax: fenToYuan(tax), member_ids: members };
}

/** The buyer of an issue: a saved title of the lines' owner, or as typed; checked against the kind. */
export async function buyerOf(
  ctx: CommunityCtx,
  input: { title_id?: number | undefined; buyer?: Buyer | undefined },
  memberId: number | null,
  kind: 'p' | 's',
): Promise<Buyer> {
  let buyer: Buyer;
  if (input.title_id) {
    const t = await ctx.db
      .selectFrom('invoice_titles')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.title_id)
      .executeTakeFirst();
    if (!t) fail('发票抬头不存在');
    if (memberId !== null && Number(t.member_id) !== memberId) fail('所选抬头不是该业主的抬头');
    buyer = {
      kind: t.kind as Buyer['kind'],
      title: t.title,
      tax_no: t.tax_no,
      address_phone: t.address_phone,
      bank_account: t.bank_account,
      email: t.email,
      mobile: t.mobile,
    };
  } else if (input.buyer) {
    buyer = input.buyer;
  } else {
    fail('请选择或填写发票抬头');
  }
  if (buyer.kind === 'company' && !buyer.tax_no) fail('企业抬头须填写纳税人识别号');
  if (kind === 's' && (buyer.kind !== 'company' || !buyer.address_phone || !buyer.bank_account)) {
    fail('数电专票须为企业抬头，并填写地址电话和开户行及账号');
  }
  return buyer;
}

/** Issues chosen lines for a buyer: the invoices in 开票中 and their calls queued. */
export async function issueLines(
  ctx: CommunityCtx,
  settings: InvoiceSettingsRow,
  picks: Array<{ id: number; amount?: string | undefined }>,
  opts: {
    title_id?: number | undefined;
    buyer?: Buyer | undefined;
    kind?: 'p' | 's' | undefined;
    push?: string | undefined;
    remark: string;
    applicationId?: number;
    queue?: boolean;
  },
): Promise<{ ids: number[]; amountFen: bigint; memberId: number | null; buyer: Buyer }> {
  const locked = await lockLines(
    ctx,
    picks.map((p) => p.id),
  );
  const taken = takeLines(locked, picks, settings);
  const member = taken[0]!.line.member_id;
  const memberId = member === null ? null : Number(member);
  const kind = opts.kind ?? (settings.default_kind as 'p' | 's');
  const buyer = await buyerOf(ctx, opts, memberId, kind);
  const push = (opts.push ?? settings.push_default) as 'none' | 'email' | 'sms';
  if (push === 'email' && !buyer.email) fail('按邮箱推送须填写接收邮箱');
  if (push === 'sms' && !buyer.mobile) fail('按短信推送须填写接收手机');
  const ids: number[] = [];
  let amountFen = 0n;
  for (const group of groupInvoices(taken, settings.merge_rule)) {
    const inv = await writeBlueInvoice(ctx, settings, group, {
      buyer,
      kind,
      push,
      remark: opts.remark,
      memberId,
      ...(opts.applicationId ? { applicationId: opts.applicationId } : {}),
      ...(opts.queue === false ? { queue: false } : {}),
    });
    ids.push(inv.id);
    amountFen += inv.amountFen;
  }
  return { ids, amountFen, memberId, buyer };
}

/** Keeps a typed buyer as a title of the owner (the default one if the owner has none). */
async function saveTitle(ctx: CommunityCtx, memberId: number, buyer: Buyer, hid: number): Promise<void> {
  const same = await ctx.db
    .selectFrom('invoice_titles')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('member_id', '=', memberId)
    .where('title', '=', buyer.title)
    .where('tax_no', '=', buyer.tax_no)
    .executeTakeFirst();
  if (same) return;
  const hasDefault = await ctx.db
    .selectFrom('invoice_titles')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('member_id', '=', memberId)
    .where('is_default', '=', 'Y')
    .executeTakeFirst();
  await ctx.db
    .insertInto('invoice_titles')
    .values({ rid: ctx.rid, hid, member_id: memberId, ...buyer, is_default: hasDefault ? 'N' : 'Y', created_by: ctx.session.accountId })
    .execute();
}

const invoiceissue = defineMethod('invoiceissue', {
  side: 'community',
  roles: INVOICE_ROLES.staff,
  writes: true,
  summary:
    '开票：锁定所选收据明细，每条最多开到剩余可开金额（默认全部），按合并规则生成发票（开票中），由开票平台异步开具；同一笔钱只开一次，同一 idempotency_key 重复提交只开一次',
  handler: (ctx, input) =>
    onceByKey(ctx, 'invoiceissue', input.idempotency_key, async () => {
      const settings = await settingsForIssue(ctx);
      const issued = await issueLines(ctx, settings, input.lines, {
        title_id: input.title_id,
        buyer: input.buyer,
        kind: input.kind,
        push: input.push,
        remark: input.remark,
      });
      if (input.save_title_member_id && !input.title_id) {
        if (issued.memberId !== input.save_title_member_id) fail('只能保存为所开费用业主的抬头');
        const line = await ctx.db
          .selectFrom('fee_payment_items as pi')
          .innerJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'pi.rid').onRef('b.id', '=', 'pi.bill_id'))
          .select('b.hid')
          .where('pi.rid', '=', ctx.rid)
          .where('pi.id', '=', input.lines[0]!.id)
          .executeTakeFirstOrThrow();
        await saveTitle(ctx, issued.memberId, issued.buyer, Number(line.hid));
      }
      const amount = fenToYuan(issued.amountFen);
      return reply({ ids: issued.ids, amount }, `已提交开票 ${issued.ids.length} 张，金额 ${amount} 元，开具结果稍后显示`);
    }),
});

/** The invoice, locked; refuses another community's or a missing one. */
export async function lockInvoice(ctx: CommunityCtx, id: number) {
  const inv = await ctx.db
    .selectFrom('invoices')
    .selectAll()
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!inv) fail('发票不存在');
  return inv;
}

const invoiceretry = defineMethod('invoiceretry', {
  side: 'community',
  roles: INVOICE_ROLES.staff,
  writes: true,
  summary: '重新开具失败的发票：蓝票重新占用其费用的可开票金额（仍有剩余时），红票重新占用蓝票的可红冲金额',
  async handler(ctx, input) {
    const inv = await lockInvoice(ctx, input.id);
    if (inv.status !== 'F') fail('只有开具失败的发票可以重试');
    const lines = await ctx.db
      .selectFrom('invoice_lines')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('invoice_id', '=', inv.id)
      .orderBy('id')
      .execute();
    if (inv.color === 'B') {
      const settings = await settingsForIssue(ctx);
      const locked = await lockLines(
        ctx,
        lines.map((l) => Number(l.payment_item_id)),
      );
      takeLines(
        locked,
        lines.map((l) => ({ id: Number(l.payment_item_id), amount: l.amount })),
        settings,
      );
      await moveInvoiced(
        ctx.db,
        ctx.rid,
        lines.map((l) => ({ paymentItemId: Number(l.payment_item_id), fen: toFen(l.amount) })),
      );
    } else {
      const blue = await lockInvoice(ctx, Number(inv.blue_id));
      if (blue.status !== 'Y' && blue.status !== 'P') fail('原蓝字发票已不能红冲');
      await checkReversible(ctx, lines);
      await holdOnBlue(ctx.db, inv, lines, 1n);
    }
    await ctx.db
      .updateTable('invoices')
      .set({ status: 'W', message: '', attempts: sql`attempts + 1` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', inv.id)
      .execute();
    await queueIssue(ctx.db, ctx.rid, Number(inv.id), ctx.session.accountId);
    return reply({ id: Number(inv.id) }, '已重新提交开票');
  },
});

/** Each red line takes at most what is left to reverse of its blue line. */
async function checkReversible(ctx: CommunityCtx, redLines: Array<{ amount: string; blue_line_id: string | number | null }>) {
  for (const l of redLines) {
    const b = await ctx.db
      .selectFrom('invoice_lines')
      .select(['amount', 'reversed'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', Number(l.blue_line_id))
      .executeTakeFirstOrThrow();
    if (-toFen(l.amount) > toFen(b.amount) - toFen(b.reversed)) fail('红冲金额超过该发票可红冲的金额');
  }
}

/**
 * Writes a red invoice for a blue one (all that is left of it, or amounts of chosen lines), holding
 * those amounts on the blue lines until the platform answers, and queues the call.
 */
export async function writeRedInvoice(
  ctx: CommunityCtx,
  settings: InvoiceSettingsRow,
  blueId: number,
  input: { reason: string; remark: string; lines: Array<{ id: number; amount: string }> },
  queue = true,
): Promise<{ id: number; amountFen: bigint }> {
  const blue = await lockInvoice(ctx, blueId);
  if (blue.color !== 'B') fail('红字发票不能再红冲');
  if (blue.status === 'W') fail('发票正在开具，开具后才能红冲');
  if (blue.status === 'F') fail('开具失败的发票无需红冲');
  if (blue.status === 'R') fail('该发票已全部红冲');
  const lines = await ctx.db
    .selectFrom('invoice_lines')
    .selectAll()
    .where('rid', '=', ctx.rid)
    .where('invoice_id', '=', blue.id)
    .orderBy('id')
    .forUpdate()
    .execute();
  const byId = new Map(lines.map((l) => [Number(l.id), l]));
  const wanted = input.lines.length
    ? input.lines.map((p) => {
        const l = byId.get(p.id);
        if (!l) fail('所选明细不属于该发票');
        return { l, fen: toFen(p.amount) };
      })
    : lines.map((l) => ({ l, fen: toFen(l.amount) - toFen(l.reversed) }));
  if (new Set(wanted.map((w) => w.l.id)).size !== wanted.length) fail('所选明细有重复');
  const red = wanted.filter((w) => w.fen !== 0n);
  for (const w of red) {
    if (w.fen < 0n) fail('红冲金额须大于0');
    if (w.fen > toFen(w.l.amount) - toFen(w.l.reversed))
      fail(`「${w.l.goods_name}」最多还可红冲 ${fenToYuan(toFen(w.l.amount) - toFen(w.l.reversed))} 元`);
  }
  if (red.length === 0) fail('该发票已无可红冲金额（可能有红冲正在开具）');
  let amount = 0n;
  let exTax = 0n;
  const redLines = red.map(({ l, fen }) => {
    // the whole of a line never reversed before: exactly its own amounts back
    const whole = fen === toFen(l.amount) && toFen(l.reversed) === 0n;
    const split = whole ? { exTax: toFen(l.ex_tax), tax: toFen(l.tax) } : splitTax(fen, l.rate);
    amount += fen;
    exTax += split.exTax;
    return { l, fen, split };
  });
  const id = await nextInvoiceId(ctx.db);
  const inv = await ctx.db
    .insertInto('invoices')
    .values({
      rid: ctx.rid,
      id,
      serial: serialOf(ctx.rid, id),
      kind: blue.kind,
      color: 'R',
      blue_id: blue.id,
      status: 'W',
      member_id: blue.member_id,
      buyer_kind: blue.buyer_kind,
      buyer_title: blue.buyer_title,
      buyer_tax_no: blue.buyer_tax_no,
      buyer_address_phone: blue.buyer_address_phone,
      buyer_bank_account: blue.buyer_bank_account,
      buyer_email: blue.buyer_email,
      buyer_mobile: blue.buyer_mobile,
      seller_name: settings.seller_name,
      seller_tax_no: settings.seller_tax_no,
      amount: fenToYuan(-amount),
      ex_tax: fenToYuan(-exTax),
      tax: fenToYuan(-(amount - exTax)),
      red_reason: input.reason,
      remark: input.remark,
      push: blue.push,
      issuer: ctx.session.name,
      created_by: ctx.session.accountId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const inserted = await ctx.db
    .insertInto('invoice_lines')
    .values(
      redLines.map(({ l, fen, split }) => ({
        rid: ctx.rid,
        invoice_id: inv.id,
        payment_item_id: l.payment_item_id,
        payment_id: l.payment_id,
        hid: l.hid,
        item_id: l.item_id,
        goods_name: l.goods_name,
        tax_code: l.tax_code,
        rate: l.rate,
        tax_included: l.tax_included,
        special: l.special,
        unit: l.unit,
        amount: fenToYuan(-fen),
        discount: '0',
        ex_tax: fenToYuan(-split.exTax),
        tax: fenToYuan(-split.tax),
        blue_line_id: l.id,
      })),
    )
    .returning(['amount', 'blue_line_id'])
    .execute();
  await holdOnBlue(ctx.db, inv, inserted, 1n);
  if (queue) await queueIssue(ctx.db, ctx.rid, Number(inv.id), ctx.session.accountId);
  return { id: Number(inv.id), amountFen: amount };
}

const invoicered = defineMethod('invoicered', {
  side: 'community',
  roles: INVOICE_ROLES.staff,
  writes: true,
  summary: '红冲：对已开具的蓝字发票全额或部分（所选明细和金额）开具红字发票；红票开具后，红冲金额回到费用的可开票金额',
  async handler(ctx, input) {
    const settings = await settingsForIssue(ctx);
    const red = await writeRedInvoice(ctx, settings, input.id, input);
    const text = fenToYuan(red.amountFen);
    return reply({ id: red.id, amount: text }, `已提交红冲 ${text} 元（${enumText(RED_REASON, input.reason)}），开具结果稍后显示`);
  },
});

/**
 * The call to the platform, after the issuing transaction committed. The platform answers the same
 * invoice for the same serial, so a job run again after a crash never issues twice; the answer is
 * applied only to an invoice still 开票中.
 */
/** Calls the platform for an invoice still 开票中 and applies its answer; pushes it when asked. */
export async function callPlatform(db: Kysely<DB>, rid: number, id: number): Promise<{ ok: boolean; invoice_no: string } | null> {
  const inv = await db.selectFrom('invoices').selectAll().where('rid', '=', rid).where('id', '=', id).executeTakeFirst();
  if (!inv || inv.status !== 'W') return null;
  const settings = await invoiceSettings(db, rid);
  if (!settings) {
    await finish(db, rid, id, { ok: false, message: '尚未完成开票设置' });
    return { ok: false, invoice_no: '' };
  }
  const provider = providerFor(db, settings, loadConfig(process.env).dataDir);
  const req = await requestOf(db, inv, settings);
  const result = inv.color === 'R' ? await provider.reverse(req) : await provider.issue(req);
  const pdf = result.ok ? await provider.download(result.invoiceNo) : null;
  const applied = await finish(db, rid, id, result, pdf);
  if (result.ok && applied && inv.push !== 'none') {
    const target = inv.push === 'email' ? inv.buyer_email : inv.buyer_mobile;
    if (target) {
      await deliverInvoice(db, provider, {
        rid,
        invoiceId: id,
        invoiceNo: result.invoiceNo,
        channel: inv.push as 'email' | 'sms',
        target,
        by: { accountId: null, name: '系统' },
      });
    }
  }
  return { ok: result.ok, invoice_no: result.ok ? result.invoiceNo : '' };
}

registerJobKind(
  INVOICE_JOB,
  async (jctx) => (await callPlatform(jctx.db, Number(jctx.job.rid), Number(jctx.payload.invoice_id))) ?? { skipped: true },
  {
    viewers: INVOICE_ROLES.staff,
    // the workers kept dying on this call: the invoice fails (retry from the list), what it held given back
    async abandoned(db, job) {
      await finish(db, Number(job.rid), Number((job.payload as { invoice_id: number }).invoice_id), {
        ok: false,
        message: '开票平台无响应，请重试',
      });
    },
  },
);

/** Applies the platform's answer to an invoice still 开票中, in one transaction. */
async function finish(
  db: Kysely<DB>,
  rid: number,
  id: number,
  result: { ok: true; invoiceNo: string; issuedAt: Date } | { ok: false; message: string },
  pdf: Buffer | null = null,
): Promise<boolean> {
  const apply = async (trx: Kysely<DB>) => {
    const inv = await trx.selectFrom('invoices').selectAll().where('rid', '=', rid).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!inv || inv.status !== 'W') return false;
    if (result.ok) {
      await trx
        .updateTable('invoices')
        .set({ status: 'Y', invoice_no: result.invoiceNo, issued_at: result.issuedAt, pdf, message: '' })
        .where('rid', '=', rid)
        .where('id', '=', id)
        .execute();
      if (inv.color === 'R') {
        // the blue invoice first, then the receipt lines: the order every writer takes
        await trx.selectFrom('invoices').select('id').where('rid', '=', rid).where('id', '=', inv.blue_id!).forUpdate().execute();
        await redIssued(trx, inv);
      }
    } else {
      await trx.updateTable('invoices').set({ status: 'F', message: result.message }).where('rid', '=', rid).where('id', '=', id).execute();
      await releaseHeld(trx, inv);
    }
    return true;
  };
  // the demo's seed calls the platform inside its own transaction
  return db.isTransaction ? apply(db) : db.transaction().execute(apply);
}

/**
 * 开票设置 → 线上支付后自动开票: a receipt paid by WeChat Pay or Alipay is invoiced at once for the
 * owner's default title, when every line can be (mapped, not future); otherwise its lines wait on
 * the list as any other.
 */
afterPayment(async (ctx, payment) => {
  if (payment.pay_type !== 'wechat' && payment.pay_type !== 'alipay') return;
  if (payment.member_id === null) return;
  const settings = await invoiceSettings(ctx.db, ctx.rid);
  if (!settings || settings.auto_issue !== 'Y') return;
  const title = await ctx.db
    .selectFrom('invoice_titles')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('member_id', '=', payment.member_id)
    .where('is_default', '=', 'Y')
    .executeTakeFirst();
  if (!title) return;
  const lines = await linesQuery(ctx.db, ctx.rid).where('pi.payment_id', '=', payment.id).where('pi.cost_type', '<>', 'deposit').execute();
  const month = today().slice(0, 7);
  const ready = lines.filter(
    (l) => l.goods_name && l.item_id !== null && leftFen(l) > 0n && (settings.allow_future === 'Y' || l.period <= month),
  );
  if (ready.length === 0 || ready.length !== lines.length) return;
  try {
    await issueLines(
      ctx,
      settings,
      ready.map((l) => ({ id: Number(l.id) })),
      { title_id: Number(title.id), remark: '线上支付自动开票' },
    );
  } catch (err) {
    // a refusal comes before anything is written (the title does not fit the default kind): the
    // payment stands and its lines wait on the list
    if (err instanceof BizError) return;
    throw err;
  }
});

export const issueMethods = [invoicewaitlist, invoicewaitexport, invoicepreview, invoiceissue, invoiceretry, invoicered];
