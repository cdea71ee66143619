/**
 * Repair types (报修类型, /steward/repairtype; docs/product.md#repairs): a two-level tree with each
 * type's handling settings and its bound technicians (staff accounts of the community holding
 * `repairs`), as a resource; the technicians' small list with their open tickets and duty; the
 * desk's repair settings (max open tickets per technician, auto-rating hours, reopen days).
 */
import { REPAIR_HELD, repairType, type RepairSettings, type RepairTech, type RepairTypeNode } from '@wuye/contract';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { accountCodes } from '../../http/authenticate.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { defineResource } from '../../lib/resource.js';
import { whoIsOnDuty } from '../setup/duty.js';

registerDependents({ repair_types: '报修类型', repair_tickets: '报修工单' });

export const REPAIR_DEFAULTS: RepairSettings = { max_open: 5, auto_rate_hours: 48, reopen_days: 7 };

/** The community's repair settings (the defaults until the desk saves its own). */
export async function repairSettings(db: Kysely<DB>, rid: number): Promise<RepairSettings> {
  const row = await db
    .selectFrom('repair_settings')
    .select(['max_open', 'auto_rate_hours', 'reopen_days'])
    .where('rid', '=', rid)
    .executeTakeFirst();
  return row ?? { ...REPAIR_DEFAULTS };
}

/** The community's enabled staff accounts holding `repairs` (or admin), among `ids` when given, by id. */
export async function repairTechs(db: Kysely<DB>, rid: number, ids?: readonly number[]): Promise<Array<{ id: number; name: string }>> {
  if (ids && ids.length === 0) return [];
  let qb = db
    .selectFrom('accounts as a')
    .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
    .select(['a.id', 'a.name'])
    .where('ar.rid', '=', rid)
    .where('a.sys_type', '=', 'property')
    .where('a.status', '=', 'Y')
    .where(sql<boolean>`${accountCodes(sql`a.id`, sql`a.roles`, sql`${rid}::int`)} && ARRAY['repairs', 'admin']::text[]`);
  if (ids) qb = qb.where('a.id', 'in', [...ids]);
  return qb.orderBy('a.id').execute();
}

