/**
 * 图文 of the group (/mobile/graphiclist on the group side; SPEC "/mobile (graphic list/add/edit)"):
 * the head office's articles for all its communities or chosen ones, described as a resource served
 * on the group side alone (contract/src/leader/graphics.ts), with the community side's content
 * model: the body through the notices' allow-list, a publish date. 发布/下线 is
 * `leadergraphicpublish`. A community's owners see the group's published articles for it beside the
 * community's own (`groupArticlesFor`: `apphome`, the DIY pages' article list), pinned ones first;
 * the owner app's read (`groupgraphicview`, community side, through the app's gateway as
 * `graphicview` is) counts one view.
 */
import {
  LEADER_GRAPHIC_CATEGORY,
  LEADER_GRAPHIC_ROLES,
  LEADER_GRAPHIC_STATUS,
  MOBILESYS_ROLES,
  enumText,
  leaderGraphic,
  type GroupArticle,
  type LeaderGraphicItem,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type Ctx, type Session } from '../../http/registry.js';
import { defineResource, wireRows } from '../../lib/resource.js';
import { today } from '../../lib/wire.js';
import { sanitizeNoticeHtml } from '../steward/noticeHtml.js';
import { foreignRegions } from '../structure/groupRegion.js';

type Values = Record<string, unknown>;
type GroupCall = Ctx & { session: Session };

/** The status on `day`: a published one before its 定时发布 day is 待发布 (S). */
const statusSql = (day: string) =>
  sql<LeaderGraphicItem['status']>`CASE WHEN t.status = 'P' AND t.online_date > ${day}::date THEN 'S' ELSE t.status END`;

/** The day a published article shows from: its 定时发布 day, or the day it was published. */
const showDaySql = sql<string>`to_char(coalesce(t.online_date, (t.published_at AT TIME ZONE current_setting('TimeZone'))::date), 'YYYY-MM-DD')`;

const graphicQuery = (db: Kysely<DB>, groupId: number) =>
  db
    .selectFrom('group_graphics as t')
    .leftJoin('accounts as p', 'p.id', 't.published_by')
    .select([
      't.id',
      't.title',
      't.category',
      't.cover',
      't.summary',
      't.body',
      't.link',
      't.region_scope',
      't.rids',
      't.pinned',
      't.sort',
      't.views',
      't.created_at',
    ])
    .select(sql<string>`coalesce(to_char(t.online_date, 'YYYY-MM-DD'), '')`.as('online_date'))
    .select(statusSql(today()).as('status'))
    .select(sql<string>`coalesce(p.name, '')`.as('publisher'))
    .select(
      sql<string>`coalesce(to_char(t.published_at AT TIME ZONE current_setting('TimeZone'), 'YYYY-MM-DD HH24:MI:SS'), '')`.as(
        'publish_time',
      ),
    )
    .select(
      sql<string>`CASE WHEN t.region_scope = 'all' THEN '全部小区'
        ELSE coalesce((SELECT string_agg(r.title, '、' ORDER BY r.id) FROM regions r WHERE r.id = ANY(t.rids) AND r.group_id = t.group_id), '') END`.as(
        'regions_text',
      ),
    )
    .where('t.group_id', '=', groupId);

/** The row as the wire has it: ids as numbers, the computed status's words. */
const wire = (r: Values) =>
  ({
    ...r,
    id: Number(r.id),
    rids: ((r.rids as number[] | null) ?? []).map(Number),
    status_ch: enumText(LEADER_GRAPHIC_STATUS, r.status as string),
  }) as unknown as LeaderGraphicItem;

/** The visible text of a sanitised body (an image counts as content). */
const hasContent = (html: string) =>
  /<img\b/i.test(html) ||
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim() !== '';

/**
 * The communities chosen, each once, all of the caller's group; a list naming another's (or none)
 * is refused in words that say so, as the group's banners are.
 */
async function checkRegions(ctx: GroupCall, rids: number[]): Promise<void> {
  if (rids.length === 0) fail('请选择发布的小区');
  const foreign = await foreignRegions(ctx.db, ctx.session.groupId, rids);
  if (foreign.length > 0) fail(`所选小区不存在或不属于本集团（ID：${foreign.join('、')}）`);
}

