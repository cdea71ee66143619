/**
 * Steward profiles and assessment items (管家档案、考核项目; docs/product.md#steward-profiles): a
 * profile per staff account of the community, the buildings and units it serves (one enabled
 * profile of a post per unit), the items that apply with weights summing to 100 %, and the
 * households it serves. Scores: ./scores.ts.
 */
import {
  itemsProblem,
  profileSchemas,
  scoreItem,
  steward,
  weightText,
  type StewardAreaBuilding,
  type StewardDetail,
  type StewardHouse,
} from '@wuye/contract';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { likePattern } from '../../lib/like.js';
import { householdIdsMatching } from '../owners/search.js';
import { defineResource, wireRows } from '../../lib/resource.js';

const ROLES = STEWARD_ROLES.profiles;

/** 考核项目: a name unique in the community; kept while a profile applies it or a score names it. */
export const scoreItemMethods = defineResource(scoreItem, {
  table: 'assessment_items',
  query: (db, rid) =>
    db
      .selectFrom('assessment_items as t')
      .select(['t.id', 't.name', 't.description', 't.status', 't.sort', 't.created_at'])
      .select(sql<number>`(SELECT count(*)::int FROM steward_profile_items x WHERE x.rid = t.rid AND x.item_id = t.id)`.as('profile_count'))
      .where('t.rid', '=', rid),
  row: (r: Record<string, unknown>) => ({ ...r, id: Number(r.id) }),
  values: (input, ctx, before) => (before ? input : { ...input, created_by: ctx.session.accountId }),
  unique: [{ on: ['name'], message: (v) => `考核项目“${String(v.name)}”已存在` }],
  dependents: {
    steward_profile_items: '该考核项目已用在管家档案中，请先在档案里去掉它，或将它停用',
    score_entries: '该考核项目已有评分记录，不能删除，可将它停用',
  },
  order: (p) => [sql.raw(`${p}sort`)],
  replace: {
    // the enabled items only, with their descriptions: a profile's form and the score entry choose among them
    small: defineMethod('scoreitem_small_list', {
      side: 'community',
      roles: ROLES,
      writes: false,
      summary: '考核项目下拉：启用的考核项目（id、title 为名称、description 说明），按排序',
      async handler(ctx) {
        const rows = await ctx.db
          .selectFrom('assessment_items')
          .select(['id', 'name', 'description'])
          .where('rid', '=', ctx.rid)
          .where('status', '=', 'Y')
          .orderBy('sort')
          .orderBy('id')
          .execute();
        return { items: rows.map((r) => ({ id: Number(r.id), title: r.name, description: r.description })) };
      },
    }),
  },
  summaries: {
    list: '考核项目列表（名称、说明、状态、排序、使用它的档案数）',
    add: '新增考核项目（名称在小区内唯一）',
    edit: '修改考核项目（停用后不能再加到档案中，已有的评分保留）',
    del: '删除考核项目（档案在用或已有评分时拒绝）',
  },
});

/** The rooms a profile serves, as a condition on a room aliased `r` (for the profile `profileId`, a column or a value). */
export const servedRoom = (profileRef: ReturnType<typeof sql>, rid: number | ReturnType<typeof sql> = sql.ref('r.rid')) =>
  // the profile's buildings first (uncorrelated with r given the community), so the rooms are read
  // through their building's index instead of testing every room of the community
  sql<boolean>`r.bid IN (SELECT x.bid FROM steward_profile_areas x WHERE x.rid = ${rid} AND x.profile_id = ${profileRef})
    AND EXISTS (SELECT 1 FROM steward_profile_areas x WHERE x.rid = r.rid AND x.profile_id = ${profileRef}
    AND x.bid = r.bid AND (x.tid IS NULL OR x.tid = r.tid))`;

const WEIGHT_SQL = (col: string) => sql.raw(`rtrim(rtrim(to_char(${col} / 100.0, 'FM99990.00'), '0'), '.')`);

