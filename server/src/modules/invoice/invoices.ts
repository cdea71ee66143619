/**
 * 已开发票 (invoicelist, invoiceinfo, invoicepdf, invoicepush, invoiceexport) and the electronic
 * invoice report of the businesscount group (electroniclist) (docs/product.md#invoices).
 */
import {
  enumText,
  fenToYuan,
  INVOICE_COLOR,
  INVOICE_KIND,
  INVOICE_PUSH,
  INVOICE_ROLES,
  INVOICE_STATUS,
  RED_REASON,
  toFen,
  type ElectronicReportRow,
  type InvoiceLineRow,
  type InvoiceRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import { deliverInvoice, invoiceSettings, providerFor, rateCh, rateKey } from './core.js';

type InvoiceFilters = HandlerInput<'invoiceexport'>;

function invoiceQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('invoices as v')
    .leftJoin('invoices as bl', (j) => j.onRef('bl.rid', '=', 'v.rid').onRef('bl.id', '=', 'v.blue_id'))
    .select([
      'v.id',
      'v.serial',
      'v.invoice_no',
      'v.kind',
      'v.color',
      'v.blue_id',
      'bl.invoice_no as blue_no',
      'v.status',
      'v.buyer_kind',
      'v.buyer_title',
      'v.buyer_tax_no',
      'v.amount',
      'v.ex_tax',
      'v.tax',
      'v.reversed',
      'v.message',
      'v.push',
      'v.red_reason',
      'v.remark',
      'v.issuer',
      'v.issued_at',
      'v.created_at',
    ])
    .select(
      sql<string>`(SELECT string_agg(DISTINCT r.address, '、') FROM invoice_lines l JOIN rooms r ON r.rid = l.rid AND r.id = l.hid
        WHERE l.rid = v.rid AND l.invoice_id = v.id)`.as('rooms'),
    )
    .select(
      sql<string>`(SELECT string_agg(DISTINCT p.receipt_no, '、') FROM invoice_lines l JOIN fee_payments p ON p.rid = l.rid AND p.id = l.payment_id
        WHERE l.rid = v.rid AND l.invoice_id = v.id)`.as('receipts'),
    )
    .select(sql<number>`(SELECT count(*)::int FROM invoice_lines l WHERE l.rid = v.rid AND l.invoice_id = v.id)`.as('line_count'))
    .where('v.rid', '=', rid);
}
type Raw = Awaited<ReturnType<ReturnType<typeof invoiceQuery>['executeTakeFirstOrThrow']>>;

function filtered(db: Kysely<DB>, rid: number, f: InvoiceFilters) {
  let qb = invoiceQuery(db, rid);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    qb = qb.where((eb) =>
      eb.or([eb('v.invoice_no', 'like', k), eb('v.buyer_title', 'like', k), eb('v.buyer_tax_no', 'like', k), eb('v.serial', 'like', k)]),
    );
  }
  if (f.status) qb = qb.where('v.status', '=', f.status);
  if (f.color) qb = qb.where('v.color', '=', f.color);
  if (f.kind) qb = qb.where('v.kind', '=', f.kind);
  if (f.created) qb = qb.where(withinDays('v.created_at', f.created));
  const covers = (col: 'hid' | 'payment_id' | 'item_id', value: number) =>
    sql<boolean>`EXISTS (SELECT 1 FROM invoice_lines l WHERE l.rid = v.rid AND l.invoice_id = v.id AND l.${sql.ref(col)} = ${value})`;
  if (f.hid) qb = qb.where(covers('hid', f.hid));
  if (f.payment_id) qb = qb.where(covers('payment_id', f.payment_id));
  if (f.item_id) qb = qb.where(covers('item_id', f.item_id));
  return qb;
}

export const toInvoiceRow = (v: Raw): InvoiceRow => ({
  id: Number(v.id),
  serial: v.serial,
  invoice_no: v.invoice_no,
  kind: v.kind as InvoiceRow['kind'],
  kind_ch: enumText(INVOICE_KIND, v.kind),
  color: v.color as 'B' | 'R',
  color_ch: enumText(INVOICE_COLOR, v.color),
  blue_id: v.blue_id === null ? null : Number(v.blue_id),
  blue_no: v.blue_no ?? '',
  status: v.status as InvoiceRow['status'],
  status_ch: enumText(INVOICE_STATUS, v.status),
  buyer_kind: v.buyer_kind as InvoiceRow['buyer_kind'],
  buyer_title: v.buyer_title,
  buyer_tax_no: v.buyer_tax_no,
  amount: v.amount,
  ex_tax: v.ex_tax,
  tax: v.tax,
  reversed: v.reversed,
  rooms: v.rooms ?? '',
  receipts: v.receipts ?? '',
  line_count: v.line_count,
  message: v.message,
  push: v.push as InvoiceRow['push'],
  push_ch: enumText(INVOICE_PUSH, v.push),
  red_reason: v.red_reason,
  red_reason_ch: v.red_reason ? enumText(RED_REASON, v.red_reason) : '',
  remark: v.remark,
  issuer: v.issuer,
  issue_time: wireTime(v.issued_at),
  create_time: wireTime(v.created_at),
});

