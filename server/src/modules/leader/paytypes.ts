/**
 * 支付方式 (paytypelist, /setup/paytypelist on the group side; issue 45; docs/product.md#paytypelist):
 * the group's rules for each of the system's payment methods, kept in pay_type_rules (no row: the
 * defaults, payTypeDefaults), and the group's own ways on an offline base (pay_methods). The
 * counter reads them: it offers the enabled ways in their order (paytypeoptions), and the one
 * payment path (payBills) and 预存 refuse a disabled way or a missing reference through
 * `requirePayType`, which also marks an own way used (it can no longer be deleted).
 */
import {
  enumText,
  PAY_TYPE,
  PAY_TYPE_KIND,
  PAY_TYPE_KIND_OF,
  PAY_TYPE_CH,
  PAY_TYPES,
  PAYTYPE_ROLES,
  payTypeSchemas,
  payTypeDefaults,
  CARD_ROLES,
  FEE_ROLES,
  type PayMethodBase,
  type PayMethodItem,
  type PayTypeItem,
  type PayTypeName,
  type PayTypeOption,
  type PayTypeRules,
} from '@wuye/contract';
import { CARPARK_ROLES } from '@wuye/contract/carpark/roles';
import { METER_ROLES } from '@wuye/contract/meters/roles';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
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

/** The group's own ways, in its order. */
async function groupPayMethods(db: Kysely<DB>, groupId: number) {
  return db.selectFrom('pay_methods').selectAll().where('group_id', '=', groupId).orderBy('sort').orderBy('id').execute();
}

/** The group's system methods with their rules and its own ways, each own way with its base's 计入实收 (it counts as its base). */
async function groupWays(db: Kysely<DB>, groupId: number) {
  const [rows, own] = await Promise.all([groupPayTypes(db, groupId), groupPayMethods(db, groupId)]);
  const counted = new Map(rows.map((r) => [r.pay_type, r.counted]));
  const methods = own.map((m) => {
    const base = m.base as PayMethodBase;
    return {
      ...m,
      base,
      enabled: m.enabled === 'Y' ? ('Y' as const) : ('N' as const),
      ref_required: m.ref_required === 'Y' ? ('Y' as const) : ('N' as const),
      counted: counted.get(base) ?? ('Y' as const),
    };
  });
  return { rows, methods };
}

/** A way's own refusals, the same for a system method and an own way. */
function refuseByRules(name: string, rules: { enabled?: string; ref_required?: string } | undefined, payRef: string | undefined): void {
  if (rules?.enabled === 'N') fail(`支付方式“${name}”已停用，请选择其他支付方式`);
  if (rules?.ref_required === 'Y' && !payRef) fail(`支付方式“${name}”须填写凭证号（如银行流水号）`);
}

/** The way a payment is taken by: a system method, or the group's own way on it (its id and name as printed). */
export interface PayMethodUsed {
  id: number | null;
  name: string;
}

/**
 * The way's rules in the group: refuses a disabled one, and one that needs a reference without it.
 * An own way must be the group's and on `payType`; it is marked used in the caller's transaction,
 * and its row is share-locked so a concurrent delete waits and then finds it used.
 */
export async function requirePayType(
  db: Kysely<DB>,
  groupId: number,
  payType: PayTypeName,
  payRef: string | undefined,
  methodId?: number | undefined,
): Promise<PayMethodUsed> {
  if (methodId) {
    const m = await db
      .selectFrom('pay_methods')
      .select(['name', 'base', 'enabled', 'ref_required', 'used_at'])
      .where('id', '=', methodId)
      .where('group_id', '=', groupId)
      .forKeyShare()
      .executeTakeFirst();
    if (!m) fail('支付方式不存在');
    if (m.base !== payType) fail(`支付方式“${m.name}”属于${PAY_TYPE_CH[m.base as PayMethodBase]}，与所选方式不符`);
    refuseByRules(m.name, m, payRef);
    if (!m.used_at)
      await db
        .updateTable('pay_methods')
        .set({ used_at: sql`now()` })
        .where('id', '=', methodId)
        .where('used_at', 'is', null)
        .execute();
    return { id: methodId, name: m.name };
  }
  const r = await db
    .selectFrom('pay_type_rules')
    .select(['enabled', 'ref_required'])
    .where('group_id', '=', groupId)
    .where('pay_type', '=', payType)
    .executeTakeFirst();
  refuseByRules(enumText(PAY_TYPE, payType), r, payRef);
  return { id: null, name: '' };
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
    '支付方式：系统的每种支付方式（线上、线下、抵扣）在集团的规则：是否启用、是否计入实收、是否须填凭证号、排序（系统方式不能删除，只能停用）；集团自定义的支付方式（所属方式、名称、启用、须填凭证号、排序、是否已使用）',
  async handler(ctx) {
    const { rows, methods: own } = await groupWays(ctx.db, ctx.session.groupId);
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
    const methods: PayMethodItem[] = own.map((m) => ({
      id: m.id,
      name: m.name,
      base: m.base,
      base_ch: PAY_TYPE_CH[m.base],
      enabled: m.enabled,
      counted: m.counted,
      ref_required: m.ref_required,
      sort: m.sort,
      remark: m.remark,
      used: m.used_at !== null,
      update_time: wireTime(m.updated_at),
    }));
    return { items, methods };
  },
});

