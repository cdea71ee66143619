import { FEE_ROLES, DISCOUNT_MANAGER_ROLES, fenToYuan, hasAnyRole, type FeeSettings } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { wireTime } from '../../lib/wire.js';

const DEFAULTS = {
  receipt_title: '',
  receipt_footnote: '',
  receipt_prefix: '',
  allow_discount: 'Y' as const,
  // a cashier may waive a fifth at most; more needs a manager (checkDiscount)
  max_discount_percent: 20,
  default_due_day: 15,
};

/** The community's fee settings; the defaults when it has saved none. */
export async function feeSettings(db: Kysely<DB>, rid: number): Promise<FeeSettings> {
  const row = await db.selectFrom('fee_settings').selectAll().where('rid', '=', rid).executeTakeFirst();
  if (!row) return { ...DEFAULTS, update_user: '', update_time: '' };
  return {
    receipt_title: row.receipt_title,
    receipt_footnote: row.receipt_footnote,
    receipt_prefix: row.receipt_prefix,
    allow_discount: row.allow_discount,
    max_discount_percent: row.max_discount_percent,
    default_due_day: row.default_due_day,
    update_user: row.updated_by,
    update_time: wireTime(row.updated_at),
  };
}

/** The most a cashier may discount of `totalFen` (bills plus late fees): max_discount_percent of it, rounded down to the fen. */
export const capOf = (settings: Pick<FeeSettings, 'max_discount_percent'>, totalFen: bigint): bigint =>
  (totalFen * BigInt(settings.max_discount_percent)) / 100n;

/**
 * The cashier's discount rule: none at all when the settings forbid it, else at most
 * max_discount_percent of the total (bills plus late fees), rounded down to the fen. Above the cap
 * only a manager (DISCOUNT_MANAGER_ROLES or admin) may discount, up to the whole total, or a
 * cashier whose request a manager approved (`approved`: discounts.ts, checked by the payment).
 */
export function checkDiscount(
  settings: Pick<FeeSettings, 'allow_discount' | 'max_discount_percent'>,
  discountFen: bigint,
  totalFen: bigint,
  roles: readonly string[],
  approved = false,
): void {
  if (discountFen <= 0n) return;
  if (settings.allow_discount !== 'Y') fail('本小区不允许在收银台优惠减免（含滞纳金减免），请将优惠金额改为 0');
  const max = capOf(settings, totalFen);
  if (discountFen > max && !approved && !hasAnyRole(roles, DISCOUNT_MANAGER_ROLES)) {
    fail(
      `优惠超过本小区收银员上限：应收合计（含滞纳金）的 ${settings.max_discount_percent}%，本次最多优惠 ${fenToYuan(max)} 元；` +
        '更大的优惠须由管理员或收费主管（收费设置、财务统计权限）办理，或在收银台「申请优惠审批」',
    );
  }
}

const feesettinginfo = defineMethod('feesettinginfo', {
  side: 'community',
  roles: FEE_ROLES.read,
  writes: false,
  summary: '收费设置：收据标题、收据备注、收据编号前缀、收银台是否允许优惠（减免滞纳金）及最高优惠比例、默认缴费日',
  async handler(ctx) {
    return feeSettings(ctx.db, ctx.rid);
  },
});

const feesettingedit = defineMethod('feesettingedit', {
  side: 'community',
  roles: ['setfees'],
  writes: true,
  summary: '保存收费设置（setfees 或管理员）；收据编号前缀只影响之后的收据',
  async handler(ctx, input) {
    const values = { ...input, updated_by: ctx.session.name, updated_at: new Date() };
    await ctx.db
      .insertInto('fee_settings')
      .values({ rid: ctx.rid, ...values })
      .onConflict((oc) => oc.column('rid').doUpdateSet(values))
      .execute();
    return reply(null, '保存成功');
  },
});

export const settingMethods = [feesettinginfo, feesettingedit];
