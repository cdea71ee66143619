/**
 * Members' coupons (优惠券; docs/product.md#member-coupons): the templates as a resource (cardslist…,
 * locked once a coupon is given: 已发放的优惠券只能修改名称、说明、增加库存和延长有效期), the coupons
 * given (cardgetlists, cardgetexport), a template's figures (carshow), giving (cardgive: all or
 * nothing, once per idempotency key, within the stock and the limit per member), checking a code
 * (cardverify: never changes it; a merchant account sees only coupons valid at its own store),
 * voiding (cardvoid), the overview report (reportcardgenerallist and its export) and the daily
 * expiry. The merchant counter (carduscon) uses a coupon inside its own transaction through
 * `redeemCoupon` and gives it back with `releaseCoupon`.
 */
import crypto from 'node:crypto';
import {
  CARD_ROLES,
  COUPON_LOCKED_MSG,
  MEMBER_COUPON_KIND,
  MEMBER_COUPON_PURPOSE,
  MEMBER_COUPON_SOURCE,
  MEMBER_COUPON_STATUS,
  MEMBER_COUPON_TEMPLATE_STATUS,
  MEMBER_COUPON_VALIDITY,
  addDays,
  addMonths,
  couponDiscountFen,
  couponRuleText,
  enumText,
  fenToYuan,
  memberCouponGiven,
  memberCouponTemplate,
  normalCouponCode,
  toFen,
  type CouponReportAnswer,
  type CouponReportRow,
  type MemberCouponCheck,
  type MemberCouponFigures,
  type MemberCouponItem,
  type MemberCouponSource,
  type MemberCouponTemplateItem,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, notForMerchants, reply, type CommunityCtx, type MethodDef } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { registerDailyJob, registerJobKind } from '../../jobs/queue.js';
import { registerDependents } from '../../lib/dependents.js';
import { sheetOf, type SheetColumn } from '../../lib/excel.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { onceByKey } from '../../lib/onceByKey.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime } from '../../lib/wire.js';
import { periodRange } from '../fees/calc.js';

registerDependents({ member_coupon_templates: '优惠券', member_coupons: '已发放的优惠券' });

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v);
const timeOrEmpty = (v: unknown) => (v instanceof Date ? wireTime(v) : typeof v === 'string' ? v : '');
const yuan = (v: unknown) => fenToYuan(toFen(String(v ?? '0')));

// ---- templates --------------------------------------------------------------------------------

/** 2026-12-01 至 2026-12-31, 领取后 30 天 */
function validityText(t: { validity: string; valid_start: string | null; valid_end: string | null; valid_days: number | null }): string {
  return t.validity === 'range' ? `${t.valid_start} 至 ${t.valid_end}` : `领取后 ${t.valid_days} 天`;
}

/** The store names of a template's stores (those still in the community), or 全部商户. */
const merchantNames = sql<string>`coalesce((SELECT string_agg(s.merchant, '、' ORDER BY s.id) FROM merchants s
  WHERE s.rid = t.rid AND s.id = ANY(t.merchant_ids)), '全部商户')`;

const templateQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('member_coupon_templates as t')
    .selectAll('t')
    .select(merchantNames.as('merchants'))
    .select(
      sql<number>`(SELECT count(*)::int FROM member_coupons c WHERE c.rid = t.rid AND c.template_id = t.id AND c.status = 'Y')`.as('used'),
    )
    .where('t.rid', '=', rid);

/** A template's value fields (a template's row, or a coupon's row joined to its template), money as wire text. */
const valueOf = (r: Row) => ({
  kind: String(r.kind),
  face_value: yuan(r.face_value),
  min_spend: yuan(r.min_spend),
  discount_percent: r.discount_percent === null ? null : num(r.discount_percent),
  discount_cap: yuan(r.discount_cap),
  gift: String(r.gift ?? ''),
});

function toTemplateRow(r: Row): MemberCouponTemplateItem {
  const t = valueOf(r);
  const stock = r.stock === null || r.stock === undefined ? null : num(r.stock);
  const issued = num(r.issued);
  const validity = {
    validity: String(r.validity),
    valid_start: (r.valid_start as string | null) ?? null,
    valid_end: (r.valid_end as string | null) ?? null,
    valid_days: r.valid_days === null || r.valid_days === undefined ? null : num(r.valid_days),
  };
  return {
    ...(r as unknown as MemberCouponTemplateItem),
    ...t,
    ...validity,
    id: num(r.id),
    // the coded values' texts here too (carshow reads the row without the resource's wire defaults)
    kind_ch: enumText(MEMBER_COUPON_KIND, String(r.kind)),
    purpose_ch: enumText(MEMBER_COUPON_PURPOSE, String(r.purpose)),
    give_mode_ch: enumText(MEMBER_COUPON_SOURCE, String(r.give_mode)),
    validity_ch: enumText(MEMBER_COUPON_VALIDITY, String(r.validity)),
    status_ch: enumText(MEMBER_COUPON_TEMPLATE_STATUS, String(r.status)),
    merchant_ids: ((r.merchant_ids as unknown[]) ?? []).map(num),
    rule_text: couponRuleText(t),
    stock,
    stock_text: stock === null ? '不限' : `${stock - issued} / ${stock}`,
    issued,
    used: num(r.used ?? 0),
    per_person: num(r.per_person),
    validity_text: validityText(validity),
    locked: issued > 0,
    created_by: undefined,
    rid: undefined,
  } as MemberCouponTemplateItem;
}

