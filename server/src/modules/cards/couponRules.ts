/**
 * Coupons given by a rule (赠券规则; docs/product.md#member-coupons): in the transaction of a
 * payment at the cashier, each enabled rule in its window whose fee item the payment paid for at
 * least its months gives the room's owner the rule's coupons (once per rule and payment); a void or
 * a refund that leaves the payment below the rule takes back the coupons not used yet.
 */
import {
  CARD_ROLES,
  COUPON_RULE_FREQUENCY,
  COUPON_RULE_PREPAID,
  COUPON_RULE_STATUS,
  couponRule,
  enumText,
  giveRuleText,
  type CouponRuleGiveRow,
  type CouponRuleItem,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { BizError, fail } from '../../http/errors.js';
import { defineMethod, notForMerchants } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime } from '../../lib/wire.js';
import { afterPayment, onPaymentUndone } from '../fees/cashier.js';
import { giveCoupons } from './coupons.js';

registerDependents({ member_coupon_rules: '赠券规则', member_coupon_rule_gives: '赠券记录', recharge_packages: '充值套餐' });

type Row = Record<string, unknown>;

const windowText = (p: { start_date: unknown; end_date: unknown }) =>
  !p.start_date && !p.end_date ? '长期' : `${(p.start_date as string | null) ?? '即日'} 至 ${(p.end_date as string | null) ?? '长期'}`;

/**
 * A template a rule or a recharge package may give: the community's, given by rule, enabled; and
 * each member may hold `count` of it.
 */
export async function refuseUngivableTemplate(db: Kysely<DB>, rid: number, templateId: number, count: number): Promise<void> {
  const t = await db
    .selectFrom('member_coupon_templates')
    .select(['name', 'give_mode', 'status', 'per_person'])
    .where('rid', '=', rid)
    .where('id', '=', templateId)
    .executeTakeFirst();
  if (!t) fail('优惠券不存在');
  if (t.give_mode !== 'rule') fail(`优惠券「${t.name}」的发放方式不是「规则赠送」，请先修改优惠券或另建一张`);
  if (t.status !== 'Y') fail(`优惠券「${t.name}」已停用`);
  if (t.per_person > 0 && t.per_person < count) fail(`优惠券「${t.name}」每人限领 ${t.per_person} 张，少于赠送的 ${count} 张`);
}

const ruleMethods = defineResource(couponRule, {
  table: 'member_coupon_rules',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('member_coupon_rules as t')
      .innerJoin('fee_items as i', (j) => j.onRef('i.rid', '=', 't.rid').onRef('i.id', '=', 't.item_id'))
      .innerJoin('member_coupon_templates as ct', (j) => j.onRef('ct.rid', '=', 't.rid').onRef('ct.id', '=', 't.template_id'))
      .selectAll('t')
      .select(['i.title as item_title', 'ct.name as template_name'])
      .select(
        sql<string>`(SELECT concat_ws(',', count(*), coalesce(sum(g.given), 0), coalesce(sum(g.taken_back), 0))
          FROM member_coupon_rule_gives g WHERE g.rid = t.rid AND g.rule_id = t.id)`.as('figures'),
      )
      .where('t.rid', '=', rid),
  row: (r: Row): CouponRuleItem => {
    const [gives, given, takenBack] = String(r.figures ?? '0,0,0')
      .split(',')
      .map(Number);
    const row = {
      ...(r as unknown as CouponRuleItem),
      id: Number(r.id),
      item_id: Number(r.item_id),
      template_id: Number(r.template_id),
      gives: gives ?? 0,
      given: given ?? 0,
      taken_back: takenBack ?? 0,
      prepaid_only_ch: enumText(COUPON_RULE_PREPAID, String(r.prepaid_only)),
      frequency_ch: enumText(COUPON_RULE_FREQUENCY, String(r.frequency)),
      status_ch: enumText(COUPON_RULE_STATUS, String(r.status)),
      window_text: windowText(r as { start_date: unknown; end_date: unknown }),
    };
    delete (row as Row).figures;
    delete (row as Row).created_by;
    return { ...row, rule_text: giveRuleText(row) };
  },
  unique: [{ on: ['name'], message: (v) => `赠券规则「${String(v.name)}」已存在` }],
  async check(ctx, values) {
    const item = await ctx.db
      .selectFrom('fee_items')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', Number(values.item_id))
      .executeTakeFirst();
    if (!item) fail('收费项目不存在');
    await refuseUngivableTemplate(ctx.db, ctx.rid, Number(values.template_id), Number(values.quantity));
  },
  values: (input, ctx) => ({ ...input, created_by: ctx.session.accountId }),
  dependents: { member_coupon_rule_gives: '该规则已赠送过优惠券，不能删除，可将其停用' },
  summaries: {
    list: '赠券规则：收费项目、缴满月数、仅预缴或含欠费、赠送的优惠券与张数、一次发放或每月一张、活动时间、状态，触发笔数、已赠与已收回张数',
    add: '新增赠券规则：优惠券须为「规则赠送」且启用，每人限领不少于赠送张数',
    del: '删除赠券规则：已赠送过的不能删除（可停用）',
  },
});

