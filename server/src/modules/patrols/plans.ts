/**
 * 巡更计划 (docs/product.md#patrols; contract/src/patrols/plans.ts): list, delete and the small
 * list from the description; add, edit and info carry the route and the guards. A guard is not
 * booked twice in overlapping windows of enabled plans whose validity overlaps.
 */
import {
  enumText,
  PLAN_CYCLE,
  patrolPlan,
  windowsOverlap,
  WEEKDAY_CH,
  type PatrolPlanDetail,
  type PatrolPlanItem,
  type PlanCycle,
  type RoutePoint,
  type ShiftWindow,
} from '@wuye/contract';
import { PATROL_ROLES } from '@wuye/contract/patrols/roles';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { accountCodes } from '../../http/authenticate.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { defineResource } from '../../lib/resource.js';
import { orderStaff } from '../steward/internalOrders.js';
import type { methodSchemas } from '@wuye/contract';

type PlanInput = z.output<(typeof methodSchemas)['patrolplanadd']>;

/** The community's enabled staff holding the security role (admin alone is not a guard), optionally only those given. */
export async function guardStaff(db: Kysely<DB>, rid: number, ids?: readonly number[]) {
  let qb = db
    .selectFrom('accounts as a')
    .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
    .select(['a.id', 'a.name'])
    .select(accountCodes(sql`a.id`, sql`a.roles`, sql`${rid}::int`).as('codes'))
    .where('ar.rid', '=', rid)
    .where('a.sys_type', '=', 'property')
    .where('a.status', '=', 'Y');
  if (ids) qb = qb.where('a.id', 'in', ids.length ? [...ids] : [0]);
  const rows = await qb.orderBy('a.id').execute();
  return rows.filter((r) => r.codes.includes('security')).map((r) => ({ id: Number(r.id), name: r.name }));
}

export const cycleText = (cycle: PlanCycle, days: readonly number[]): string => {
  if (cycle === 'W') return `每周${days.map((d) => WEEKDAY_CH[d - 1] ?? '').join('、')}`;
  if (cycle === 'M') return `每月${days.join('、')}日`;
  return enumText(PLAN_CYCLE, cycle);
};
export const shiftsText = (shifts: readonly ShiftWindow[]) => shifts.map((s) => `${s.start}-${s.end}`).join('、');

export function planQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('patrol_plans as t')
    .selectAll('t')
    .select(sql<string>`to_char(t.start_date, 'YYYY-MM-DD')`.as('start_day'))
    .select(sql<string>`to_char(t.end_date, 'YYYY-MM-DD')`.as('end_day'))
    .select(sql<number>`(SELECT count(*)::int FROM patrol_plan_points p WHERE p.rid = t.rid AND p.plan_id = t.id)`.as('point_count'))
    .select(
      sql<string>`coalesce((SELECT string_agg(pt.name, ' → ' ORDER BY p.sort) FROM patrol_plan_points p
        JOIN patrol_points pt ON pt.rid = p.rid AND pt.id = p.point_id WHERE p.rid = t.rid AND p.plan_id = t.id), '')`.as('route_text'),
    )
    .select(
      sql<string>`coalesce((SELECT string_agg(a.name, '、' ORDER BY a.id) FROM patrol_plan_guards g
        JOIN accounts a ON a.id = g.account_id WHERE g.rid = t.rid AND g.plan_id = t.id), '')`.as('guard_names'),
    )
    .where('t.rid', '=', rid);
}

export function toPlanRow(r: Record<string, unknown>): PatrolPlanItem {
  const shifts = r.shifts as ShiftWindow[];
  const cycle = r.cycle as PlanCycle;
  const days = (r.cycle_days as number[]).map(Number);
  return {
    ...(r as unknown as PatrolPlanItem),
    id: Number(r.id),
    start_date: String(r.start_day),
    end_date: String(r.end_day),
    cycle_days: days,
    cycle_text: cycleText(cycle, days),
    shifts_text: shiftsText(shifts),
    order_handler_id: r.order_handler_id === null ? null : Number(r.order_handler_id),
    created_by: undefined,
    start_day: undefined,
    end_day: undefined,
  } as PatrolPlanItem;
}

