/**
 * Temporary-car fee standards (临时车收费标准, /carpark/tempfee; docs/product.md#temporary-car-fees):
 * one standard per lot and car kind, each edit a new version effective from a time; `priceStay`,
 * which the entries and exits will call, prices a stay with the version in force at its entry
 * (the pure function of contract/src/carpark/tempFee.ts) and answers the version's id to keep on
 * the stay; and the "what if" calculator.
 */
import {
  CAR_TYPE,
  enumText,
  fenToYuan,
  toFen,
  zoneOffsetMinutes,
  priceTempFee,
  tempFeeSummary,
  type CarType,
  type TempFeeBreakdown,
  type TempFeeCoupon,
  type TempFeeRule,
  type TempFeeStandardItem,
  type TempFeeVersion,
} from '@wuye/contract';
import { TEMP_FEE_ROLES } from '@wuye/contract/carpark/tempFeeConfig';
import { sql, type Kysely } from 'kysely';
import { businessTimeZone } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { couponKindsOf } from './couponUse.js';
import { lotOf } from './lots.js';

registerDependents({ parking_fee_standards: '临时车收费标准', parking_fee_versions: '收费标准版本' });

/** The columns of a version as the pricing and the wire read them (money as text). */
export const versionColumns = (db: Kysely<DB>) =>
  db
    .selectFrom('parking_fee_versions as v')
    .leftJoin('accounts as a', 'a.id', 'v.created_by')
    .select([
      'v.id',
      'v.standard_id',
      'v.effective_from',
      'v.free_minutes',
      'v.first_minutes',
      'v.step_minutes',
      'v.band',
      'v.peak_start',
      'v.peak_end',
      'v.holidays',
      'v.remark',
      'v.created_at',
    ])
    .select([
      sql<string>`v.first_price::text`.as('first_price'),
      sql<string>`v.step_price::text`.as('step_price'),
      sql<string>`v.cap_amount::text`.as('cap_amount'),
      sql<string>`v.off_first_price::text`.as('off_first_price'),
      sql<string>`v.off_step_price::text`.as('off_step_price'),
      sql<string>`coalesce(a.name, '')`.as('create_user'),
    ]);

type VersionRow = Awaited<ReturnType<ReturnType<typeof versionColumns>['execute']>>[number];

export const toRule = (v: VersionRow): TempFeeRule => ({
  free_minutes: v.free_minutes,
  first_minutes: v.first_minutes,
  first_price: v.first_price,
  step_minutes: v.step_minutes,
  step_price: v.step_price,
  cap_amount: v.cap_amount,
  band: v.band,
  peak_start: v.peak_start,
  peak_end: v.peak_end,
  off_first_price: v.off_first_price,
  off_step_price: v.off_step_price,
  holidays: v.holidays,
});

const toVersion = (v: VersionRow, currentId: number): TempFeeVersion => ({
  ...toRule(v),
  id: Number(v.id),
  standard_id: Number(v.standard_id),
  effective_from: wireTime(v.effective_from),
  current: Number(v.id) === currentId,
  holidays: [...v.holidays],
  remark: v.remark,
  summary: tempFeeSummary(v),
  create_user: v.create_user,
  create_time: wireTime(v.created_at),
});

/**
 * The version of a standard in force at `at`: the latest that started by then; a time before the
 * first version (a car already inside when the standard was made) takes the first.
 */
