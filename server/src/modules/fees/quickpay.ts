import { FEE_ROLES, BILL_STATUS_CH, type BillStatus } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, type CommunityCtx } from '../../http/registry.js';
import { today } from '../../lib/wire.js';
import { periodRange } from './calc.js';
import { byKey, house, payBills, replay } from './cashier.js';

const AUTO_REMARK = '临时收费自动创建';

interface Item {
  id: number;
  title: string;
  cost_type: string;
  cycle_months: number;
  unit_price: string;
}

/**
 * The item a free title is billed under: the item of that title if there is one, else a
 * disabled fixed-price item made for it (so generation never bills it, and the title keeps its
 * own bills and reports).
 */
async function itemForTitle(db: Kysely<DB>, rid: number, title: string, costType: string): Promise<Item> {
  const cols = ['id', 'title', 'cost_type', 'cycle_months', 'unit_price'] as const;
  const found = await db.selectFrom('fee_items').select(cols).where('rid', '=', rid).where('title', '=', title).executeTakeFirst();
  if (found) return found;
  const type = await db
    .selectFrom('fee_cost_types')
    .select('id')
    .where('rid', '=', rid)
    .where('cost_type', '=', costType)
    .executeTakeFirst();
  if (!type) fail(`费用类型「${costType}」不存在，请先在费用类型中添加`);
  await db
    .insertInto('fee_items')
    .values({
      rid,
      cost_type: costType,
      title,
      pricing: 'fixed',
      unit_price: '0',
      status: 'N',
      remark: AUTO_REMARK,
    })
    .onConflict((oc) => oc.columns(['rid', 'title']).doNothing())
    .execute();
  return db.selectFrom('fee_items').select(cols).where('rid', '=', rid).where('title', '=', title).executeTakeFirstOrThrow();
}

/** Answers each line's item, refusing unknown or disabled items. */
async function resolveItems(
  ctx: CommunityCtx,
  lines: Array<{ item_id?: number | undefined; title?: string | undefined; cost_type?: string | undefined }>,
) {
  const out: Item[] = [];
  for (const line of lines) {
    if (line.item_id !== undefined) {
      const item = await ctx.db
        .selectFrom('fee_items')
        .select(['id', 'title', 'cost_type', 'cycle_months', 'unit_price', 'status'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', line.item_id)
        .executeTakeFirst();
      if (!item) fail('收费项目不存在');
      if (item.status !== 'Y') fail(`收费项目「${item.title}」已停用`);
      out.push(item);
    } else {
      out.push(await itemForTitle(ctx.db, ctx.rid, line.title!, line.cost_type || 'other'));
    }
  }
  return out;
}

const quickpay = defineMethod('quickpay', {
  side: 'community',
  roles: FEE_ROLES.quickpay,
  writes: true,
  summary:
    '临时收费（一个事务）：为一个房屋收取一项或多项临时费用（收费项目或自填名称、金额、账期，默认本月），生成已缴账单和收据；与收银台同一收费流程（余额抵扣、多收转余额、连续收据号）；同一 idempotency_key 重试只收一次；该房屋该账期已有此项目账单时拒绝',
  async handler(ctx, input) {
    const first = await byKey(ctx, input.idempotency_key);
    if (first) return replay(ctx, first, input.hid);
    const room = await house(ctx, input.hid);
    const day = today();
    const items = await resolveItems(ctx, input.lines);
    const lines = input.lines.map((l, i) => ({ ...l, item: items[i]!, period: l.period || day.slice(0, 7) }));
    const keys = new Set<string>();
    for (const l of lines) {
      const key = `${l.item.id}|${l.period}`;
      if (keys.has(key)) fail(`「${l.item.title}」${l.period} 重复添加，请合并为一项`);
      keys.add(key);
    }
    // a bill of the same item and period (generated, imported or quick) is collected at the cashier, never billed twice
    const existing = await ctx.db
      .selectFrom('fee_bills')
      .select(['item_id', 'period', 'status', 'title'])
      .where('rid', '=', ctx.rid)
      .where('hid', '=', room.id)
      .where('space_id', '=', 0)
      .where('car_id', '=', 0)
      .where(
        'item_id',
        'in',
        lines.map((l) => l.item.id),
      )
      .where(
        'period',
        'in',
        lines.map((l) => l.period),
      )
      .execute();
    const clash = existing.find((b) => keys.has(`${b.item_id}|${b.period}`));
    if (clash) {
      // a retry of this very request may have committed while we waited for its fee item
      const again = await byKey(ctx, input.idempotency_key);
      if (again) return replay(ctx, again, input.hid);
      fail(
        clash.status === 'Y'
          ? `${room.address} ${clash.period} 的「${clash.title}」已缴费，不能重复收取`
          : `${room.address} ${clash.period} 已有「${clash.title}」账单（${BILL_STATUS_CH[clash.status as BillStatus]}），请到收银台收取`,
      );
    }
    const created = await ctx.db
      .insertInto('fee_bills')
      .values(
        lines.map((l) => ({
          rid: ctx.rid,
          hid: room.id,
          bid: room.bid,
          tid: room.tid,
          item_id: l.item.id,
          cost_type: l.item.cost_type,
          title: l.item.title,
          period: l.period,
          daterange: periodRange(l.period, l.item.cycle_months).daterange,
          measure: '1',
          unit_price: l.amount,
          fee: l.amount,
          source: 'quickpay',
          due_date: day,
        })),
      )
      .onConflict((oc) => oc.columns(['rid', 'hid', 'item_id', 'period', 'space_id', 'car_id']).doNothing())
      .returning('id')
      .execute();
    if (created.length !== lines.length) {
      // a retry of this very request committed meanwhile (it made every one of these bills): answer its receipt
      const again = created.length === 0 ? await byKey(ctx, input.idempotency_key) : undefined;
      if (again) return replay(ctx, again, input.hid);
      fail('所选收费项目在该账期刚刚出账，请到收银台收取');
    }
    return payBills(ctx, room, {
      billIds: created.map((b) => b.id),
      payType: input.pay_type,
      payMethodId: input.pay_method_id,
      payRef: input.pay_ref,
      paidAmount: input.paid_amount,
      useBalance: input.use_balance,
      discount: '0.00',
      idempotencyKey: input.idempotency_key,
      remark: input.remark,
      payerName: input.payer_name,
    });
  },
});

export const quickpayMethods = [quickpay];
