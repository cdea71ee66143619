/**
 * 开票设置 (invoicesetinfo, invoiceset, invoiceprovidertest), the fee items' tax mapping
 * (invoiceitemmaplist / set / del) and owners' titles (invoicetitle…) (docs/product.md#invoices).
 */
import {
  COST_TYPE_CH,
  enumText,
  INVOICE_ROLES,
  INVOICE_SPECIAL,
  invoiceTitle,
  type InvoiceItemMapRow,
  type InvoiceSettings,
  type InvoiceTitleRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { defineResource, wireRows } from '../../lib/resource.js';
import { encryptSecret, lastFour, maskSecret, secretsKey } from '../../lib/secrets.js';
import { wireTime } from '../../lib/wire.js';
import { invoiceSettings, providerFor, rateCh, rateKey } from './core.js';

function settingsAnswer(row: Awaited<ReturnType<typeof invoiceSettings>>, updatedBy: string): InvoiceSettings {
  return {
    configured: row ? 'Y' : 'N',
    seller_name: row?.seller_name ?? '',
    seller_tax_no: row?.seller_tax_no ?? '',
    seller_address: row?.seller_address ?? '',
    seller_phone: row?.seller_phone ?? '',
    seller_bank: row?.seller_bank ?? '',
    seller_account: row?.seller_account ?? '',
    taxpayer_kind: row?.taxpayer_kind ?? 'general',
    default_kind: (row?.default_kind ?? 'p') as 'p' | 's',
    payee: row?.payee ?? '',
    checker: row?.checker ?? '',
    clerk: row?.clerk ?? '',
    auto_issue: (row?.auto_issue ?? 'N') as 'Y' | 'N',
    merge_rule: row?.merge_rule ?? 'payment',
    allow_future: (row?.allow_future ?? 'N') as 'Y' | 'N',
    push_default: (row?.push_default ?? 'none') as InvoiceSettings['push_default'],
    provider: row?.provider ?? 'sandbox',
    app_key: row?.app_key ?? '',
    app_secret_masked: maskSecret(row?.secret_last4 ?? ''),
    sandbox_mode: row?.sandbox_mode ?? 'ok',
    update_time: wireTime(row?.updated_at ?? null),
    updated_by: updatedBy,
  };
}

async function settingsInfo(db: Kysely<DB>, rid: number): Promise<InvoiceSettings> {
  const row = await invoiceSettings(db, rid);
  const who = row?.updated_by
    ? await db.selectFrom('accounts').select('name').where('id', '=', Number(row.updated_by)).executeTakeFirst()
    : undefined;
  return settingsAnswer(row, who?.name ?? '');
}

const invoicesetinfo = defineMethod('invoicesetinfo', {
  side: 'community',
  roles: INVOICE_ROLES.staff,
  writes: false,
  summary: '开票设置：销方信息、默认发票种类、收款人/复核/开票人、开票策略、开票平台（密钥只显示后四位）',
  handler: (ctx) => settingsInfo(ctx.db, ctx.rid),
});

const invoiceset = defineMethod('invoiceset', {
  side: 'community',
  roles: INVOICE_ROLES.staff,
  writes: true,
  summary: '保存开票设置（统一社会信用代码校验校验位；平台密钥只写，留空不修改，加密保存）',
  async handler(ctx, input) {
    const { app_secret, ...rest } = input;
    const sealed = app_secret
      ? { secret_blob: encryptSecret(app_secret, secretsKey(ctx.config.dataDir)), secret_last4: lastFour(app_secret) }
      : {};
    const values = { ...rest, ...sealed, updated_by: ctx.session.accountId, updated_at: sql<Date>`now()` };
    await ctx.db
      .insertInto('invoice_settings')
      .values({ rid: ctx.rid, created_by: ctx.session.accountId, ...values })
      .onConflict((oc) => oc.column('rid').doUpdateSet(values))
      .execute();
    return reply(null, '保存成功');
  },
});

const invoiceprovidertest = defineMethod('invoiceprovidertest', {
  side: 'community',
  roles: INVOICE_ROLES.staff,
  writes: false,
  summary: '测试开票平台连接（沙箱：按沙箱模式回答）',
  async handler(ctx) {
    const s = await invoiceSettings(ctx.db, ctx.rid);
    if (!s) fail('请先保存开票设置');
    return providerFor(ctx.db, s, ctx.config.dataDir).test();
  },
});

// ------------------------------------------------------------------------------------ mapping

function mapQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('fee_items as i')
    .leftJoin('invoice_item_maps as m', (j) => j.onRef('m.rid', '=', 'i.rid').onRef('m.item_id', '=', 'i.id'))
    .select([
      'i.id',
      'i.title',
      'i.cost_type',
      'm.goods_name',
      'm.tax_code',
      'm.rate',
      'm.tax_included',
      'm.special',
      'm.unit',
      'm.updated_at',
    ])
    .where('i.rid', '=', rid);
}

