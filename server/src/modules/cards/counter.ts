/**
 * The member counter (会员收银 /carpark/carduscon; docs/product.md#member-counter): a member found by
 * card number, mobile or a coupon's code; a purchase paid by the member discount, one coupon, points,
 * the balance and cash or QR (settleCounter, the contract's one computation), in one transaction,
 * once per idempotency key; the points it earns; a refund that reverses each part. A merchant
 * account works at its own store's counter and sees its own orders; the property's staff work at the
 * property's counter or a store they choose. orderinfo reads any member order by its number.
 */
import {
  CARD_ROLES,
  COUNTER_ORDER_STATUS,
  COUNTER_PAY_TYPE,
  MEMBER_CARD_STATUS,
  PAY_TYPE,
  RECHARGE_STATUS,
  enumText,
  fenToYuan,
  normalCouponCode,
  mallOrderFlow,
  mallOrderStatusText,
  rechargeRefundFlow,
  settleCounter,
  settlementWire,
  toFen,
  type CounterMember,
  type CounterOrderRow,
  type CounterRules,
  type MemberOrderInfo,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, notForMerchants, reply, type CommunityCtx, type HandlerInput } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { onceByKey } from '../../lib/onceByKey.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime, withinDays } from '../../lib/wire.js';
import { flowLog } from '../../lib/workflow.js';
import { redeemCoupon, releaseCoupon } from './coupons.js';
import { moveBalance, moveBonus } from './ledger.js';

/** A counter purchase is a shopping one for the coupons' purposes. */
const PURPOSE = 'shopping';

/** The store a merchant account stands for; undefined for the property's staff. */
async function ownStore(ctx: CommunityCtx): Promise<number | undefined> {
  if (ctx.session.sysType !== 'merchant') return undefined;
  const store = await ctx.db
    .selectFrom('merchants')
    .select(['id', 'status'])
    .where('rid', '=', ctx.rid)
    .where('account_id', '=', ctx.session.accountId)
    .executeTakeFirst();
  if (!store || store.status !== 'Y') fail('该商户账号没有关联营业中的商户');
  return store.id;
}

/** The store a purchase is made at: a merchant's own, or the one the staff chose (none: the property's counter). */
async function storeOf(ctx: CommunityCtx, chosen: number | undefined): Promise<number | null> {
  const own = await ownStore(ctx);
  if (own !== undefined) return own;
  if (!chosen) return null;
  const store = await ctx.db
    .selectFrom('merchants')
    .select('status')
    .where('rid', '=', ctx.rid)
    .where('id', '=', chosen)
    .executeTakeFirst();
  if (!store) fail('商户不存在');
  if (store.status !== 'Y') fail('该商户已停用');
  return chosen;
}

const cardQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('member_cards as c')
    .innerJoin('card_templates as t', (j) => j.onRef('t.rid', '=', 'c.rid').onRef('t.id', '=', 'c.template_id'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'c.rid').onRef('m.id', '=', 'c.member_id'))
    .select([
      'c.id',
      'c.card_no',
      'c.status',
      'c.member_id',
      'c.valid_until',
      't.name as template_name',
      't.color as template_color',
      't.discount',
      't.supply_bonus',
      't.supply_balance',
      't.earn_per_yuan',
      't.earn_cap',
      't.redeem_points',
      't.redeem_money',
      't.redeem_min_order',
      't.redeem_max_points',
      'm.realname',
      'm.mobile',
      'm.balance',
      'm.bonus',
    ])
    .where('c.rid', '=', rid);

type CardRaw = Awaited<ReturnType<ReturnType<typeof cardQuery>['executeTakeFirstOrThrow']>>;