/** A template's columns as the form gives them: only the chosen kind's and validity's fields kept. */
function templateValues(input: Row): Row {
  const v: Row = { ...input };
  if (v.kind !== 'amount') v.face_value = '0.00';
  if (v.kind !== 'discount') Object.assign(v, { discount_percent: null, discount_cap: '0.00' });
  if (v.kind !== 'gift') v.gift = '';
  if (v.kind === 'gift') v.min_spend = '0.00';
  if (v.validity === 'range') v.valid_days = null;
  else Object.assign(v, { valid_start: null, valid_end: null });
  return v;
}

/** What may not change once a coupon is given: everything but the name, description, status, more stock and a later end. */
const FROZEN = [
  'kind',
  'purpose',
  'face_value',
  'min_spend',
  'discount_percent',
  'discount_cap',
  'gift',
  'per_person',
  'give_mode',
  'validity',
  'valid_start',
];

const same = (a: unknown, b: unknown) => {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === 'string' && /^\d+(\.\d+)?$/.test(a) && /^\d+(\.\d+)?$/.test(String(b))) return toFen(a) === toFen(String(b));
  return String(a) === String(b);
};

function refuseLockedChange(before: Row, values: Row): void {
  const changed =
    FROZEN.some((k) => !same(before[k], values[k])) ||
    ((before.merchant_ids as unknown[]) ?? []).map(num).join(',') !== ((values.merchant_ids as unknown[]) ?? []).map(num).join(',') ||
    (before.stock !== null && values.stock !== null && num(values.stock) < num(before.stock)) ||
    (before.stock === null && values.stock !== null) ||
    (before.valid_end !== null && (values.valid_end === null || String(values.valid_end) < String(before.valid_end))) ||
    (before.valid_days !== null && (values.valid_days === null || num(values.valid_days) < num(before.valid_days)));
  if (changed) fail(COUPON_LOCKED_MSG);
}

async function refuseOtherStores(ctx: CommunityCtx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await ctx.db.selectFrom('merchants').select('id').where('rid', '=', ctx.rid).where('id', 'in', ids).execute();
  if (found.length !== ids.length) fail('所选商户不存在或不属于当前小区');
}

const templateMethods = defineResource(memberCouponTemplate, {
  table: 'member_coupon_templates',
  query: (db, rid) => templateQuery(db as Kysely<DB>, rid),
  row: toTemplateRow,
  unique: [{ on: ['name'], message: (v) => `优惠券「${String(v.name)}」已存在` }],
  small: { label: 'name' },
  where: {
    merchant_id: (qb, value) => qb.where(sql<boolean>`(cardinality(t.merchant_ids) = 0 OR ${Number(value)}::bigint = ANY(t.merchant_ids))`),
  },
  values: (input, ctx, before) => ({ ...templateValues(input), ...(before ? {} : { created_by: ctx.session.accountId }) }),
  async check(ctx, values, before) {
    await refuseOtherStores(ctx, ((values.merchant_ids as number[]) ?? []).map(num));
    if (!before) return;
    // the template as the gives left it: they lock it first (giveCoupons), so its issued count is settled here
    const locked = await ctx.db
      .selectFrom('member_coupon_templates')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', num(before.id))
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (locked.issued === 0) return;
    refuseLockedChange(locked as unknown as Row, values);
    if (values.stock !== null && num(values.stock) < locked.issued) fail(`库存不能少于已发放的 ${locked.issued} 张`);
  },
  async after(ctx, id, values, before) {
    // a later end of a fixed range reaches the coupons given and not used yet
    if (!before || values.validity !== 'range' || before.valid_end === null || String(values.valid_end) <= String(before.valid_end)) return;
    await ctx.db
      .updateTable('member_coupons')
      .set({ valid_to: String(values.valid_end) })
      .where('rid', '=', ctx.rid)
      .where('template_id', '=', id)
      .where('status', '=', 'U')
      .where('valid_to', '=', String(before.valid_end))
      .execute();
  },
  dependents: { member_coupons: '该优惠券已发放，不能删除，可将其停用' },
  summaries: {
    list: '优惠券列表：名称、类型（满减/折扣/礼品）、用途、优惠内容、适用商户、有效期、库存、已发放、已使用、发放方式、状态；可按适用商户筛选（含全部商户可用的券）',
    add: '新增优惠券：满减券须填减免金额（小于最低消费），折扣券须填折扣（可设最多优惠），礼品券须填礼品；有效期为固定日期或领取后N天；库存留空为不限',
    edit: `修改优惠券：${COUPON_LOCKED_MSG}（以及启用/停用）；固定日期延后时，未使用的券随之延长`,
    del: '删除优惠券：已发放过的不能删除（可停用）',
  },
});