/** Refuses to leave the group's counters without a way to take money (the balance aside): `except` is being disabled or deleted. */
async function keepOneEnabled(db: Kysely<DB>, groupId: number, except: { payType?: PayTypeName; methodId?: number }): Promise<void> {
  const { rows: rules, methods: own } = await groupWays(db, groupId);
  const left =
    rules.filter((r) => r.pay_type !== except.payType && r.enabled === 'Y' && PAY_TYPE_KIND_OF[r.pay_type] !== 'deduction').length +
    own.filter((m) => m.id !== except.methodId && m.enabled === 'Y').length;
  if (left === 0) fail('至少保留一种启用的收款方式（余额抵扣除外）');
}

/** Serialises the group's payment-method edits: the "one way left" rule reads the others. */
async function lockGroup(db: Kysely<DB>, groupId: number): Promise<void> {
  await db.selectFrom('groups').select('id').where('id', '=', groupId).forUpdate().execute();
}

const paytypeedit = defineMethod('paytypeedit', {
  side: 'group',
  roles: PAYTYPE_ROLES,
  writes: true,
  summary: '设置一种支付方式的规则（启用、计入实收、须填凭证号、排序、备注）；至少保留一种启用的收款方式（余额抵扣除外）',
  async handler(ctx, input) {
    const groupId = ctx.session.groupId;
    await lockGroup(ctx.db, groupId);
    if (input.enabled === 'N' && PAY_TYPE_KIND_OF[input.pay_type] !== 'deduction')
      await keepOneEnabled(ctx.db, groupId, { payType: input.pay_type });
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
  // the counters that take money by the group's ways: the fee cashier's forms, 会员卡充值, 月租续费 and 表计充值
  roles: [
    ...new Set([
      ...FEE_ROLES.cashier,
      ...FEE_ROLES.quickpay,
      ...FEE_ROLES.payments,
      ...CARD_ROLES.recharge,
      ...CARPARK_ROLES.staff,
      ...METER_ROLES.recharge,
    ]),
  ],
  writes: false,
  summary: '收银台可用的支付方式：集团启用的支付方式及其规则（是否计入实收、是否须填凭证号），按集团的排序',
  async handler(ctx) {
    const { rows, methods: own } = await groupWays(ctx.db, ctx.session.groupId);
    const system = rows
      .filter((r) => r.enabled === 'Y')
      .map((r) => ({
        sort: r.sort,
        option: {
          key: r.pay_type,
          pay_type: r.pay_type,
          method_id: 0,
          pay_type_ch: enumText(PAY_TYPE, r.pay_type),
          kind: PAY_TYPE_KIND_OF[r.pay_type],
          counted: r.counted,
          ref_required: r.ref_required,
        } satisfies PayTypeOption,
      }));
    const ownWays = own
      .filter((m) => m.enabled === 'Y')
      .map((m) => ({
        sort: m.sort,
        option: {
          key: `m${m.id}`,
          pay_type: m.base,
          method_id: m.id,
          pay_type_ch: m.name,
          kind: PAY_TYPE_KIND_OF[m.base],
          counted: m.counted,
          ref_required: m.ref_required,
        } satisfies PayTypeOption,
      }));
    // one order for both: the group's sort, a system way before an own one at the same number (a stable sort)
    const items = [...system, ...ownWays].sort((a, b) => a.sort - b.sort).map((x) => x.option);
    return { items };
  },
});

const paymethodadd = defineMethod('paymethodadd', {
  side: 'group',
  roles: PAYTYPE_ROLES,
  writes: true,
  summary:
    '新增集团自定义支付方式：名称（集团内唯一，不与系统方式同名）、所属方式（现金、银行卡、银行转账）、启用、须填凭证号、排序；按所属方式统计和计入实收',
  async handler(ctx, input) {
    await lockGroup(ctx.db, ctx.session.groupId);
    await uniqueName(ctx.db, ctx.session.groupId, input.name, 0);
    const row = await ctx.db
      .insertInto('pay_methods')
      .values({ group_id: ctx.session.groupId, ...methodValues(input, ctx.session.accountId) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id: row.id }, '新增成功');
  },
});

/** What the page sets of an own way. */
const methodValues = (input: z.output<(typeof payTypeSchemas)['paymethodadd']>, accountId: number) => ({
  name: input.name,
  base: input.base,
  enabled: input.enabled,
  ref_required: input.ref_required,
  sort: input.sort,
  remark: input.remark,
  updated_by: accountId,
});

/** An own way's name is unique in the group. */
async function uniqueName(db: Kysely<DB>, groupId: number, name: string, exceptId: number): Promise<void> {
  const same = await db
    .selectFrom('pay_methods')
    .select('id')
    .where('group_id', '=', groupId)
    .where('name', '=', name)
    .where('id', '<>', exceptId)
    .executeTakeFirst();
  if (same) fail(`支付方式“${name}”已存在`);
}

/** The group's own way `id`, locked for the edit (the group's methods first: the "one way left" rule); refuses another group's. */
async function ownMethod(db: Kysely<DB>, groupId: number, id: number) {
  await lockGroup(db, groupId);
  const m = await db
    .selectFrom('pay_methods')
    .selectAll()
    .where('id', '=', id)
    .where('group_id', '=', groupId)
    .forUpdate()
    .executeTakeFirst();
  if (!m) fail('支付方式不存在');
  return m;
}

const paymethodedit = defineMethod('paymethodedit', {
  side: 'group',
  roles: PAYTYPE_ROLES,
  writes: true,
  summary: '修改集团自定义支付方式；已使用的不能改所属方式（收据已按它统计），可以改名（已开收据仍印原名）或停用',
  async handler(ctx, input) {
    const groupId = ctx.session.groupId;
    const m = await ownMethod(ctx.db, groupId, input.id);
    if (m.used_at && m.base !== input.base) fail(`支付方式“${m.name}”已有收款记录，不能修改所属方式`);
    await uniqueName(ctx.db, groupId, input.name, m.id);
    if (input.enabled === 'N' && m.enabled === 'Y') await keepOneEnabled(ctx.db, groupId, { methodId: m.id });
    await ctx.db
      .updateTable('pay_methods')
      .set({ ...methodValues(input, ctx.session.accountId), updated_at: sql<Date>`now()` })
      .where('id', '=', m.id)
      .execute();
    return reply({ id: m.id }, '保存成功');
  },
});

const paymethoddel = defineMethod('paymethoddel', {
  side: 'group',
  roles: PAYTYPE_ROLES,
  writes: true,
  summary: '删除集团自定义支付方式：仅限从未用于收款或预存的；已使用的只能停用',
  async handler(ctx, input) {
    const groupId = ctx.session.groupId;
    const m = await ownMethod(ctx.db, groupId, input.id);
    if (m.used_at) fail(`支付方式“${m.name}”已有收款记录，不能删除，只能停用`);
    if (m.enabled === 'Y') await keepOneEnabled(ctx.db, groupId, { methodId: m.id });
    await ctx.db.deleteFrom('pay_methods').where('id', '=', m.id).execute();
    return reply({ id: m.id }, '删除成功');
  },
});

/** the group's own (leader module) */
export const payTypeMethods = [paytypelist, paytypeedit, paymethodadd, paymethodedit, paymethoddel];
/** the counter's, in the fees module */
export const payTypeCounterMethods = [paytypeoptions];