const rulesOf = (c: CardRaw): CounterRules => ({
  discount: c.discount,
  supplyBonus: c.supply_bonus === 'Y',
  supplyBalance: c.supply_balance === 'Y',
  earnPerYuan: c.earn_per_yuan,
  earnCap: c.earn_cap,
  redeemPoints: c.redeem_points,
  redeemMoney: fenToYuan(toFen(c.redeem_money)),
  redeemMinOrder: fenToYuan(toFen(c.redeem_min_order)),
  redeemMaxPoints: c.redeem_max_points,
});

const toMember = (c: CardRaw, couponCode = ''): CounterMember => ({
  card_id: c.id,
  card_no: c.card_no,
  card_status: c.status,
  card_status_ch: enumText(MEMBER_CARD_STATUS, c.status),
  template_name: c.template_name,
  template_color: c.template_color,
  member_id: c.member_id,
  realname: c.realname,
  mobile: c.mobile,
  balance: fenToYuan(toFen(c.balance)),
  bonus: c.bonus,
  rules: rulesOf(c),
  coupon_code: couponCode,
});

/** A card that may pay now: 正常 and within its validity. */
function refuseUnusable(c: CardRaw): void {
  if (c.status === 'I') fail('会员卡未激活，请先激活');
  if (c.status === 'F') fail('会员卡已冻结');
  if (c.status !== 'Y') fail('该会员卡已挂失或注销');
  if (c.valid_until && c.valid_until < today()) fail('会员卡已过有效期');
}

const carduslookup = defineMethod('carduslookup', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary: '会员收银：按会员卡号、手机号或券码找到会员的在用会员卡，答卡、余额、积分和卡的折扣与积分规则',
  async handler(ctx, input) {
    const code = input.code.trim();
    let coupon = '';
    let q = cardQuery(ctx.db, ctx.rid).where('c.status', 'in', ['I', 'Y', 'F']);
    const byNo = await cardQuery(ctx.db, ctx.rid).where('c.card_no', '=', code).executeTakeFirst();
    if (byNo) return toMember(byNo);
    if (/^1\d{10}$/.test(code)) q = q.where('m.mobile', '=', code);
    else {
      const normal = normalCouponCode(code);
      const given = await ctx.db
        .selectFrom('member_coupons')
        .select('member_id')
        .where('rid', '=', ctx.rid)
        .where('code', '=', normal)
        .executeTakeFirst();
      if (!given) fail('没有找到该会员卡、手机号或券码');
      coupon = normal;
      q = q.where('c.member_id', '=', given.member_id);
    }
    const card = await q.executeTakeFirst();
    if (!card) fail(coupon ? '该券的会员没有在用的会员卡' : '该手机号的会员没有在用的会员卡');
    return toMember(card, coupon);
  },
});

/** A coupon's discount on an amount as a purchase would take it, without taking it (a rolled-back try). */
async function couponPreview(
  ctx: CommunityCtx,
  code: string,
  memberId: number,
  merchantId: number | null,
  amountFen: bigint,
): Promise<bigint> {
  class Tried {
    constructor(readonly fen: bigint) {}
  }
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const used = await redeemCoupon(trx, { rid: ctx.rid, code, memberId, merchantId, purpose: PURPOSE, amountFen, orderNo: 'PREVIEW' });
      throw new Tried(used.discountFen);
    });
  } catch (e) {
    if (e instanceof Tried) return e.fen;
    throw e;
  }
  return 0n;
}

const afterDiscount = (amountFen: bigint, c: CardRaw) => amountFen - settleCounter(amountFen, rulesOf(c), noWallet).memberDiscountFen;
const noWallet = { couponFen: 0n, pointsWanted: 0, bonusHeld: 0, balanceHeld: 0n, useBalance: false };