/** The business rules of a plan's add and edit (`id` the plan edited). */
async function checkPlan(ctx: CommunityCtx, v: PlanInput, id: number): Promise<void> {
  for (let i = 0; i < v.shifts.length; i++) {
    const s = v.shifts[i]!;
    if (s.start === s.end) fail(`班次时段 ${s.start}-${s.end} 的开始与结束相同`);
    for (let j = 0; j < i; j++)
      if (windowsOverlap(s, v.shifts[j]!)) fail(`班次时段 ${shiftsText([v.shifts[j]!])} 与 ${shiftsText([s])} 重叠`);
  }
  if (v.cycle === 'M' && v.cycle_days.some((d) => d < 1 || d > 31)) fail('日期应为 1 到 31');
  const pointIds = v.points.map((p) => p.point_id);
  if (new Set(pointIds).size !== pointIds.length) fail('路线中有重复的巡更点');
  const points = await ctx.db
    .selectFrom('patrol_points')
    .select(['id', 'status', 'name'])
    .where('rid', '=', ctx.rid)
    .where('id', 'in', pointIds)
    .execute();
  if (points.length !== pointIds.length) fail('所选巡更点不存在');
  const off = points.find((p) => p.status !== 'Y');
  if (off) fail(`巡更点「${off.name}」已停用`);
  const guardIds = [...new Set(v.guard_ids)];
  const guards = await guardStaff(ctx.db, ctx.rid, guardIds);
  if (guards.length !== guardIds.length) fail('所选巡更人员不存在、已停用或没有安保巡更权限');
  if (v.abnormal_order === 'Y') {
    if (!v.order_handler_id || (await orderStaff(ctx.db, ctx.rid, [v.order_handler_id])).length !== 1)
      fail('所选工单处理人不存在、已停用或没有内部工单权限');
  }
  if (v.status !== 'Y') return;
  // not booked twice: another enabled plan of the guard, valid on a common day, with a window overlapping
  const others = await ctx.db
    .selectFrom('patrol_plan_guards as g')
    .innerJoin('patrol_plans as p', (j) => j.onRef('p.rid', '=', 'g.rid').onRef('p.id', '=', 'g.plan_id'))
    .innerJoin('accounts as a', 'a.id', 'g.account_id')
    .select(['p.name', 'p.shifts', 'a.name as guard_name'])
    .where('g.rid', '=', ctx.rid)
    .where('g.account_id', 'in', guardIds)
    .where('p.id', '<>', id)
    .where('p.status', '=', 'Y')
    .where('p.start_date', '<=', v.end_date)
    .where('p.end_date', '>=', v.start_date)
    .orderBy('p.id')
    .execute();
  for (const o of others) {
    for (const theirs of o.shifts as ShiftWindow[]) {
      for (const mine of v.shifts) {
        if (windowsOverlap(mine, theirs))
          fail(
            `${o.guard_name} 已在巡更计划「${o.name}」的 ${shiftsText([theirs])} 班次，与本计划 ${shiftsText([mine])} 重叠，不能重复安排`,
          );
      }
    }
  }
}

const planColumns = (v: PlanInput) => ({
  name: v.name,
  in_order: v.in_order,
  cycle: v.cycle,
  cycle_days: v.cycle === 'W' || v.cycle === 'M' ? [...new Set(v.cycle_days)].sort((a, b) => a - b) : [],
  start_date: v.start_date,
  end_date: v.end_date,
  shifts: JSON.stringify(v.shifts),
  ahead_minutes: v.ahead_minutes,
  makeup_hours: v.makeup_hours,
  abnormal_order: v.abnormal_order,
  order_handler_id: v.abnormal_order === 'Y' ? (v.order_handler_id ?? null) : null,
  status: v.status,
  remark: v.remark,
});

async function writeRoute(ctx: CommunityCtx, planId: number, points: readonly RoutePoint[], guardIds: readonly number[]) {
  await ctx.db.deleteFrom('patrol_plan_points').where('rid', '=', ctx.rid).where('plan_id', '=', planId).execute();
  await ctx.db.deleteFrom('patrol_plan_guards').where('rid', '=', ctx.rid).where('plan_id', '=', planId).execute();
  await ctx.db
    .insertInto('patrol_plan_points')
    .values(
      points.map((p, i) => ({
        rid: ctx.rid,
        plan_id: planId,
        point_id: p.point_id,
        sort: i + 1,
        offset_from: p.offset_from,
        offset_to: p.offset_to,
        created_by: ctx.session.accountId,
      })),
    )
    .execute();
  await ctx.db
    .insertInto('patrol_plan_guards')
    .values([...new Set(guardIds)].map((a) => ({ rid: ctx.rid, plan_id: planId, account_id: a, created_by: ctx.session.accountId })))
    .execute();
}

async function refuseDuplicateName(ctx: CommunityCtx, name: string, id: number) {
  const dup = await ctx.db
    .selectFrom('patrol_plans')
    .select('id')
    .where('rid', '=', ctx.rid)
    .where('name', '=', name)
    .where('id', '<>', id)
    .executeTakeFirst();
  if (dup) fail(`巡更计划「${name}」已存在`);
}

