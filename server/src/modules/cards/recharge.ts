/**
 * Stored value (储值管理 /carpark/storagegl; docs/product.md#member-cards): recharge packages, a
 * recharge at the counter (one idempotent payment: the paid part and the bonus part as two balance
 * ledger rows, the package's points as a points row) and the refund of a whole unspent recharge,
 * applied for and approved as a workflow.
 */
import {
  CARD_ROLES,
  RECHARGE_PAY_TYPE,
  RECHARGE_STATUS,
  enumText,
  fenToYuan,
  payMethodLabel,
  rechargePackage,
  rechargeRefundFlow,
  toFen,
  type PayTypeName,
  type RechargePackageItem,
  type RechargeRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { BizError, fail } from '../../http/errors.js';
import { defineMethod, notForMerchants, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { onceByKey } from '../../lib/onceByKey.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';
import { requirePayType } from '../leader/paytypes.js';
import { moveBalance, moveBonus } from './ledger.js';
import { giveCoupons } from './coupons.js';
import { refuseUngivableTemplate } from './couponRules.js';

const windowText = (p: { start_date: string | null; end_date: string | null }) =>
  !p.start_date && !p.end_date ? '长期' : `${p.start_date ?? '即日'} 至 ${p.end_date ?? '长期'}`;

const packageMethods = defineResource(rechargePackage, {
  table: 'recharge_packages',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('recharge_packages as t')
      .leftJoin('member_coupon_templates as ct', (j) => j.onRef('ct.rid', '=', 't.rid').onRef('ct.id', '=', 't.coupon_template_id'))
      .selectAll('t')
      .select('ct.name as coupon_name')
      .select(sql<number>`(SELECT count(*)::int FROM card_recharges c WHERE c.rid = t.rid AND c.package_id = t.id)`.as('used'))
      .where('t.rid', '=', rid),
  row: (r: Record<string, unknown>): RechargePackageItem => {
    const row = {
      ...(r as unknown as RechargePackageItem),
      id: Number(r.id),
      used: Number(r.used ?? 0),
      coupon_template_id: r.coupon_template_id === null ? null : Number(r.coupon_template_id),
    };
    delete (row as Record<string, unknown>).created_by;
    delete (row as Record<string, unknown>).coupon_name;
    return {
      ...row,
      coupon_text: r.coupon_name ? `「${String(r.coupon_name)}」×${row.coupon_count}` : '',
      pay_amount: fenToYuan(toFen(String(r.pay_amount))),
      bonus_amount: fenToYuan(toFen(String(r.bonus_amount))),
      window_text: windowText(row),
    };
  },
  unique: [{ on: ['name'], message: (v) => `充值套餐「${String(v.name)}」已存在` }],
  async check(ctx, values) {
    if (values.coupon_template_id) {
      await refuseUngivableTemplate(ctx.db, ctx.rid, Number(values.coupon_template_id), Number(values.coupon_count));
    }
  },
  values: (input, ctx) => ({ ...input, created_by: ctx.session.accountId }),
  // the small list offers only what a recharge may use today
  replace: {
    small: defineMethod('rechargepackage_small_list', {
      side: 'community',
      roles: [...CARD_ROLES.staff, ...CARD_ROLES.recharge],
      writes: false,
      summary: '可用的充值套餐（上架且在活动时间内），按充值金额',
      async handler(ctx) {
        const day = today();
        const items = await ctx.db
          .selectFrom('recharge_packages')
          .select(['id', 'name', 'pay_amount', 'bonus_amount', 'bonus_points'])
          .where('rid', '=', ctx.rid)
          .where('status', '=', 'Y')
          .where((eb) => eb.or([eb('start_date', 'is', null), eb('start_date', '<=', day)]))
          .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>=', day)]))
          .orderBy('pay_amount')
          .execute();
        return {
          items: items.map((p) => {
            const [pay, gift] = [fenToYuan(toFen(p.pay_amount)), fenToYuan(toFen(p.bonus_amount))];
            const points = p.bonus_points > 0 ? `、${p.bonus_points} 积分` : '';
            return { ...p, title: `${p.name}（充 ${pay} 送 ${gift} 元${points}）`, pay_amount: pay, bonus_amount: gift };
          }),
        };
      },
    }),
  },
});

const rechargeQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('card_recharges as c')
    .innerJoin('member_cards as mc', (j) => j.onRef('mc.rid', '=', 'c.rid').onRef('mc.id', '=', 'c.card_id'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'c.rid').onRef('m.id', '=', 'c.member_id'))
    .leftJoin('recharge_packages as p', (j) => j.onRef('p.rid', '=', 'c.rid').onRef('p.id', '=', 'c.package_id'))
    .selectAll('c')
    .select(['mc.card_no', 'm.realname', 'm.mobile', 'p.name as package_name'])
    .where('c.rid', '=', rid);

type RechargeRaw = Awaited<ReturnType<ReturnType<typeof rechargeQuery>['executeTakeFirstOrThrow']>>;

const toRechargeRow = (c: RechargeRaw): RechargeRow => ({
  id: c.id,
  order_no: c.order_no,
  card_id: c.card_id,
  card_no: c.card_no,
  member_id: c.member_id,
  realname: c.realname,
  mobile: c.mobile,
  package_id: c.package_id,
  package_name: c.package_name ?? '',
  paid_amount: fenToYuan(toFen(c.paid_amount)),
  bonus_amount: fenToYuan(toFen(c.bonus_amount)),
  bonus_points: c.bonus_points,
  coupons_given: c.coupons_given,
  pay_type: c.pay_type,
  pay_type_ch: c.pay_method ? payMethodLabel(c.pay_type as PayTypeName, c.pay_method) : enumText(RECHARGE_PAY_TYPE, c.pay_type),
  reference: c.reference,
  status: c.status as RechargeRow['status'],
  status_ch: enumText(RECHARGE_STATUS, c.status),
  refund_reason: c.refund_reason,
  operator: c.operator,
  remark: c.remark,
  create_time: wireTime(c.created_at),
});

export async function rechargeRow(ctx: CommunityCtx, id: number): Promise<RechargeRow> {
  const c = await rechargeQuery(ctx.db, ctx.rid).where('c.id', '=', id).executeTakeFirst();
  if (!c) fail('充值记录不存在');
  return toRechargeRow(c);
}

type Filters = HandlerInput<'cardrechargeexport'>;

function filtered(db: Kysely<DB>, rid: number, f: Filters) {
  let qb = rechargeQuery(db, rid);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    qb = qb.where((eb) =>
      eb.or([eb('c.order_no', 'like', k), eb('mc.card_no', 'like', k), eb('m.realname', 'like', k), eb('m.mobile', 'like', k)]),
    );
  }
  if (f.card_id) qb = qb.where('c.card_id', '=', f.card_id);
  if (f.pay_type) qb = qb.where('c.pay_type', '=', f.pay_type);
  if (f.status) qb = qb.where('c.status', '=', f.status);
  if (f.package_id) qb = qb.where('c.package_id', '=', f.package_id);
  if (f.create_time) qb = qb.where(withinDays('c.created_at', f.create_time));
  return qb;
}

/**
 * Recharges a member's card: locks the card, checks it may take money, applies the package (its
 * window and limit per member), writes the recharge and its ledger rows in the call's transaction.
 */
async function recharge(ctx: CommunityCtx, input: HandlerInput<'cardrecharge'>) {
  const card = await ctx.db
    .selectFrom('member_cards as c')
    .innerJoin('card_templates as t', (j) => j.onRef('t.rid', '=', 'c.rid').onRef('t.id', '=', 'c.template_id'))
    .select(['c.id', 'c.member_id', 'c.status', 'c.card_no', 'c.valid_until', 't.supply_balance', 't.supply_bonus'])
    .where('c.rid', '=', ctx.rid)
    .where('c.id', '=', input.card_id)
    .forUpdate(['c'])
    .executeTakeFirst();
  if (!card) fail('会员卡不存在');
  if (card.status === 'I') fail('会员卡未激活，请先激活');
  if (card.status === 'F') fail('会员卡已冻结，不能充值');
  if (card.status !== 'Y') fail('该会员卡已挂失或注销，不能充值');
  if (card.supply_balance !== 'Y') fail('该会员卡不支持储值');
  if (card.valid_until && card.valid_until < today()) fail('会员卡已过有效期');

  // the group's rules for the way (支付方式): a disabled one, a missing reference, an own way of another base are refused
  const method = await requirePayType(ctx.db, ctx.session.groupId, input.pay_type, input.reference, input.pay_method_id);
  let paid = input.amount ? toFen(input.amount) : 0n;
  let bonus = 0n;
  let points = 0;
  let pack: { name: string; coupon_template_id: number | null; coupon_count: number } | null = null;
  if (input.package_id) {
    const p = await ctx.db
      .selectFrom('recharge_packages')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.package_id)
      .executeTakeFirst();
    if (!p) fail('充值套餐不存在');
    const day = today();
    if (p.status !== 'Y' || (p.start_date && p.start_date > day) || (p.end_date && p.end_date < day))
      fail(`充值套餐「${p.name}」不在活动时间内`);
    if (p.per_member_limit > 0) {
      const used = await ctx.db
        .selectFrom('card_recharges')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('rid', '=', ctx.rid)
        .where('member_id', '=', card.member_id)
        .where('package_id', '=', p.id)
        .where('status', '<>', 'R')
        .executeTakeFirstOrThrow();
      if (Number(used.n) >= p.per_member_limit) fail(`充值套餐「${p.name}」每人限充 ${p.per_member_limit} 次`);
    }
    paid = toFen(p.pay_amount);
    bonus = toFen(p.bonus_amount);
    points = card.supply_bonus === 'Y' ? p.bonus_points : 0;
    pack = p;
  }
  const seq = await sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('card_recharges', 'id')) AS id`.execute(ctx.db);
  const id = Number(seq.rows[0]!.id);
  const orderNo = `CZ${today().replace(/-/g, '')}${String(id).padStart(6, '0')}`;
  await ctx.db
    .insertInto('card_recharges')
    .values({
      rid: ctx.rid,
      id,
      order_no: orderNo,
      card_id: card.id,
      member_id: card.member_id,
      package_id: input.package_id ?? null,
      paid_amount: fenToYuan(paid),
      bonus_amount: fenToYuan(bonus),
      bonus_points: points,
      pay_type: input.pay_type,
      pay_method_id: method.id,
      pay_method: method.name,
      reference: input.reference,
      operator: ctx.session.name,
      remark: input.remark,
      created_by: ctx.session.accountId,
    })
    .execute();
  const common = { rid: ctx.rid, memberId: card.member_id, orderid: orderNo, createUser: ctx.session.name, ioType: 1 as const };
  await moveBalance(ctx.db, {
    ...common,
    fen: paid,
    feetype: 'recharge',
    paytype: input.pay_type,
    remark:
      [method.name && `会员卡充值（${method.name}）`, input.reference && `参考号 ${input.reference}`].filter(Boolean).join('，') ||
      '会员卡充值',
  });
  await moveBalance(ctx.db, { ...common, fen: bonus, feetype: 'recharge_bonus', paytype: '', remark: '充值赠送' });
  await moveBonus(ctx.db, {
    rid: ctx.rid,
    memberId: card.member_id,
    points,
    orderid: orderNo,
    payCate: '充值赠送',
    source: '收银台',
    actionUser: ctx.session.name,
  });
  const coupons = pack?.coupon_template_id ? await giveRechargeCoupons(ctx, pack, card.member_id, id, orderNo) : '';
  await writeFlowLog(ctx, rechargeRefundFlow.def, id, { transition: 'create', from: '', to: 'Y', input: { amount: fenToYuan(paid) } });
  const member = await ctx.db
    .selectFrom('members')
    .select(['balance', 'bonus'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', card.member_id)
    .executeTakeFirstOrThrow();
  const balance = fenToYuan(toFen(member.balance));
  return reply({ ...(await rechargeRow(ctx, id)), balance, bonus: member.bonus }, `充值成功，当前余额 ${balance} 元${coupons}`);
}

/**
 * The package's coupons to the member, in the recharge's transaction; a template that cannot give
 * (stock, the limit per member, stopped) refuses before it writes, and the recharge stands without
 * them: the answer's message says why.
 */
async function giveRechargeCoupons(
  ctx: CommunityCtx,
  pack: { coupon_template_id: number | null; coupon_count: number },
  memberId: number,
  rechargeId: number,
  orderNo: string,
): Promise<string> {
  try {
    const r = await giveCoupons(ctx.db, {
      rid: ctx.rid,
      templateId: Number(pack.coupon_template_id),
      memberIds: [memberId],
      source: 'rule',
      channel: '充值赠送',
      sourceRef: orderNo,
      count: pack.coupon_count,
      createdBy: ctx.session.accountId,
    });
    await ctx.db
      .updateTable('card_recharges')
      .set({ coupons_given: r.given })
      .where('rid', '=', ctx.rid)
      .where('id', '=', rechargeId)
      .execute();
    return `，赠送优惠券 ${r.given} 张`;
  } catch (err) {
    if (!(err instanceof BizError)) throw err;
    return `（赠券未发放：${err.message}）`;
  }
}

/** The coupons a recharge gave, unused or not: a refund takes back the unused and is refused while one was used. */
const rechargeCoupons = (ctx: CommunityCtx, row: Record<string, unknown>) =>
  ctx.db
    .selectFrom('member_coupons')
    .where('rid', '=', ctx.rid)
    .where('member_id', '=', Number(row.member_id))
    .where('source', '=', 'rule')
    .where('source_ref', '=', String(row.order_no));

const cardrecharge = defineMethod('cardrecharge', {
  side: 'community',
  roles: CARD_ROLES.recharge,
  writes: true,
  summary:
    '会员卡充值（收银台，一个事务）：选套餐（赠送金额、积分，活动时间、每人限充）或填金额；实付与赠送分两行记入余额流水；同一 idempotency_key 重试只充一次',
  handler: (ctx, input) => onceByKey(ctx, 'cardrecharge', input.idempotency_key, () => recharge(ctx, input)),
});

const cardrechargelist = defineMethod('cardrechargelist', {
  side: 'community',
  roles: [...CARD_ROLES.staff, ...CARD_ROLES.recharge, ...CARD_ROLES.approve],
  writes: false,
  summary: '充值记录：单号、卡号、会员、套餐、实付、赠送、积分、支付方式、参考号、状态（已充值、退款待审批、已退款），合计实付与赠送',
  async handler(ctx, input) {
    const qb = filtered(ctx.db, ctx.rid, input);
    const [page, sums] = await Promise.all([
      listPage(qb, input, 'c.id'),
      filtered(ctx.db, ctx.rid, input)
        .clearSelect()
        .select([
          sql<string>`coalesce(sum(c.paid_amount), 0)::text`.as('paid'),
          sql<string>`coalesce(sum(c.bonus_amount), 0)::text`.as('bonus'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    return {
      items: page.items.map(toRechargeRow),
      total: page.total,
      sums: { paid_amount: fenToYuan(toFen(sums.paid)), bonus_amount: fenToYuan(toFen(sums.bonus)) },
    };
  },
});

const cardrechargeexport = defineExport('cardrechargeexport', {
  roles: [...CARD_ROLES.staff, ...CARD_ROLES.recharge, ...CARD_ROLES.approve],
  summary: '导出充值记录',
  filename: () => `充值记录_${today()}.xlsx`,
  async sheet({ db, rid }, input) {
    const rows = (await filtered(db, rid, input).orderBy('c.id', 'desc').limit(50_000).execute()).map(toRechargeRow);
    return sheetOf(
      '充值记录',
      [
        { header: '单号', value: (r) => r.order_no, width: 20 },
        { header: '卡号', value: (r) => r.card_no, width: 14 },
        { header: '会员', value: (r) => r.realname },
        { header: '手机号', value: (r) => r.mobile, width: 14 },
        { header: '套餐', value: (r) => r.package_name, width: 14 },
        { header: '实付金额', value: (r) => Number(r.paid_amount) },
        { header: '赠送金额', value: (r) => Number(r.bonus_amount) },
        { header: '赠送积分', value: (r) => r.bonus_points },
        { header: '支付方式', value: (r) => r.pay_type_ch },
        { header: '参考号', value: (r) => r.reference, width: 18 },
        { header: '状态', value: (r) => r.status_ch },
        { header: '操作人', value: (r) => r.operator },
        { header: '充值时间', value: (r) => r.create_time, width: 20 },
      ],
      rows,
    );
  },
});

/**
 * A recharge is refunded whole, while the member still holds all it brought: its paid and bonus
 * parts in the balance, its points. The member row is locked, so no spend slips in between.
 */
async function refuseSpent(ctx: CommunityCtx, row: Record<string, unknown>): Promise<void> {
  const member = await ctx.db
    .selectFrom('members')
    .select(['balance', 'bonus'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', Number(row.member_id))
    .forUpdate()
    .executeTakeFirstOrThrow();
  const brought = toFen(String(row.paid_amount)) + toFen(String(row.bonus_amount));
  if (toFen(member.balance) < brought || member.bonus < Number(row.bonus_points)) {
    fail(`该充值已部分使用（当前余额 ${fenToYuan(toFen(member.balance))} 元，须不少于充值与赠送合计 ${fenToYuan(brought)} 元），不能退款`);
  }
  if (Number(row.coupons_given) > 0) {
    const used = await rechargeCoupons(ctx, row)
      .select(sql<number>`count(*)::int`.as('n'))
      .where('status', '=', 'Y')
      .executeTakeFirstOrThrow();
    if (used.n > 0) fail(`该充值赠送的优惠券已使用 ${used.n} 张，不能退款`);
  }
}

const decided = (ctx: CommunityCtx) => ({ decided_by: ctx.session.accountId, decided_at: sql`now()` });

const refundMethods = defineWorkflow(rechargeRefundFlow, {
  table: 'card_recharges',
  answer: rechargeRow,
  transitions: {
    apply: {
      run: refuseSpent,
      set: (_ctx, input) => ({ refund_reason: String(input.reason) }),
      message: '已提交退款申请，待审批',
    },
    approve: {
      async run(ctx, row) {
        await refuseSpent(ctx, row);
        const common = {
          rid: ctx.rid,
          memberId: Number(row.member_id),
          orderid: String(row.order_no),
          createUser: ctx.session.name,
          ioType: 2 as const,
        };
        await moveBalance(ctx.db, {
          ...common,
          fen: toFen(String(row.paid_amount)),
          feetype: 'recharge_refund',
          paytype: String(row.pay_type),
          remark: '充值退款：退回实付',
        });
        await moveBalance(ctx.db, {
          ...common,
          fen: toFen(String(row.bonus_amount)),
          feetype: 'recharge_refund',
          paytype: '',
          remark: '充值退款：收回赠送',
        });
        await moveBonus(ctx.db, {
          rid: ctx.rid,
          memberId: Number(row.member_id),
          points: -Number(row.bonus_points),
          orderid: String(row.order_no),
          payCate: '充值退款收回',
          source: '后台',
          actionUser: ctx.session.name,
        });
        await ctx.db
          .updateTable('member_coupons')
          .set({
            status: 'V',
            void_reason: `充值 ${String(row.order_no)} 已退款，赠券收回`,
            voided_at: sql`now()`,
            voided_by: ctx.session.accountId,
          })
          .where('id', 'in', rechargeCoupons(ctx, row).select('id').where('status', '=', 'U'))
          .where('rid', '=', ctx.rid)
          .execute();
      },
      set: decided,
      message: '已退款',
    },
    reject: { set: decided, message: '已驳回退款申请' },
  },
  logRoles: [...CARD_ROLES.staff, ...CARD_ROLES.recharge, ...CARD_ROLES.approve],
  summaries: {
    cardrechargerefund: '申请整笔退款（须这笔充值的实付、赠送和积分都未使用）',
    cardrechargerefundreview: '审批充值退款：同意则退回实付、收回赠送金额和积分（仍须未使用），或驳回',
    cardrechargelog: '一笔充值的记录：充值、申请退款、同意或驳回',
  },
});

// stored value is the property's money: never a merchant account's
export const rechargeMethods = notForMerchants([...packageMethods, cardrecharge, cardrechargelist, cardrechargeexport, ...refundMethods]);