const invoicelist = defineMethod('invoicelist', {
  side: 'community',
  roles: INVOICE_ROLES.apply,
  writes: false,
  summary: '已开发票：号码、日期、种类、蓝/红、购买方、金额（不含税、税额、价税合计）、房屋和收据、状态；合计为已开具的金额',
  async handler(ctx, input) {
    const qb = filtered(ctx.db, ctx.rid, input);
    // the sums of every filtered invoice issued, beside the page (listPage counts only when the page cannot tell)
    const [page, t] = await Promise.all([
      listPage(qb, input, 'v.id'),
      qb
        .clearSelect()
        .select([
          sql<string>`coalesce(sum(v.amount) FILTER (WHERE v.status IN ('Y', 'P', 'R')), 0)::text`.as('amount'),
          sql<string>`coalesce(sum(v.ex_tax) FILTER (WHERE v.status IN ('Y', 'P', 'R')), 0)::text`.as('ex_tax'),
          sql<string>`coalesce(sum(v.tax) FILTER (WHERE v.status IN ('Y', 'P', 'R')), 0)::text`.as('tax'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    const sums = { amount: fenToYuan(toFen(t.amount)), ex_tax: fenToYuan(toFen(t.ex_tax)), tax: fenToYuan(toFen(t.tax)) };
    return { total: page.total, items: page.items.map(toInvoiceRow), sums };
  },
});

const invoiceinfo = defineMethod('invoiceinfo', {
  side: 'community',
  roles: INVOICE_ROLES.apply,
  writes: false,
  summary: '发票详情：购买方、销方、明细（每条收据明细的金额、折扣、价税分离、已红冲）、红字发票、推送记录',
  async handler(ctx, input) {
    const v = await invoiceQuery(ctx.db, ctx.rid).where('v.id', '=', input.id).executeTakeFirst();
    if (!v) fail('发票不存在');
    const full = await ctx.db
      .selectFrom('invoices')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirstOrThrow();
    const lines = await ctx.db
      .selectFrom('invoice_lines as l')
      .innerJoin('fee_payment_items as pi', (j) => j.onRef('pi.rid', '=', 'l.rid').onRef('pi.id', '=', 'l.payment_item_id'))
      .innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'l.rid').onRef('p.id', '=', 'l.payment_id'))
      .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'l.rid').onRef('r.id', '=', 'l.hid'))
      .selectAll('l')
      .select(['pi.title as item_title', 'pi.period', 'p.receipt_no', 'r.address'])
      .where('l.rid', '=', ctx.rid)
      .where('l.invoice_id', '=', input.id)
      .orderBy('l.id')
      .execute();
    const reds = await invoiceQuery(ctx.db, ctx.rid).where('v.blue_id', '=', input.id).orderBy('v.id').execute();
    const pushes = await ctx.db
      .selectFrom('invoice_pushes')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('invoice_id', '=', input.id)
      .orderBy('id')
      .execute();
    return {
      ...toInvoiceRow(v),
      buyer_address_phone: full.buyer_address_phone,
      buyer_bank_account: full.buyer_bank_account,
      buyer_email: full.buyer_email,
      buyer_mobile: full.buyer_mobile,
      seller_name: full.seller_name,
      seller_tax_no: full.seller_tax_no,
      lines: lines.map((l): InvoiceLineRow => ({
        id: Number(l.id),
        payment_item_id: Number(l.payment_item_id),
        payment_id: Number(l.payment_id),
        receipt_no: l.receipt_no,
        address: l.address,
        item_title: l.item_title,
        period: l.period,
        goods_name: l.goods_name,
        tax_code: l.tax_code,
        rate: rateKey(l.rate),
        rate_ch: rateCh(l.rate),
        amount: l.amount,
        discount: l.discount,
        ex_tax: l.ex_tax,
        tax: l.tax,
        reversed: l.reversed,
        blue_line_id: l.blue_line_id === null ? null : Number(l.blue_line_id),
      })),
      reds: reds.map(toInvoiceRow),
      pushes: pushes.map((p) => ({
        channel: p.channel,
        channel_ch: enumText(INVOICE_PUSH, p.channel),
        target: p.target,
        status: p.status,
        create_time: wireTime(p.created_at),
        create_user: p.created_by_name,
      })),
    };
  },
});

const invoicepdf = defineMethod('invoicepdf', {
  side: 'community',
  roles: INVOICE_ROLES.apply,
  writes: false,
  summary: '下载已开具发票的 PDF',
  async handler(ctx, input) {
    const v = await ctx.db
      .selectFrom('invoices')
      .select(['invoice_no', 'status', 'pdf', 'color'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!v) fail('发票不存在');
    if (!v.invoice_no || !v.pdf) fail('发票尚未开具，没有 PDF');
    return { filename: `${v.color === 'R' ? '红字' : ''}发票_${v.invoice_no}.pdf`, content_base64: Buffer.from(v.pdf).toString('base64') };
  },
});

const invoicepush = defineMethod('invoicepush', {
  side: 'community',
  roles: INVOICE_ROLES.staff,
  writes: true,
  summary: '重新推送已开具的发票给购买方（邮箱或短信，经开票平台送达）',
  async handler(ctx, input) {
    const v = await ctx.db.selectFrom('invoices').selectAll().where('rid', '=', ctx.rid).where('id', '=', input.id).executeTakeFirst();
    if (!v) fail('发票不存在');
    if (!v.invoice_no) fail('发票尚未开具，不能推送');
    const target = input.push === 'email' ? input.email || v.buyer_email : input.mobile || v.buyer_mobile;
    if (!target) fail(input.push === 'email' ? '请填写接收邮箱' : '请填写接收手机');
    const settings = await invoiceSettings(ctx.db, ctx.rid);
    if (!settings) fail('请先保存开票设置');
    const sent = await deliverInvoice(ctx.db, providerFor(ctx.db, settings, ctx.config.dataDir), {
      rid: ctx.rid,
      invoiceId: Number(v.id),
      invoiceNo: v.invoice_no,
      channel: input.push,
      target,
      by: ctx.session,
    });
    if (!sent.ok) fail(`推送失败：${sent.message}`);
    return reply({ id: Number(v.id) }, `已推送到 ${target}`);
  },
});

const invoiceexport = defineExport('invoiceexport', {
  roles: INVOICE_ROLES.staff,
  summary: '导出发票明细（供会计入账）：每条明细一行，价税分离',
  filename: () => `发票明细_${today()}.xlsx`,
  async sheet({ db, rid }, input) {
    const invoices = await filtered(db, rid, input).orderBy('v.id', 'desc').limit(20_000).execute();
    const byId = new Map(invoices.map((v) => [Number(v.id), toInvoiceRow(v)]));
    const ids = [...byId.keys()];
    const lines = ids.length
      ? await db
          .selectFrom('invoice_lines as l')
          .innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'l.rid').onRef('p.id', '=', 'l.payment_id'))
          .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 'l.rid').onRef('r.id', '=', 'l.hid'))
          .selectAll('l')
          .select(['p.receipt_no', 'r.address'])
          .where('l.rid', '=', rid)
          .where('l.invoice_id', 'in', ids)
          .orderBy('l.invoice_id', 'desc')
          .orderBy('l.id')
          .execute()
      : [];
    const rows = lines.map((l) => ({ v: byId.get(Number(l.invoice_id))!, l }));
    return sheetOf(
      '发票明细',
      [
        { header: '发票号码', value: (r) => r.v.invoice_no, width: 24 },
        { header: '开票日期', value: (r) => r.v.issue_time.slice(0, 10), width: 12 },
        { header: '种类', value: (r) => r.v.kind_ch },
        { header: '蓝/红', value: (r) => r.v.color_ch, width: 8 },
        { header: '状态', value: (r) => r.v.status_ch },
        { header: '购买方', value: (r) => r.v.buyer_title, width: 24 },
        { header: '纳税人识别号', value: (r) => r.v.buyer_tax_no, width: 22 },
        { header: '房屋', value: (r) => r.l.address, width: 18 },
        { header: '收据号', value: (r) => r.l.receipt_no, width: 18 },
        { header: '开票项目', value: (r) => r.l.goods_name, width: 16 },
        { header: '税收分类编码', value: (r) => r.l.tax_code, width: 22 },
        { header: '税率', value: (r) => rateCh(r.l.rate) },
        { header: '金额（不含税）', value: (r) => r.l.ex_tax },
        { header: '税额', value: (r) => r.l.tax },
        { header: '价税合计', value: (r) => r.l.amount },
        { header: '折扣', value: (r) => r.l.discount },
      ],
      rows,
    );
  },
});