export const leaderGraphicMethods = defineResource(leaderGraphic, {
  table: 'group_graphics',
  query: (db, groupId) => graphicQuery(db as Kysely<DB>, groupId),
  where: {
    status: (qb, value) => qb.where(sql<boolean>`${statusSql(today())} = ${String(value)}`),
    region_id: (qb, value) => qb.where(sql<boolean>`(t.region_scope = 'all' OR ${Number(value)}::int = ANY(t.rids))`),
    keyword: (qb, value) => {
      const words = `%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return qb.where(sql<boolean>`(t.title ILIKE ${words} OR t.summary ILIKE ${words})`);
    },
  },
  row: (r: Values) => wire(r),
  values(input, ctx, before) {
    const v: Values = { ...input };
    // the body through the notices' allow-list, as the community's articles
    v.body = sanitizeNoticeHtml(String(input.body ?? ''));
    // an article for the whole group names no community; the chosen ones each once
    v.rids = v.region_scope === 'all' ? [] : [...new Set((v.rids as number[] | undefined) ?? [])];
    if (!before) v.created_by = ctx.session.accountId;
    return v;
  },
  async check(ctx, v) {
    if (!v.link && !hasContent(String(v.body ?? ''))) fail('请填写正文，或填写外链');
    if (v.region_scope === 'some') await checkRegions(ctx, v.rids as number[]);
  },
  async beforeDelete(_ctx, row) {
    if (row.status === 'P') fail('已发布的文章请先下线，再删除');
  },
  // pinned first, then by sort (the list's direction turns the whole order)
  order: (p) => [sql.raw(`CASE WHEN ${p}pinned = 'Y' THEN 0 ELSE 1 END`), sql.raw(`${p}sort`)],
  summaries: {
    list: '集团图文列表（封面、标题、分类、发布范围 全部小区/指定小区、状态 草稿/待发布/已发布/已下线、置顶、排序、阅读数、发布时间、发布人）；按关键词、分类、状态、小区筛选',
    add: '新增集团图文（草稿；正文按公告的白名单清洗；无正文时须填外链；指定小区须为本集团的小区）',
    edit: '修改集团图文（已发布的修改后立即生效；阅读数不变）',
    del: '删除集团图文（已发布的须先下线）',
    info: '集团图文详情',
  },
});

const leadergraphicpublish = defineMethod('leadergraphicpublish', {
  side: 'group',
  roles: LEADER_GRAPHIC_ROLES,
  writes: true,
  summary: '发布集团图文（草稿或已下线的；定时发布的到日期才展示）或下线已发布的（业主App不再展示）',
  async handler(ctx, input) {
    const row = await ctx.db
      .selectFrom('group_graphics')
      .selectAll()
      .select(sql<string>`coalesce(to_char(online_date, 'YYYY-MM-DD'), '')`.as('online_day'))
      .where('group_id', '=', ctx.session.groupId)
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return fail('文章不存在');
    if (input.action === 'withdraw') {
      if (row.status !== 'P') fail('只能下线已发布的文章');
      await ctx.db.updateTable('group_graphics').set({ status: 'X' }).where('id', '=', row.id).execute();
      return reply({ id: input.id, status: 'X' as const }, '已下线');
    }
    if (row.status === 'P') fail('该文章已发布');
    if (!row.link && !hasContent(row.body)) fail('请填写正文，或填写外链');
    if (row.region_scope === 'some') await checkRegions(ctx, row.rids.map(Number));
    await ctx.db
      .updateTable('group_graphics')
      .set({ status: 'P', published_at: new Date(), published_by: ctx.session.accountId })
      .where('id', '=', row.id)
      .execute();
    const day = today();
    const online = row.online_day;
    const scheduled = online !== '' && online > day;
    return reply(
      { id: input.id, status: scheduled ? ('S' as const) : ('P' as const) },
      scheduled ? `已发布，将于${online}起展示` : '发布成功',
    );
  },
});

/** The group's articles a community's owners see: published, from their day, for the whole group or naming it. */
const inScope = (db: Kysely<DB>, rid: number, day: string) =>
  db
    .selectFrom('group_graphics as t')
    .innerJoin('regions as r', (j) => j.onRef('r.group_id', '=', 't.group_id').on('r.id', '=', rid))
    .where('t.status', '=', 'P')
    .where(sql<boolean>`coalesce(t.online_date, (t.published_at AT TIME ZONE current_setting('TimeZone'))::date) <= ${day}::date`)
    .where(sql<boolean>`(t.region_scope = 'all' OR ${rid}::int = ANY(t.rids))`);

/**
 * The group's published articles for a community on a day: pinned first, then the latest; at most
 * `limit`.
 */
export async function groupArticlesFor(db: Kysely<DB>, rid: number, day: string, limit: number): Promise<GroupArticle[]> {
  const rows = await inScope(db, rid, day)
    .select(['t.id', 't.title', 't.cover', 't.summary', 't.category', 't.link', 't.pinned', 't.views'])
    .select(showDaySql.as('date'))
    .orderBy(sql`CASE WHEN t.pinned = 'Y' THEN 0 ELSE 1 END`)
    .orderBy(sql`CASE WHEN t.pinned = 'Y' THEN t.sort END`)
    .orderBy(sql`coalesce(t.online_date, (t.published_at AT TIME ZONE current_setting('TimeZone'))::date)`, 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    title: r.title,
    cover: r.cover,
    summary: r.summary,
    category_ch: enumText(LEADER_GRAPHIC_CATEGORY, r.category),
    link: r.link,
    pinned: r.pinned as 'Y' | 'N',
    date: r.date,
    views: r.views,
  }));
}

/**
 * The group's and the community's news together: the group's pinned first, then the rest by day,
 * newest first (a tie: the group's first); at most `limit`.
 */
export function mergeNews<T extends { date: string }>(group: Array<T & { pinned: 'Y' | 'N' }>, own: T[], limit: number) {
  const pinned = group.filter((g) => g.pinned === 'Y');
  const rest = [
    ...group.filter((g) => g.pinned !== 'Y').map((g) => ({ item: g as T, source: 'group' as const })),
    ...own.map((o) => ({ item: o, source: 'community' as const })),
  ].sort((a, b) =>
    a.item.date === b.item.date ? (a.source === b.source ? 0 : a.source === 'group' ? -1 : 1) : a.item.date < b.item.date ? 1 : -1,
  );
  return [...pinned.map((g) => ({ item: g as T, source: 'group' as const })), ...rest].slice(0, limit);
}

// the owner app's read, through the app's gateway (not the console's): with the content roles, as
// graphicview, since no owner session exists in the console (docs/product.md#owner-app)
const groupgraphicview = defineMethod('groupgraphicview', {
  side: 'community',
  roles: MOBILESYS_ROLES.content,
  writes: true,
  summary: '业主App打开集团图文：阅读数加一，返回图文（只限本小区展示中的）',
  async handler(ctx, input) {
    const shown = await inScope(ctx.db, ctx.rid, today()).select('t.id').where('t.id', '=', input.id).executeTakeFirst();
    if (!shown) return fail('该文章不存在或不在本小区展示');
    await ctx.db
      .updateTable('group_graphics')
      .set((eb) => ({ views: eb('views', '+', 1) }))
      .where('id', '=', input.id)
      .execute();
    const groupId = (await ctx.db.selectFrom('regions').select('group_id').where('id', '=', ctx.rid).executeTakeFirstOrThrow()).group_id;
    const row = await graphicQuery(ctx.db, groupId).where('t.id', '=', input.id).executeTakeFirstOrThrow();
    return wire(wireRows(leaderGraphic.def)(row as Values));
  },
});

/** The head office's articles (group side). */
export const leaderGraphicsModule = [...leaderGraphicMethods, leadergraphicpublish];
/** The owner app's read of one (community side, in the owner app's module). */
export const leaderGraphicAppModule = [groupgraphicview];
