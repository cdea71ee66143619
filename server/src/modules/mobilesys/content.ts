/**
 * The owner app's content (docs/product.md#owner-app): 图文 (articles, banners, notice-board posts)
 * with a publish window, the app's menu entries, and what the app's home shows on a day.
 */
import {
  BANNERS_PER_PLACEMENT,
  GRAPHIC_KIND,
  GRAPHIC_STATUS,
  MOBILESYS_ROLES,
  TABBAR_MAX,
  appMenu,
  enumText,
  graphic,
  linkProblem,
  type AppHome,
  type AppServiceCode,
  type GraphicItem,
  type GraphicStatus,
  type MenuItem,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type CommunityCtx } from '../../http/registry.js';
import { defineResource } from '../../lib/resource.js';

type Values = Record<string, unknown>;
import { today } from '../../lib/wire.js';
import { sanitizeNoticeHtml } from '../steward/noticeHtml.js';
import { servicesOf } from './apply.js';
import { groupBannersFor } from '../leader/banners.js';
import { groupArticlesFor, mergeNews } from '../leader/graphics.js';

const ROLES = MOBILESYS_ROLES.content;

/** The status as read on `day`: a published row before its window is 待上线, after it 已下线. */
const statusSql = (day: string) =>
  sql<GraphicStatus>`CASE WHEN t.status <> 'P' THEN t.status
    WHEN t.online_date > ${day}::date THEN 'S'
    WHEN t.offline_date < ${day}::date THEN 'X' ELSE 'P' END`;

const graphicQuery = (db: Kysely<DB>, rid: number) =>
  db
    .selectFrom('app_graphics as t')
    .leftJoin('accounts as p', 'p.id', 't.published_by')
    .leftJoin('accounts as c', 'c.id', 't.created_by')
    .select([
      't.id',
      't.title',
      't.kind',
      't.cover',
      't.summary',
      't.body',
      't.link_type',
      't.link',
      't.placement',
      't.sort',
      't.views',
      't.created_at',
    ])
    .select(sql<string>`to_char(t.online_date, 'YYYY-MM-DD')`.as('online_date'))
    .select(sql<string>`coalesce(to_char(t.offline_date, 'YYYY-MM-DD'), '')`.as('offline_date'))
    .select(statusSql(today()).as('status'))
    .select(sql<string>`coalesce(p.name, '')`.as('publisher'))
    .select(
      sql<string>`coalesce(to_char(t.published_at AT TIME ZONE current_setting('TimeZone'), 'YYYY-MM-DD HH24:MI:SS'), '')`.as(
        'publish_time',
      ),
    )
    .select(sql<string>`coalesce(c.name, '')`.as('creator'))
    .where('t.rid', '=', rid);

/** What an add or an edit writes: the body through the notices' allow-list, a link only where it goes somewhere. */
async function graphicValues(input: Values, ctx: CommunityCtx, before?: Values): Promise<Values> {
  const v: Values = { ...input };
  v.body = sanitizeNoticeHtml(String(input.body ?? ''));
  if (v.link_type === 'none') v.link = '';
  if (v.kind !== 'banner') v.placement = 'home';
  if (!before) v.created_by = ctx.session.accountId;
  return v;
}

async function checkGraphic(ctx: CommunityCtx, v: Values): Promise<void> {
  if ((v.kind === 'article' || v.kind === 'notice') && !String(v.body ?? '').trim())
    fail(`${v.kind === 'article' ? '文章' : '公示'}请填写正文`);
  const problem = linkProblem(String(v.link_type), String(v.link ?? ''));
  if (problem) fail(problem);
  if (v.link_type === 'article') {
    const target = await ctx.db
      .selectFrom('app_graphics')
      .select('kind')
      .where('rid', '=', ctx.rid)
      .where('id', '=', Number(v.link))
      .executeTakeFirst();
    if (!target || target.kind === 'banner') fail('跳转的图文不存在');
  }
}