/** Each technician's open tickets (待接单, 处理中, 已暂停). */
export async function openCounts(db: Kysely<DB>, rid: number, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('repair_tickets')
    .select(['handler_id', sql<number>`count(*)::int`.as('n')])
    .where('rid', '=', rid)
    .where('status', 'in', [...REPAIR_HELD])
    .where('handler_id', 'in', [...ids])
    .groupBy('handler_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.handler_id), r.n]));
}

async function checkType(ctx: CommunityCtx, values: Record<string, unknown>, before?: Record<string, unknown>) {
  const parent = Number(values.parent_id ?? 0);
  if (parent) {
    if (before && Number(before.id) === parent) fail('上级类型不能是自己');
    const p = await ctx.db
      .selectFrom('repair_types')
      .select(['id', 'parent_id'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', parent)
      .executeTakeFirst();
    if (!p) fail('上级类型不存在');
    if (Number(p.parent_id) !== 0) fail('报修类型最多两级：上级类型须是一级类型');
    if (before) {
      const child = await ctx.db
        .selectFrom('repair_types')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('parent_id', '=', Number(before.id))
        .executeTakeFirst();
      if (child) fail('该类型下还有二级类型，不能再设上级类型');
    }
  }
  const staff = [...new Set((values.staff_ids as number[] | undefined) ?? [])];
  if (staff.length) {
    const found = await repairTechs(ctx.db, ctx.rid, staff);
    if (found.length !== staff.length) fail('所选维修师傅不存在，或不是本小区持有维修权限的员工');
  }
  if (values.mode !== 'A' && values.mode !== undefined && staff.length === 0) fail('抢单和轮派须绑定至少一名维修师傅');
}

export const repairTypeMethods = defineResource(repairType, {
  table: 'repair_types',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('repair_types as t')
      .leftJoin('repair_types as p', (j) => j.onRef('p.rid', '=', 't.rid').onRef('p.id', '=', 't.parent_id'))
      .selectAll('t')
      .select(sql<string>`coalesce(p.title, '')`.as('parent_title'))
      .select(sql<string>`CASE WHEN p.id IS NULL THEN t.title ELSE p.title || ' / ' || t.title END`.as('full_title'))
      .select(
        sql<string>`coalesce((SELECT string_agg(a.name, '、' ORDER BY a.id) FROM accounts a WHERE a.id = ANY(t.staff_ids)), '')`.as(
          'staff_names',
        ),
      )
      .select(sql<number>`(SELECT count(*)::int FROM repair_tickets k WHERE k.rid = t.rid AND k.type_id = t.id)`.as('ticket_count'))
      .where('t.rid', '=', rid),
  order: (prefix) => [sql.raw(`${prefix}parent_id`), sql.raw(`${prefix}sort`)],
  row: (r) => ({ ...r, staff_ids: (r.staff_ids ?? []).map(Number), parent_id: Number(r.parent_id) }),
  unique: [{ on: ['parent_id', 'title'], message: (v) => `同一上级下已有报修类型「${String(v.title)}」` }],
  values: (input) => ({
    ...input,
    parent_id: input.parent_id ?? 0,
    staff_ids: [...new Set((input.staff_ids as number[] | undefined) ?? [])],
  }),
  check: checkType,
  async beforeDelete(ctx, row) {
    const child = await ctx.db
      .selectFrom('repair_types')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('parent_id', '=', Number(row.id))
      .executeTakeFirst();
    if (child) fail('该报修类型下还有二级类型，不能删除');
  },
  replace: {
    small: defineMethod('repairtype_small_list', {
      side: 'community',
      roles: STEWARD_ROLES.repairRead,
      writes: false,
      summary: '一级报修类型下拉（id、title），用作二级类型的上级',
      async handler(ctx) {
        const items = await ctx.db
          .selectFrom('repair_types')
          .select(['id', 'title'])
          .where('rid', '=', ctx.rid)
          .where('parent_id', '=', 0)
          .orderBy('sort')
          .orderBy('id')
          .execute();
        return { items: items.map((r) => ({ id: Number(r.id), title: r.title })) };
      },
    }),
  },
  summaries: {
    list: '报修类型列表：两级类型树（上级、名称）、派单方式（指派/抢单/轮派）、报修范围（房屋/公共区域）、是否收费、接单与完成时限、预警、回访设置、绑定的维修师傅、工单数',
    add: '新增报修类型：一级或二级（上级须是一级），绑定持有维修权限的本小区员工；抢单、轮派须至少绑定一人',
  },
});

const repairTechSmallList = defineMethod('repair_tech_small_list', {
  side: 'community',
  roles: STEWARD_ROLES.repairRead,
  writes: false,
  summary: '维修师傅下拉：本小区持有维修权限的员工（id、姓名、当前未完成工单数、是否在岗）；给了 type_id 只列该类型绑定的师傅',
  async handler(ctx, input) {
    let ids: number[] | undefined;
    if (input.type_id) {
      const t = await ctx.db
        .selectFrom('repair_types')
        .select('staff_ids')
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.type_id)
        .executeTakeFirst();
      if (!t) fail('报修类型不存在');
      ids = t.staff_ids.map(Number);
    }
    const techs = await repairTechs(ctx.db, ctx.rid, ids);
    const techIds = techs.map((t) => t.id);
    const [counts, duty] = await Promise.all([openCounts(ctx.db, ctx.rid, techIds), whoIsOnDuty(ctx.db, ctx.rid, new Date(), techIds)]);
    const on = new Set(duty.map((d) => d.account_id));
    const items: RepairTech[] = techs.map((t) => ({ id: t.id, title: t.name, open_count: counts.get(t.id) ?? 0, on_duty: on.has(t.id) }));
    return { items };
  },
});

const repairtypetree = defineMethod('repairtypetree', {
  side: 'community',
  roles: STEWARD_ROLES.repairRead,
  writes: false,
  summary: '报修类型树：一级类型及其二级类型（名称、派单方式、范围、是否收费、状态），用于登记与筛选',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('repair_types')
      .select(['id', 'parent_id', 'title', 'mode', 'area', 'paid', 'status'])
      .where('rid', '=', ctx.rid)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    const top: RepairTypeNode[] = [];
    const byId = new Map<number, RepairTypeNode>();
    const node = (r: (typeof rows)[number], full: string): RepairTypeNode => ({
      id: Number(r.id),
      title: r.title,
      full_title: full,
      mode: r.mode as RepairTypeNode['mode'],
      area: r.area as RepairTypeNode['area'],
      paid: r.paid as RepairTypeNode['paid'],
      status: r.status as RepairTypeNode['status'],
      children: [],
    });
    for (const r of rows) if (Number(r.parent_id) === 0) byId.set(Number(r.id), top[top.push(node(r, r.title)) - 1]!);
    for (const r of rows) {
      const p = byId.get(Number(r.parent_id));
      if (p) p.children.push(node(r, `${p.title} / ${r.title}`));
    }
    return { items: top };
  },
});

const repairsettings = defineMethod('repairsettings', {
  side: 'community',
  roles: STEWARD_ROLES.repairRead,
  writes: false,
  summary: '报修设置：每位师傅最多同时处理的工单数、待评价多少小时后自动好评、完成后多少天内可返修',
  async handler(ctx) {
    return repairSettings(ctx.db, ctx.rid);
  },
});

const repairsettingsedit = defineMethod('repairsettingsedit', {
  side: 'community',
  roles: STEWARD_ROLES.desk,
  writes: true,
  summary: '保存报修设置：每位师傅最多同时处理的工单数（1-99）、自动好评小时数（1-720）、返修天数（0-90）',
  async handler(ctx, input) {
    await ctx.db
      .insertInto('repair_settings')
      .values({ rid: ctx.rid, ...input })
      .onConflict((oc) => oc.column('rid').doUpdateSet({ ...input, updated_at: sql<Date>`now()` }))
      .execute();
    return reply(await repairSettings(ctx.db, ctx.rid), '保存成功');
  },
});

export const repairTypeModule = [...repairTypeMethods, repairTechSmallList, repairtypetree, repairsettings, repairsettingsedit];