// ---- given coupons ------------------------------------------------------------------------------

/** What a coupon's use depends on, of its template (aliased ct). */
const TEMPLATE_TERMS = [
  'ct.kind',
  'ct.purpose',
  'ct.face_value',
  'ct.min_spend',
  'ct.discount_percent',
  'ct.discount_cap',
  'ct.merchant_ids',
] as const;

const givenQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('member_coupons as t')
    .innerJoin('member_coupon_templates as ct', (j) => j.onRef('ct.rid', '=', 't.rid').onRef('ct.id', '=', 't.template_id'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 't.rid').onRef('m.id', '=', 't.member_id'))
    .leftJoin('merchants as s', (j) => j.onRef('s.rid', '=', 't.rid').onRef('s.id', '=', 't.used_merchant_id'))
    .selectAll('t')
    .select([
      ...TEMPLATE_TERMS,
      'ct.name as template_name',
      'ct.gift',
      'ct.description',
      'm.realname',
      'm.mobile',
      's.merchant as used_merchant',
    ])
    .where('t.rid', '=', rid);

function toCouponRow(r: Row): MemberCouponItem {
  return {
    id: num(r.id),
    code: String(r.code),
    template_id: num(r.template_id),
    template_name: String(r.template_name),
    kind: r.kind as MemberCouponItem['kind'],
    kind_ch: enumText(MEMBER_COUPON_KIND, String(r.kind)),
    purpose: r.purpose as MemberCouponItem['purpose'],
    purpose_ch: enumText(MEMBER_COUPON_PURPOSE, String(r.purpose)),
    rule_text: couponRuleText(valueOf(r)),
    member_id: num(r.member_id),
    realname: String(r.realname),
    mobile: String(r.mobile),
    source: r.source as MemberCouponSource,
    source_ch: enumText(MEMBER_COUPON_SOURCE, String(r.source)),
    channel: String(r.channel ?? ''),
    source_ref: String(r.source_ref ?? ''),
    got_time: timeOrEmpty(r.got_at),
    valid_from: String(r.valid_from),
    valid_to: String(r.valid_to),
    status: r.status as MemberCouponItem['status'],
    status_ch: enumText(MEMBER_COUPON_STATUS, String(r.status)),
    used_time: timeOrEmpty(r.used_at),
    used_order_no: String(r.used_order_no ?? ''),
    used_merchant: String(r.used_merchant ?? ''),
    discount: yuan(r.discount),
    void_reason: String(r.void_reason ?? ''),
    create_time: timeOrEmpty(r.create_time ?? r.created_at),
  };
}

/** The member (aliased m) whose name or mobile holds the text. */
const memberKeyword = (value: unknown) => {
  const text = String(value).trim();
  const pattern = likePattern(text);
  return sql<boolean>`(m.realname ${sql.raw(containsOperator(text))} ${pattern} OR m.mobile LIKE ${pattern})`;
};

const givenMethods = defineResource(memberCouponGiven, {
  table: 'member_coupons',
  query: (db, rid) => givenQuery(db as Kysely<DB>, rid),
  row: toCouponRow,
  where: {
    code: (qb, value) => qb.where('t.code', 'like', likePattern(normalCouponCode(String(value)))),
    keyword: (qb, value) => qb.where(memberKeyword(value)),
  },
  summaries: {
    list: '领券记录：券码、优惠券、会员（姓名、手机号）、来源、领取时间、有效期、状态（未使用/已使用/已过期/已作废）、使用时间、订单号、使用商户、优惠金额、作废原因；按券码、会员、优惠券、状态、来源、领取日期筛选',
    export: '按当前筛选条件导出领券记录（Excel）',
  },
});

async function couponRow(ctx: CommunityCtx, id: number): Promise<MemberCouponItem> {
  const r = await givenQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirst();
  if (!r) fail('优惠券不存在');
  return toCouponRow(r as unknown as Row);
}

// ---- a template's figures (carshow) ---------------------------------------------------------------

export async function couponFigures(db: Kysely<DB>, rid: number, templateId: number): Promise<MemberCouponFigures> {
  const r = await db
    .selectFrom('member_coupons')
    .select([
      sql<number>`count(*)::int`.as('given'),
      sql<number>`count(*) FILTER (WHERE source = 'claim')::int`.as('claimed'),
      sql<number>`count(*) FILTER (WHERE status = 'U')::int`.as('unused'),
      sql<number>`count(*) FILTER (WHERE status = 'Y')::int`.as('used'),
      sql<number>`count(*) FILTER (WHERE status = 'E')::int`.as('expired'),
      sql<number>`count(*) FILTER (WHERE status = 'V')::int`.as('voided'),
      sql<string>`coalesce(sum(discount), 0)::text`.as('discount'),
      sql<number>`count(DISTINCT used_order_no)::int`.as('orders'),
    ])
    .where('rid', '=', rid)
    .where('template_id', '=', templateId)
    .executeTakeFirstOrThrow();
  return { ...r, discount: yuan(r.discount) };
}