const cardconsumepreview = defineMethod('cardconsumepreview', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary: '会员收银预览：按会员折扣、一张券、积分、余额、现金的顺序算出各部分（不扣任何东西）',
  async handler(ctx, input) {
    const card = await cardQuery(ctx.db, ctx.rid).where('c.id', '=', input.card_id).executeTakeFirst();
    if (!card) fail('会员卡不存在');
    refuseUnusable(card);
    const merchantId = await storeOf(ctx, input.merchant_id);
    const amountFen = toFen(input.amount);
    const couponFen = input.coupon_code
      ? await couponPreview(ctx, input.coupon_code, card.member_id, merchantId, afterDiscount(amountFen, card))
      : 0n;
    return settlementWire(
      settleCounter(amountFen, rulesOf(card), {
        couponFen,
        pointsWanted: input.points,
        bonusHeld: card.bonus,
        balanceHeld: toFen(card.balance),
        useBalance: input.use_balance === 'Y',
      }),
    );
  },
});

const orderQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('counter_orders as o')
    .innerJoin('member_cards as c', (j) => j.onRef('c.rid', '=', 'o.rid').onRef('c.id', '=', 'o.card_id'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'o.rid').onRef('m.id', '=', 'o.member_id'))
    .leftJoin('merchants as s', (j) => j.onRef('s.rid', '=', 'o.rid').onRef('s.id', '=', 'o.merchant_id'))
    .selectAll('o')
    .select(['c.card_no', 'm.realname', 'm.mobile', 's.merchant'])
    .where('o.rid', '=', rid);

type OrderRaw = Awaited<ReturnType<ReturnType<typeof orderQuery>['executeTakeFirstOrThrow']>>;
const yuan = (v: string) => fenToYuan(toFen(v));

const toOrderRow = (o: OrderRaw): CounterOrderRow => ({
  id: o.id,
  order_no: o.order_no,
  card_id: o.card_id,
  card_no: o.card_no,
  member_id: o.member_id,
  realname: o.realname,
  mobile: o.mobile,
  merchant_id: o.merchant_id,
  merchant: o.merchant ?? '物业服务中心',
  amount: yuan(o.amount),
  member_discount: yuan(o.member_discount),
  coupon_code: o.coupon_code,
  coupon_name: o.coupon_name,
  coupon_discount: yuan(o.coupon_discount),
  points_used: o.points_used,
  points_money: yuan(o.points_money),
  balance_paid: yuan(o.balance_paid),
  cash_paid: yuan(o.cash_paid),
  points_earned: o.points_earned,
  points_max: 0,
  pay_type: o.pay_type,
  pay_type_ch: enumText(PAY_TYPE, o.pay_type),
  status: o.status as 'Y' | 'R',
  status_ch: enumText(COUNTER_ORDER_STATUS, o.status),
  refund_reason: o.refund_reason,
  refunded_at: o.refunded_at ? wireTime(o.refunded_at) : '',
  operator: o.operator,
  remark: o.remark,
  create_time: wireTime(o.created_at),
});

async function orderRow(ctx: CommunityCtx, id: number): Promise<CounterOrderRow> {
  const o = await orderQuery(ctx.db, ctx.rid).where('o.id', '=', id).executeTakeFirst();
  if (!o) fail('消费订单不存在');
  return toOrderRow(o);
}

