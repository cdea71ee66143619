/**
 * Access regions (/carpark/setregions; docs/product.md#access-control): the devices a grant of the
 * region opens and the default time plan. Each unit with a unit-door device gets a region of its own
 * automatically (auto = Y): the community gates, its building's doors and its unit's doors, kept up
 * to date whenever a door device is added or changed; 生成单元区域 (accessregiongenerate) makes one
 * for every unit. A change of a region's devices, plan or state is pushed to its grants' devices.
 */
import { accessRegion } from '@wuye/contract';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { registerDependents } from '../../lib/dependents.js';
import { defineResource } from '../../lib/resource.js';
import { resyncGrants } from './sync.js';

registerDependents({ access_regions: '门禁区域', access_grant_regions: '门禁授权' });

type Values = Record<string, unknown>;
const chosenDevices = new WeakMap<Values, number[]>();

/** '06:00-12:00,14:00-22:00' ⇄ [{ start, end }] */
export const windowsToJson = (text: string) =>
  JSON.stringify(
    text === ''
      ? []
      : text.split(',').map((w) => {
          const [start, end] = w.split('-') as [string, string];
          return { start, end };
        }),
  );
export const windowsToText = (json: unknown): string => {
  if (typeof json === 'string' && !json.startsWith('[')) return json;
  const list = (typeof json === 'string' ? JSON.parse(json) : json) as Array<{ start: string; end: string }> | null;
  return (list ?? []).map((w) => `${w.start}-${w.end}`).join(',');
};

async function setRegionDevices(db: Kysely<DB>, rid: number, regionId: number, deviceIds: number[]): Promise<boolean> {
  const now = await db
    .selectFrom('access_region_devices')
    .select('device_id')
    .where('rid', '=', rid)
    .where('region_id', '=', regionId)
    .execute();
  const have = new Set(now.map((r) => Number(r.device_id)));
  const want = new Set(deviceIds);
  const gone = [...have].filter((d) => !want.has(d));
  const added = [...want].filter((d) => !have.has(d));
  if (gone.length)
    await db
      .deleteFrom('access_region_devices')
      .where('rid', '=', rid)
      .where('region_id', '=', regionId)
      .where('device_id', 'in', gone)
      .execute();
  if (added.length)
    await db
      .insertInto('access_region_devices')
      .values(added.map((device_id) => ({ rid, region_id: regionId, device_id })))
      .execute();
  return gone.length > 0 || added.length > 0;
}

/**
 * The units' automatic regions brought up to date: one for each unit with a unit-door device (each
 * unit of the community with `allUnits`), holding the community gates, its building's doors and its
 * unit's doors. Grants of a region whose devices changed are pushed again.
 */