const carshow = defineMethod('carshow', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary:
    '优惠券详情：券的设置，数据（已发放、会员领取、未使用、已使用、已过期、已作废、优惠金额、使用订单数）和它已发放的券（分页，可按状态筛选）',
  async handler(ctx, input) {
    const template = await templateQuery(ctx.db, ctx.rid).where('t.id', '=', input.id).executeTakeFirst();
    if (!template) fail('优惠券不存在');
    let coupons = givenQuery(ctx.db, ctx.rid).where('t.template_id', '=', input.id);
    if (input.status) coupons = coupons.where('t.status', '=', input.status);
    const [figures, page] = await Promise.all([
      couponFigures(ctx.db, ctx.rid, input.id),
      listPage(coupons, { page: input.page, limit: input.limit, sort: 'desc' }, 't.id'),
    ]);
    return {
      template: toTemplateRow({ ...template, create_time: wireTime(template.created_at) }),
      figures,
      items: page.items.map((r) => toCouponRow(r as unknown as Row)),
      total: page.total,
    };
  },
});

// ---- giving ---------------------------------------------------------------------------------

/** 32 letters and digits a person reads without doubt (no 0, O, 1, I). */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A coupon's code: 12 random characters of the alphabet (60 bits), from the system's CSPRNG. */
export function newCouponCode(): string {
  const bytes = crypto.randomBytes(12);
  let code = '';
  for (const b of bytes) code += CODE_ALPHABET[b & 31];
  return code;
}

export interface GiveRequest {
  rid: number;
  templateId: number;
  memberIds: number[];
  source: MemberCouponSource;
  channel?: string;
  /** what gave them (a rule's receipt, a recharge's order), kept on each coupon */
  sourceRef?: string;
  /** the rule give they belong to (a voided payment takes back its unused ones) */
  ruleGiveId?: number;
  /** coupons to each member (default 1) */
  count?: number;
  /** the k-th coupon (from 0) valid through the k-th calendar month from this one, not the template's validity */
  monthly?: boolean;
  createdBy: number | null;
}

/**
 * Gives one coupon of a template to each member, all or nothing, in the caller's transaction: the
 * template is locked first (every give and every edit of it takes that lock before anything else),
 * then the stock, the limit per member and the validity are checked and the coupons written with
 * fresh codes. Refuses in Chinese.
 */
export async function giveCoupons(db: Kysely<DB>, g: GiveRequest): Promise<{ given: number; issued: number }> {
  const t = await db
    .selectFrom('member_coupon_templates')
    .selectAll()
    .where('rid', '=', g.rid)
    .where('id', '=', g.templateId)
    .forUpdate()
    .executeTakeFirst();
  if (!t) fail('优惠券不存在');
  if (t.status !== 'Y') fail(`优惠券「${t.name}」已停用，不能发放`);
  const day = today();
  if (t.validity === 'range' && t.valid_end! < day) fail(`优惠券「${t.name}」已过有效期，不能发放`);
  const ids = [...new Set(g.memberIds)];
  const members = await db
    .selectFrom('members')
    .select(['id', 'realname'])
    .where('rid', '=', g.rid)
    .where('id', 'in', ids.length ? ids : [0])
    .execute();
  if (members.length !== ids.length || ids.length === 0) fail('会员不存在');
  const count = g.count ?? 1;
  const total = ids.length * count;
  if (t.stock !== null && t.issued + total > t.stock) {
    fail(`优惠券「${t.name}」库存不足：剩余 ${t.stock - t.issued} 张，本次需发放 ${total} 张`);
  }
  if (t.per_person > 0 && count > t.per_person) fail(`优惠券「${t.name}」每人限领 ${t.per_person} 张，不能一次发放 ${count} 张`);
  if (t.per_person > 0) {
    const held = await db
      .selectFrom('member_coupons')
      .select(['member_id', sql<number>`count(*)::int`.as('n')])
      .where('rid', '=', g.rid)
      .where('template_id', '=', g.templateId)
      .where('member_id', 'in', ids)
      .groupBy('member_id')
      .having(sql<number>`count(*)`, '>', t.per_person - count)
      .execute();
    const over = held[0];
    if (over) {
      const who = members.find((m) => m.id === num(over.member_id))?.realname ?? '';
      fail(
        `${who} 已有 ${over.n} 张「${t.name}」，每人限领 ${t.per_person} 张${held.length > 1 ? `（共 ${held.length} 人已达上限）` : ''}`,
      );
    }
  }
  const [from, to] = t.validity === 'range' ? [t.valid_start!, t.valid_end!] : [day, addDays(day, (t.valid_days ?? 1) - 1)];
  const validity = (k: number): [string, string] => {
    if (!g.monthly) return [from, to];
    const month = periodRange(day.slice(0, 7), 1).start;
    const r = periodRange(addMonths(month, k).slice(0, 7), 1);
    return [r.start, r.end];
  };
  let pending = ids.flatMap((memberId) => Array.from({ length: count }, (_, k) => ({ memberId, k })));
  // a code taken already (1 in 2^60 a pair) is drawn again
  for (let round = 0; pending.length > 0; round++) {
    if (round > 5) throw new Error('could not draw unique coupon codes');
    const drawn = pending.map((p) => ({ ...p, code: newCouponCode() }));
    const written = await db
      .insertInto('member_coupons')
      .values(
        drawn.map(({ memberId, k, code }) => {
          const [validFrom, validTo] = validity(k);
          return {
            rid: g.rid,
            code,
            template_id: g.templateId,
            member_id: memberId,
            valid_from: validFrom,
            valid_to: validTo,
            source: g.source,
            channel: g.channel ?? '',
            source_ref: g.sourceRef ?? '',
            rule_give_id: g.ruleGiveId ?? null,
            created_by: g.createdBy,
          };
        }),
      )
      .onConflict((oc) => oc.columns(['rid', 'code']).doNothing())
      .returning('code')
      .execute();
    const done = new Set(written.map((w) => w.code));
    pending = drawn.filter((d) => !done.has(d.code)).map(({ memberId, k }) => ({ memberId, k }));
  }
  const updated = await db
    .updateTable('member_coupon_templates')
    .set({ issued: sql`issued + ${total}::int` })
    .where('rid', '=', g.rid)
    .where('id', '=', g.templateId)
    .returning('issued')
    .executeTakeFirstOrThrow();
  return { given: total, issued: updated.issued };
}