async function consume(ctx: CommunityCtx, input: HandlerInput<'cardconsume'>) {
  const merchantId = await storeOf(ctx, input.merchant_id);
  // the member's row first (their balance and points), then the card: a spend and a refund queue here
  const owner = await ctx.db
    .selectFrom('member_cards')
    .select('member_id')
    .where('rid', '=', ctx.rid)
    .where('id', '=', input.card_id)
    .executeTakeFirst();
  if (!owner) fail('会员卡不存在');
  await ctx.db.selectFrom('members').select('id').where('rid', '=', ctx.rid).where('id', '=', owner.member_id).forUpdate().execute();
  const card = await cardQuery(ctx.db, ctx.rid).where('c.id', '=', input.card_id).executeTakeFirstOrThrow();
  refuseUnusable(card);
  const amountFen = toFen(input.amount);
  const seq = await sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('counter_orders', 'id')) AS id`.execute(ctx.db);
  const id = Number(seq.rows[0]!.id);
  const orderNo = `XF${today().replace(/-/g, '')}${String(id).padStart(6, '0')}`;
  const coupon = input.coupon_code
    ? await redeemCoupon(ctx.db, {
        rid: ctx.rid,
        code: input.coupon_code,
        memberId: card.member_id,
        merchantId,
        purpose: PURPOSE,
        amountFen: afterDiscount(amountFen, card),
        orderNo,
      })
    : undefined;
  const s = settleCounter(amountFen, rulesOf(card), {
    couponFen: coupon?.discountFen ?? 0n,
    pointsWanted: input.points,
    bonusHeld: card.bonus,
    balanceHeld: toFen(card.balance),
    useBalance: input.use_balance === 'Y',
  });
  if (input.points > 0 && s.pointsUsed === 0) fail('本单不能使用积分（未达到积分抵扣的最低消费或积分不足）');
  await ctx.db
    .insertInto('counter_orders')
    .values({
      rid: ctx.rid,
      id,
      order_no: orderNo,
      card_id: card.id,
      member_id: card.member_id,
      merchant_id: merchantId,
      amount: fenToYuan(amountFen),
      member_discount: fenToYuan(s.memberDiscountFen),
      coupon_code: input.coupon_code,
      coupon_name: coupon?.name ?? '',
      coupon_discount: fenToYuan(s.couponFen),
      points_used: s.pointsUsed,
      points_money: fenToYuan(s.pointsFen),
      balance_paid: fenToYuan(s.balanceFen),
      cash_paid: fenToYuan(s.cashFen),
      pay_type: s.cashFen > 0n ? input.pay_type : 'balance',
      points_earned: s.pointsEarned,
      operator: ctx.session.name,
      remark: input.remark,
      created_by: ctx.session.accountId,
    })
    .execute();
  const who = { rid: ctx.rid, memberId: card.member_id, merchantId, orderid: orderNo };
  await moveBonus(ctx.db, { ...who, points: -s.pointsUsed, payCate: '积分抵扣', source: '商户收银', actionUser: ctx.session.name });
  await moveBalance(ctx.db, {
    ...who,
    fen: s.balanceFen,
    ioType: 2,
    feetype: 'shop',
    paytype: 'balance',
    remark: '会员消费',
    createUser: ctx.session.name,
  });
  await moveBonus(ctx.db, { ...who, points: s.pointsEarned, payCate: '消费赠送', source: '商户收银', actionUser: ctx.session.name });
  const after = await ctx.db
    .selectFrom('members')
    .select(['balance', 'bonus'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', card.member_id)
    .executeTakeFirstOrThrow();
  const row = await orderRow(ctx, id);
  return reply(
    { ...row, balance: fenToYuan(toFen(after.balance)), bonus: after.bonus },
    `收款成功，${s.cashFen > 0n ? `应收现金/扫码 ${fenToYuan(s.cashFen)} 元` : '已全部由会员权益支付'}`,
  );
}

const cardconsume = defineMethod('cardconsume', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: true,
  summary:
    '会员收银（一个事务，同一 idempotency_key 只收一次）：会员折扣、一张券、积分（按卡的抵扣规则）、余额，其余现金或扫码；按实付赠送积分；写入余额、积分流水和消费订单',
  handler: (ctx, input) => onceByKey(ctx, 'cardconsume', input.idempotency_key, () => consume(ctx, input)),
});

type Filters = HandlerInput<'cardconsumeexport'>;

function filtered(db: Kysely<DB>, rid: number, f: Filters, own: number | undefined) {
  let qb = orderQuery(db, rid);
  // a merchant sees its own store's orders
  if (own !== undefined) qb = qb.where('o.merchant_id', '=', own);
  else if (f.merchant_id) qb = qb.where('o.merchant_id', '=', f.merchant_id);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    qb = qb.where((eb) =>
      eb.or([eb('o.order_no', 'like', k), eb('c.card_no', 'like', k), eb('m.realname', 'like', k), eb('m.mobile', 'like', k)]),
    );
  }
  if (f.status) qb = qb.where('o.status', '=', f.status);
  if (f.create_time) qb = qb.where(withinDays('o.created_at', f.create_time));
  return qb;
}

const cardconsumelist = defineMethod('cardconsumelist', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary: '会员消费订单：单号、会员、商户、金额与各部分、状态；商户账号只看本店的；合计金额、余额和现金',
  async handler(ctx, input) {
    const qb = filtered(ctx.db, ctx.rid, input, await ownStore(ctx));
    const [page, sums] = await Promise.all([
      listPage(qb, input, 'o.id'),
      qb
        .clearSelect()
        .select([
          sql<string>`coalesce(sum(o.amount) FILTER (WHERE o.status = 'Y'), 0)::text`.as('amount'),
          sql<string>`coalesce(sum(o.balance_paid) FILTER (WHERE o.status = 'Y'), 0)::text`.as('balance'),
          sql<string>`coalesce(sum(o.cash_paid) FILTER (WHERE o.status = 'Y'), 0)::text`.as('cash'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    return {
      items: page.items.map(toOrderRow),
      total: page.total,
      sums: { amount: yuan(sums.amount), balance_paid: yuan(sums.balance), cash_paid: yuan(sums.cash) },
    };
  },
});

// the property's export of every store's orders (an export job has no session to tell a merchant's store by)
const cardconsumeexport = defineExport('cardconsumeexport', {
  roles: CARD_ROLES.staff,
  summary: '导出会员消费订单（物业；商户账号不能导出）',
  filename: () => `会员消费_${today()}.xlsx`,
  async sheet(ctx, input) {
    const rows = (await filtered(ctx.db, ctx.rid, input, undefined).orderBy('o.id', 'desc').limit(50_000).execute()).map(toOrderRow);
    return sheetOf(
      '会员消费',
      [
        { header: '单号', value: (r) => r.order_no, width: 20 },
        { header: '商户', value: (r) => r.merchant, width: 14 },
        { header: '卡号', value: (r) => r.card_no, width: 14 },
        { header: '会员', value: (r) => r.realname },
        { header: '消费金额', value: (r) => Number(r.amount) },
        { header: '会员折扣', value: (r) => Number(r.member_discount) },
        { header: '优惠券', value: (r) => Number(r.coupon_discount) },
        { header: '积分抵扣', value: (r) => Number(r.points_money) },
        { header: '使用积分', value: (r) => r.points_used },
        { header: '余额支付', value: (r) => Number(r.balance_paid) },
        { header: '现金/扫码', value: (r) => Number(r.cash_paid) },
        { header: '支付方式', value: (r) => r.pay_type_ch },
        { header: '赠送积分', value: (r) => r.points_earned },
        { header: '状态', value: (r) => r.status_ch },
        { header: '操作人', value: (r) => r.operator },
        { header: '时间', value: (r) => r.create_time, width: 20 },
      ],
      rows,
    );
  },
});

const cardconsumerefund = defineMethod('cardconsumerefund', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: true,
  summary: '会员消费退款（整单）：余额退回、抵扣的积分退回、赠送的积分收回（会员积分不足时拒绝）、优惠券退回，现金由收款方退还',
  async handler(ctx, input) {
    const own = await ownStore(ctx);
    const head = await ctx.db
      .selectFrom('counter_orders')
      .select(['member_id'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!head) fail('消费订单不存在');
    await ctx.db.selectFrom('members').select('id').where('rid', '=', ctx.rid).where('id', '=', head.member_id).forUpdate().execute();
    const o = await ctx.db
      .selectFrom('counter_orders')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (own !== undefined && o.merchant_id !== own) fail('消费订单不存在');
    if (o.status !== 'Y') fail('该订单已退款');
    const who = { rid: ctx.rid, memberId: o.member_id, merchantId: o.merchant_id, orderid: o.order_no };
    await moveBonus(ctx.db, {
      ...who,
      points: -o.points_earned,
      payCate: '退款扣回',
      source: '商户收银',
      actionUser: ctx.session.name,
    }).catch(() => fail(`会员的积分已不足以收回本单赠送的 ${o.points_earned} 积分，不能退款`));
    await moveBonus(ctx.db, { ...who, points: o.points_used, payCate: '退款返还', source: '商户收银', actionUser: ctx.session.name });
    await moveBalance(ctx.db, {
      ...who,
      fen: toFen(o.balance_paid),
      ioType: 1,
      feetype: 'refund',
      paytype: 'balance',
      remark: `消费退款：${input.reason}`,
      createUser: ctx.session.name,
    });
    if (o.coupon_code) await releaseCoupon(ctx.db, { rid: ctx.rid, orderNo: o.order_no });
    await ctx.db
      .updateTable('counter_orders')
      .set({ status: 'R', refund_reason: input.reason, refunded_at: sql`now()`, refunded_by: ctx.session.name })
      .where('rid', '=', ctx.rid)
      .where('id', '=', o.id)
      .execute();
    const cash = toFen(o.cash_paid);
    return reply(await orderRow(ctx, o.id), cash > 0n ? `已退款，请退还现金/扫码 ${fenToYuan(cash)} 元` : '已退款');
  },
});

const orderinfo = defineMethod('orderinfo', {
  side: 'community',
  roles: CARD_ROLES.staff,
  writes: false,
  summary: '会员订单详情（任一会员订单：会员消费、会员卡充值、积分商城兑换）：明细、各支付部分、状态时间线、退款',
  async handler(ctx, input) {
    const no = input.order_no.trim();
    const own = await ownStore(ctx);
    const counter = await orderQuery(ctx.db, ctx.rid).where('o.order_no', '=', no).executeTakeFirst();
    if (counter && (own === undefined || counter.merchant_id === own)) return counterInfo(toOrderRow(counter));
    // recharges and mall orders are the property's: a merchant reads only its own counter's
    if (own === undefined) {
      const recharge = await rechargeInfo(ctx, no);
      if (recharge) return recharge;
      const mall = await mallInfo(ctx, no);
      if (mall) return mall;
    }
    return fail('订单不存在');
  },
});

function counterInfo(o: CounterOrderRow): MemberOrderInfo {
  const parts: Array<[string, string, number]> = [
    ['会员折扣', o.member_discount, 0],
    [o.coupon_name ? `优惠券（${o.coupon_name}）` : '优惠券', o.coupon_discount, 0],
    ['积分抵扣', o.points_money, o.points_used],
    ['余额支付', o.balance_paid, 0],
    [o.pay_type === 'balance' ? '现金' : o.pay_type_ch, o.cash_paid, 0],
  ];
  const timeline = [
    { time: o.create_time, text: `收款 ${o.amount} 元${o.points_earned ? `，赠送 ${o.points_earned} 积分` : ''}`, operator: o.operator },
  ];
  if (o.status === 'R') timeline.push({ time: o.refunded_at, text: `整单退款：${o.refund_reason}`, operator: '' });
  return {
    order_no: o.order_no,
    kind: 'counter',
    kind_ch: '会员消费',
    status_ch: o.status_ch,
    member: { id: o.member_id, realname: o.realname, mobile: o.mobile, card_no: o.card_no },
    merchant: o.merchant,
    lines: [{ title: '消费', quantity: 1, amount: o.amount, points: 0 }],
    payments: parts.filter(([, amount]) => toFen(amount) > 0n).map(([label, amount, points]) => ({ label, amount, points })),
    total: o.amount,
    timeline,
    operator: o.operator,
    create_time: o.create_time,
  };
}

async function rechargeInfo(ctx: CommunityCtx, no: string): Promise<MemberOrderInfo | undefined> {
  const r = await ctx.db
    .selectFrom('card_recharges as r')
    .innerJoin('member_cards as c', (j) => j.onRef('c.rid', '=', 'r.rid').onRef('c.id', '=', 'r.card_id'))
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'r.rid').onRef('m.id', '=', 'r.member_id'))
    .leftJoin('recharge_packages as p', (j) => j.onRef('p.rid', '=', 'r.rid').onRef('p.id', '=', 'r.package_id'))
    .selectAll('r')
    .select(['c.card_no', 'm.realname', 'm.mobile', 'p.name as package_name'])
    .where('r.rid', '=', ctx.rid)
    .where('r.order_no', '=', no)
    .executeTakeFirst();
  if (!r) return undefined;
  const log = await flowLog(ctx.db, ctx.rid, rechargeRefundFlow.def, r.id);
  return {
    order_no: r.order_no,
    kind: 'recharge',
    kind_ch: '会员卡充值',
    status_ch: enumText(RECHARGE_STATUS, r.status),
    member: { id: r.member_id, realname: r.realname, mobile: r.mobile, card_no: r.card_no },
    merchant: '物业服务中心',
    lines: [
      { title: r.package_name ? `充值套餐 ${r.package_name}` : '充值', quantity: 1, amount: yuan(r.paid_amount), points: 0 },
      ...(toFen(r.bonus_amount) > 0n || r.bonus_points > 0
        ? [{ title: '赠送', quantity: 1, amount: yuan(r.bonus_amount), points: r.bonus_points }]
        : []),
    ],
    payments: [{ label: enumText(COUNTER_PAY_TYPE, r.pay_type) || enumText(PAY_TYPE, r.pay_type), amount: yuan(r.paid_amount), points: 0 }],
    total: yuan(r.paid_amount),
    timeline: log.map((l) => ({
      time: l.create_time,
      text: `${l.transition_ch}${typeof l.input.reason === 'string' ? `：${l.input.reason}` : typeof l.input.remark === 'string' && l.input.remark ? `：${l.input.remark}` : ''}`,
      operator: l.operator,
    })),
    operator: r.operator,
    create_time: wireTime(r.created_at),
  };
}

async function mallInfo(ctx: CommunityCtx, no: string): Promise<MemberOrderInfo | undefined> {
  const o = await ctx.db
    .selectFrom('mall_orders as o')
    .innerJoin('members as m', (j) => j.onRef('m.rid', '=', 'o.rid').onRef('m.id', '=', 'o.member_id'))
    .selectAll('o')
    .select(['m.realname', 'm.mobile'])
    .where('o.rid', '=', ctx.rid)
    .where('o.order_no', '=', no)
    .executeTakeFirst();
  if (!o) return undefined;
  const card = await ctx.db
    .selectFrom('member_cards')
    .select('card_no')
    .where('rid', '=', ctx.rid)
    .where('member_id', '=', o.member_id)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const log = await flowLog(ctx.db, ctx.rid, mallOrderFlow.def, o.id);

  return {
    order_no: o.order_no,
    kind: 'mall',
    kind_ch: '积分商城兑换',
    status_ch: mallOrderStatusText(o.status, o.delivery_mode),
    member: { id: o.member_id, realname: o.realname, mobile: o.mobile, card_no: card?.card_no ?? '' },
    merchant: '积分商城',
    lines: [{ title: `${o.goods_name} ${o.spec_name}`.trim(), quantity: o.quantity, amount: '0.00', points: o.points_total }],
    payments: [{ label: '积分', amount: '0.00', points: o.points_total }],
    total: '0.00',
    timeline: log.map((l) => ({ time: l.create_time, text: l.transition_ch, operator: l.operator })),
    operator: log[0]?.operator ?? '',
    create_time: wireTime(o.created_at),
  };
}

export const counterMethods = [
  carduslookup,
  cardconsumepreview,
  cardconsume,
  cardconsumelist,
  ...notForMerchants([cardconsumeexport]),
  cardconsumerefund,
  orderinfo,
];
