/**
 * 设备台账 (docs/product.md#equipment-ledger; contract/src/assets/ledger.ts): the category tree,
 * the assets (net value straight-line, warranty days), their state changes and moves (each
 * logged in asset_logs; a scrapped asset stays scrapped), the label print view, and
 * `createAssetFor`, through which another area's device add registers its asset.
 */
import {
  ASSET_IMPORTANCE,
  ASSET_LOG_ACTION,
  ASSET_STATE,
  MAINTAIN_TASK_STATUS,
  WARRANTY_SOON_DAYS,
  asset,
  assetCategory,
  assetNetValue,
  enumText,
  warrantyDaysLeft,
  type AssetDetail,
  type AssetItem,
  type AssetLogItem,
} from '@wuye/contract';
import { ASSET_ROLES } from '@wuye/contract/assets/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { accountCodes } from '../../http/authenticate.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx, type Session } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { defineResource } from '../../lib/resource.js';
import { today, wireTime } from '../../lib/wire.js';

registerDependents({
  asset_categories: '设备分类',
  assets: '设备',
  asset_logs: '设备日志',
  maintain_standards: '维保标准',
  maintain_plans: '维保计划',
  maintain_tasks: '维保任务',
});

/**
 * The built-in categories every community starts with (code, name, importance, unit); other
 * areas' devices register their assets in the first four through `createAssetFor`.
 */
export const BUILTIN_CATEGORIES = [
  { code: 'ACCESS', name: '门禁设备', importance: 'A', unit: '台' },
  { code: 'GATE', name: '道闸', importance: 'A', unit: '套' },
  { code: 'METER', name: '智能电表', importance: 'B', unit: '个' },
  { code: 'PILE', name: '充电桩', importance: 'B', unit: '台' },
  { code: 'ELEVATOR', name: '电梯', importance: 'A', unit: '部' },
  { code: 'FIRE', name: '消防', importance: 'A', unit: '套' },
  { code: 'WATER', name: '给排水', importance: 'B', unit: '套' },
  { code: 'CCTV', name: '监控', importance: 'B', unit: '台' },
  { code: 'POWER', name: '配电', importance: 'A', unit: '台' },
] as const;

/** Adds the built-in categories a community lacks (by code); safe to run again. */
export async function ensureBuiltinCategories(db: Kysely<DB>, rid: number): Promise<void> {
  await db
    .insertInto('asset_categories')
    .values(BUILTIN_CATEGORIES.map((c, i) => ({ rid, code: c.code, name: c.name, importance: c.importance, unit: c.unit, sort: i + 1 })))
    .onConflict((oc) => oc.columns(['rid', 'code']).doNothing())
    .execute();
}

/** The community's enabled staff who may be responsible for equipment (devicelist or admin). */
export async function assetStaff(db: Kysely<DB>, rid: number, ids?: readonly number[]) {
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
  return rows.filter((r) => r.codes.some((c) => c === 'admin' || (ASSET_ROLES.staff as readonly string[]).includes(c)));
}

export async function checkStaff(ctx: CommunityCtx, ids: readonly number[], what = '责任人') {
  const unique = [...new Set(ids)];
  if ((await assetStaff(ctx.db, ctx.rid, unique)).length !== unique.length) fail(`所选${what}不存在、已停用或没有设备台账权限`);
  return unique;
}

/** The names of the accounts in an id array column, joined by 、. */
export const staffNames = (ids: string) =>
  sql<string>`coalesce((SELECT string_agg(a.name, '、' ORDER BY a.id) FROM accounts a WHERE a.id = ANY(${sql.ref(ids)})), '')`;

/**
 * The (rid, id) pairs of a category and all below it: compared as a pair with the row's own
 * (rid, category_id), so another community's category matches nothing; not correlated, so it runs
 * once a query.
 */
const subtree = (categoryId: number) =>
  sql`(WITH RECURSIVE sub AS (
      SELECT c.rid, c.id FROM asset_categories c WHERE c.id = ${categoryId}
      UNION ALL SELECT c.rid, c.id FROM asset_categories c JOIN sub ON c.rid = sub.rid AND c.parent_id = sub.id
    ) SELECT rid, id FROM sub)`;