const patrolplanadd = defineMethod('patrolplanadd', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: true,
  summary:
    '新增巡更计划：名称、路线（有序的巡更点及各点时段）、顺序要求、周期（每天/按星期/按日期/隔天）、有效期、班次时段（可跨夜）、巡更人员（同一人不能在重叠时段重复安排）、提前生成分钟、补检时限、异常是否转内部工单',
  async handler(ctx, input) {
    await refuseDuplicateName(ctx, input.name, 0);
    await checkPlan(ctx, input, 0);
    const row = await ctx.db
      .insertInto('patrol_plans')
      .values({ ...planColumns(input), rid: ctx.rid, created_by: ctx.session.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await writeRoute(ctx, id, input.points, input.guard_ids);
    return reply({ id }, '添加成功');
  },
});

const patrolplanedit = defineMethod('patrolplanedit', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: true,
  summary: '修改巡更计划（已生成的任务不变，之后生成的任务按新计划）',
  async handler(ctx, input) {
    const before = await ctx.db
      .selectFrom('patrol_plans')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) fail('巡更计划不存在');
    await refuseDuplicateName(ctx, input.name, input.id);
    await checkPlan(ctx, input, input.id);
    await ctx.db.updateTable('patrol_plans').set(planColumns(input)).where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    await writeRoute(ctx, input.id, input.points, input.guard_ids);
    return reply({ id: input.id }, '保存成功');
  },
});

const patrolplaninfo = defineMethod('patrolplaninfo', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: false,
  summary: '巡更计划详情（含路线 points 与巡更人员 guard_ids）',
  async handler(ctx, input): Promise<PatrolPlanDetail> {
    const row = await planQuery(ctx.db, ctx.rid).where('t.id', '=', input.id).executeTakeFirst();
    if (!row) fail('巡更计划不存在');
    const [points, guards] = await Promise.all([
      ctx.db
        .selectFrom('patrol_plan_points as p')
        .innerJoin('patrol_points as pt', (j) => j.onRef('pt.rid', '=', 'p.rid').onRef('pt.id', '=', 'p.point_id'))
        .select(['p.point_id', 'p.offset_from', 'p.offset_to', 'pt.name', 'pt.number'])
        .where('p.rid', '=', ctx.rid)
        .where('p.plan_id', '=', input.id)
        .orderBy('p.sort')
        .execute(),
      ctx.db
        .selectFrom('patrol_plan_guards')
        .select('account_id')
        .where('rid', '=', ctx.rid)
        .where('plan_id', '=', input.id)
        .orderBy('account_id')
        .execute(),
    ]);
    return {
      ...toPlanRow(row as Record<string, unknown>),
      points: points.map((p) => ({ ...p, point_id: Number(p.point_id) })),
      guard_ids: guards.map((g) => Number(g.account_id)),
    };
  },
});

const patrolGuardSmallList = defineMethod('patrol_guard_small_list', {
  side: 'community',
  roles: PATROL_ROLES.staff,
  writes: false,
  summary: '巡更人员下拉：本小区启用的、有安保巡更（security）权限的员工',
  async handler(ctx) {
    return { items: (await guardStaff(ctx.db, ctx.rid)).map((g) => ({ id: g.id, title: g.name })) };
  },
});

export const planMethods = [
  ...defineResource(patrolPlan, {
    table: 'patrol_plans',
    query: (db, rid) => planQuery(db as Kysely<DB>, rid),
    row: (r: Record<string, unknown>) => toPlanRow(r),
    where: {
      cycle: (qb, v) => qb.where('t.cycle', '=', v),
    },
    dependents: { patrol_tasks: '该巡更计划已生成巡更任务，不能删除，可停用' },
    replace: {
      add: patrolplanadd,
      edit: patrolplanedit,
      info: patrolplaninfo,
      small: defineMethod('patrolplan_small_list', {
        side: 'community',
        roles: PATROL_ROLES.staff,
        writes: false,
        summary: '巡更计划下拉（id、title 计划名称）',
        async handler(ctx) {
          const rows = await ctx.db.selectFrom('patrol_plans').select(['id', 'name']).where('rid', '=', ctx.rid).orderBy('id').execute();
          return { items: rows.map((r) => ({ id: Number(r.id), title: r.name })) };
        },
      }),
    },
    summaries: {
      list: '巡更计划列表：名称、周期、有效期、班次时段、点数与路线、巡更人员、提前生成、补检时限、异常转工单、状态',
      del: '删除巡更计划（已生成任务的计划不能删除，可停用）',
    },
  }),
  patrolGuardSmallList,
];