/** The owners living now in the houses chosen: each house must be the community's and have one. */
async function ownersOf(ctx: CommunityCtx, hids: number[]): Promise<number[]> {
  if (hids.length === 0) return [];
  const unique = [...new Set(hids)];
  const rooms = await ctx.db.selectFrom('rooms').select(['id', 'address']).where('rid', '=', ctx.rid).where('id', 'in', unique).execute();
  if (rooms.length !== unique.length) fail('所选房屋不存在或不属于当前小区');
  const owners = await ctx.db
    .selectFrom('room_members')
    .select(['hid', 'member_id'])
    .where('rid', '=', ctx.rid)
    .where('hid', 'in', unique)
    .where('relation', '=', 'owner')
    .where('status', '=', 'Y')
    .execute();
  const housed = new Set(owners.map((o) => num(o.hid)));
  const empty = rooms.find((r) => !housed.has(num(r.id)));
  if (empty) fail(`房屋 ${empty.address} 没有在住业主`);
  return owners.map((o) => num(o.member_id));
}

const cardgive = defineMethod('cardgive', {
  side: 'community',
  roles: CARD_ROLES.coupons,
  writes: true,
  summary:
    '发放优惠券：给所选会员，或所选房屋的在住业主，每人一张；全部成功或全部不发（库存不足、超过每人限领、券已停用或已过有效期时拒绝）；同一 idempotency_key 只发放一次',
  handler: (ctx, input) =>
    onceByKey(ctx, 'cardgive', input.idempotency_key, async () => {
      const memberIds = [...new Set([...input.member_ids, ...(await ownersOf(ctx, input.hids))])];
      const template = await ctx.db
        .selectFrom('member_coupon_templates')
        .select(['give_mode'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.template_id)
        .executeTakeFirst();
      if (!template) fail('优惠券不存在');
      if (template.give_mode === 'rule') fail('规则赠送的优惠券由规则自动发放，不能手工发放');
      const done = await giveCoupons(ctx.db, {
        rid: ctx.rid,
        templateId: input.template_id,
        memberIds,
        source: 'staff',
        channel: input.channel || '后台',
        createdBy: ctx.session.accountId,
      });
      return reply(
        { template_id: input.template_id, given: done.given, member_ids: memberIds, issued: done.issued },
        `已发放 ${done.given} 张`,
      );
    }),
});

const cardgivemembers = defineMethod('cardgivemembers', {
  side: 'community',
  roles: CARD_ROLES.coupons,
  writes: false,
  summary: '发放优惠券时找会员：按姓名或手机号（最多 20 人），或一个房屋的在住人员；含其所住房屋',
  async handler(ctx, input) {
    let q = ctx.db
      .selectFrom('members as m')
      .select(['m.id', 'm.realname', 'm.mobile'])
      .select(
        sql<string>`coalesce((SELECT string_agg(r.address, '、' ORDER BY r.id) FROM room_members rm JOIN rooms r ON r.rid = rm.rid AND r.id = rm.hid
          WHERE rm.rid = m.rid AND rm.member_id = m.id AND rm.status = 'Y'), '')`.as('houses'),
      )
      .where('m.rid', '=', ctx.rid);
    if (input.keyword) q = q.where(memberKeyword(input.keyword));
    if (input.hid) {
      const hid = input.hid;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('room_members as rm')
            .select('rm.id')
            .whereRef('rm.rid', '=', 'm.rid')
            .whereRef('rm.member_id', '=', 'm.id')
            .where('rm.hid', '=', hid)
            .where('rm.status', '=', 'Y'),
        ),
      );
    }
    const rows = await q.orderBy('m.id').limit(20).execute();
    return { items: rows.map((r) => ({ id: num(r.id), realname: r.realname, mobile: r.mobile, houses: r.houses })) };
  },
});

