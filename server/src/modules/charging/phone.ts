/**
 * 扫码充电 (docs/product.md#charging-piles): the owner's phone at a pile. The pile's QR code opens
 * /h5/charge?rid=&code=; the owner gives their mobile, gets an SMS code through the community's SMS
 * provider (chargephonecode) and trades it for a charge session of their own (chargephonelogin: a
 * row of `sessions` of kind charge, the member's, CHARGE_SESSION_HOURS at most, only its token's
 * hash kept), which the dispatcher keeps to the methods below as it keeps a board session to the
 * board. With it the phone reads the pile, its free ports, its prices and the owner's balance,
 * starts a session (the console's own start: the prepayment held from the balance), follows it and
 * stops it (the console's own stop), and reads the settlement.
 *
 * Codes: six digits, only a hash kept, CHARGE_CODE_TTL_SECONDS to use, CHARGE_CODE_MAX_TRIES tries,
 * used once; one a mobile per CHARGE_CODE_RESEND_SECONDS, CHARGE_CODE_DAILY_MAX a day, an address at
 * most CHARGE_CODE_IP_HOURLY an hour. While the SMS sandbox is in use (never in production), the
 * answer links the sandbox's page of the message, as the sandbox pay page stands in for paying.
 */
import crypto from 'node:crypto';
import {
  CHARGE_CODE_DAILY_MAX,
  CHARGE_CODE_IP_HOURLY,
  CHARGE_CODE_MAX_TRIES,
  CHARGE_CODE_RESEND_SECONDS,
  CHARGE_CODE_TTL_SECONDS,
  CHARGE_END_REASON,
  CHARGE_MODE,
  CHARGE_PORT_STATE,
  CHARGE_STATE,
  CHARGER_KIND,
  CHARGING_ROLES,
  RC,
  chargeBill,
  enumText,
  fenToYuan,
  toFen,
  type ChargeMode,
  type ChargePhoneOrder,
  type ChargePortState,
  type ChargeState,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isOnline } from '../../devices/access.js';
import { recordAudit } from '../../http/dispatcher.js';
import { BizError, fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type Ctx } from '../../http/registry.js';
import { hashToken } from '../../http/tokens.js';
import { today, wireTime } from '../../lib/wire.js';
import { createChargeSession } from '../auth/sessions.js';
import { smsProviderFor } from '../setup/smsProvider.js';
import { pileOf, priceText, pricingOf } from './piles.js';
import { framesOf, LIVE, orderOf, startSession, stopSession, type SessionPricing } from './sessions.js';

const NOT_MEMBER = '该手机号不是本小区登记的业主或会员，请联系物业登记后再扫码充电';
const NO_PILE = '充电桩不存在，请重新扫描充电桩上的二维码';

/** The code's hash: the community and the mobile with it, so one hash says nothing of another's code. */
const codeHash = (rid: number, mobile: string, code: string) => hashToken(`charge:${rid}:${mobile}:${code}`);

/** The sandbox's page of a message sent through the SMS sandbox (phoneSandbox.ts). */
export const sandboxSmsPath = (outId: string) => `/sandbox-sms/${outId}`;

/** The community's pile by the code its QR carries, or 充电桩不存在. */
async function pileByCode(db: Kysely<DB>, rid: number, code: string) {
  const d = await db
    .selectFrom('devices as d')
    .innerJoin('chargers as c', (j) => j.onRef('c.rid', '=', 'd.rid').onRef('c.id', '=', 'd.id'))
    .select(['d.id', 'd.title'])
    .where('d.rid', '=', rid)
    .where('d.code', '=', code)
    .where('d.family', '=', 'pile')
    .executeTakeFirst();
  return d ?? fail(NO_PILE);
}

/** The member of a charge session; a console session has none and is refused. */
function memberOf(ctx: CommunityCtx): number {
  if (ctx.session.kind !== 'charge' || !ctx.session.memberId) fail('请用手机扫描充电桩上的二维码，验证手机号后再使用');
  return ctx.session.memberId;
}

