/**
 * 支付方式 (paytypelist, /setup/paytypelist on the group side; issue 45; docs/product.md#paytypelist):
 * the group's rules for each of the system's payment methods, kept in pay_type_rules (no row: the
 * defaults, payTypeDefaults). The counter reads them: it offers the enabled methods in their order
 * (paytypeoptions), and the one payment path (payBills) and 预存 refuse a disabled method or a
 * missing reference through `requirePayType`.
 */
import {
  enumText,
  PAY_TYPE,
  PAY_TYPE_KIND,
  PAY_TYPE_KIND_OF,
  PAY_TYPES,
  PAYTYPE_ROLES,
  payTypeDefaults,
  FEE_ROLES,
  type PayTypeItem,
  type PayTypeName,
  type PayTypeOption,
  type PayTypeRules,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { wireTime } from '../../lib/wire.js';

interface PayTypeRow extends PayTypeRules {
  pay_type: PayTypeName;
  remark: string;
  updated_at: Date | null;
}

/** Every method of the system with the group's rules (or the defaults), in the group's order. */
async function groupPayTypes(db: Kysely<DB>, groupId: number): Promise<PayTypeRow[]> {
  const rows = await db.selectFrom('pay_type_rules').selectAll().where('group_id', '=', groupId).execute();
  return PAY_TYPES.map((p): PayTypeRow => {
    const r = rows.find((x) => x.pay_type === p);
    if (!r) return { pay_type: p, ...payTypeDefaults(p), remark: '', updated_at: null };
    return {
      pay_type: p,
      enabled: r.enabled === 'Y' ? 'Y' : 'N',
      counted: r.counted === 'Y' ? 'Y' : 'N',
      ref_required: r.ref_required === 'Y' ? 'Y' : 'N',
      sort: r.sort,
      remark: r.remark,
      updated_at: r.updated_at,
    };
  }).sort((a, b) => a.sort - b.sort || PAY_TYPES.indexOf(a.pay_type) - PAY_TYPES.indexOf(b.pay_type));
}

/** The method's rules in the group: refuses a disabled one, and one that needs a reference without it. */
export async function requirePayType(db: Kysely<DB>, groupId: number, payType: PayTypeName, payRef: string | undefined): Promise<void> {
  const r = await db
    .selectFrom('pay_type_rules')
    .select(['enabled', 'ref_required'])
    .where('group_id', '=', groupId)
    .where('pay_type', '=', payType)
    .executeTakeFirst();
  const name = enumText(PAY_TYPE, payType);
  if (r?.enabled === 'N') fail(`支付方式“${name}”已停用，请选择其他支付方式`);
  if (r?.ref_required === 'Y' && !payRef) fail(`支付方式“${name}”须填写凭证号（如银行流水号）`);
}

/** The methods that count in 实收 in community `rid`'s group. */
export async function countedPayTypes(db: Kysely<DB>, rid: number): Promise<Set<PayTypeName>> {
  const region = await db.selectFrom('regions').select('group_id').where('id', '=', rid).executeTakeFirstOrThrow();
  return new Set((await groupPayTypes(db, region.group_id)).filter((r) => r.counted === 'Y').map((r) => r.pay_type));
}

const paytypelist = defineMethod('paytypelist', {
  side: 'group',
  roles: PAYTYPE_ROLES,
  writes: false,
  summary:
    '支付方式：系统的每种支付方式（线上、线下、抵扣）在集团的规则：是否启用、是否计入实收、是否须填凭证号、排序；支付方式不能删除，只能停用',
  async handler(ctx) {
    const rows = await groupPayTypes(ctx.db, ctx.session.groupId);
    const items: PayTypeItem[] = rows.map((r) => ({
      pay_type: r.pay_type,
      pay_type_ch: enumText(PAY_TYPE, r.pay_type),
      kind: PAY_TYPE_KIND_OF[r.pay_type],
      kind_ch: enumText(PAY_TYPE_KIND, PAY_TYPE_KIND_OF[r.pay_type]),
      enabled: r.enabled,
      counted: r.counted,
      ref_required: r.ref_required,
      sort: r.sort,
      remark: r.remark,
      update_time: r.updated_at ? wireTime(r.updated_at) : '',
    }));
    return { items };
  },
});

const paytypeedit = defineMethod('paytypeedit', {
  side: 'group',
  roles: PAYTYPE_ROLES,
  writes: true,
  summary: '设置一种支付方式的规则（启用、计入实收、须填凭证号、排序、备注）；至少保留一种启用的收款方式（余额抵扣除外）',
  async handler(ctx, input) {
    const groupId = ctx.session.groupId;
    // one edit at a time per group: the "one method left" rule reads the others
    await ctx.db.selectFrom('groups').select('id').where('id', '=', groupId).forUpdate().execute();
    if (input.enabled === 'N') {
      const others = (await groupPayTypes(ctx.db, groupId)).filter(
        (r) => r.pay_type !== input.pay_type && r.enabled === 'Y' && PAY_TYPE_KIND_OF[r.pay_type] !== 'deduction',
      );
      if (others.length === 0 && PAY_TYPE_KIND_OF[input.pay_type] !== 'deduction') fail('至少保留一种启用的收款方式（余额抵扣除外）');
    }
    const values = {
      enabled: input.enabled,
      counted: input.counted,
      ref_required: input.ref_required,
      sort: input.sort,
      remark: input.remark,
      updated_at: sql<Date>`now()`,
      updated_by: ctx.session.accountId,
    };
    await ctx.db
      .insertInto('pay_type_rules')
      .values({ ...values, group_id: groupId, pay_type: input.pay_type })
      .onConflict((oc) => oc.columns(['group_id', 'pay_type']).doUpdateSet(values))
      .execute();
    return reply({ pay_type: input.pay_type }, '保存成功');
  },
});

const paytypeoptions = defineMethod('paytypeoptions', {
  side: 'community',
  roles: [...new Set([...FEE_ROLES.cashier, ...FEE_ROLES.quickpay, ...FEE_ROLES.payments])],
  writes: false,
  summary: '收银台可用的支付方式：集团启用的支付方式及其规则（是否计入实收、是否须填凭证号），按集团的排序',
  async handler(ctx) {
    const rows = await groupPayTypes(ctx.db, ctx.session.groupId);
    const items: PayTypeOption[] = rows
      .filter((r) => r.enabled === 'Y')
      .map((r) => ({
        pay_type: r.pay_type,
        pay_type_ch: enumText(PAY_TYPE, r.pay_type),
        kind: PAY_TYPE_KIND_OF[r.pay_type],
        counted: r.counted,
        ref_required: r.ref_required,
      }));
    return { items };
  },
});

/** the group's own (leader module) */
export const payTypeMethods = [paytypelist, paytypeedit];
/** the counter's, in the fees module */
export const payTypeCounterMethods = [paytypeoptions];