const cardsrulegives = defineMethod('cardsrulegives', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary: '赠券记录：满足规则的每笔缴费（收据号、房屋、业主）、计入的月数、赠送张数（未赠送时说明原因）、已收回张数',
  async handler(ctx, input) {
    let q = ctx.db
      .selectFrom('member_coupon_rule_gives as g')
      .innerJoin('member_coupon_rules as r', (j) => j.onRef('r.rid', '=', 'g.rid').onRef('r.id', '=', 'g.rule_id'))
      .innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'g.rid').onRef('p.id', '=', 'g.payment_id'))
      .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'g.rid').onRef('m.id', '=', 'g.member_id'))
      .leftJoin('rooms as h', (j) => j.onRef('h.rid', '=', 'p.rid').onRef('h.id', '=', 'p.hid'))
      .where('g.rid', '=', ctx.rid);
    if (input.rule_id) q = q.where('g.rule_id', '=', input.rule_id);
    if (input.keyword?.trim()) {
      const pattern = likePattern(input.keyword.trim());
      q = q.where((eb) => eb.or([eb('p.receipt_no', 'like', pattern), eb('m.realname', 'like', pattern), eb('m.mobile', 'like', pattern)]));
    }
    const page = await listPage(
      q
        .select(['g.id', 'g.rule_id', 'r.name as rule_name', 'g.payment_id', 'p.receipt_no', 'h.address', 'g.member_id'])
        .select(['m.realname', 'm.mobile', 'g.months', 'g.given', 'g.taken_back', 'g.note', 'g.created_at']),
      { ...input, sort: 'desc' },
      'g.id',
      q.select('g.id'),
    );
    return {
      total: page.total,
      items: page.items.map((g): CouponRuleGiveRow => ({
        id: Number(g.id),
        rule_id: Number(g.rule_id),
        rule_name: g.rule_name,
        payment_id: Number(g.payment_id),
        receipt_no: g.receipt_no,
        address: g.address ?? '',
        member_id: Number(g.member_id),
        realname: g.realname,
        mobile: g.mobile,
        months: g.months,
        given: g.given,
        taken_back: g.taken_back,
        note: g.note,
        create_time: wireTime(g.created_at),
      })),
    };
  },
});

/** The periods of each fee item a payment's unrefunded lines pay (of a payment not voided). */
async function paidMonths(db: Kysely<DB>, rid: number, paymentId: number, prepaidFrom: string | null, itemId: number): Promise<number> {
  let q = db
    .selectFrom('fee_payment_items as pi')
    .innerJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'pi.rid').onRef('b.id', '=', 'pi.bill_id'))
    .innerJoin('fee_payments as p', (j) => j.onRef('p.rid', '=', 'pi.rid').onRef('p.id', '=', 'pi.payment_id'))
    .select(sql<number>`count(DISTINCT b.period)::int`.as('n'))
    .where('pi.rid', '=', rid)
    .where('pi.payment_id', '=', paymentId)
    .where('pi.refunded', '=', 'N')
    .where('p.status', '<>', 'V')
    .where('b.item_id', '=', itemId);
  if (prepaidFrom) q = q.where('b.period', '>=', prepaidFrom);
  return (await q.executeTakeFirstOrThrow()).n;
}

/** The month a payment's prepaid periods start from: the month it was paid in. */
async function paidMonth(db: Kysely<DB>, rid: number, paymentId: number): Promise<string> {
  const p = await db
    .selectFrom('fee_payments')
    .select(sql<string>`to_char(created_at AT TIME ZONE current_setting('TimeZone'), 'YYYY-MM')`.as('month'))
    .where('rid', '=', rid)
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow();
  return p.month;
}