export async function versionAt(db: Kysely<DB>, rid: number, standardId: number, at: Date): Promise<VersionRow | undefined> {
  const started = await versionColumns(db)
    .where('v.rid', '=', rid)
    .where('v.standard_id', '=', standardId)
    .where('v.effective_from', '<=', at)
    .orderBy('v.effective_from', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (started) return started;
  return versionColumns(db)
    .where('v.rid', '=', rid)
    .where('v.standard_id', '=', standardId)
    .orderBy('v.effective_from', 'asc')
    .limit(1)
    .executeTakeFirst();
}

export interface PricedStay extends TempFeeBreakdown {
  standard_id: number;
  /** the version used: keep it on the stay */
  version_id: number;
  version_from: string;
}

/**
 * Prices a stay of a lot's car kind from entry to exit with the version in force at the entry.
 * `paidBefore` (fen, as text: what an earlier payment of the same stay took) is taken off the due
 * and answered as `paid`. Refuses (BizError) when the lot has no standard for the kind, or the
 * times or coupons are wrong.
 */
export async function priceStay(
  db: Kysely<DB>,
  input: {
    rid: number;
    lotId: number;
    carType: CarType;
    entry: Date;
    exit: Date;
    /** the stay's entry when `entry` is later (a stay billed again from its last payment keeps its version) */
    versionAt?: Date;
    paidBefore?: string;
    coupons?: readonly TempFeeCoupon[];
  },
): Promise<PricedStay> {
  const standard = await db
    .selectFrom('parking_fee_standards')
    .select('id')
    .where('rid', '=', input.rid)
    .where('lot_id', '=', input.lotId)
    .where('car_type', '=', input.carType)
    .executeTakeFirst();
  if (!standard) fail(`该停车场未配置${enumText(CAR_TYPE, input.carType)}的临时车收费标准`);
  const version = (await versionAt(db, input.rid, Number(standard.id), input.versionAt ?? input.entry))!;
  let b: TempFeeBreakdown;
  try {
    b = priceTempFee(toRule(version), wireTime(input.entry), wireTime(input.exit), input.coupons ?? []);
  } catch (e) {
    return fail(e instanceof Error ? e.message : '计费失败');
  }
  if (input.paidBefore) {
    // a second payment of a stay owes what the first did not cover, never below zero
    const left = toFen(b.due) - toFen(input.paidBefore);
    b = { ...b, paid: fenToYuan(toFen(input.paidBefore)), due: fenToYuan(left > 0n ? left : 0n) };
  }
  return { ...b, standard_id: Number(standard.id), version_id: Number(version.id), version_from: wireTime(version.effective_from) };
}

/** The standards' rows with the version in force now. */
function standards(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('parking_fee_standards as s')
    .innerJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 's.rid').onRef('l.id', '=', 's.lot_id'))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('parking_fee_versions as v')
          .select(['v.id as version_id'])
          .whereRef('v.rid', '=', 's.rid')
          .whereRef('v.standard_id', '=', 's.id')
          // the latest started; when none has started yet, the first
          .orderBy(sql`v.effective_from <= now()`, 'desc')
          .orderBy(sql`CASE WHEN v.effective_from <= now() THEN v.effective_from END`, (ob) => ob.desc().nullsLast())
          .orderBy('v.effective_from', 'asc')
          .limit(1)
          .as('cur'),
      (j) => j.onTrue(),
    )
    .select(['s.id', 's.lot_id', 's.car_type', 'l.title as lot_title', 'cur.version_id'])
    .select((eb) => [
      eb
        .selectFrom('parking_fee_versions as n')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('n.rid', '=', 's.rid')
        .whereRef('n.standard_id', '=', 's.id')
        .as('version_count'),
      eb
        .selectFrom('parking_fee_versions as f')
        .select(sql<Date>`min(f.effective_from)`.as('f'))
        .whereRef('f.rid', '=', 's.rid')
        .whereRef('f.standard_id', '=', 's.id')
        .where('f.effective_from', '>', sql<Date>`now()`)
        .as('next_from'),
    ])
    .where('s.rid', '=', rid);
}

async function standardItems(
  db: Kysely<DB>,
  rid: number,
  rows: Array<{
    id: number;
    lot_id: number;
    car_type: string;
    lot_title: string;
    version_id: number;
    version_count: number | null;
    next_from: Date | null;
  }>,
): Promise<TempFeeStandardItem[]> {
  if (rows.length === 0) return [];
  const versions = await versionColumns(db)
    .where('v.rid', '=', rid)
    .where(
      'v.id',
      'in',
      rows.map((r) => Number(r.version_id)),
    )
    .execute();
  const byId = new Map(versions.map((v) => [Number(v.id), v]));
  return rows.map((r) => {
    const v = toVersion(byId.get(Number(r.version_id))!, Number(r.version_id));
    const { id: _v, standard_id: _s, current: _c, ...rule } = v;
    return {
      ...rule,
      id: Number(r.id),
      lot_id: Number(r.lot_id),
      lot_title: r.lot_title,
      car_type: r.car_type as CarType,
      car_type_ch: enumText(CAR_TYPE, r.car_type),
      version_id: Number(r.version_id),
      version_count: r.version_count ?? 1,
      next_from: wireTime(r.next_from),
    };
  });
}

