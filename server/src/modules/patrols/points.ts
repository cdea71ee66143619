/**
 * 巡更点 (docs/product.md#patrols; contract/src/patrols/points.ts) as a resource: an automatic
 * number when none is given, a random QR token, the NFC tag normalised, the building and unit of
 * the community, the checklist as JSON; a point on an enabled plan's route is not deleted, one on
 * a stopped plan's leaves that route.
 */
import { randomBytes } from 'node:crypto';
import { patrolPoint, type CheckItem } from '@wuye/contract';
import { PATROL_ROLES } from '@wuye/contract/patrols/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, type CommunityCtx } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { defineResource } from '../../lib/resource.js';

registerDependents({ patrol_points: '巡更点', patrol_plans: '巡更计划', patrol_plan_points: '巡更路线' });

/** A fresh QR token: what the printed label encodes (PT + 12 characters). */
export const newQrCode = () =>
  `PT${randomBytes(9)
    .toString('base64url')
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, 'X')
    .slice(0, 12)}`;

/** The next free automatic number of the community: XG001, XG002, … */
async function nextNumber(ctx: CommunityCtx): Promise<string> {
  const row = await sql<{ n: number }>`SELECT coalesce(max(substring(number FROM 3)::int), 0) + 1 AS n FROM patrol_points
    WHERE rid = ${ctx.rid} AND number ~ '^XG[0-9]{1,8}$'`.execute(ctx.db);
  return `XG${String(row.rows[0]!.n).padStart(3, '0')}`;
}

const methodsText = (r: { qr_code: string; nfc_uid: string; wand_no: string; lat: unknown }) =>
  ['二维码', r.nfc_uid ? 'NFC' : '', r.wand_no ? '钮号' : '', r.lat !== null ? 'GPS' : ''].filter(Boolean).join('、');

export function pointQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('patrol_points as t')
    .leftJoin('buildings as b', (j) => j.onRef('b.rid', '=', 't.rid').onRef('b.id', '=', 't.bid'))
    .leftJoin('units as u', (j) => j.onRef('u.rid', '=', 't.rid').onRef('u.id', '=', 't.tid'))
    .leftJoin('assets as s', (j) => j.onRef('s.rid', '=', 't.rid').onRef('s.id', '=', 't.asset_id'))
    .selectAll('t')
    .select(
      sql<string>`concat_ws(' ', nullif(concat_ws('-', b.title, u.title), ''), nullif(t.place, ''), s.code || ' ' || s.name)`.as(
        'location',
      ),
    )
    .select(sql<number>`(SELECT count(*)::int FROM patrol_plan_points p WHERE p.rid = t.rid AND p.point_id = t.id)`.as('plan_count'))
    .where('t.rid', '=', rid);
}

export const toPointRow = (r: Record<string, unknown>) => {
  const checklist = (r.checklist ?? []) as CheckItem[];
  return {
    ...r,
    id: Number(r.id),
    bid: r.bid === null ? null : Number(r.bid),
    tid: r.tid === null ? null : Number(r.tid),
    asset_id: r.asset_id === null ? null : Number(r.asset_id),
    lat: r.lat === null ? null : Number(r.lat),
    lng: r.lng === null ? null : Number(r.lng),
    checklist,
    checklist_count: checklist.length,
    methods: methodsText(r as never),
    created_by: undefined,
  };
};

export const pointMethods = defineResource(patrolPoint, {
  table: 'patrol_points',
  query: (db, rid) => pointQuery(db as Kysely<DB>, rid),
  row: toPointRow,
  unique: [
    { on: ['name'], message: (v) => `巡更点「${String(v.name)}」已存在` },
    { on: ['number'], message: (v) => `巡更点编号 ${String(v.number)} 已存在` },
  ],
  async values(input, ctx, before) {
    const out: Record<string, unknown> = { ...input, checklist: JSON.stringify(input.checklist ?? []) };
    if (!input.number) out.number = before ? before.number : await nextNumber(ctx);
    if (!before) out.qr_code = newQrCode();
    if (!input.bid) out.tid = null;
    return out;
  },
  async check(ctx, values, before) {
    if (values.bid) {
      const b = await ctx.db
        .selectFrom('buildings')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', '=', Number(values.bid))
        .executeTakeFirst();
      if (!b) fail('所选楼栋不存在');
    }
    if (values.tid) {
      const u = await ctx.db
        .selectFrom('units')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', '=', Number(values.tid))
        .where('bid', '=', Number(values.bid))
        .executeTakeFirst();
      if (!u) fail('所选单元不存在或不属于所选楼栋');
    }
    if (values.asset_id) {
      const a = await ctx.db
        .selectFrom('assets')
        .select('state')
        .where('rid', '=', ctx.rid)
        .where('id', '=', Number(values.asset_id))
        .executeTakeFirst();
      if (!a) fail('所选设备不存在');
      if (a.state === 'X' && Number(before?.asset_id ?? 0) !== Number(values.asset_id)) fail('所选设备已报废');
    }
    const except = before ? Number(before.id) : 0;
    for (const [col, label] of [
      ['nfc_uid', 'NFC标签'],
      ['wand_no', '钮号'],
    ] as const) {
      const v = String(values[col] ?? '');
      if (!v) continue;
      const other = await ctx.db
        .selectFrom('patrol_points')
        .select('name')
        .where('rid', '=', ctx.rid)
        .where(col, '=', v)
        .where('id', '<>', except)
        .executeTakeFirst();
      if (other) fail(`${label} ${v} 已绑定巡更点「${other.name}」`);
    }
  },
  async beforeDelete(ctx, row) {
    const plans = await ctx.db
      .selectFrom('patrol_plan_points as pp')
      .innerJoin('patrol_plans as p', (j) => j.onRef('p.rid', '=', 'pp.rid').onRef('p.id', '=', 'pp.plan_id'))
      .select(['p.name', 'p.status'])
      .where('pp.rid', '=', ctx.rid)
      .where('pp.point_id', '=', Number(row.id))
      .execute();
    const enabled = plans.filter((p) => p.status === 'Y').map((p) => `「${p.name}」`);
    if (enabled.length) fail(`该巡更点在启用的巡更计划${enabled.join('、')}中，不能删除；请先停用计划或从路线中移除`);
    // a stopped plan's route loses the point
    await ctx.db.deleteFrom('patrol_plan_points').where('rid', '=', ctx.rid).where('point_id', '=', Number(row.id)).execute();
  },
  replace: {
    small: defineMethod('patrolpoint_small_list', {
      side: 'community',
      roles: PATROL_ROLES.staff,
      writes: false,
      summary: '巡更点下拉（id、title「编号 名称」，启用的点）',
      async handler(ctx) {
        const rows = await ctx.db
          .selectFrom('patrol_points')
          .select(['id', 'number', 'name'])
          .where('rid', '=', ctx.rid)
          .where('status', '=', 'Y')
          .orderBy('number')
          .orderBy('id')
          .execute();
        return { items: rows.map((r) => ({ id: Number(r.id), title: `${r.number} ${r.name}` })) };
      },
    }),
  },
  summaries: {
    list: '巡更点列表：编号、名称、类型、位置（楼栋-单元或区域）、签到方式（二维码/NFC/钮号/GPS）、检查项数、是否拍照、所属计划数、状态',
    add: '新增巡更点（名称、编号在小区内唯一，编号不填自动生成；NFC 标签统一为大写无分隔；生成二维码）',
    del: '删除巡更点（在启用的巡更计划中时拒绝；停用计划的路线中一并移除）',
  },
});