export const graphicMethods = defineResource(graphic, {
  table: 'app_graphics',
  query: graphicQuery,
  where: {
    status: (qb, value) => qb.where(sql<boolean>`${statusSql(today())} = ${String(value)}`),
  },
  row: (r: GraphicItem & { id: unknown }) => ({ ...r, id: Number(r.id), status_ch: enumText(GRAPHIC_STATUS, r.status) }),
  values: graphicValues,
  async check(ctx, values) {
    await checkGraphic(ctx, values);
  },
  async beforeDelete(_ctx, row) {
    if (row.status === 'P') fail('已发布的图文请先撤回，再删除');
  },
  order: (p) => [sql.raw(`${p}sort`)],
  summaries: {
    list: '图文列表（文章、轮播图、公示：标题、类型、封面、跳转、位置、排序、上下线日期、状态 草稿/待上线/已上线/已下线/已撤回、阅读数）',
    add: '新增图文（草稿；正文按公告的白名单清洗；轮播图须有封面；跳转目标按类型校验）',
    edit: '修改图文（已发布的修改后立即生效）',
    del: '删除图文（已发布的须先撤回）',
  },
});

export const appMenuMethods = defineResource(appMenu, {
  table: 'app_menus',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('app_menus as t')
      .select([
        't.id',
        't.title',
        't.icon',
        't.position',
        't.link_type',
        't.target',
        't.badge',
        't.audience',
        't.sort',
        't.status',
        't.created_at',
      ])
      .where('t.rid', '=', rid),
  row: (r: Values) => ({ ...r, id: Number(r.id) }),
  // an entry opening a service the community does not offer (its own switch, the group's catalogue,
  // a closed module) does not show in the app (/apply; apphome hides it by the same services)
  async rowWith(db, rid) {
    const services = await servicesOf(db, rid);
    return (r: MenuItem) => {
      const service = r.link_type === 'service' ? services.get(r.target as AppServiceCode) : undefined;
      return { ...r, hidden_reason: service?.enabled === 'N' ? `应用“${service.title}”未开通` : '' };
    };
  },
  values: (input, ctx, before) => (before ? input : { ...input, created_by: ctx.session.accountId }),
  async check(ctx, v, before) {
    const problem = linkProblem(String(v.link_type), String(v.target ?? ''));
    if (problem) fail(problem);
    if (v.position === 'tabbar' && v.status !== 'N') {
      let q = ctx.db
        .selectFrom('app_menus')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('rid', '=', ctx.rid)
        .where('position', '=', 'tabbar')
        .where('status', '=', 'Y');
      if (before) q = q.where('id', '<>', Number(before.id));
      const { n } = await q.executeTakeFirstOrThrow();
      if (n >= TABBAR_MAX) fail(`底部导航最多${TABBAR_MAX}个启用的菜单`);
    }
  },
  unique: [{ on: ['position', 'title'], message: (v) => `该位置已有菜单“${String(v.title)}”` }],
  order: (p) => [sql.raw(`${p}position`), sql.raw(`${p}sort`)],
  summaries: {
    list: '业主App菜单（名称、图标、位置 首页金刚区/服务页/我的/底部导航、跳转、角标、可见对象、排序、状态）',
    add: '新增菜单（名称不超过6个字；底部导航最多5个启用的；跳转目标按类型校验）',
  },
});

async function graphicRow(ctx: CommunityCtx, id: number): Promise<GraphicItem> {
  const r = await graphicQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirst();
  if (!r) return fail('图文不存在');
  return { ...r, id: Number(r.id), create_time: '', status_ch: enumText(GRAPHIC_STATUS, r.status) } as unknown as GraphicItem;
}

/** How many banners of a placement are online on a day. */
async function bannersOnline(db: Kysely<DB>, rid: number, placement: 'home' | 'service' | 'mine' | 'launch', day: string): Promise<number> {
  const { n } = await db
    .selectFrom('app_graphics as t')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('t.rid', '=', rid)
    .where('t.kind', '=', 'banner')
    .where('t.placement', '=', placement)
    .where(statusSql(day), '=', 'P')
    .executeTakeFirstOrThrow();
  return n;
}