/** Checks the mobile and its limits, keeps the code's hash, then sends the message (chargephonecode). */
async function sendChargeCode(ctx: Ctx, input: { rid: number; charger_code: string; mobile: string }) {
  const pile = await pileByCode(ctx.db, input.rid, input.charger_code);
  const member = await ctx.db
    .selectFrom('members')
    .select(['id'])
    .where('rid', '=', input.rid)
    .where('mobile', '=', input.mobile)
    .executeTakeFirst();
  if (!member) fail(NOT_MEMBER);
  const sent = await ctx.db
    .selectFrom('charge_sms_codes')
    .select([
      sql<number>`count(*)::int`.as('day'),
      sql<number>`coalesce(ceil(extract(epoch from max(created_at) + make_interval(secs => ${CHARGE_CODE_RESEND_SECONDS}) - now())), 0)::int`.as(
        'wait',
      ),
    ])
    .where('rid', '=', input.rid)
    .where('mobile', '=', input.mobile)
    .where('created_at', '>', sql<Date>`now() - interval '1 day'`)
    .executeTakeFirstOrThrow();
  if (sent.wait > 0) fail(`验证码已发送，请 ${sent.wait} 秒后再试`);
  if (sent.day >= CHARGE_CODE_DAILY_MAX) fail('该手机号今天获取验证码的次数已达上限，请明天再试');
  const fromIp = await ctx.db
    .selectFrom('charge_sms_codes')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('ip', '=', ctx.ip)
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  if (fromIp.n >= CHARGE_CODE_IP_HOURLY) fail('获取验证码过于频繁，请稍后再试');
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  const outId = `charge-${crypto.randomBytes(16).toString('hex')}`;
  await ctx.db
    .insertInto('charge_sms_codes')
    .values({
      rid: input.rid,
      mobile: input.mobile,
      member_id: member.id,
      code_hash: codeHash(input.rid, input.mobile, code),
      out_id: outId,
      ip: ctx.ip,
      expires_at: sql<Date>`now() + make_interval(secs => ${CHARGE_CODE_TTL_SECONDS})`,
    })
    .execute();
  const { provider, signName } = await smsProviderFor(ctx.db, input.rid, ctx.config.dataDir);
  const content = `【${signName}】您的充电验证码为 ${code}，${CHARGE_CODE_TTL_SECONDS / 60} 分钟内有效，请勿告诉他人。`;
  const result = await provider.send({
    mobile: input.mobile,
    signName,
    templateCode: 'CHARGE_CODE',
    params: { code },
    content,
    outId,
  });
  if (!result.ok) {
    // not sent: neither the wait before another code nor the day's count counts it
    await ctx.db.deleteFrom('charge_sms_codes').where('rid', '=', input.rid).where('out_id', '=', outId).execute();
    fail(`验证码发送失败：${result.reason}`);
  }
  // the sandbox's message is shown on its page, never in production
  const sandbox = provider.name === 'sandbox' && ctx.config.sandbox && !ctx.config.production;
  return reply(
    {
      expires_in: CHARGE_CODE_TTL_SECONDS,
      resend_in: CHARGE_CODE_RESEND_SECONDS,
      charger_title: pile.title,
      sandbox_url: sandbox ? sandboxSmsPath(outId) : '',
    },
    '验证码已发送，请查看短信',
  );
}