// ------------------------------------------------------------------------------------ report

type ReportInput = HandlerInput<'electroniclist'>;

async function electronicRows(db: Kysely<DB>, rid: number, input: ReportInput) {
  if (input.month_from > input.month_to) fail('开始月份不能晚于结束月份');
  const res = await sql<{
    month: string;
    goods_name: string;
    rate: string;
    blue_count: number;
    blue_amount: string;
    blue_tax: string;
    red_count: number;
    red_amount: string;
    red_tax: string;
  }>`
    SELECT to_char(v.issued_at, 'YYYY-MM') AS month, l.goods_name, l.rate::text AS rate,
      count(DISTINCT v.id) FILTER (WHERE v.color = 'B')::int AS blue_count,
      coalesce(sum(l.amount) FILTER (WHERE v.color = 'B'), 0)::text AS blue_amount,
      coalesce(sum(l.tax) FILTER (WHERE v.color = 'B'), 0)::text AS blue_tax,
      count(DISTINCT v.id) FILTER (WHERE v.color = 'R')::int AS red_count,
      coalesce(-sum(l.amount) FILTER (WHERE v.color = 'R'), 0)::text AS red_amount,
      coalesce(-sum(l.tax) FILTER (WHERE v.color = 'R'), 0)::text AS red_tax
    FROM invoices v JOIN invoice_lines l ON l.rid = v.rid AND l.invoice_id = v.id
    WHERE v.rid = ${rid} AND v.issued_at IS NOT NULL AND v.status IN ('Y', 'P', 'R')
      AND v.issued_at >= ${`${input.month_from}-01`}::date
      AND v.issued_at < (${`${input.month_to}-01`}::date + interval '1 month')
      ${input.rate ? sql`AND l.rate = ${input.rate}::numeric` : sql``}
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`.execute(db);
  return res.rows.map((r): ElectronicReportRow => ({
    month: r.month,
    goods_name: r.goods_name,
    rate: rateKey(r.rate),
    rate_ch: rateCh(r.rate),
    blue_count: r.blue_count,
    blue_amount: fenToYuan(toFen(r.blue_amount)),
    blue_tax: fenToYuan(toFen(r.blue_tax)),
    red_count: r.red_count,
    red_amount: fenToYuan(toFen(r.red_amount)),
    red_tax: fenToYuan(toFen(r.red_tax)),
    net_amount: fenToYuan(toFen(r.blue_amount) - toFen(r.red_amount)),
    net_tax: fenToYuan(toFen(r.blue_tax) - toFen(r.red_tax)),
  }));
}