const toMapRow = (r: Awaited<ReturnType<ReturnType<typeof mapQuery>['executeTakeFirstOrThrow']>>): InvoiceItemMapRow => ({
  item_id: Number(r.id),
  item_title: r.title,
  cost_type: r.cost_type,
  cost_type_ch: COST_TYPE_CH[r.cost_type] ?? r.cost_type,
  mapped: r.goods_name ? 'Y' : 'N',
  goods_name: r.goods_name ?? '',
  tax_code: r.tax_code ?? '',
  rate: r.rate === null ? '' : rateKey(r.rate),
  rate_ch: r.rate === null ? '' : rateCh(r.rate),
  tax_included: (r.tax_included ?? '') as InvoiceItemMapRow['tax_included'],
  special: r.special ?? '',
  special_ch: r.special ? enumText(INVOICE_SPECIAL, r.special) : '',
  unit: r.unit ?? '',
  update_time: wireTime(r.updated_at),
});

const invoiceitemmaplist = defineMethod('invoiceitemmaplist', {
  side: 'community',
  roles: INVOICE_ROLES.staff,
  writes: false,
  summary: '开票项目映射：每个收费项目的开票名称、税收分类编码、税率、是否含税、特殊计税；未映射的项目不能开票',
  async handler(ctx, input) {
    let qb = mapQuery(ctx.db, ctx.rid);
    if (input.title) qb = qb.where('i.title', 'like', likePattern(input.title));
    if (input.cost_type) qb = qb.where('i.cost_type', '=', input.cost_type);
    if (input.mapped === 'Y') qb = qb.where('m.item_id', 'is not', null);
    if (input.mapped === 'N') qb = qb.where('m.item_id', 'is', null);
    const page = await listPage(qb, { ...input, sort: 'asc' }, 'i.id');
    return { total: page.total, items: page.items.map(toMapRow) };
  },
});