type RuleInput = Omit<TempFeeRule, 'holidays'> & { holidays: string[]; remark: string };

const versionValues = (input: RuleInput) => ({
  free_minutes: input.free_minutes,
  first_minutes: input.first_minutes,
  first_price: input.first_price,
  step_minutes: input.step_minutes,
  step_price: input.step_price,
  cap_amount: input.cap_amount,
  band: input.band,
  peak_start: input.peak_start,
  peak_end: input.peak_end,
  // with bands off, the off-peak prices are the day's: what the version says is what it charges
  off_first_price: input.band === 'Y' ? input.off_first_price : input.first_price,
  off_step_price: input.band === 'Y' ? input.off_step_price : input.step_price,
  holidays: [...new Set(input.holidays)].sort(),
  remark: input.remark,
});

const tempfeeconfiglist = defineMethod('tempfeeconfiglist', {
  side: 'community',
  roles: TEMP_FEE_ROLES,
  writes: false,
  summary:
    '临时车收费标准列表：每个停车场、每种车辆类型一个标准，显示现行版本的规则（免费分钟、首段、续段、24小时封顶、高峰/平峰）、版本数与待生效版本；可按停车场、车辆类型筛选',
  async handler(ctx, input) {
    let qb = standards(ctx.db, ctx.rid);
    if (input.lot_id) qb = qb.where('s.lot_id', '=', input.lot_id);
    if (input.car_type) qb = qb.where('s.car_type', '=', input.car_type);
    const page = await listPage(qb, input, 's.id');
    return { total: page.total, items: await standardItems(ctx.db, ctx.rid, page.items) };
  },
});

const tempfeeconfiginfo = defineMethod('tempfeeconfiginfo', {
  side: 'community',
  roles: TEMP_FEE_ROLES,
  writes: false,
  summary: '临时车收费标准详情：现行规则与全部版本（生效时间、规则、创建人），旧版本保留可查',
  async handler(ctx, input) {
    const row = await standards(ctx.db, ctx.rid).where('s.id', '=', input.id).executeTakeFirst();
    if (!row) return fail('临时车收费标准不存在');
    const [item] = await standardItems(ctx.db, ctx.rid, [row]);
    const versions = await versionColumns(ctx.db)
      .where('v.rid', '=', ctx.rid)
      .where('v.standard_id', '=', input.id)
      .orderBy('v.effective_from', 'desc')
      .execute();
    return { ...item!, versions: versions.map((v) => toVersion(v, Number(row.version_id))) };
  },
});

