import crypto from 'node:crypto';
import { fenToYuan, RC, toFen } from '@wuye/contract';
import { sql } from 'kysely';
import { recordAudit } from '../../http/dispatcher.js';
import { BizError, fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { extendRegion } from './extend.js';

const newOrderId = () => {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  return `RD${stamp}${crypto.randomInt(100000, 999999)}`;
};

const getRegionDelayPay = defineMethod('get_region_delay_pay', {
  side: 'community',
  roles: 'any',
  writes: true,
  allowExpired: true,
  summary: '创建续费订单：orderid、total_fee（单价 × 年数）、payparam.code_url（扫码支付地址）',
  async handler(ctx, input) {
    const region = await ctx.db
      .selectFrom('regions')
      .select(['title', 'price_per_year'])
      .where('id', '=', ctx.rid)
      .executeTakeFirstOrThrow();
    const totalFee = fenToYuan(toFen(region.price_per_year) * BigInt(input.years));
    const orderid = newOrderId();
    const { codeUrl } = await ctx.services.payments.createOrder({
      orderid,
      totalFee,
      description: `${region.title} 续费 ${input.years} 年`,
      origin: ctx.origin,
    });
    await ctx.db
      .insertInto('renewal_orders')
      .values({
        rid: ctx.rid,
        orderid,
        years: input.years,
        total_fee: totalFee,
        provider: ctx.services.payments.name,
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
  roles: 'any',
  writes: false,
  allowExpired: true,
  summary: '查询续费订单：已支付则延长有效期（只延长一次），未支付返回 FAIL 与提示',
  async handler(ctx, input) {
    const order = await ctx.db
      .selectFrom('renewal_orders')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('orderid', '=', input.orderid)
      .executeTakeFirst();
    if (!order) fail('订单不存在');
    if (order.status === 'Y') return paidReply(await endOf(ctx.db, ctx.rid));
    const { paid } = await ctx.services.payments.queryOrder(order.orderid);
    if (!paid) throw new BizError('订单尚未支付，请扫码完成支付', RC.FAIL);
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

const regiondelayForactcode = defineMethod('regiondelay_foractcode', {
  side: 'community',
  roles: 'any',
  writes: true,
  allowExpired: true,
  summary: '用激活码续费：按激活码时长延长有效期，每个激活码只能用一次',
  async handler(ctx, input) {
    const used = await ctx.db
      .updateTable('activation_codes')
      .set({ used_rid: ctx.rid, used_by: ctx.session.accountId, used_at: sql`now()` })
      .where('code', '=', input.act_code)
      .where('used_at', 'is', null)
      .where((eb) => eb.or([eb('group_id', 'is', null), eb('group_id', '=', ctx.session.groupId)]))
      .returning(['months'])
      .executeTakeFirst();
    if (!used) {
      const exists = await ctx.db.selectFrom('activation_codes').select('used_at').where('code', '=', input.act_code).executeTakeFirst();
      fail(exists?.used_at ? '该激活码已被使用' : '激活码无效，请核对后重新输入');
    }
    const endTime = await extendRegion(ctx.db, {
      rid: ctx.rid,
      months: used.months,
      kind: 'code',
      ref: input.act_code,
      amount: '0',
      operator: ctx.session.username,
    });
    return reply({ end_time: endTime }, `激活成功，服务有效期至 ${endTime}`);
  },
});

export const renewalModule = [getRegionDelayPay, payQuery, regiondelayForactcode];