export const stewardQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('steward_profiles as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select(['t.id', 't.account_id', 'a.name', 'a.username', 't.photo', 't.post', 't.phone', 't.status', 't.sort', 't.created_at'])
    .select(
      sql<string>`coalesce((SELECT string_agg(b.title || coalesce(u.title, ''), '、' ORDER BY b.sort, b.id, u.sort NULLS FIRST, u.id)
        FROM steward_profile_areas x JOIN buildings b ON b.rid = x.rid AND b.id = x.bid
        LEFT JOIN units u ON u.rid = x.rid AND u.id = x.tid
        WHERE x.rid = t.rid AND x.profile_id = t.id), '')`.as('areas_text'),
    )
    .select(
      sql<number>`(SELECT count(*)::int FROM rooms r WHERE r.rid = t.rid AND ${servedRoom(sql.ref('t.id'), sql.ref('t.rid'))})`.as(
        'house_count',
      ),
    )
    .select(
      sql<string>`coalesce((SELECT string_agg(i.name || ' ' || ${WEIGHT_SQL('x.weight')} || '%', '、' ORDER BY i.sort, i.id)
        FROM steward_profile_items x JOIN assessment_items i ON i.rid = x.rid AND i.id = x.item_id
        WHERE x.rid = t.rid AND x.profile_id = t.id), '')`.as('items_text'),
    )
    .where('t.rid', '=', rid);

type StewardInput = z.output<(typeof profileSchemas)['stewardadd']>;
type StewardValues = Omit<StewardInput, 'account_id'>;

/** The areas without repeats, a unit dropped when its whole building is chosen too. */
function normalAreas(areas: StewardValues['areas']): Array<{ bid: number; tid: number | null }> {
  const whole = new Set(areas.filter((a) => a.tid === null).map((a) => a.bid));
  const seen = new Set<string>();
  const out: Array<{ bid: number; tid: number | null }> = [];
  for (const a of areas) {
    if (a.tid !== null && whole.has(a.bid)) continue;
    const key = `${a.bid}:${a.tid ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ bid: a.bid, tid: a.tid });
  }
  return out;
}

/**
 * A profile's rules: the account is enabled staff of the community with no other profile, the
 * buildings and units are the community's, the items are its enabled ones (an item already on the
 * profile may stay after it was disabled), and, while the profile is enabled, no unit it serves is
 * served by another enabled profile of the same post: owners see one 管家 (one 工程…) for their unit.
 */
async function checkSteward(ctx: CommunityCtx, accountId: number, v: StewardValues, profileId?: number) {
  const staff = await ctx.db
    .selectFrom('accounts as a')
    .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
    .select(['a.id', 'a.name'])
    .where('ar.rid', '=', ctx.rid)
    .where('a.id', '=', accountId)
    .where('a.sys_type', '=', 'property')
    .where('a.status', '=', 'Y')
    .executeTakeFirst();
  if (!staff) fail('所选员工不存在、已停用或不在当前小区');
  let dup = ctx.db.selectFrom('steward_profiles').select('id').where('rid', '=', ctx.rid).where('account_id', '=', accountId);
  if (profileId !== undefined) dup = dup.where('id', '<>', profileId);
  if (await dup.executeTakeFirst()) fail(`${staff.name}已有管家档案，请编辑原档案`);

  const areas = normalAreas(v.areas);
  const bids = [...new Set(areas.map((a) => a.bid))];
  const buildings = await ctx.db.selectFrom('buildings').select('id').where('rid', '=', ctx.rid).where('id', 'in', bids).execute();
  if (buildings.length !== bids.length) fail('所选楼栋不存在或不属于当前小区');
  const tids = areas.filter((a) => a.tid !== null).map((a) => a.tid!);
  if (tids.length) {
    const units = await ctx.db.selectFrom('units').select(['id', 'bid']).where('rid', '=', ctx.rid).where('id', 'in', tids).execute();
    const byId = new Map(units.map((u) => [Number(u.id), Number(u.bid)]));
    if (areas.some((a) => a.tid !== null && byId.get(a.tid) !== a.bid)) fail('所选单元不存在或不属于所选楼栋');
  }

  const problem = itemsProblem(v.items);
  if (problem) fail(problem);
  const itemIds = v.items.map((i) => i.item_id);
  const items = await ctx.db
    .selectFrom('assessment_items')
    .select(['id', 'name', 'status'])
    .where('rid', '=', ctx.rid)
    .where('id', 'in', itemIds)
    .execute();
  if (items.length !== itemIds.length) fail('所选考核项目不存在或不属于当前小区');
  const kept = new Set<number>();
  if (profileId !== undefined) {
    const rows = await ctx.db
      .selectFrom('steward_profile_items')
      .select('item_id')
      .where('rid', '=', ctx.rid)
      .where('profile_id', '=', profileId)
      .execute();
    for (const r of rows) kept.add(Number(r.item_id));
  }
  const off = items.find((i) => i.status !== 'Y' && !kept.has(Number(i.id)));
  if (off) fail(`考核项目“${off.name}”已停用，不能加到档案中`);

  if (v.status === 'Y') {
    const clash = await sql<{ name: string; place: string }>`
      WITH mine AS (
        SELECT u.id FROM units u JOIN unnest(${areas.map((a) => a.bid)}::bigint[], ${areas.map((a) => a.tid)}::bigint[]) AS m(bid, tid)
          ON u.bid = m.bid AND (m.tid IS NULL OR u.id = m.tid)
        WHERE u.rid = ${ctx.rid}
      )
      SELECT a.name, b.title || u.title AS place
      FROM steward_profile_areas x
      JOIN steward_profiles p ON p.rid = x.rid AND p.id = x.profile_id
      JOIN accounts a ON a.id = p.account_id
      JOIN units u ON u.rid = x.rid AND u.bid = x.bid AND (x.tid IS NULL OR u.id = x.tid)
      JOIN buildings b ON b.rid = u.rid AND b.id = u.bid
      WHERE x.rid = ${ctx.rid} AND p.post = ${v.post} AND p.status = 'Y' AND p.id <> ${profileId ?? 0}
        AND u.id IN (SELECT id FROM mine)
      ORDER BY b.sort, b.id, u.sort, u.id
      LIMIT 1`.execute(ctx.db);
    const c = clash.rows[0];
    if (c) fail(`${c.place}已由同岗位的${c.name}负责；一个单元的同一岗位只能有一位在岗负责人，请先调整或停用${c.name}的档案`);
  }
}

const profileColumns = (v: StewardValues) => ({
  post: v.post,
  photo: v.photo[0] ?? '',
  phone: v.phone,
  introduction: v.introduction,
  status: v.status,
  sort: v.sort,
});

async function writeAreasAndItems(ctx: CommunityCtx, profileId: number, v: StewardValues) {
  await ctx.db.deleteFrom('steward_profile_areas').where('rid', '=', ctx.rid).where('profile_id', '=', profileId).execute();
  await ctx.db.deleteFrom('steward_profile_items').where('rid', '=', ctx.rid).where('profile_id', '=', profileId).execute();
  await ctx.db
    .insertInto('steward_profile_areas')
    .values(normalAreas(v.areas).map((a) => ({ rid: ctx.rid, profile_id: profileId, bid: a.bid, tid: a.tid })))
    .execute();
  await ctx.db
    .insertInto('steward_profile_items')
    .values(v.items.map((i) => ({ rid: ctx.rid, profile_id: profileId, item_id: i.item_id, weight: i.weight })))
    .execute();
}

const stewardadd = defineMethod('stewardadd', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary:
    '新增管家档案（员工账号一人一份；岗位、负责楼栋/单元、服务电话、简介、考核项目及权重，权重合计须为 100%；同一单元同一岗位只能有一位在岗负责人）',
  async handler(ctx, input) {
    const { account_id: accountId, ...values } = input;
    await checkSteward(ctx, accountId, values);
    const { id } = await ctx.db
      .insertInto('steward_profiles')
      .values({ ...profileColumns(values), rid: ctx.rid, account_id: accountId, created_by: ctx.session.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeAreasAndItems(ctx, Number(id), values);
    return reply({ id: Number(id) }, '添加成功');
  },
});

const stewardedit = defineMethod('stewardedit', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary: '修改管家档案（负责楼栋/单元与考核项目整体替换；员工账号不可改）',
  async handler(ctx, input) {
    const { id, ...values } = input;
    const row = await ctx.db
      .selectFrom('steward_profiles')
      .select(['id', 'account_id'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) fail('管家档案不存在');
    await checkSteward(ctx, row.account_id, values, id);
    await ctx.db.updateTable('steward_profiles').set(profileColumns(values)).where('rid', '=', ctx.rid).where('id', '=', id).execute();
    await writeAreasAndItems(ctx, id, values);
    return reply({ id }, '保存成功');
  },
});

const toStewardWire = wireRows(steward.def);

const stewardinfo = defineMethod('stewardinfo', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '管家档案详情（含 introduction 简介、areas 负责楼栋/单元、items 考核项目及权重）',
  async handler(ctx, input): Promise<StewardDetail> {
    const row = await stewardQuery(ctx.db, ctx.rid).select('t.introduction').where('t.id', '=', input.id).executeTakeFirst();
    if (!row) fail('管家档案不存在');
    const [areas, items] = await Promise.all([
      ctx.db
        .selectFrom('steward_profile_areas as x')
        .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'x.rid').onRef('b.id', '=', 'x.bid'))
        .leftJoin('units as u', (j) => j.onRef('u.rid', '=', 'x.rid').onRef('u.id', '=', 'x.tid'))
        .select(['x.bid', 'x.tid', sql<string>`b.title || coalesce(u.title, '')`.as('title')])
        .where('x.rid', '=', ctx.rid)
        .where('x.profile_id', '=', input.id)
        .orderBy('b.sort')
        .orderBy('b.id')
        .orderBy(sql`u.sort NULLS FIRST`)
        .orderBy('u.id')
        .execute(),
      ctx.db
        .selectFrom('steward_profile_items as x')
        .innerJoin('assessment_items as i', (j) => j.onRef('i.rid', '=', 'x.rid').onRef('i.id', '=', 'x.item_id'))
        .select(['x.item_id', 'i.name', 'x.weight'])
        .where('x.rid', '=', ctx.rid)
        .where('x.profile_id', '=', input.id)
        .orderBy('i.sort')
        .orderBy('i.id')
        .execute(),
    ]);
    const wire = toStewardWire(row) as unknown as StewardDetail;
    return {
      ...wire,
      id: Number(row.id),
      introduction: row.introduction,
      areas: areas.map((a) => ({ bid: Number(a.bid), tid: a.tid === null ? null : Number(a.tid), title: a.title })),
      items: items.map((i) => ({ item_id: Number(i.item_id), name: i.name, weight: weightText(i.weight) })),
    };
  },
});

/** 管家档案: list, delete and export from the description; add, edit and info carry the areas and items. */
export const stewardMethods = defineResource(steward, {
  table: 'steward_profiles',
  query: (db, rid) => stewardQuery(db as Kysely<DB>, rid),
  row: (r: Record<string, unknown>) => ({ ...r, id: Number(r.id) }),
  where: {
    keyword: (qb, value) => {
      const p = likePattern(String(value));
      return qb.where((eb) => eb.or([eb('a.name', 'ilike', p), eb('a.username', 'ilike', p)]));
    },
  },
  order: (p) => [sql.raw(`${p}sort`)],
  replace: { add: stewardadd, edit: stewardedit, info: stewardinfo },
  summaries: {
    list: '管家档案列表（姓名、岗位、负责楼栋/单元、服务户数、服务电话、考核项目与权重、状态）',
    del: '删除管家档案（负责范围与考核项目一并删除；已有的评分按员工保留）',
    export: '导出管家档案',
  },
});

const stewardhouses = defineMethod('stewardhouses', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '档案服务的住户：负责楼栋/单元内的房屋（地址、业主姓名），可按地址或业主姓名搜索，分页',
  async handler(ctx, input): Promise<{ items: StewardHouse[]; total: number }> {
    const profile = await ctx.db
      .selectFrom('steward_profiles')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!profile) fail('管家档案不存在');
    const owner = sql<string>`coalesce((SELECT m.realname FROM room_members rm JOIN members m ON m.rid = rm.rid AND m.id = rm.member_id
      WHERE rm.rid = r.rid AND rm.hid = r.id AND rm.status = 'Y' AND rm.relation = 'owner' ORDER BY rm.id LIMIT 1), '')`;
    let qb = ctx.db
      .selectFrom('rooms as r')
      .where('r.rid', '=', ctx.rid)
      .where(servedRoom(sql.lit(input.id), ctx.rid));
    // the address, or a resident's name or mobile, as the owner search finds them
    if (input.keyword)
      qb = qb.where(sql<boolean>`r.id IN (SELECT unnest(${await householdIdsMatching(ctx.db, ctx.rid, input.keyword)}::bigint[]))`);
    const [{ total }, rows] = await Promise.all([
      qb.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
      qb
        .select(['r.id', 'r.bid', 'r.tid', 'r.address', owner.as('owner_name')])
        .orderBy('r.building_sort')
        .orderBy('r.bid')
        .orderBy('r.unit_sort')
        .orderBy('r.tid')
        .orderBy('r.floor')
        .orderBy('r.title')
        .limit(input.limit)
        .offset((input.page - 1) * input.limit)
        .execute(),
    ]);
    return {
      total,
      items: rows.map((r) => ({ hid: Number(r.id), bid: Number(r.bid), tid: Number(r.tid), address: r.address, owner_name: r.owner_name })),
    };
  },
});

const stewardStaffSmallList = defineMethod('steward_staff_small_list', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '可建档的员工：本小区启用的物业员工（id、姓名、账号、部门，profile_id 为已有档案的 id）',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('accounts as a')
      .innerJoin('account_regions as ar', 'ar.account_id', 'a.id')
      .leftJoin('steward_profiles as p', (j) => j.onRef('p.account_id', '=', 'a.id').on('p.rid', '=', ctx.rid))
      .select(['a.id', 'a.name', 'a.username', 'p.id as profile_id'])
      .select(sql<string>`coalesce((SELECT d.title FROM departments d WHERE d.id = a.dept_id), '')`.as('dept_title'))
      .where('ar.rid', '=', ctx.rid)
      .where('a.sys_type', '=', 'property')
      .where('a.status', '=', 'Y')
      .orderBy('a.id')
      .execute();
    return { items: rows.map((r) => ({ ...r, profile_id: r.profile_id === null ? null : Number(r.profile_id) })) };
  },
});

const stewardAreaTree = defineMethod('steward_area_tree', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '负责范围的选择树：本小区的楼栋及其单元',
  async handler(ctx): Promise<{ items: StewardAreaBuilding[] }> {
    const [buildings, units] = await Promise.all([
      ctx.db.selectFrom('buildings').select(['id', 'title']).where('rid', '=', ctx.rid).orderBy('sort').orderBy('id').execute(),
      ctx.db.selectFrom('units').select(['id', 'bid', 'title']).where('rid', '=', ctx.rid).orderBy('sort').orderBy('id').execute(),
    ]);
    return {
      items: buildings.map((b) => ({
        bid: Number(b.id),
        title: b.title,
        units: units.filter((u) => Number(u.bid) === Number(b.id)).map((u) => ({ tid: Number(u.id), title: u.title })),
      })),
    };
  },
});

export const profileMethodList = [...scoreItemMethods, ...stewardMethods, stewardhouses, stewardStaffSmallList, stewardAreaTree];
