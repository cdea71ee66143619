/**
 * 轮播图 of the group (/apply/bannerlist on the group side; issue 45 "Owner app layout and
 * content"): the head office's banners for all its communities or chosen ones, described as a
 * resource served on the group side alone (contract/src/leader/banners.ts). The owner app's tap
 * (`bannerclick`, community side, through the app's gateway as `graphicview` is) counts a click;
 * a community's home (`apphome`) reads `groupBannersFor` before its own banners.
 */
import { BANNER_ROLES, BANNER_STATUS, MOBILESYS_ROLES, banner, enumText, linkProblem, type BannerItem } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, type Ctx, type Session } from '../../http/registry.js';
import { defineResource } from '../../lib/resource.js';
import { today } from '../../lib/wire.js';
import { foreignRegions } from '../structure/groupRegion.js';

type Values = Record<string, unknown>;
type GroupCall = Ctx & { session: Session };

/** The status on `day`: N switched off, S before the window, X after it, P shown. */
const statusSql = (day: string) =>
  sql<BannerItem['status']>`CASE WHEN t.enabled = 'N' THEN 'N'
    WHEN t.start_date > ${day}::date THEN 'S'
    WHEN t.end_date < ${day}::date THEN 'X' ELSE 'P' END`;

const bannerQuery = (db: Kysely<DB>, groupId: number) =>
  db
    .selectFrom('group_banners as t')
    .select([
      't.id',
      't.title',
      't.image',
      't.position',
      't.link_type',
      't.target',
      't.region_scope',
      't.rids',
      't.sort',
      't.enabled',
      't.clicks',
      't.created_at',
    ])
    .select(sql<string>`to_char(t.start_date, 'YYYY-MM-DD')`.as('start_date'))
    .select(sql<string>`to_char(t.end_date, 'YYYY-MM-DD')`.as('end_date'))
    .select(statusSql(today()).as('status'))
    .select(
      sql<string>`CASE WHEN t.region_scope = 'all' THEN '集团全部小区'
        ELSE coalesce((SELECT string_agg(r.title, '、' ORDER BY r.id) FROM regions r WHERE r.id = ANY(t.rids) AND r.group_id = t.group_id), '') END`.as(
        'regions_text',
      ),
    )
    .where('t.group_id', '=', groupId);

/**
 * The communities chosen, each once, all of the caller's group; a list naming another's (or none)
 * is refused in words that say so.
 */
async function checkRegions(ctx: GroupCall, rids: number[]): Promise<void> {
  if (rids.length === 0) fail('请选择适用的小区');
  const foreign = await foreignRegions(ctx.db, ctx.session.groupId, rids);
  if (foreign.length > 0) fail(`所选小区不存在或不属于本集团（ID：${foreign.join('、')}）`);
}

export const bannerMethods = defineResource(banner, {
  table: 'group_banners',
  query: (db, groupId) => bannerQuery(db as Kysely<DB>, groupId),
  where: {
    status: (qb, value) => qb.where(sql<boolean>`${statusSql(today())} = ${String(value)}`),
    region_id: (qb, value) => qb.where(sql<boolean>`(t.region_scope = 'all' OR ${Number(value)}::int = ANY(t.rids))`),
  },
  row: (r: BannerItem & { id: unknown; rids: unknown }) => ({
    ...r,
    id: Number(r.id),
    rids: ((r.rids as number[] | null) ?? []).map(Number),
    status_ch: enumText(BANNER_STATUS, r.status),
  }),
  values(input, ctx, before) {
    const v: Values = { ...input };
    // a banner for the whole group names no community; the chosen ones each once
    v.rids = v.region_scope === 'all' ? [] : [...new Set((v.rids as number[] | undefined) ?? [])];
    if (v.link_type === 'none') v.target = '';
    if (!before) v.created_by = ctx.session.accountId;
    return v;
  },
  async check(ctx, v) {
    if (String(v.end_date) < String(v.start_date)) fail('结束日期不能早于开始日期');
    const problem = linkProblem(String(v.link_type), String(v.target ?? ''));
    if (problem) fail(problem);
    if (v.region_scope === 'some') await checkRegions(ctx, v.rids as number[]);
  },
  order: (p) => [sql.raw(`${p}position`), sql.raw(`${p}sort`)],
  summaries: {
    list: '集团轮播图列表（标题、图片、位置 首页顶部/服务页/应用页/我的、跳转、适用小区、起止日期、排序、状态 未开始/展示中/已结束/停用、点击数）；按标题、位置、状态、小区筛选',
    add: '新增集团轮播图（图片必传；跳转目标按类型校验；指定小区须为本集团的小区；结束日期不早于开始日期）',
    edit: '修改集团轮播图（点击数不变）',
    del: '删除集团轮播图',
    info: '集团轮播图详情',
  },
});

const bannerRegionSmallList = defineMethod('bannerregion_small_list', {
  side: 'group',
  roles: BANNER_ROLES,
  writes: false,
  summary: '本集团的小区下拉（集团轮播图、应用目录选择适用小区）',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('regions')
      .select(['id', 'title'])
      .where('group_id', '=', ctx.session.groupId)
      .orderBy('id')
      .execute();
    return { items: rows.map((r) => ({ id: Number(r.id), title: r.title })) };
  },
});

/**
 * The group's banners a community shows at a position on a day: enabled, in their window, for the
 * whole group or naming the community; in the group's order.
 */
export async function groupBannersFor(db: Kysely<DB>, rid: number, position: BannerItem['position'], day: string) {
  const rows = await db
    .selectFrom('group_banners as t')
    .innerJoin('regions as r', (j) => j.onRef('r.group_id', '=', 't.group_id').on('r.id', '=', rid))
    .select(['t.id', 't.title', 't.image', 't.link_type', 't.target'])
    .where('t.position', '=', position)
    .where('t.enabled', '=', 'Y')
    .where(sql<boolean>`t.start_date <= ${day}::date AND t.end_date >= ${day}::date`)
    .where(sql<boolean>`(t.region_scope = 'all' OR ${rid}::int = ANY(t.rids))`)
    .orderBy('t.sort')
    .orderBy('t.id')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

// the owner app's tap, through the app's gateway (not the console's): with the content roles, as
// graphicview, since no owner session exists in the console (docs/product.md#owner-app)
const bannerclick = defineMethod('bannerclick', {
  side: 'community',
  roles: MOBILESYS_ROLES.content,
  writes: true,
  summary: '业主App点击集团轮播图：点击数加一，返回跳转（只限本小区今日展示中的）',
  async handler(ctx, input) {
    const day = today();
    const done = await ctx.db
      .updateTable('group_banners as t')
      .set((eb) => ({ clicks: eb('t.clicks', '+', 1) }))
      .where('t.id', '=', input.id)
      .where('t.group_id', '=', (eb) => eb.selectFrom('regions').select('group_id').where('id', '=', ctx.rid))
      .where('t.enabled', '=', 'Y')
      .where(sql<boolean>`t.start_date <= ${day}::date AND t.end_date >= ${day}::date`)
      .where(sql<boolean>`(t.region_scope = 'all' OR ${ctx.rid}::int = ANY(t.rids))`)
      .returning(['t.id', 't.clicks', 't.link_type', 't.target'])
      .executeTakeFirst();
    if (!done) return fail('该轮播图不存在或不在本小区展示');
    return { id: Number(done.id), clicks: done.clicks, link_type: done.link_type, target: done.target };
  },
});

/** The head office's banners (group side). */
export const bannersModule = [...bannerMethods, bannerRegionSmallList];
/** The owner app's tap on one (community side, in the owner app's module). */
export const bannerAppModule = [bannerclick];