function sumsOf(rows: ElectronicReportRow[]) {
  const s = (k: keyof ElectronicReportRow) => fenToYuan(rows.reduce((a, r) => a + toFen(String(r[k])), 0n));
  return {
    blue_count: rows.reduce((a, r) => a + r.blue_count, 0),
    blue_amount: s('blue_amount'),
    blue_tax: s('blue_tax'),
    red_count: rows.reduce((a, r) => a + r.red_count, 0),
    red_amount: s('red_amount'),
    red_tax: s('red_tax'),
    net_amount: s('net_amount'),
    net_tax: s('net_tax'),
  };
}

const electroniclist = defineMethod('electroniclist', {
  side: 'community',
  roles: INVOICE_ROLES.report,
  writes: false,
  summary: '电子发票统计：按开具月份、开票项目和税率汇总蓝票与红票的价税合计和税额，及净额',
  async handler(ctx, input) {
    const items = await electronicRows(ctx.db, ctx.rid, input);
    return { items, sums: sumsOf(items) };
  },
});

const electronicexport = defineExport('electronicexport', {
  roles: INVOICE_ROLES.report,
  summary: '导出电子发票统计（Excel）',
  filename: (input) => `电子发票统计_${input.month_from}_${input.month_to}.xlsx`,
  async sheet({ db, rid }, input) {
    const rows = await electronicRows(db, rid, input);
    return sheetOf(
      '电子发票统计',
      [
        { header: '月份', value: (r) => r.month },
        { header: '开票项目', value: (r) => r.goods_name, width: 18 },
        { header: '税率', value: (r) => r.rate_ch },
        { header: '蓝票张数', value: (r) => r.blue_count },
        { header: '蓝票价税合计', value: (r) => r.blue_amount },
        { header: '蓝票税额', value: (r) => r.blue_tax },
        { header: '红票张数', value: (r) => r.red_count },
        { header: '红冲价税合计', value: (r) => r.red_amount },
        { header: '红冲税额', value: (r) => r.red_tax },
        { header: '净额', value: (r) => r.net_amount },
        { header: '净税额', value: (r) => r.net_tax },
      ],
      rows,
    );
  },
});

export const invoiceListMethods = [invoicelist, invoiceinfo, invoicepdf, invoicepush, invoiceexport, electroniclist, electronicexport];