export async function refreshUnitRegions(db: Kysely<DB>, rid: number, allUnits = false, createdBy: number | null = null) {
  const doors = await db
    .selectFrom('devices')
    .select(['id', 'location', 'bid', 'tid'])
    .where('rid', '=', rid)
    .where('family', '=', 'door')
    .execute();
  const gates = doors.filter((d) => d.location === 'community').map((d) => Number(d.id));
  const unitsWithDoor = new Set(doors.filter((d) => d.location === 'unit').map((d) => Number(d.tid)));
  const units = await db
    .selectFrom('units as u')
    .innerJoin('buildings as b', (j) => j.onRef('b.rid', '=', 'u.rid').onRef('b.id', '=', 'u.bid'))
    .leftJoin('access_regions as r', (j) => j.onRef('r.rid', '=', 'u.rid').onRef('r.tid', '=', 'u.id').on('r.auto', '=', 'Y'))
    .select(['u.id', 'u.bid', 'u.title as unit_title', 'b.title as building_title', 'r.id as region_id'])
    .where('u.rid', '=', rid)
    .orderBy('u.id')
    .execute();
  let created = 0;
  let updated = 0;
  const changed: number[] = [];
  for (const u of units) {
    const tid = Number(u.id);
    const bid = Number(u.bid);
    let regionId = u.region_id === null ? null : Number(u.region_id);
    if (regionId === null) {
      if (!allUnits && !unitsWithDoor.has(tid)) continue;
      const title = `${u.building_title}${u.unit_title}（自动）`;
      const row = await db
        .insertInto('access_regions')
        .values({ rid, title, scope: 'unit', bid, tid, auto: 'Y', created_by: createdBy })
        .onConflict((oc) => oc.columns(['rid', 'title']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) continue;
      regionId = Number(row.id);
      created++;
    }
    const mine = doors
      .filter((d) => (d.location === 'building' && Number(d.bid) === bid) || (d.location === 'unit' && Number(d.tid) === tid))
      .map((d) => Number(d.id));
    if (await setRegionDevices(db, rid, regionId, [...gates, ...mine])) {
      updated++;
      changed.push(regionId);
    }
  }
  if (changed.length) await resyncGrants(db, rid, { regionIds: changed }, createdBy);
  return { created, updated };
}

async function checkRegion(ctx: CommunityCtx, values: Values) {
  const scope = values.scope as string;
  if (scope === 'community') {
    values.bid = null;
    values.tid = null;
  } else {
    const b = await ctx.db
      .selectFrom('buildings')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('id', '=', Number(values.bid))
      .executeTakeFirst();
    if (!b) fail('所选楼栋不存在');
    if (scope === 'building') values.tid = null;
    else {
      const u = await ctx.db
        .selectFrom('units')
        .select('id')
        .where('rid', '=', ctx.rid)
        .where('id', '=', Number(values.tid))
        .where('bid', '=', Number(values.bid))
        .executeTakeFirst();
      if (!u) fail('所选单元不存在或不属于该楼栋');
    }
  }
  const ids = [...new Set((values.device_ids as number[] | undefined) ?? [])];
  if (ids.length) {
    const found = await ctx.db
      .selectFrom('devices')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('family', '=', 'door')
      .where('id', 'in', ids)
      .execute();
    if (found.length !== ids.length) fail('所选门禁设备不存在');
  }
  delete values.device_ids;
  chosenDevices.set(values, ids);
}

export const regionMethods = defineResource(accessRegion, {
  table: 'access_regions',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('access_regions as t')
      .leftJoin('buildings as b', (j) => j.onRef('b.rid', '=', 't.rid').onRef('b.id', '=', 't.bid'))
      .leftJoin('units as u', (j) => j.onRef('u.rid', '=', 't.rid').onRef('u.id', '=', 't.tid'))
      .selectAll('t')
      .select(sql<string>`concat_ws(' / ', b.title, u.title)`.as('place'))
      .select(
        sql<
          string[]
        >`coalesce((SELECT array_agg(rd.device_id::text ORDER BY rd.device_id) FROM access_region_devices rd WHERE rd.rid = t.rid AND rd.region_id = t.id), '{}')`.as(
          'device_id_list',
        ),
      )
      .select(
        sql<string>`coalesce((SELECT string_agg(d.title, '、' ORDER BY d.id) FROM access_region_devices rd JOIN devices d ON d.rid = rd.rid AND d.id = rd.device_id WHERE rd.rid = t.rid AND rd.region_id = t.id), '')`.as(
          'device_titles',
        ),
      )
      .select(
        sql<number>`(SELECT count(*)::int FROM access_grant_regions g JOIN access_grants a ON a.rid = g.rid AND a.id = g.grant_id WHERE g.rid = t.rid AND g.region_id = t.id AND a.revoked_at IS NULL)`.as(
          'grant_count',
        ),
      )
      .where('t.rid', '=', rid),
  row: (r) => ({
    ...r,
    id: Number(r.id),
    bid: r.bid === null ? null : Number(r.bid),
    tid: r.tid === null ? null : Number(r.tid),
    device_ids: (r.device_id_list as string[]).map(Number),
    device_id_list: undefined,
    windows: windowsToText(r.windows),
    created_by: undefined,
  }),
  unique: [{ on: ['title'], message: (v) => `门禁区域「${String(v.title)}」已存在` }],
  values: (input, ctx, before) => ({
    ...input,
    windows: windowsToJson(String(input.windows ?? '')),
    ...(before ? {} : { created_by: ctx.session.accountId }),
  }),
  check: (ctx, values) => checkRegion(ctx, values),
  async after(ctx, id, values, before) {
    const devicesChanged = await setRegionDevices(ctx.db, ctx.rid, id, chosenDevices.get(values) ?? []);
    const planChanged =
      before !== undefined &&
      (before.enabled !== values.enabled ||
        before.weekdays !== values.weekdays ||
        windowsToJson(windowsToText(before.windows)) !== values.windows);
    if (devicesChanged || planChanged) await resyncGrants(ctx.db, ctx.rid, { regionIds: [id] }, ctx.session.accountId);
  },
  async beforeDelete(ctx, row) {
    const n = await ctx.db
      .selectFrom('access_grant_regions')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where('region_id', '=', Number(row.id))
      .executeTakeFirstOrThrow();
    if (n.n > 0) fail(`该门禁区域下还有 ${n.n} 个授权，不能删除`);
  },
  replace: {
    small: defineMethod('accessregion_small_list', {
      side: 'community',
      roles: ACCESS_ROLES.staff,
      writes: false,
      summary: '门禁区域下拉（id、title）',
      async handler(ctx) {
        const items = await ctx.db.selectFrom('access_regions').select(['id', 'title']).where('rid', '=', ctx.rid).orderBy('id').execute();
        return { items: items.map((r) => ({ id: Number(r.id), title: r.title })) };
      },
    }),
  },
  summaries: {
    list: '门禁区域列表：名称、范围（小区/楼栋/单元）、设备、默认通行时间（星期与至多三段时段）、启用、来源（自动生成/手工）、授权人数',
    add: '新增门禁区域（名称在小区内唯一）',
    edit: '修改门禁区域；设备、时间或启用状态变化时，区域内的授权重新下发到设备',
    del: '删除门禁区域（还有授权时拒绝）',
  },
});

const accessregiongenerate = defineMethod('accessregiongenerate', {
  side: 'community',
  roles: ACCESS_ROLES.staff,
  writes: true,
  summary: '生成单元区域：为每个单元建立自动门禁区域（小区大门、本楼栋门与本单元门的设备），已有的按设备更新',
  async handler(ctx) {
    const r = await refreshUnitRegions(ctx.db, ctx.rid, true, ctx.session.accountId);
    return reply(r, `已生成 ${r.created} 个、更新 ${r.updated} 个单元区域`);
  },
});

export const regionModule = [...regionMethods, accessregiongenerate];