const tempfeeconfigadd = defineMethod('tempfeeconfigadd', {
  side: 'community',
  roles: TEMP_FEE_ROLES,
  writes: true,
  summary: '新增临时车收费标准（停车场 + 车辆类型唯一），第一个版本即刻生效（此前已入场的车也按它计费）',
  async handler(ctx, input) {
    const lot = await lotOf(ctx, input.lot_id);
    const dup = await ctx.db
      .selectFrom('parking_fee_standards')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('lot_id', '=', input.lot_id)
      .where('car_type', '=', input.car_type)
      .executeTakeFirst();
    if (dup) fail(`${lot.title}已有${enumText(CAR_TYPE, input.car_type)}的收费标准，请修改它（修改会生成新版本）`);
    const { id } = await ctx.db
      .insertInto('parking_fee_standards')
      .values({ rid: ctx.rid, lot_id: input.lot_id, car_type: input.car_type, created_by: ctx.session.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('parking_fee_versions')
      .values({
        rid: ctx.rid,
        standard_id: id,
        effective_from: sql<Date>`now()`,
        ...versionValues(input),
        created_by: ctx.session.accountId,
      })
      .execute();
    return reply({ id: Number(id) }, '添加成功');
  },
});

const tempfeeconfigedit = defineMethod('tempfeeconfigedit', {
  side: 'community',
  roles: TEMP_FEE_ROLES,
  writes: true,
  summary:
    '修改临时车收费标准：生成新版本，自生效时间起计费（默认现在；不能早于现在，也不能早于最新版本）；旧版本不变、保留可查，已入场的车仍按入场时的版本计费',
  async handler(ctx, input) {
    const standard = await ctx.db
      .selectFrom('parking_fee_standards')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!standard) return fail('临时车收费标准不存在');
    const { now } = await sql<{ now: Date }>`SELECT now() AS now`.execute(ctx.db).then((r) => r.rows[0]!);
    const from = input.effective_from ? parseWire(input.effective_from) : now;
    // a minute of slack: the form's "now" was read a moment before the call
    if (from.getTime() < now.getTime() - 60_000) fail('生效时间不能早于现在：已发生的停车按当时的版本计费，不能改写');
    const latest = await ctx.db
      .selectFrom('parking_fee_versions')
      .select('effective_from')
      .where('rid', '=', ctx.rid)
      .where('standard_id', '=', input.id)
      .orderBy('effective_from', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    if (from.getTime() <= latest.effective_from.getTime()) fail(`生效时间须晚于最新版本的生效时间（${wireTime(latest.effective_from)}）`);
    const { id } = await ctx.db
      .insertInto('parking_fee_versions')
      .values({ rid: ctx.rid, standard_id: input.id, effective_from: from, ...versionValues(input), created_by: ctx.session.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply({ id: input.id, version_id: Number(id) }, '保存成功');
  },
});

const tempfeeconfigdel = defineMethod('tempfeeconfigdel', {
  side: 'community',
  roles: TEMP_FEE_ROLES,
  writes: true,
  summary: '删除临时车收费标准及其全部版本（已有停车记录按某版本计费时拒绝）',
  async handler(ctx, input) {
    const standard = await ctx.db
      .selectFrom('parking_fee_standards')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!standard) return fail('临时车收费标准不存在');
    await ctx.db.deleteFrom('parking_fee_versions').where('rid', '=', ctx.rid).where('standard_id', '=', input.id).execute();
    await ctx.db.deleteFrom('parking_fee_standards').where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    return reply(null, '删除成功');
  },
});

const OFFSET_MS = zoneOffsetMinutes(businessTimeZone()) * 60_000;

/** 'YYYY-MM-DD HH:mm:ss' of the business time zone (a fixed offset) -> Date. */
export function parseWire(t: string): Date {
  const ms = Date.UTC(+t.slice(0, 4), +t.slice(5, 7) - 1, +t.slice(8, 10), +t.slice(11, 13), +t.slice(14, 16), +t.slice(17, 19));
  return new Date(ms - OFFSET_MS);
}

const tempfeecalc = defineMethod('tempfeecalc', {
  side: 'community',
  roles: TEMP_FEE_ROLES,
  writes: false,
  summary:
    '临时车计费试算：按停车场、车辆类型、入场与出场时间（及可选的本停车场停车劵）用入场时生效的版本计费，返回明细：免费时长、首段、超时、封顶减免、各停车劵的减免、应付',
  async handler(ctx, input) {
    const lot = await lotOf(ctx, input.lot_id);
    const coupons = await couponKindsOf(ctx.db, ctx.rid, input.lot_id, input.coupon_ids);
    const priced = await priceStay(ctx.db, {
      rid: ctx.rid,
      lotId: input.lot_id,
      carType: input.car_type,
      entry: parseWire(input.entry_time),
      exit: parseWire(input.exit_time),
      coupons,
    });
    return {
      ...priced,
      lot_title: lot.title,
      car_type_ch: enumText(CAR_TYPE, input.car_type),
      coupon_titles: coupons.map((c) => c.title ?? ''),
    };
  },
});

export const tempFeeMethods = [tempfeeconfiglist, tempfeeconfiginfo, tempfeeconfigadd, tempfeeconfigedit, tempfeeconfigdel, tempfeecalc];