const graphicpublish = defineMethod('graphicpublish', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary: '发布图文（草稿或已撤回的；按上线日期展示，到下线日期后为已下线；同一位置上线的轮播图超过5个时提示）',
  async handler(ctx, input) {
    const row = await ctx.db
      .selectFrom('app_graphics')
      .selectAll()
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return fail('图文不存在');
    if (row.status === 'P') fail('该图文已发布');
    await checkGraphic(ctx, { ...row, body: row.body });
    await ctx.db
      .updateTable('app_graphics')
      .set({ status: 'P', published_at: new Date(), published_by: ctx.session.accountId })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    const day = today();
    const status = (await graphicRow(ctx, input.id)).status;
    let warning = '';
    if (row.kind === 'banner' && status === 'P') {
      const n = await bannersOnline(ctx.db, ctx.rid, row.placement, day);
      if (n > BANNERS_PER_PLACEMENT) warning = `该位置已有${n}个上线的轮播图，App只轮播前${BANNERS_PER_PLACEMENT}个（按排序）`;
    }
    return reply({ id: input.id, status, warning }, status === 'S' ? `已发布，将于${String(row.online_date)}上线` : '发布成功');
  },
});

const graphicwithdraw = defineMethod('graphicwithdraw', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary: '撤回已发布的图文（App不再展示，可修改后再发布）',
  async handler(ctx, input) {
    const done = await ctx.db
      .updateTable('app_graphics')
      .set({ status: 'W' })
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .where('status', '=', 'P')
      .returning('id')
      .executeTakeFirst();
    if (!done) {
      await graphicRow(ctx, input.id);
      fail('只能撤回已发布的图文');
    }
    return reply({ id: input.id }, '已撤回');
  },
});

// the owner app's read, through the app's gateway (not the console's): with the content roles, as no
// owner session exists in the console (docs/product.md#owner-app)
const graphicview = defineMethod('graphicview', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary: '业主App打开图文：阅读数加一，返回图文（只限上线中的）',
  async handler(ctx, input) {
    const row = await graphicRow(ctx, input.id);
    if (row.status !== 'P') fail('该图文未上线');
    await ctx.db
      .updateTable('app_graphics')
      .set((eb) => ({ views: eb('views', '+', 1) }))
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .execute();
    return { ...row, views: row.views + 1 };
  },
});

const graphicSmallList = defineMethod('graphic_small_list', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '图文下拉（文章与公示，跳转到图文详情时选择）',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('app_graphics')
      .select(['id', 'title'])
      .where('rid', '=', ctx.rid)
      .where('kind', '<>', 'banner')
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
    return { items: rows.map((r) => ({ id: Number(r.id), title: r.title })) };
  },
});