// ---- checking and using a code ------------------------------------------------------------------------

interface CouponFacts {
  member_id: number;
  status: string;
  valid_from: string;
  valid_to: string;
  kind: string;
  purpose: string;
  face_value: string;
  min_spend: string;
  discount_percent: number | null;
  discount_cap: string;
  merchant_ids: number[];
}

interface Use {
  memberId?: number | undefined;
  /** the store where it is used; null: the property's own counter */
  merchantId?: number | null | undefined;
  purpose?: string | undefined;
  amountFen?: bigint | undefined;
}

/** Why a coupon cannot be used now as asked ('' when it can): what is not asked is not checked. */
export function whyNotUsable(c: CouponFacts, use: Use, day = today()): string {
  if (c.status === 'Y') return '该优惠券已使用';
  if (c.status === 'E') return '该优惠券已过期';
  if (c.status === 'V') return '该优惠券已作废';
  if (use.memberId !== undefined && num(c.member_id) !== use.memberId) return '该优惠券不属于该会员';
  if (c.valid_from > day) return `该优惠券 ${c.valid_from} 起可用`;
  if (c.valid_to < day) return '该优惠券已过期';
  const stores = (c.merchant_ids ?? []).map(num);
  if (use.merchantId !== undefined && stores.length > 0 && (use.merchantId === null || !stores.includes(use.merchantId))) {
    return use.merchantId === null ? '该优惠券仅限指定商户使用' : '该优惠券不能在本商户使用';
  }
  if (use.purpose !== undefined && use.purpose !== c.purpose) return `该优惠券仅限${enumText(MEMBER_COUPON_PURPOSE, c.purpose)}使用`;
  if (use.amountFen !== undefined && c.kind !== 'gift' && use.amountFen < toFen(c.min_spend)) {
    return `订单满 ${yuan(c.min_spend)} 元才能使用该优惠券`;
  }
  return '';
}

/** The store of a merchant account in the session's community. */
async function ownStore(ctx: CommunityCtx): Promise<number> {
  const store = await ctx.db
    .selectFrom('merchants')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('account_id', '=', ctx.session.accountId)
    .executeTakeFirst();
  if (!store) fail('该账号未关联本小区的商户');
  return num(store.id);
}

const cardverify = defineMethod('cardverify', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary:
    '核验券码（不会使用或改变这张券）：答复券、所属会员、能否按所给的金额、商户、用途现在使用及原因、可优惠的金额；商户账号只能查到在本店可用的券，且按本店核验',
  async handler(ctx, input) {
    const merchant = ctx.session.sysType === 'merchant';
    const merchantId = merchant ? await ownStore(ctx) : input.merchant_id;
    const r = await givenQuery(ctx.db, ctx.rid).where('t.code', '=', input.code).executeTakeFirst();
    if (!r) fail('券码不存在');
    const facts = r as unknown as CouponFacts;
    const stores = (facts.merchant_ids ?? []).map(num);
    // a store never learns of a coupon it does not take (whose it is, what it is worth)
    if (merchant && stores.length > 0 && !stores.includes(merchantId!)) fail('券码不存在');
    if (merchantId) {
      const known = await ctx.db
        .selectFrom('merchants')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', '=', merchantId)
        .executeTakeFirst();
      if (!known) fail('商户不存在');
    }
    const amountFen = input.amount ? toFen(input.amount) : undefined;
    const reason = whyNotUsable(facts, {
      merchantId: merchantId ?? undefined,
      purpose: input.purpose || undefined,
      amountFen,
    });
    const names = stores.length
      ? await ctx.db.selectFrom('merchants').select('merchant').where('rid', '=', ctx.rid).where('id', 'in', stores).orderBy('id').execute()
      : [];
    const answer: MemberCouponCheck = {
      coupon: toCouponRow(r as unknown as Row),
      reason,
      usable: reason === '',
      discount: fenToYuan(reason === '' && amountFen !== undefined ? couponDiscountFen(facts, amountFen) : 0n),
      merchants: names.length ? names.map((n) => n.merchant).join('、') : '全部商户',
      min_spend: yuan(facts.min_spend),
      description: String(r.description ?? ''),
    };
    return reply(answer, reason === '' ? '该优惠券可以使用' : reason);
  },
});

/**
 * Locks the coupon by code, checks it (member, merchant, purpose, validity, minimum spend), marks it
 * used for the order, answers the discount in fen. Refuses with a Chinese message.
 */
