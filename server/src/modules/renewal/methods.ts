import crypto from 'node:crypto';
import { fenToYuan, RC, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { recordAudit } from '../../http/dispatcher.js';
import { BizError, fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { addressKey, guessWasRight, reserveGuess, waitText, type ThrottleKey } from '../../http/throttle.js';
import { extendRegion } from './extend.js';
import { providerNamed, sceneProviderOrFail } from '../../payments/channels.js';

/** Scan-to-pay needs a payment provider: the sandbox (SANDBOX=1) or a real one. */
const NO_PROVIDER = '扫码支付未开通，请使用激活码续费或联系服务商';

const newOrderId = () => {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  return `RD${stamp}${crypto.randomInt(100000, 999999)}`;
};

const getRegionDelayPay = defineMethod('get_region_delay_pay', {
  side: 'community',
  roles: 'staff',
  writes: true,
  allowExpired: true,
  summary: '创建续费订单：orderid、total_fee（单价 × 年数）、payparam.code_url（扫码支付地址）；未配置支付渠道时不可用',
  async handler(ctx, input) {
    const provider = await sceneProviderOrFail(ctx, 'renewal', { none: NO_PROVIDER, otherwise: '请使用激活码续费或联系集团总部' });
    const region = await ctx.db
      .selectFrom('regions')
      .select(['title', 'price_per_year'])
      .where('id', '=', ctx.rid)
      .executeTakeFirstOrThrow();
    const totalFee = fenToYuan(toFen(region.price_per_year) * BigInt(input.years));
    const orderid = newOrderId();
    const { codeUrl } = await provider.createOrder(
      { orderid, totalFee, description: `${region.title} 续费 ${input.years} 年`, origin: ctx.origin },
      ctx.db,
    );
    await ctx.db
      .insertInto('renewal_orders')
      .values({
        rid: ctx.rid,
        orderid,
        years: input.years,
        total_fee: totalFee,
        provider: provider.name,
        code_url: codeUrl,
        created_by: ctx.session.accountId,
      })
      .execute();
    return {
      items: { orderid, total_fee: totalFee, years: input.years, price_per_year: region.price_per_year, payparam: { code_url: codeUrl } },
    };
  },
});

const payQuery = defineMethod('pay_query', {
  side: 'community',
  roles: 'staff',
  writes: false,
  allowExpired: true,
  summary: '查询续费订单：支付渠道确认已付且金额与订单一致才延长有效期（只延长一次），未支付返回 FAIL 与提示',
  async handler(ctx, input) {
    const order = await ctx.db
      .selectFrom('renewal_orders')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('orderid', '=', input.orderid)
      .executeTakeFirst();
    if (!order) fail('订单不存在');
    if (order.status === 'Y') return paidReply(await endOf(ctx.db, ctx.rid));
    // settled only by what the order's own provider says it received, and only for the order's amount
    const provider = providerNamed(ctx.services, order.provider);
    if (!provider) return fail('该订单的支付渠道已停用，请重新下单或使用激活码续费');
    const payment = await provider.queryOrder(order.orderid);
    if (!payment.paid) throw new BizError('订单尚未支付，请扫码完成支付', RC.FAIL);
    if (payment.amount === undefined || toFen(payment.amount) !== toFen(order.total_fee)) {
      ctx.log.warn({ orderid: order.orderid, expected: order.total_fee, received: payment.amount }, 'renewal paid with another amount');
      return fail(`支付金额（${payment.amount ?? '未知'} 元）与订单金额（${order.total_fee} 元）不符，未续费，请联系服务商处理`);
    }
    // polling is a read; settling is the one write, in its own transaction with its audit row
    const endTime = await ctx.db.transaction().execute(async (trx) => {
      const settled = await trx
        .updateTable('renewal_orders')
        .set({ status: 'Y', paid_at: sql`now()` })
        .where('rid', '=', ctx.rid)
        .where('orderid', '=', order.orderid)
        .where('status', '=', 'E')
        .returning(['years', 'total_fee'])
        .executeTakeFirst();
      if (!settled) return endOf(trx, ctx.rid);
      const end = await extendRegion(trx, {
        rid: ctx.rid,
        months: settled.years * 12,
        kind: 'pay',
        ref: order.orderid,
        amount: settled.total_fee,
        operator: ctx.session.username,
      });
      await recordAudit(trx, {
        session: ctx.session,
        side: 'community',
        method: 'pay_query',
        input,
        outcome: RC.SUCCESS,
        message: `续费到 ${end}`,
        ip: ctx.ip,
      });
      return end;
    });
    ctx.services.sessions.clear(); // the community's new end date applies to the next call
    return paidReply(endTime);
  },
});

const endOf = async (db: Parameters<typeof extendRegion>[0], rid: number) =>
  (await db.selectFrom('regions').select('end_time').where('id', '=', rid).executeTakeFirstOrThrow()).end_time;

const paidReply = (endTime: string) => reply({ paid: true, end_time: endTime }, `支付成功，服务有效期至 ${endTime}`);

/** One answer for a code that does not exist, belongs to another group or was used: none tells which. */
export const BAD_ACT_CODE = '激活码无效或已被使用，请核对后重新输入';

/**
 * Wrong codes wait, per community and per address, as wrong passwords do (http/throttle.ts): the
 * codes are random (seed.ts), and guessing them is slow besides.
 */
function codeKeys(rid: number, ip: string): { community: ThrottleKey; address: ThrottleKey } {
  return {
    community: { key: `c:r:${rid}`, free: 5, maxDelaySeconds: 15 * 60 },
    address: { key: `c:a:${addressKey(ip)}`, free: 10, maxDelaySeconds: 15 * 60 },
  };
}

const regiondelayForactcode = defineMethod('regiondelay_foractcode', {
  side: 'community',
  roles: 'staff',
  // its own transaction after the guess is counted (the count must stand when the code is wrong)
  writes: 'own',
  allowExpired: true,
  summary: '用激活码续费：按激活码时长延长有效期；激活码属于集团，每个只能用一次；连续输错需等待',
  async handler(ctx, input) {
    const keys = codeKeys(ctx.rid, ctx.ip);
    const audit = (db: typeof ctx.db, outcome: string, message: string) =>
      recordAudit(db, { session: ctx.session, side: 'community', method: 'regiondelay_foractcode', input, outcome, message, ip: ctx.ip });
    const reserved = await reserveGuess(ctx.db, [keys.community, keys.address]);
    if (!reserved.ok) {
      const msg = `激活码输错次数过多，请 ${waitText(reserved.waitSeconds)}后再试`;
      await audit(ctx.db, RC.FAIL, msg);
      return fail(msg);
    }
    const endTime = await ctx.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('activation_codes')
        .set({ used_rid: ctx.rid, used_by: ctx.session.accountId, used_at: sql`now()` })
        .where('code', '=', input.act_code)
        .where('used_at', 'is', null)
        // a code is its group's: one without a group works for none
        .where('group_id', '=', ctx.session.groupId)
        .returning(['months'])
        .executeTakeFirst();
      if (!used) return null;
      const end = await extendRegion(trx, {
        rid: ctx.rid,
        months: used.months,
        kind: 'code',
        ref: input.act_code,
        amount: '0',
        operator: ctx.session.username,
      });
      await guessWasRight(trx, { clear: [keys.community.key], undo: [keys.address] });
      await audit(trx, RC.SUCCESS, `激活成功，服务有效期至 ${end}`);
      return end;
    });
    if (endTime === null) {
      await audit(ctx.db, RC.FAIL, BAD_ACT_CODE);
      return fail(BAD_ACT_CODE);
    }
    ctx.services.sessions.clear(); // the community's new end date applies to the next call
    return reply({ end_time: endTime }, `激活成功，服务有效期至 ${endTime}`);
  },
});

export const renewalModule = [getRegionDelayPay, payQuery, regiondelayForactcode];