afterPayment(async (ctx, payment) => {
  if (payment.member_id === null) return;
  const day = today();
  const rules = await ctx.db
    .selectFrom('member_coupon_rules')
    .selectAll()
    .where('rid', '=', ctx.rid)
    .where('status', '=', 'Y')
    .where((eb) => eb.or([eb('start_date', 'is', null), eb('start_date', '<=', day)]))
    .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>=', day)]))
    .where('item_id', 'in', (eb) =>
      eb
        .selectFrom('fee_payment_items as pi')
        .innerJoin('fee_bills as b', (j) => j.onRef('b.rid', '=', 'pi.rid').onRef('b.id', '=', 'pi.bill_id'))
        .select('b.item_id')
        .where('pi.rid', '=', ctx.rid)
        .where('pi.payment_id', '=', payment.id),
    )
    .orderBy('id')
    .execute();
  if (rules.length === 0) return;
  const notes: string[] = [];
  const month = day.slice(0, 7);
  const receipt = await ctx.db
    .selectFrom('fee_payments')
    .select('receipt_no')
    .where('rid', '=', ctx.rid)
    .where('id', '=', payment.id)
    .executeTakeFirstOrThrow();
  for (const rule of rules) {
    const months = await paidMonths(ctx.db, ctx.rid, payment.id, rule.prepaid_only === 'Y' ? month : null, Number(rule.item_id));
    if (months < rule.min_months) continue;
    const give = await ctx.db
      .insertInto('member_coupon_rule_gives')
      .values({ rid: ctx.rid, rule_id: rule.id, payment_id: payment.id, member_id: payment.member_id, months, given: 0 })
      .onConflict((oc) => oc.columns(['rid', 'rule_id', 'payment_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!give) continue;
    let given = 0;
    let note = '';
    try {
      const r = await giveCoupons(ctx.db, {
        rid: ctx.rid,
        templateId: Number(rule.template_id),
        memberIds: [payment.member_id],
        source: 'rule',
        channel: rule.name,
        sourceRef: receipt.receipt_no,
        ruleGiveId: Number(give.id),
        count: rule.quantity,
        monthly: rule.frequency === 'monthly',
        createdBy: ctx.session.accountId,
      });
      given = r.given;
      const template = await ctx.db
        .selectFrom('member_coupon_templates')
        .select('name')
        .where('rid', '=', ctx.rid)
        .where('id', '=', rule.template_id)
        .executeTakeFirstOrThrow();
      if (given > 0) notes.push(`按规则“${rule.name}”赠送「${template.name}」${given} 张`);
    } catch (err) {
      // giveCoupons refuses before it writes (stock, limit, stopped): the payment stands, the reason is kept
      if (!(err instanceof BizError)) throw err;
      note = `未赠送：${err.message}`;
      notes.push(`规则“${rule.name}”${note}`);
    }
    await ctx.db
      .updateTable('member_coupon_rule_gives')
      .set({ given, note })
      .where('rid', '=', ctx.rid)
      .where('id', '=', give.id)
      .execute();
  }
  return notes;
});

onPaymentUndone(async (ctx, payment) => {
  const gives = await ctx.db
    .selectFrom('member_coupon_rule_gives as g')
    .innerJoin('member_coupon_rules as r', (j) => j.onRef('r.rid', '=', 'g.rid').onRef('r.id', '=', 'g.rule_id'))
    .select(['g.id', 'g.given', 'g.taken_back', 'r.item_id', 'r.min_months', 'r.prepaid_only'])
    .where('g.rid', '=', ctx.rid)
    .where('g.payment_id', '=', payment.id)
    .forUpdate(['g'])
    .execute();
  if (gives.length === 0) return;
  const month = await paidMonth(ctx.db, ctx.rid, payment.id);
  for (const g of gives) {
    if (g.given === 0 || g.taken_back > 0) continue;
    const left = await paidMonths(ctx.db, ctx.rid, payment.id, g.prepaid_only === 'Y' ? month : null, Number(g.item_id));
    if (left >= g.min_months) continue;
    const voided = await ctx.db
      .updateTable('member_coupons')
      .set({
        status: 'V',
        void_reason: `收据 ${payment.receipt_no} 已作废或退款，赠券收回`,
        voided_at: sql`now()`,
        voided_by: ctx.session.accountId,
      })
      .where('rid', '=', ctx.rid)
      .where('rule_give_id', '=', g.id)
      .where('status', '=', 'U')
      .returning('id')
      .execute();
    const kept = g.given - voided.length;
    await ctx.db
      .updateTable('member_coupon_rule_gives')
      .set({ taken_back: voided.length, note: `收回 ${voided.length} 张${kept > 0 ? `（${kept} 张已使用或已过期）` : ''}` })
      .where('rid', '=', ctx.rid)
      .where('id', '=', g.id)
      .execute();
  }
});

export const couponRuleMethods = notForMerchants([...ruleMethods, cardsrulegives]);