/** The community's category `id`, or the refusal (another community's too). */
async function categoryOf(ctx: CommunityCtx, id: number) {
  const row = await ctx.db
    .selectFrom('asset_categories')
    .select(['id', 'name', 'parent_id'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? fail('所选设备分类不存在');
}

export const categoryMethods = defineResource(assetCategory, {
  table: 'asset_categories',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('asset_categories as t')
      .leftJoin('asset_categories as p', (j) => j.onRef('p.rid', '=', 't.rid').onRef('p.id', '=', 't.parent_id'))
      .selectAll('t')
      .select(sql<string>`coalesce(p.name, '')`.as('parent_name'))
      .select(sql<number>`(SELECT count(*)::int FROM assets a WHERE a.rid = t.rid AND a.category_id = t.id)`.as('asset_count'))
      .where('t.rid', '=', rid),
  order: (p) => [sql.ref(`${p}sort`)],
  row: (r) => ({ ...r, id: Number(r.id), parent_id: r.parent_id === null ? null : Number(r.parent_id), created_by: undefined }),
  unique: [{ on: ['code'], message: (v) => `分类编码 ${String(v.code)} 已存在` }],
  async check(ctx, values, before) {
    const parent = values.parent_id as number | null;
    if (parent === null) return;
    await categoryOf(ctx, parent);
    if (before) {
      if (parent === Number(before.id)) fail('上级分类不能是自己');
      const below = await sql`SELECT 1 FROM asset_categories x WHERE x.rid = ${ctx.rid} AND x.id = ${parent}
        AND (x.rid, x.id) IN ${subtree(Number(before.id))}`.execute(ctx.db);
      if (below.rows.length > 0) fail('上级分类不能是自己的下级分类');
    }
  },
  async beforeDelete(ctx, row) {
    const id = Number(row.id);
    const children = await ctx.db
      .selectFrom('asset_categories')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('parent_id', '=', id)
      .executeTakeFirstOrThrow();
    if (children.n > 0) fail(`该分类下还有 ${children.n} 个下级分类，请先删除下级分类`);
    const assets = await ctx.db
      .selectFrom('assets')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('category_id', '=', id)
      .executeTakeFirstOrThrow();
    if (assets.n > 0) fail(`该分类下还有 ${assets.n} 台设备，不能删除`);
  },
  dependents: { maintain_standards: '该分类已被维保标准使用，不能删除' },
  replace: {
    small: defineMethod('assetcate_small_list', {
      side: 'community',
      roles: ASSET_ROLES.staff,
      writes: false,
      summary: '设备分类下拉（id、title「上级 / 分类」，按树的顺序）',
      async handler(ctx) {
        const rows = await sql<{ id: number; title: string }>`
          WITH RECURSIVE tree AS (
            SELECT id, name::text AS title, ARRAY[sort, id::int] AS path FROM asset_categories WHERE rid = ${ctx.rid} AND parent_id IS NULL
            UNION ALL
            SELECT c.id, tree.title || ' / ' || c.name, tree.path || ARRAY[c.sort, c.id::int]
            FROM asset_categories c JOIN tree ON c.parent_id = tree.id WHERE c.rid = ${ctx.rid}
          ) SELECT id, title FROM tree ORDER BY path`.execute(ctx.db);
        return { items: rows.rows.map((r) => ({ id: Number(r.id), title: r.title })) };
      },
    }),
  },
  summaries: {
    list: '设备分类（树）：名称、编码（小区内唯一）、上级、重要等级 A/B/C、单位、排序、本分类的设备数',
    del: '删除设备分类（还有下级分类或设备时拒绝，并说明原因）',
  },
});

export function assetQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('assets as t')
    .innerJoin('asset_categories as c', (j) => j.onRef('c.rid', '=', 't.rid').onRef('c.id', '=', 't.category_id'))
    .selectAll('t')
    .select('c.name as category_name')
    .select(staffNames('t.staff_ids').as('staff_names'))
    .where('t.rid', '=', rid);
}

/** An asset's wire row from its table row (net value and warranty days as of today). */
export function toAssetRow(r: Record<string, unknown>, day = today()): AssetItem {
  const state = String(r.state);
  const firstUse = (r.first_use as string | null) ?? null;
  const warranty = (r.warranty_end as string | null) ?? null;
  const createdAt = r.created_at ?? r.create_time;
  return {
    id: Number(r.id),
    category_id: Number(r.category_id),
    category_name: String(r.category_name ?? ''),
    name: String(r.name),
    code: String(r.code),
    brand: String(r.brand),
    model: String(r.model),
    location: String(r.location),
    first_use: firstUse,
    warranty_end: warranty,
    warranty_days: warrantyDaysLeft(warranty, day),
    service_years: Number(r.service_years),
    importance: r.importance as AssetItem['importance'],
    importance_ch: enumText(ASSET_IMPORTANCE, String(r.importance)),
    state: state as AssetItem['state'],
    state_ch: enumText(ASSET_STATE, state),
    price: String(r.price),
    net_value: assetNetValue(String(r.price), Number(r.service_years), firstUse, state, day),
    staff_ids: ((r.staff_ids as Array<number | string>) ?? []).map(Number),
    staff_names: String(r.staff_names ?? ''),
    remark: String(r.remark),
    create_time: createdAt instanceof Date ? wireTime(createdAt) : String(createdAt ?? ''),
  };
}

async function logsOf(db: Kysely<DB>, rid: number, assetId: number): Promise<AssetLogItem[]> {
  const rows = await db
    .selectFrom('asset_logs')
    .selectAll()
    .where('rid', '=', rid)
    .where('asset_id', '=', assetId)
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((l) => ({
    id: Number(l.id),
    action: l.action as AssetLogItem['action'],
    action_ch: enumText(ASSET_LOG_ACTION, l.action),
    from_state: l.from_state.trim(),
    from_state_ch: l.from_state.trim() ? enumText(ASSET_STATE, l.from_state.trim()) : '',
    to_state: l.to_state.trim(),
    to_state_ch: l.to_state.trim() ? enumText(ASSET_STATE, l.to_state.trim()) : '',
    from_location: l.from_location,
    to_location: l.to_location,
    remark: l.remark,
    operator: l.operator,
    create_time: wireTime(l.created_at),
  }));
}

export async function assetDetail(db: Kysely<DB>, rid: number, id: number): Promise<AssetDetail> {
  const r = await assetQuery(db, rid).where('t.id', '=', id).executeTakeFirst();
  if (!r) fail('设备不存在');
  const tasks = await db
    .selectFrom('maintain_tasks as k')
    .innerJoin('maintain_plans as p', (j) => j.onRef('p.rid', '=', 'k.rid').onRef('p.id', '=', 'k.plan_id'))
    .select(['k.id', 'p.name as plan_name', 'k.status', 'k.done_name'])
    .select(sql<string>`to_char(k.due_on, 'YYYY-MM-DD')`.as('due_on'))
    .where('k.rid', '=', rid)
    .where('k.asset_id', '=', id)
    .orderBy('k.due_on', 'desc')
    .orderBy('k.id', 'desc')
    .limit(20)
    .execute();
  const day = today();
  return {
    ...toAssetRow(r, day),
    logs: await logsOf(db, rid, id),
    tasks: tasks.map((k) => {
      const status = k.status === 'P' && k.due_on < day ? 'O' : k.status;
      return {
        id: Number(k.id),
        plan_name: k.plan_name,
        due_on: k.due_on,
        status_ch: enumText(MAINTAIN_TASK_STATUS, status),
        done_name: k.done_name,
      };
    }),
  };
}

interface LogEntry {
  action: 'add' | 'state' | 'move';
  from_state?: string;
  to_state?: string;
  from_location?: string;
  to_location?: string;
  remark?: string;
}

async function writeLog(db: Kysely<DB>, rid: number, assetId: number, e: LogEntry, by: Pick<Session, 'accountId' | 'name'> | null) {
  await db
    .insertInto('asset_logs')
    .values({
      rid,
      asset_id: assetId,
      action: e.action,
      from_state: e.from_state ?? '',
      to_state: e.to_state ?? '',
      from_location: e.from_location ?? '',
      to_location: e.to_location ?? '',
      remark: e.remark ?? '',
      operator: by?.name ?? '系统',
      created_by: by?.accountId ?? null,
    })
    .execute();
}

const keywordOf = (v: unknown) => `%${String(v).replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

export const assetMethods = defineResource(asset, {
  table: 'assets',
  query: (db, rid) => assetQuery(db as Kysely<DB>, rid),
  where: {
    keyword: (qb, v) => qb.where((eb) => eb.or([eb('t.name', 'like', keywordOf(v)), eb('t.code', 'like', keywordOf(v))])),
    category_id: (qb, v) => qb.where(sql<boolean>`(t.rid, t.category_id) IN ${subtree(Number(v))}`),
    warranty: (qb, v) =>
      v === 'over'
        ? qb.where(sql<boolean>`t.warranty_end < ${today()}::date`)
        : qb.where(sql<boolean>`t.warranty_end BETWEEN ${today()}::date AND ${today()}::date + ${WARRANTY_SOON_DAYS}::int`),
  },
  row: (r) => toAssetRow(r),
  unique: [{ on: ['code'], message: (v) => `设备编码 ${String(v.code)} 已存在` }],
  values: (input) => ({ ...input, staff_ids: [...new Set((input.staff_ids as number[] | undefined) ?? [])] }),
  async check(ctx, values) {
    await categoryOf(ctx, Number(values.category_id));
    await checkStaff(ctx, (values.staff_ids as number[]) ?? []);
    const { first_use: first, warranty_end: end } = values as { first_use: string | null; warranty_end: string | null };
    if (first && end && end < first) fail('保修截止日期不能早于首次启用日期');
  },
  async after(ctx, id, values, before) {
    if (before) return;
    await writeLog(
      ctx.db,
      ctx.rid,
      id,
      { action: 'add', to_state: String(values.state), to_location: String(values.location ?? '') },
      ctx.session,
    );
  },
  async beforeDelete(ctx, row) {
    const plan = await ctx.db
      .selectFrom('maintain_plans')
      .select('name')
      .where('rid', '=', ctx.rid)
      .where(sql<boolean>`${Number(row.id)}::bigint = ANY(asset_ids)`)
      .executeTakeFirst();
    if (plan) fail(`该设备在维保计划「${plan.name}」中，请先从计划中移除`);
  },
  dependents: { maintain_tasks: '该设备已有维保任务，不能删除（可改为报废）' },
  replace: {
    info: defineMethod('assetinfo', {
      side: 'community',
      roles: ASSET_ROLES.staff,
      writes: false,
      summary: '设备详情：台账字段、资产净值、保修剩余天数，设备日志（登记、状态变更、移动）与最近的维保任务',
      handler: (ctx, input) => assetDetail(ctx.db, ctx.rid, input.id),
    }),
    small: defineMethod('asset_small_list', {
      side: 'community',
      // any staff member picks an asset where another area points at one (a patrol point: docs/product.md#patrols)
      roles: 'staff',
      writes: false,
      summary: '设备下拉（id、title「编码 名称」；报废的不列）',
      async handler(ctx) {
        const rows = await ctx.db
          .selectFrom('assets')
          .select(['id', sql<string>`code || ' ' || name`.as('title')])
          .where('rid', '=', ctx.rid)
          .where('state', '<>', 'X')
          .orderBy('code')
          .limit(2000)
          .execute();
        return { items: rows.map((r) => ({ id: Number(r.id), title: r.title })) };
      },
    }),
  },
  summaries: {
    list: '设备台账：名称、编码（小区内唯一）、分类、品牌、型号、位置、首次启用、保修截止、重要等级、使用状态、采购价格、资产净值（直线法）、责任人；按名称/编码、分类（含下级）、状态、重要等级、保修（30 天内到期/已过保）筛选',
    add: '登记设备（位置与状态之后只能通过移动、状态变更修改，登记本身记入设备日志）',
    edit: '修改设备台账字段（位置与状态除外）',
    del: '删除设备（在维保计划中或已有维保任务时拒绝）',
  },
});

/** Locks the community's asset `id` for a change, or refuses. */
async function lockAsset(ctx: CommunityCtx, id: number) {
  const row = await ctx.db
    .selectFrom('assets')
    .select(['id', 'state', 'location'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row ?? fail('设备不存在');
}

const assetstate = defineMethod('assetstate', {
  side: 'community',
  roles: ASSET_ROLES.staff,
  writes: true,
  summary: '设备状态变更（在用、停用、闲置、报废），记入设备日志；报废后不能再改变状态',
  async handler(ctx, input) {
    const row = await lockAsset(ctx, input.id);
    if (row.state === 'X') fail('设备已报废，不能再改变状态（报废的设备不能重新投入使用）');
    if (row.state === input.state) fail(`设备已是「${enumText(ASSET_STATE, input.state)}」状态`);
    await ctx.db.updateTable('assets').set({ state: input.state }).where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    await writeLog(
      ctx.db,
      ctx.rid,
      input.id,
      { action: 'state', from_state: row.state, to_state: input.state, remark: input.remark },
      ctx.session,
    );
    return reply(
      await assetDetail(ctx.db, ctx.rid, input.id),
      `已由「${enumText(ASSET_STATE, row.state)}」改为「${enumText(ASSET_STATE, input.state)}」`,
    );
  },
});

const assetmove = defineMethod('assetmove', {
  side: 'community',
  roles: ASSET_ROLES.staff,
  writes: true,
  summary: '移动设备到新位置，记入设备日志；报废的设备不能移动',
  async handler(ctx, input) {
    const row = await lockAsset(ctx, input.id);
    if (row.state === 'X') fail('设备已报废，不能移动');
    if (row.location === input.location) fail('新位置与当前位置相同');
    await ctx.db.updateTable('assets').set({ location: input.location }).where('rid', '=', ctx.rid).where('id', '=', input.id).execute();
    await writeLog(
      ctx.db,
      ctx.rid,
      input.id,
      { action: 'move', from_location: row.location, to_location: input.location, remark: input.remark },
      ctx.session,
    );
    return reply(await assetDetail(ctx.db, ctx.rid, input.id), `已移动到「${input.location}」`);
  },
});

const assetlog = defineMethod('assetlog', {
  side: 'community',
  roles: ASSET_ROLES.staff,
  writes: false,
  summary: '设备日志：登记、状态变更（原状态 → 新状态）、移动（原位置 → 新位置）、备注、操作人、时间，新的在前',
  async handler(ctx, input) {
    await assetExists(ctx, input.id);
    return { items: await logsOf(ctx.db, ctx.rid, input.id) };
  },
});

async function assetExists(ctx: CommunityCtx, id: number) {
  const row = await ctx.db.selectFrom('assets').select('id').where('rid', '=', ctx.rid).where('id', '=', id).executeTakeFirst();
  if (!row) fail('设备不存在');
}

const assetlabels = defineMethod('assetlabels', {
  side: 'community',
  roles: ASSET_ROLES.staff,
  writes: false,
  summary: '设备标签的打印内容（一个或一批）：编码（二维码内容）、名称、分类、位置、首次启用、责任人，以及小区名称',
  async handler(ctx, input) {
    const ids = [...new Set(input.ids)];
    const rows = await assetQuery(ctx.db, ctx.rid).where('t.id', 'in', ids).orderBy('t.code').execute();
    if (rows.length !== ids.length) fail('设备不存在');
    const region = await ctx.db.selectFrom('regions').select('title').where('id', '=', ctx.rid).executeTakeFirstOrThrow();
    return {
      community: region.title,
      items: rows.map((r) => ({
        id: Number(r.id),
        code: r.code,
        name: r.name,
        category_name: r.category_name,
        location: r.location,
        first_use: r.first_use,
        staff_names: r.staff_names,
      })),
    };
  },
});

const assetStaffSmallList = defineMethod('asset_staff_small_list', {
  side: 'community',
  roles: ASSET_ROLES.staff,
  writes: false,
  summary: '设备与维保的责任人下拉：本小区启用的、有设备台账权限的员工（id、title 姓名）',
  async handler(ctx) {
    return { items: (await assetStaff(ctx.db, ctx.rid)).map((r) => ({ id: Number(r.id), title: r.name })) };
  },
});

/**
 * Registers the asset of a device another area adds (a door device, a gate, a meter, a charger),
 * in the caller's transaction: in the built-in category `categoryCode` (ACCESS, GATE, METER,
 * PILE…; the community's built-in categories are added when missing), 在用, the category's
 * importance, its registration logged. Answers the asset's id, which the device row keeps as
 * `asset_id`. Refuses (设备编码 X 已存在) a code the ledger has already.
 */
export async function createAssetFor(
  db: Kysely<DB>,
  rid: number,
  a: { title: string; code: string; categoryCode: string; location: string; by?: Pick<Session, 'accountId' | 'name'> | null },
): Promise<number> {
  let cate = await db
    .selectFrom('asset_categories')
    .select(['id', 'importance'])
    .where('rid', '=', rid)
    .where('code', '=', a.categoryCode)
    .executeTakeFirst();
  if (!cate) {
    await ensureBuiltinCategories(db, rid);
    cate = await db
      .selectFrom('asset_categories')
      .select(['id', 'importance'])
      .where('rid', '=', rid)
      .where('code', '=', a.categoryCode)
      .executeTakeFirst();
  }
  if (!cate) fail(`设备分类 ${a.categoryCode} 不存在`);
  const taken = await db.selectFrom('assets').select('id').where('rid', '=', rid).where('code', '=', a.code).executeTakeFirst();
  if (taken) fail(`设备编码 ${a.code} 已存在`);
  const row = await db
    .insertInto('assets')
    .values({
      rid,
      category_id: cate.id,
      name: a.title,
      code: a.code,
      location: a.location,
      importance: cate.importance,
      state: 'U',
      created_by: a.by?.accountId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await writeLog(db, rid, id, { action: 'add', to_state: 'U', to_location: a.location }, a.by ?? null);
  return id;
}

/** The ledger's category of each device family's assets. */
const DEVICE_CATEGORY = { door: 'ACCESS', gate: 'GATE', meter: 'METER', pile: 'PILE' } as const;

/**
 * Makes device `deviceId` an asset of the ledger (docs/product.md#equipment-ledger), in the caller's
 * transaction: the asset of the same code when the ledger has one no other device holds (it was
 * registered first), else a new one in its family's built-in category (createAssetFor). The device
 * row keeps it as `asset_id`; a device that has one already is left alone. Answers the asset's id.
 */
export async function linkDeviceAsset(db: Kysely<DB>, rid: number, deviceId: number, by: Pick<Session, 'accountId' | 'name'> | null) {
  // a gate stands at its booth: the lot and booth are its place
  const d = await db
    .selectFrom('devices as d')
    .leftJoin('parking_booths as b', (j) => j.onRef('b.rid', '=', 'd.rid').onRef('b.id', '=', 'd.booth_id'))
    .leftJoin('parking_lots as l', (j) => j.onRef('l.rid', '=', 'b.rid').onRef('l.id', '=', 'b.lot_id'))
    .select(['d.family', 'd.code', 'd.title', 'd.asset_id'])
    .select(sql<string>`coalesce(nullif(d.address, ''), concat_ws(' ', l.title, b.title))`.as('place'))
    .where('d.rid', '=', rid)
    .where('d.id', '=', deviceId)
    .executeTakeFirstOrThrow();
  if (d.asset_id !== null) return Number(d.asset_id);
  const same = await db
    .selectFrom('assets as a')
    .select('a.id')
    .where('a.rid', '=', rid)
    .where('a.code', '=', d.code)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('devices as o').select('o.id').whereRef('o.rid', '=', 'a.rid').whereRef('o.asset_id', '=', 'a.id'))),
    )
    .executeTakeFirst();
  const assetId = same
    ? Number(same.id)
    : await createAssetFor(db, rid, {
        title: d.title,
        code: d.code,
        categoryCode: DEVICE_CATEGORY[d.family as keyof typeof DEVICE_CATEGORY],
        location: d.place,
        by,
      });
  await db.updateTable('devices').set({ asset_id: assetId }).where('rid', '=', rid).where('id', '=', deviceId).execute();
  return assetId;
}

export const ledgerModule = [...categoryMethods, ...assetMethods, assetstate, assetmove, assetlog, assetlabels, assetStaffSmallList];