const chargephonecode = defineMethod('chargephonecode', {
  side: 'public',
  // the code is kept (committed) before the message goes out, and the provider is called outside any
  // transaction: a slow provider holds no connection and no lock on the group's SMS quota, and a
  // code a user receives always exists; a message not sent withdraws its code
  writes: 'own',
  summary: `扫码充电：向本小区业主或会员的手机号发送 6 位短信验证码（${CHARGE_CODE_TTL_SECONDS / 60} 分钟内有效；同一手机号 ${CHARGE_CODE_RESEND_SECONDS} 秒一次、每天至多 ${CHARGE_CODE_DAILY_MAX} 次）；短信沙箱下答沙箱短信页的地址`,
  // its own transactions: one audit row for the outcome, a refusal's too, as the dispatcher writes for a write
  async handler(ctx, input) {
    const audit = (outcome: string, message: string) =>
      recordAudit(ctx.db, { session: null, side: 'community', method: 'chargephonecode', input, outcome, message, ip: ctx.ip });
    try {
      const answer = await sendChargeCode(ctx, input);
      await audit(RC.SUCCESS, answer.msg);
      return answer;
    } catch (err) {
      if (err instanceof BizError) await audit(err.code, err.message);
      throw err;
    }
  },
});

const chargephonelogin = defineMethod('chargephonelogin', {
  side: 'public',
  writes: true,
  summary: `扫码充电：用短信验证码换取本人的充电会话（至多 12 小时，只能调用扫码充电的接口）；验证码错误 ${CHARGE_CODE_MAX_TRIES} 次即作废`,
  async handler(ctx, input) {
    const row = await ctx.db
      .selectFrom('charge_sms_codes')
      .select(['id', 'member_id', 'code_hash', 'attempts', sql<boolean>`expires_at <= now()`.as('expired')])
      .where('rid', '=', input.rid)
      .where('mobile', '=', input.mobile)
      .where('used_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!row) fail('请先获取短信验证码');
    if (row.expired) fail('验证码已过期，请重新获取');
    if (row.attempts >= CHARGE_CODE_MAX_TRIES) fail('验证码错误次数过多，请重新获取');
    const given = Buffer.from(codeHash(input.rid, input.mobile, input.code));
    if (!crypto.timingSafeEqual(given, Buffer.from(row.code_hash))) {
      await ctx.db
        .updateTable('charge_sms_codes')
        .set({ attempts: row.attempts + 1 })
        .where('rid', '=', input.rid)
        .where('id', '=', row.id)
        .execute();
      const left = CHARGE_CODE_MAX_TRIES - row.attempts - 1;
      // the try is counted though the sign-in is refused
      throw new BizError(left > 0 ? `验证码不正确，还可再试 ${left} 次` : '验证码错误次数过多，请重新获取', RC.FAIL, true);
    }
    await ctx.db
      .updateTable('charge_sms_codes')
      .set({ used_at: sql`now()` })
      .where('rid', '=', input.rid)
      .where('id', '=', row.id)
      .execute();
    const member = await ctx.db
      .selectFrom('members')
      .select(['id', 'realname'])
      .where('rid', '=', input.rid)
      .where('id', '=', row.member_id)
      .where('mobile', '=', input.mobile)
      .executeTakeFirst();
    if (!member) fail(NOT_MEMBER);
    const { token, expiresAt } = await createChargeSession(ctx.db, ctx, { rid: input.rid, memberId: member.id });
    return reply({ token, expires_time: wireTime(expiresAt), realname: member.realname }, '验证成功');
  },
});

/* ------------------------------------------------------------- with the owner's charge session */

const kwh = (wh: number) => (wh / 1000).toFixed(3);
const yuan = (v: unknown) => (v === null || v === undefined ? '' : fenToYuan(toFen(String(v))));

/** The member's balance now. */
async function balanceOf(db: Kysely<DB>, rid: number, memberId: number): Promise<string> {
  const m = await db.selectFrom('members').select('balance').where('rid', '=', rid).where('id', '=', memberId).executeTakeFirst();
  return m ? yuan(m.balance) : '0.00';
}

/** The member's session `id`, or their live ones, as the phone shows them. */
async function phoneOrders(db: Kysely<DB>, rid: number, memberId: number, only: { id: number } | 'live'): Promise<ChargePhoneOrder[]> {
  let qb = db
    .selectFrom('charge_orders as o')
    .innerJoin('devices as d', (j) => j.onRef('d.rid', '=', 'o.rid').onRef('d.id', '=', 'o.charger_id'))
    .innerJoin('charger_ports as p', (j) => j.onRef('p.rid', '=', 'o.rid').onRef('p.id', '=', 'o.port_id'))
    .selectAll('o')
    .select(['d.title as charger_title', 'p.no as port_no', 'p.power_w'])
    .where('o.rid', '=', rid)
    .where('o.member_id', '=', memberId);
  qb = only === 'live' ? qb.where('o.state', 'in', LIVE).orderBy('o.id', 'desc').limit(10) : qb.where('o.id', '=', only.id);
  const rows = await qb.execute();
  const balance = rows.length ? await balanceOf(db, rid, memberId) : '0.00';
  const out: ChargePhoneOrder[] = [];
  for (const r of rows) {
    const live = LIVE.includes(r.state as ChargeState);
    let energyWh = r.end_wh !== null && r.start_wh !== null ? Number(r.end_wh) - Number(r.start_wh) : 0;
    let meterWh = r.end_wh !== null ? Number(r.end_wh) : 0;
    let amount = yuan(r.amount);
    if (live) {
      // so far: the meter values up to now, billed at the session's own prices, at most the prepayment
      const frames = await framesOf(db, rid, Number(r.id));
      const first = frames[0];
      const last = frames[frames.length - 1];
      meterWh = last?.wh ?? 0;
      energyWh = first && last ? last.wh - first.wh : 0;
      const pricing = (typeof r.pricing === 'string' ? JSON.parse(r.pricing) : r.pricing) as SessionPricing;
      const bill = chargeBill(pricing, frames, r.card_hours, toFen(String(r.coupon_face)));
      const prepaid = toFen(String(r.prepaid));
      amount = fenToYuan(bill.total_fen < prepaid ? bill.total_fen : prepaid);
    }
    out.push({
      id: Number(r.id),
      order_no: r.order_no,
      charger_title: r.charger_title,
      port_no: r.port_no,
      mode: r.mode as ChargeMode,
      mode_ch: enumText(CHARGE_MODE, r.mode),
      mode_value: yuan(r.mode_value),
      prepaid: yuan(r.prepaid),
      state: r.state as ChargeState,
      state_ch: enumText(CHARGE_STATE, r.state),
      end_reason_ch: r.end_reason ? enumText(CHARGE_END_REASON, r.end_reason) : '',
      start_time: wireTime(r.start_at),
      end_time: wireTime(r.end_at),
      meter_kwh: kwh(meterWh),
      power_w: live ? r.power_w : 0,
      energy_kwh: kwh(energyWh),
      amount,
      refund: live ? '' : yuan(r.refund),
      balance,
      error: r.error,
    });
  }
  return out;
}

const chargephoneinfo = defineMethod('chargephoneinfo', {
  side: 'community',
  roles: CHARGING_ROLES.phone,
  chargePhone: true,
  writes: false,
  summary: '扫码充电：充电桩（名称、类型、在线、分时电价或功率档位、服务费）、各插座状态、本人余额与充电月卡、本人未结束的充电',
  async handler(ctx, input) {
    const memberId = memberOf(ctx);
    const found = await pileByCode(ctx.db, ctx.rid, input.charger_code);
    const pile = await pileOf(ctx.db, ctx.rid, Number(found.id));
    const pricing = pricingOf(pile);
    const ports = await ctx.db
      .selectFrom('charger_ports')
      .select(['id', 'no', 'title', 'state'])
      .where('rid', '=', ctx.rid)
      .where('charger_id', '=', pile.id)
      .orderBy('no')
      .execute();
    const day = today();
    const m = await ctx.db
      .selectFrom('members as m')
      .select(['m.realname', 'm.mobile', 'm.balance'])
      .select(
        sql<string | null>`(SELECT concat('月卡至 ', c.end_date, ' 每日 ', c.hours_per_day, ' 小时') FROM charge_card_orders c
          WHERE c.rid = m.rid AND c.member_id = m.id AND c.start_date <= ${day}::date AND c.end_date >= ${day}::date
          ORDER BY c.end_date DESC LIMIT 1)`.as('month_card'),
      )
      .where('m.rid', '=', ctx.rid)
      .where('m.id', '=', memberId)
      .executeTakeFirst();
    if (!m) fail(NOT_MEMBER);
    return {
      charger: {
        id: Number(pile.id),
        code: pile.code,
        title: pile.title,
        kind: pricing.kind,
        kind_ch: enumText(CHARGER_KIND, pricing.kind),
        power_kw: yuan(pile.power_kw),
        tou: pricing.tou,
        service_fee: pricing.service_fee,
        bands: pricing.bands,
        price_text: priceText(pricing),
        online: isOnline(pile.last_heartbeat) ? ('Y' as const) : ('N' as const),
        enabled: pile.enabled === 'Y' ? ('Y' as const) : ('N' as const),
      },
      ports: ports.map((p) => ({
        id: Number(p.id),
        no: p.no,
        title: p.title || `${p.no}号插座`,
        state: p.state as ChargePortState,
        state_ch: enumText(CHARGE_PORT_STATE, p.state),
      })),
      member: { realname: m.realname, mobile: m.mobile, balance: yuan(m.balance), month_card: m.month_card ?? '' },
      live: await phoneOrders(ctx.db, ctx.rid, memberId, 'live'),
    };
  },
});

const chargephonestart = defineMethod('chargephonestart', {
  side: 'community',
  roles: CHARGING_ROLES.phone,
  chargePhone: true,
  writes: true,
  summary: '扫码充电：本人在该桩的空闲插座开始充电（方式与数值同后台开始充电），从本人余额预付，经设备指令队列下发启动',
  async handler(ctx, input) {
    const memberId = memberOf(ctx);
    const pile = await pileByCode(ctx.db, ctx.rid, input.charger_code);
    const started = await startSession(
      ctx.db,
      ctx.rid,
      { charger_id: Number(pile.id), port_id: input.port_id, member_id: memberId, mode: input.mode, value: input.value, coupon_code: '' },
      { accountId: null, name: `业主 ${ctx.session.name}（扫码）` },
    );
    return reply(started, `已下发启动指令，预付 ${started.prepaid} 元`);
  },
});

const chargephoneorder = defineMethod('chargephoneorder', {
  side: 'community',
  roles: CHARGING_ROLES.phone,
  chargePhone: true,
  writes: false,
  summary: '扫码充电：本人的一笔充电：状态、电表读数、已充电量与费用（充电中按当时的读数计），结算后的金额、退回余额与当前余额',
  async handler(ctx, input) {
    const memberId = memberOf(ctx);
    const [order] = await phoneOrders(ctx.db, ctx.rid, memberId, { id: input.id });
    return order ?? fail('充电订单不存在');
  },
});

const chargephonestop = defineMethod('chargephonestop', {
  side: 'community',
  roles: CHARGING_ROLES.phone,
  chargePhone: true,
  writes: true,
  summary: '扫码充电：本人停止充电：下发停止指令（pile_stop），桩送来最后的电表读数后结算（结束原因：手机停止），余下预付退回余额',
  async handler(ctx, input) {
    const memberId = memberOf(ctx);
    const o = await orderOf(ctx.db, ctx.rid, input.id, true);
    if (o.member_id !== memberId) fail('充电订单不存在');
    await stopSession(ctx.db, ctx.rid, o, { accountId: null, name: `业主 ${ctx.session.name}（扫码）`, reason: 'phone' });
    return reply({ id: o.id }, '已下发停止指令，结算后余下的预付退回余额');
  },
});

export const phoneMethods = [chargephonecode, chargephonelogin, chargephoneinfo, chargephonestart, chargephoneorder, chargephonestop];