export async function redeemCoupon(
  db: Kysely<DB>,
  c: { rid: number; code: string; memberId: number; merchantId: number | null; purpose: string; amountFen: bigint; orderNo: string },
): Promise<{ couponId: number; discountFen: bigint; name: string }> {
  const code = normalCouponCode(c.code);
  const coupon = await db
    .selectFrom('member_coupons as t')
    .innerJoin('member_coupon_templates as ct', (j) => j.onRef('ct.rid', '=', 't.rid').onRef('ct.id', '=', 't.template_id'))
    .select(['t.id', 't.member_id', 't.status', 't.valid_from', 't.valid_to', 'ct.name', ...TEMPLATE_TERMS])
    .where('t.rid', '=', c.rid)
    .where('t.code', '=', code)
    .forUpdate('t')
    .executeTakeFirst();
  if (!coupon) fail('券码不存在');
  const reason = whyNotUsable(coupon as unknown as CouponFacts, {
    memberId: c.memberId,
    merchantId: c.merchantId,
    purpose: c.purpose,
    amountFen: c.amountFen,
  });
  if (reason) fail(reason);
  const discountFen = couponDiscountFen(coupon, c.amountFen);
  // guarded: only an unused coupon becomes used, whatever raced to it
  const used = await db
    .updateTable('member_coupons')
    .set({
      status: 'Y',
      used_at: sql`now()`,
      used_order_no: c.orderNo,
      used_merchant_id: c.merchantId,
      used_amount: fenToYuan(c.amountFen),
      discount: fenToYuan(discountFen),
    })
    .where('rid', '=', c.rid)
    .where('id', '=', coupon.id)
    .where('status', '=', 'U')
    .returning('id')
    .executeTakeFirst();
  if (!used) fail('该优惠券已使用');
  return { couponId: num(coupon.id), discountFen, name: coupon.name };
}

/** A cancelled or refunded order gives its coupon back (已使用 → 未使用, or 已过期 if its validity has ended). */
export async function releaseCoupon(db: Kysely<DB>, c: { rid: number; orderNo: string }): Promise<void> {
  const day = today();
  await db
    .updateTable('member_coupons')
    .set({
      status: sql`CASE WHEN valid_to < ${day}::date THEN 'E' ELSE 'U' END`,
      expired_at: sql`CASE WHEN valid_to < ${day}::date THEN now() END`,
      used_at: null,
      used_order_no: null,
      used_merchant_id: null,
      used_amount: null,
      discount: '0',
    })
    .where('rid', '=', c.rid)
    .where('used_order_no', '=', c.orderNo)
    .where('status', '=', 'Y')
    .execute();
}

const cardvoid = defineMethod('cardvoid', {
  side: 'community',
  roles: CARD_ROLES.coupons,
  writes: true,
  summary: '作废优惠券（须填原因）：只有未使用的券可以作废，作废后不能再用',
  async handler(ctx, input) {
    const voided = await ctx.db
      .updateTable('member_coupons')
      .set({ status: 'V', void_reason: input.reason, voided_at: sql`now()`, voided_by: ctx.session.accountId })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .where('status', '=', 'U')
      .returning('id')
      .executeTakeFirst();
    if (!voided) {
      const row = await couponRow(ctx, input.id);
      fail(`该优惠券${row.status_ch}，不能作废`);
    }
    return reply(await couponRow(ctx, input.id), '已作废');
  },
});

// ---- the daily expiry ---------------------------------------------------------------------------------

/** 未使用 past their end → 已过期 (a community's, or every community's), in batches; answers how many. */
export async function expireCoupons(db: Kysely<DB>, rid?: number): Promise<number> {
  const day = today();
  let total = 0;
  for (;;) {
    const batch = await sql<{ n: number }>`
      WITH due AS (
        SELECT rid, id FROM member_coupons
        WHERE status = 'U' AND valid_to < ${day}::date ${rid === undefined ? sql`` : sql`AND rid = ${rid}`}
        LIMIT 5000 FOR UPDATE SKIP LOCKED)
      UPDATE member_coupons c SET status = 'E', expired_at = now()
      FROM due WHERE c.rid = due.rid AND c.id = due.id AND c.status = 'U'
      RETURNING 1 AS n`.execute(db);
    total += batch.rows.length;
    if (batch.rows.length < 5000) return total;
  }
}

export const COUPON_EXPIRY = 'cards_coupon_expiry';
registerJobKind(COUPON_EXPIRY, async (ctx) => {
  await expireCoupons(ctx.db);
});
registerDailyJob(COUPON_EXPIRY, {});

// ---- the overview report -------------------------------------------------------------------------------

type ReportInput = { start_date?: string | undefined; end_date?: string | undefined; template_id?: number | undefined };

function reportRange(f: ReportInput): [string, string] {
  if (f.start_date && f.end_date) return [f.start_date, f.end_date];
  const day = today();
  return [`${day.slice(0, 8)}01`, day];
}

async function refuseUnknownTemplate(db: Kysely<DB>, rid: number, templateId: number | undefined): Promise<void> {
  if (!templateId) return;
  const t = await db
    .selectFrom('member_coupon_templates')
    .select('id')
    .where('rid', '=', rid)
    .where('id', '=', templateId)
    .executeTakeFirst();
  if (!t) fail('优惠券不存在');
}