const apphome = defineMethod('apphome', {
  side: 'community',
  roles: [...ROLES, ...MOBILESYS_ROLES.apply],
  writes: false,
  summary: '业主App首页在某日的样子（预览）：首页顶部轮播图、金刚区与底部导航（已开通的功能）、最新的文章和公示',
  async handler(ctx, input): Promise<AppHome> {
    const day = input.date || today();
    const audience = input.audience;
    const [groupBanners, groupNews, banners, menus, news, services] = await Promise.all([
      groupBannersFor(ctx.db, ctx.rid, 'home', day),
      groupArticlesFor(ctx.db, ctx.rid, day, 10),
      ctx.db
        .selectFrom('app_graphics as t')
        .select(['t.id', 't.title', 't.cover', 't.link_type', 't.link'])
        .where('t.rid', '=', ctx.rid)
        .where('t.kind', '=', 'banner')
        .where('t.placement', '=', 'home')
        .where(statusSql(day), '=', 'P')
        .orderBy('t.sort')
        .orderBy('t.id')
        .execute(),
      ctx.db
        .selectFrom('app_menus')
        .select(['id', 'title', 'icon', 'badge', 'link_type', 'target', 'position'])
        .where('rid', '=', ctx.rid)
        .where('status', '=', 'Y')
        .where('position', 'in', ['grid', 'tabbar'])
        .where((eb) => (audience === 'all' ? eb.val(true) : eb('audience', 'in', ['all', audience])))
        .orderBy('sort')
        .orderBy('id')
        .execute(),
      ctx.db
        .selectFrom('app_graphics as t')
        .select(['t.id', 't.title', 't.kind', 't.cover', 't.summary', 't.views'])
        .select(sql<string>`to_char(t.online_date, 'YYYY-MM-DD')`.as('online_date'))
        .where('t.rid', '=', ctx.rid)
        .where('t.kind', '<>', 'banner')
        .where(statusSql(day), '=', 'P')
        .orderBy('t.online_date', 'desc')
        .orderBy('t.id', 'desc')
        .limit(10)
        .execute(),
      servicesOf(ctx.db, ctx.rid),
    ]);
    const offered = (m: { link_type: string; target: string }) =>
      m.link_type !== 'service' || services.get(m.target as AppServiceCode)?.enabled === 'Y';
    const asMenu = (m: (typeof menus)[number]) => ({
      id: Number(m.id),
      title: m.title,
      icon: m.icon,
      badge: m.badge as '' | 'new' | 'hot',
      link_type: m.link_type,
      target: m.target,
    });
    const grid = menus.filter((m) => m.position === 'grid' && offered(m)).map(asMenu);
    const tabbar = menus.filter((m) => m.position === 'tabbar' && offered(m)).map(asMenu);
    const warnings: string[] = [];
    // the group's banners for this community come first, before the community's own: the head
    // office's campaigns run across its communities (/apply/bannerlist on the group side)
    const shown: AppHome['banners'] = [
      ...groupBanners.map((b) => ({
        id: b.id,
        title: b.title,
        cover: b.image,
        link_type: b.link_type as AppHome['banners'][number]['link_type'],
        link: b.target,
        source: 'group' as const,
      })),
      ...banners.map((b) => ({
        ...b,
        id: Number(b.id),
        link_type: b.link_type as AppHome['banners'][number]['link_type'],
        source: 'community' as const,
      })),
    ];
    if (shown.length > BANNERS_PER_PLACEMENT)
      warnings.push(
        `首页顶部有${shown.length}个上线的轮播图${groupBanners.length > 0 ? `（其中集团${groupBanners.length}个，排在前面）` : ''}，App只轮播前${BANNERS_PER_PLACEMENT}个`,
      );
    if (tabbar.length === 1) warnings.push('底部导航只有1个菜单，App至少需要2个，否则不显示底部导航');
    const hiddenByService = menus.filter((m) => !offered(m)).length;
    if (hiddenByService > 0) warnings.push(`${hiddenByService}个菜单指向未开通的应用，已隐藏`);
    return {
      date: day,
      audience,
      banners: shown,
      grid,
      tabbar: tabbar.length >= 2 ? tabbar : [],
      // the group's articles for this community beside its own, the group's pinned ones first
      // (/mobile/graphiclist on the group side)
      news: mergeNews(
        groupNews.map((g) => ({
          id: g.id,
          title: g.title,
          kind: 'article' as const,
          kind_ch: g.category_ch,
          cover: g.cover,
          summary: g.summary,
          online_date: g.date,
          date: g.date,
          views: g.views,
          pinned: g.pinned,
        })),
        news.map((n) => ({
          ...n,
          id: Number(n.id),
          kind: n.kind as AppHome['news'][number]['kind'],
          kind_ch: enumText(GRAPHIC_KIND, n.kind),
          date: n.online_date,
          pinned: 'N' as 'Y' | 'N',
        })),
        10,
      ).map(({ item: { date: _date, pinned: _pinned, ...n }, source }) => ({ ...n, source })),
      warnings,
    };
  },
});

export const contentModule = [
  ...graphicMethods,
  ...appMenuMethods,
  graphicpublish,
  graphicwithdraw,
  graphicview,
  graphicSmallList,
  apphome,
];