const invoiceitemmapset = defineMethod('invoiceitemmapset', {
  side: 'community',
  roles: INVOICE_ROLES.staff,
  writes: true,
  summary: '设置收费项目的开票映射（免税须为0%税率；已开的发票保留开票时的映射）',
  async handler(ctx, input) {
    const item = await ctx.db
      .selectFrom('fee_items')
      .select(['id', 'cost_type'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.item_id)
      .executeTakeFirst();
    if (!item) fail('收费项目不存在');
    if (item.cost_type === 'deposit') fail('押金不开具发票，无需设置开票映射');
    if (input.special === 'exempt' && input.rate !== '0') fail('免税项目的税率须为0%');
    if (input.special !== 'exempt' && input.rate === '0') fail('0%税率须选择特殊计税「免税」');
    if (input.special === 'simple' && !['5', '3', '1.5', '1'].includes(input.rate)) fail('简易计税的征收率为5%、3%、1.5%或1%');
    const values = { ...input, updated_at: sql<Date>`now()` };
    await ctx.db
      .insertInto('invoice_item_maps')
      .values({ rid: ctx.rid, created_by: ctx.session.accountId, ...values })
      .onConflict((oc) => oc.columns(['rid', 'item_id']).doUpdateSet(values))
      .execute();
    return reply({ item_id: input.item_id }, '保存成功');
  },
});

const invoiceitemmapdel = defineMethod('invoiceitemmapdel', {
  side: 'community',
  roles: INVOICE_ROLES.staff,
  writes: true,
  summary: '清除收费项目的开票映射（清除后该项目不能开票）',
  async handler(ctx, input) {
    const res = await ctx.db
      .deleteFrom('invoice_item_maps')
      .where('rid', '=', ctx.rid)
      .where('item_id', '=', input.item_id)
      .executeTakeFirst();
    if (res.numDeletedRows === 0n) fail('该收费项目没有开票映射');
    return reply({ item_id: input.item_id }, '已清除');
  },
});

// ------------------------------------------------------------------------------------ titles

function titleQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('invoice_titles as t')
    .innerJoin('rooms as r', (j) => j.onRef('r.rid', '=', 't.rid').onRef('r.id', '=', 't.hid'))
    .innerJoin('members as mb', (j) => j.onRef('mb.rid', '=', 't.rid').onRef('mb.id', '=', 't.member_id'))
    .selectAll('t')
    .select(['r.address', 'r.bid', 'r.tid', 'mb.realname as owner_name'])
    .where('t.rid', '=', rid);
}

const titleRow = (r: Record<string, unknown>) => ({
  ...r,
  id: Number(r.id),
  hid: Number(r.hid),
  bid: Number(r.bid),
  tid: Number(r.tid),
  member_id: Number(r.member_id),
  created_by: undefined,
});

/** One default title per owner: a new default takes it from the others. */
async function clearOtherDefaults(ctx: CommunityCtx, memberId: number, id?: number) {
  let qb = ctx.db
    .updateTable('invoice_titles')
    .set({ is_default: 'N' })
    .where('rid', '=', ctx.rid)
    .where('member_id', '=', memberId)
    .where('is_default', '=', 'Y');
  if (id) qb = qb.where('id', '<>', id);
  await qb.execute();
}

export const titleMethods = defineResource(invoiceTitle, {
  table: 'invoice_titles',
  query: (db, rid) => titleQuery(db as Kysely<DB>, rid),
  row: titleRow,
  unique: [{ on: ['member_id', 'title', 'tax_no'], message: (v) => `该业主已有抬头「${String(v.title)}」` }],
  values: (input, ctx) => ({ ...input, created_by: ctx.session.accountId }),
  async check(ctx, values, before) {
    if (values.is_default === 'Y') await clearOtherDefaults(ctx, Number(values.member_id), before ? Number(before.id) : undefined);
  },
  summaries: { list: '业主的发票抬头（个人/企业；企业须填纳税人识别号；每位业主一个默认抬头）' },
});

const toWire = wireRows(invoiceTitle.def);

const invoicetitleSmall = defineMethod('invoicetitle_small_list', {
  side: 'community',
  roles: INVOICE_ROLES.apply,
  writes: false,
  summary: '开票时可选的抬头：所开费用业主的已存抬头（默认抬头在前），或某房屋业主的抬头',
  async handler(ctx, input) {
    if (input.member_ids.length === 0 && !input.hid) return { items: [] };
    let qb = titleQuery(ctx.db, ctx.rid);
    if (input.member_ids.length) qb = qb.where('t.member_id', 'in', input.member_ids);
    if (input.hid) qb = qb.where('t.hid', '=', input.hid);
    const rows = await qb.orderBy('t.is_default', 'desc').orderBy('t.id', 'desc').limit(100).execute();
    // the rows as the title list answers them (coded values' texts, wire times)
    return { items: rows.map((r) => titleRow(toWire(r)) as unknown as InvoiceTitleRow) };
  },
});

export const settingsMethods = [
  invoicesetinfo,
  invoiceset,
  invoiceprovidertest,
  invoiceitemmaplist,
  invoiceitemmapset,
  invoiceitemmapdel,
  ...titleMethods,
  invoicetitleSmall,
];