/** Per business day (the latest first) and template: given by staff or rule, claimed, used (discount, orders), expired. */
export async function couponReport(db: Kysely<DB>, rid: number, input: ReportInput): Promise<CouponReportAnswer> {
  const [start, end] = reportRange(input);
  await refuseUnknownTemplate(db, rid, input.template_id);
  const only = input.template_id ? sql`AND template_id = ${input.template_id}` : sql``;
  const within = (col: string) => sql`${sql.ref(col)} >= ${start}::date AND ${sql.ref(col)} < ${end}::date + 1`;
  const rows = await sql<Omit<CouponReportRow, 'key'>>`
    WITH ev AS (
      SELECT got_at::date AS day, template_id, (source <> 'claim')::int AS issued, (source = 'claim')::int AS claimed,
             0 AS used, 0 AS expired, 0::numeric AS discount, NULL::text AS order_no
        FROM member_coupons WHERE rid = ${rid} AND ${within('got_at')} ${only}
      UNION ALL
      SELECT used_at::date, template_id, 0, 0, 1, 0, discount, used_order_no
        FROM member_coupons WHERE rid = ${rid} AND used_at IS NOT NULL AND ${within('used_at')} ${only}
      UNION ALL
      SELECT expired_at::date, template_id, 0, 0, 0, 1, 0, NULL
        FROM member_coupons WHERE rid = ${rid} AND status = 'E' AND expired_at IS NOT NULL AND ${within('expired_at')} ${only})
    SELECT to_char(ev.day, 'YYYY-MM-DD') AS day, ev.template_id, t.name AS template_name,
           sum(ev.issued)::int AS issued, sum(ev.claimed)::int AS claimed, sum(ev.used)::int AS used, sum(ev.expired)::int AS expired,
           sum(ev.discount)::text AS discount, count(DISTINCT ev.order_no)::int AS orders
    FROM ev JOIN member_coupon_templates t ON t.rid = ${rid} AND t.id = ev.template_id
    GROUP BY ev.day, ev.template_id, t.name
    ORDER BY ev.day DESC, ev.template_id`.execute(db);
  const items: CouponReportRow[] = rows.rows.map((r) => ({
    key: `${r.day}|${r.template_id}`,
    day: r.day,
    template_id: num(r.template_id),
    template_name: r.template_name,
    issued: r.issued,
    claimed: r.claimed,
    used: r.used,
    expired: r.expired,
    discount: yuan(r.discount),
    orders: r.orders,
  }));
  const totals: CouponReportRow = {
    key: '',
    day: '',
    template_id: 0,
    template_name: '合计',
    issued: items.reduce((n, r) => n + r.issued, 0),
    claimed: items.reduce((n, r) => n + r.claimed, 0),
    used: items.reduce((n, r) => n + r.used, 0),
    expired: items.reduce((n, r) => n + r.expired, 0),
    discount: fenToYuan(items.reduce((n, r) => n + toFen(r.discount), 0n)),
    orders: items.reduce((n, r) => n + r.orders, 0),
  };
  return { start_date: start, end_date: end, items, totals };
}

const reportcardgenerallist = defineMethod('reportcardgenerallist', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary:
    '卡券概况报表：区间内（按业务日期，默认本月至今，最长一年）按日、优惠券的发放（后台与规则）、会员领取、使用、过期张数，优惠金额与使用订单数，含合计行；可按优惠券筛选',
  handler: (ctx, input) => couponReport(ctx.db, ctx.rid, input),
});

const REPORT_COLUMNS: Array<SheetColumn<CouponReportRow>> = [
  { header: '日期', value: (r) => r.day || '合计', width: 12 },
  { header: '优惠券', value: (r) => (r.day ? r.template_name : ''), width: 20 },
  { header: '发放张数', value: (r) => r.issued },
  { header: '领取张数', value: (r) => r.claimed },
  { header: '使用张数', value: (r) => r.used },
  { header: '过期张数', value: (r) => r.expired },
  { header: '优惠金额（元）', value: (r) => r.discount, width: 16 },
  { header: '使用订单数', value: (r) => r.orders },
];

const reportcardgeneralexport = defineExport('reportcardgeneralexport', {
  roles: CARD_ROLES.staff,
  summary: '导出卡券概况报表（同 reportcardgenerallist 的区间与优惠券），含合计行',
  filename: (input) => {
    const [start, end] = reportRange(input as ReportInput);
    return `卡券概况_${start}_${end}.xlsx`;
  },
  check: (scope, input) => refuseUnknownTemplate(scope.db, scope.rid, (input as ReportInput).template_id),
  async sheet(scope, input) {
    const answer = await couponReport(scope.db, scope.rid, input as ReportInput);
    return sheetOf('卡券概况', REPORT_COLUMNS, [...answer.items, answer.totals]);
  },
});

// the members' coupons are the property's: a merchant only checks a code at its counter (cardverify)
export const couponMethods: MethodDef[] = [
  ...notForMerchants([
    ...templateMethods,
    ...givenMethods,
    carshow,
    cardgive,
    cardgivemembers,
    cardvoid,
    reportcardgenerallist,
    reportcardgeneralexport,
  ]),
  cardverify,
];
