/**
 * DIY pages (/setdiy on the group side, issue 45; contract/src/setdiy/pages.ts).
 *
 * A page of a kind lives in a scope: the group's template (rid null) or a community's own page (an
 * override, rid set); a community without one shows the template. Its versions (diy_page_versions)
 * are numbered from 1: at most one draft (D) and one published (P); a publication moves the
 * published one before into the history (H). Saving updates the draft, or starts a new one after the
 * highest version; a roll-back publishes an older version's blocks as a new version. Every method
 * needs the account permission is_diyhome_auth and a community of the caller's group.
 *
 * The preview answers the page as an owner of a community sees it: blocks, grid items, slides and
 * tabs of a service whose community module is closed (APP_SERVICE_MODULE) or which the community
 * switched off (/apply) are left out, and the notices, articles and activities blocks carry that
 * community's latest published items.
 */
import {
  APP_SERVICES,
  APP_SERVICE_ICON,
  APP_SERVICE_MODULE,
  COMMUNITY_MODULES,
  DIY_KIND,
  DIY_STATUS,
  DIY_VERSION_STATUS,
  enumText,
  RC,
  SETDIY_FLAG,
  SETDIY_ROLES,
  type AppServiceCode,
  type CommunityModule,
  type DiyBlock,
  type DiyKind,
  type DiyPageInfo,
  type DiyPageItem,
  type DiyPreview,
  type DiyPreviewBlock,
  type DiyPreviewItem,
  type DiyStatus,
  type DiyVersion,
  type DiyVersionStatus,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { BizError, fail, MESSAGES } from '../../http/errors.js';
import { defineMethod, reply, type Ctx, type Session } from '../../http/registry.js';
import { today, wireTime } from '../../lib/wire.js';
import { servicesOf } from '../mobilesys/apply.js';
import { groupArticlesFor, mergeNews } from '../leader/graphics.js';
import { foreignRegions, groupRegion } from '../structure/groupRegion.js';

type GroupCall = Ctx & { session: Session };
type Db = Kysely<DB>;

const TEMPLATE = '集团模板';

/** Refuses an account without is_diyhome_auth. */
function requireFlag(session: Session): void {
  if (!session.permissions.includes(SETDIY_FLAG)) throw new BizError(MESSAGES.noPermission, RC.NO_PERMISSION);
}

/** The community's name and closed modules, refusing one of another group (or none). */
const regionOf = (db: Db, groupId: number, rid: number) => groupRegion(db, groupId, rid, '小区不存在');

async function scopeTitle(db: Db, groupId: number, rid: number | null): Promise<string> {
  return rid === null ? TEMPLATE : (await regionOf(db, groupId, rid)).title;
}

function pageQuery(db: Db, groupId: number, kind: DiyKind, rid: number | null) {
  return db
    .selectFrom('diy_pages')
    .select(['id', 'rid'])
    .where('group_id', '=', groupId)
    .where('kind', '=', kind)
    .where((eb) => (rid === null ? eb('rid', 'is', null) : eb('rid', '=', rid)));
}

/** The page of a scope, made when missing (a community's first save makes its override). */
async function ensurePage(ctx: GroupCall, kind: DiyKind, rid: number | null): Promise<number> {
  const found = await pageQuery(ctx.db, ctx.session.groupId, kind, rid).forUpdate().executeTakeFirst();
  if (found) return found.id;
  const made = await ctx.db
    .insertInto('diy_pages')
    .values({ group_id: ctx.session.groupId, rid, kind, created_by: ctx.session.accountId, updated_by: ctx.session.accountId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return made.id;
}

async function nextVersion(db: Db, pageId: number): Promise<number> {
  const r = await db
    .selectFrom('diy_page_versions')
    .select(sql<number>`coalesce(max(version), 0)::int`.as('v'))
    .where('page_id', '=', pageId)
    .executeTakeFirstOrThrow();
  return r.v + 1;
}

async function touch(ctx: GroupCall, pageId: number): Promise<void> {
  await ctx.db
    .updateTable('diy_pages')
    .set({ updated_at: sql<Date>`now()`, updated_by: ctx.session.accountId })
    .where('id', '=', pageId)
    .execute();
}

/** Makes `blocks` the page's published version as a new version; the one published before goes to the history. */
async function publishNew(ctx: GroupCall, pageId: number, blocks: DiyBlock[], note: string): Promise<number> {
  await ctx.db.updateTable('diy_page_versions').set({ status: 'H' }).where('page_id', '=', pageId).where('status', '=', 'P').execute();
  const version = await nextVersion(ctx.db, pageId);
  await ctx.db
    .insertInto('diy_page_versions')
    .values({
      page_id: pageId,
      version,
      status: 'P',
      blocks: JSON.stringify(blocks),
      note,
      published_at: sql<Date>`now()`,
      published_by: ctx.session.accountId,
      created_by: ctx.session.accountId,
      updated_by: ctx.session.accountId,
    })
    .execute();
  await touch(ctx, pageId);
  return version;
}

/** Saves `blocks` as the page's draft: the current draft updated, or a new one after the highest version. */
async function saveDraft(ctx: GroupCall, pageId: number, blocks: DiyBlock[], note: string): Promise<number> {
  const draft = await ctx.db
    .selectFrom('diy_page_versions')
    .select(['id', 'version'])
    .where('page_id', '=', pageId)
    .where('status', '=', 'D')
    .forUpdate()
    .executeTakeFirst();
  if (draft) {
    await ctx.db
      .updateTable('diy_page_versions')
      .set({ blocks: JSON.stringify(blocks), note, updated_at: sql<Date>`now()`, updated_by: ctx.session.accountId })
      .where('id', '=', draft.id)
      .execute();
    await touch(ctx, pageId);
    return draft.version;
  }
  const version = await nextVersion(ctx.db, pageId);
  await ctx.db
    .insertInto('diy_page_versions')
    .values({
      page_id: pageId,
      version,
      status: 'D',
      blocks: JSON.stringify(blocks),
      note,
      created_by: ctx.session.accountId,
      updated_by: ctx.session.accountId,
    })
    .execute();
  await touch(ctx, pageId);
  return version;
}

function versionRows(db: Db, pageIds: number[]) {
  return db
    .selectFrom('diy_page_versions as v')
    .leftJoin('accounts as u', 'u.id', 'v.updated_by')
    .leftJoin('accounts as p', 'p.id', 'v.published_by')
    .select([
      'v.page_id',
      'v.version',
      'v.status',
      'v.blocks',
      'v.note',
      'v.updated_at',
      'v.published_at',
      sql<string>`coalesce(u.name, '')`.as('updated_by'),
      sql<string>`coalesce(p.name, '')`.as('published_by'),
    ])
    .where('v.page_id', 'in', pageIds.length ? pageIds : [0])
    .orderBy('v.version', 'desc');
}
type VersionRow = Awaited<ReturnType<ReturnType<typeof versionRows>['execute']>>[number];

function toVersion(r: VersionRow): DiyVersion {
  const blocks = (r.blocks ?? []) as DiyBlock[];
  const status = r.status as DiyVersionStatus;
  return {
    version: r.version,
    status,
    status_ch: enumText(DIY_VERSION_STATUS, status),
    blocks,
    block_count: blocks.length,
    updated_by: r.updated_by,
    update_time: wireTime(r.updated_at),
    published_by: r.published_by,
    publish_time: wireTime(r.published_at),
    note: r.note,
  };
}

function statusOf(versions: Array<{ status: string }>): DiyStatus {
  const published = versions.some((v) => v.status === 'P');
  const draft = versions.some((v) => v.status === 'D');
  return !published ? 'N' : draft ? 'M' : 'P';
}

/** The page that shows in a scope: the community's own, else the template; with its versions. */
async function effectivePage(db: Db, groupId: number, kind: DiyKind, rid: number | null) {
  const own = rid === null ? undefined : await pageQuery(db, groupId, kind, rid).executeTakeFirst();
  const page = own ?? (await pageQuery(db, groupId, kind, null).executeTakeFirst());
  const versions = page ? await versionRows(db, [page.id]).execute() : [];
  return { page, source: (own ? 'community' : 'template') as 'community' | 'template', versions };
}

const diypagelist = defineMethod('diypagelist', {
  side: 'group',
  roles: SETDIY_ROLES,
  writes: false,
  summary:
    'DIY页面列表：按页面类型与范围（集团模板或小区）列出页面及其状态（未发布、已发布、有未发布修改）、已发布版本、草稿版本、最后修改人与时间；附本集团的小区',
  async handler(ctx, input) {
    requireFlag(ctx.session);
    const groupId = ctx.session.groupId;
    const regions = await ctx.db.selectFrom('regions').select(['id', 'title']).where('group_id', '=', groupId).orderBy('id').execute();
    if (typeof input.rid === 'number' && !regions.some((r) => r.id === input.rid)) fail('小区不存在');
    let q = ctx.db
      .selectFrom('diy_pages as d')
      .leftJoin('regions as r', 'r.id', 'd.rid')
      .leftJoin('accounts as a', 'a.id', 'd.updated_by')
      .select([
        'd.id',
        'd.kind',
        'd.rid',
        'd.updated_at',
        sql<string>`coalesce(r.title, '')`.as('region_title'),
        sql<string>`coalesce(a.name, '')`.as('updated_by'),
      ])
      .where('d.group_id', '=', groupId);
    if (input.kind) q = q.where('d.kind', '=', input.kind);
    if (input.rid === 'template') q = q.where('d.rid', 'is', null);
    else if (typeof input.rid === 'number') q = q.where('d.rid', '=', input.rid);
    const pages = await q
      .orderBy(sql`d.rid nulls first`)
      .orderBy('d.id')
      .execute();
    const versions = await ctx.db
      .selectFrom('diy_page_versions')
      .select(['page_id', 'version', 'status'])
      .where('page_id', 'in', pages.length ? pages.map((p) => p.id) : [0])
      .where('status', 'in', ['D', 'P'])
      .execute();
    const items: DiyPageItem[] = pages.map((p) => {
      const own = versions.filter((v) => v.page_id === p.id);
      const status = statusOf(own);
      const kind = p.kind as DiyKind;
      return {
        id: p.id,
        kind,
        kind_ch: enumText(DIY_KIND, kind),
        rid: p.rid,
        scope_ch: p.rid === null ? TEMPLATE : p.region_title,
        status,
        status_ch: enumText(DIY_STATUS, status),
        version: own.find((v) => v.status === 'P')?.version ?? 0,
        draft_version: own.find((v) => v.status === 'D')?.version ?? 0,
        updated_by: p.updated_by,
        update_time: wireTime(p.updated_at),
      };
    });
    // the template of a kind not made yet still lists, as 未发布
    if (input.rid === '' || input.rid === 'template') {
      for (const kind of Object.keys(DIY_KIND) as DiyKind[]) {
        if (input.kind && input.kind !== kind) continue;
        if (items.some((i) => i.kind === kind && i.rid === null)) continue;
        items.push({
          id: null,
          kind,
          kind_ch: enumText(DIY_KIND, kind),
          rid: null,
          scope_ch: TEMPLATE,
          status: 'N',
          status_ch: enumText(DIY_STATUS, 'N'),
          version: 0,
          draft_version: 0,
          updated_by: '',
          update_time: '',
        });
      }
    }
    return { items, regions: regions.map((r) => ({ rid: r.id, title: r.title })) };
  },
});

const diypageinfo = defineMethod('diypageinfo', {
  side: 'group',
  roles: SETDIY_ROLES,
  writes: false,
  summary: 'DIY页面详情：某类页面在集团模板或某小区的草稿、已发布版本与版本记录；小区没有自己的页面时给出集团模板的内容（inherits）',
  async handler(ctx, input): Promise<DiyPageInfo> {
    requireFlag(ctx.session);
    const scope_ch = await scopeTitle(ctx.db, ctx.session.groupId, input.rid);
    const { page, source, versions } = await effectivePage(ctx.db, ctx.session.groupId, input.kind, input.rid);
    const exists = !!page && (input.rid === null || source === 'community');
    const inherits = input.rid !== null && source === 'template';
    const status = statusOf(versions);
    const draft = versions.find((v) => v.status === 'D');
    const published = versions.find((v) => v.status === 'P');
    return {
      kind: input.kind,
      kind_ch: enumText(DIY_KIND, input.kind),
      rid: input.rid,
      scope_ch,
      exists,
      inherits,
      status,
      status_ch: enumText(DIY_STATUS, status),
      // a community without its own page starts from what the template shows
      draft: draft && !inherits ? toVersion(draft) : null,
      published: published ? toVersion(published) : null,
      versions: inherits
        ? []
        : versions.map((v) => {
            const { blocks: _blocks, ...rest } = toVersion(v);
            return rest;
          }),
    };
  },
});

const diypagesave = defineMethod('diypagesave', {
  side: 'group',
  roles: SETDIY_ROLES,
  writes: true,
  summary: '保存DIY页面草稿：已有草稿则更新，否则在最高版本号之后新建草稿版本；小区首次保存即成为该小区自己的页面（不再使用集团模板）',
  async handler(ctx, input) {
    requireFlag(ctx.session);
    await scopeTitle(ctx.db, ctx.session.groupId, input.rid);
    const pageId = await ensurePage(ctx, input.kind, input.rid);
    const version = await saveDraft(ctx, pageId, input.blocks, '');
    return reply({ kind: input.kind, rid: input.rid, version }, `草稿已保存（版本${version}）`);
  },
});

const diypagepublish = defineMethod('diypagepublish', {
  side: 'group',
  roles: SETDIY_ROLES,
  writes: true,
  summary: '发布DIY页面的草稿：草稿成为已发布版本，原已发布版本转入历史版本',
  async handler(ctx, input) {
    requireFlag(ctx.session);
    await scopeTitle(ctx.db, ctx.session.groupId, input.rid);
    const page = await pageQuery(ctx.db, ctx.session.groupId, input.kind, input.rid).forUpdate().executeTakeFirst();
    const draft = page
      ? await ctx.db
          .selectFrom('diy_page_versions')
          .select(['id', 'version'])
          .where('page_id', '=', page.id)
          .where('status', '=', 'D')
          .executeTakeFirst()
      : undefined;
    if (!page || !draft) fail('没有未发布的草稿，请先保存草稿');
    await ctx.db.updateTable('diy_page_versions').set({ status: 'H' }).where('page_id', '=', page.id).where('status', '=', 'P').execute();
    await ctx.db
      .updateTable('diy_page_versions')
      .set({ status: 'P', published_at: sql<Date>`now()`, published_by: ctx.session.accountId })
      .where('id', '=', draft.id)
      .execute();
    await touch(ctx, page.id);
    return reply({ kind: input.kind, rid: input.rid, version: draft.version }, `发布成功（版本${draft.version}）`);
  },
});

const diypagerollback = defineMethod('diypagerollback', {
  side: 'group',
  roles: SETDIY_ROLES,
  writes: true,
  summary: '回滚DIY页面：把某个已发布过的版本的内容作为新版本发布（草稿保留不变）',
  async handler(ctx, input) {
    requireFlag(ctx.session);
    await scopeTitle(ctx.db, ctx.session.groupId, input.rid);
    const page = await pageQuery(ctx.db, ctx.session.groupId, input.kind, input.rid).forUpdate().executeTakeFirst();
    const old = page
      ? await ctx.db
          .selectFrom('diy_page_versions')
          .select(['status', 'blocks'])
          .where('page_id', '=', page.id)
          .where('version', '=', input.version)
          .executeTakeFirst()
      : undefined;
    if (!page || !old) fail(`版本${input.version}不存在`);
    if (old.status === 'D') fail('草稿不能回滚，请直接发布');
    if (old.status === 'P') fail(`版本${input.version}就是当前发布的版本`);
    const version = await publishNew(ctx, page.id, old.blocks as DiyBlock[], `回滚自版本${input.version}`);
    return reply({ kind: input.kind, rid: input.rid, version }, `已回滚到版本${input.version}的内容（新版本${version}）`);
  },
});

const diypagecopy = defineMethod('diypagecopy', {
  side: 'group',
  roles: SETDIY_ROLES,
  writes: true,
  summary:
    '复制DIY页面：把集团模板（from_rid为空）或某小区的页面（已发布版本，没有则草稿）复制到其他小区，成为各小区自己的页面；publish=Y直接发布，否则存为草稿',
  async handler(ctx, input) {
    requireFlag(ctx.session);
    const groupId = ctx.session.groupId;
    const fromTitle = await scopeTitle(ctx.db, groupId, input.from_rid);
    const targets = [...new Set(input.to_rids)];
    if (input.from_rid !== null && targets.includes(input.from_rid)) fail('目标小区不能包含来源小区');
    if ((await foreignRegions(ctx.db, groupId, targets)).length > 0) fail('小区不存在');
    const source = await pageQuery(ctx.db, groupId, input.kind, input.from_rid).executeTakeFirst();
    const versions = source ? await versionRows(ctx.db, [source.id]).where('v.status', 'in', ['D', 'P']).execute() : [];
    const from = versions.find((v) => v.status === 'P') ?? versions.find((v) => v.status === 'D');
    if (!from) fail(`${fromTitle}的${enumText(DIY_KIND, input.kind)}还没有内容，不能复制`);
    const note = `复制自${fromTitle}版本${from.version}`;
    for (const rid of targets) {
      const pageId = await ensurePage(ctx, input.kind, rid);
      if (input.publish === 'Y') await publishNew(ctx, pageId, from.blocks as DiyBlock[], note);
      else await saveDraft(ctx, pageId, from.blocks as DiyBlock[], note);
    }
    return reply({ copied: targets.length }, `已复制到${targets.length}个小区${input.publish === 'Y' ? '并发布' : '（草稿）'}`);
  },
});

const diypagedel = defineMethod('diypagedel', {
  side: 'group',
  roles: SETDIY_ROLES,
  writes: true,
  summary: '删除小区自己的DIY页面（连同其版本）：该小区恢复使用集团模板；集团模板不能删除',
  async handler(ctx, input) {
    requireFlag(ctx.session);
    const title = await scopeTitle(ctx.db, ctx.session.groupId, input.rid);
    const page = await pageQuery(ctx.db, ctx.session.groupId, input.kind, input.rid).executeTakeFirst();
    if (!page) fail(`${title}没有自己的${enumText(DIY_KIND, input.kind)}，已在使用集团模板`);
    await ctx.db.deleteFrom('diy_pages').where('id', '=', page.id).execute();
    return reply({ kind: input.kind, rid: input.rid }, `删除成功，${title}恢复使用集团模板`);
  },
});

/** A community's latest published notices (to the whole community), articles and open activities. */
async function latestItems(db: Db, rid: number, type: 'notices' | 'articles' | 'activities', limit: number): Promise<DiyPreviewItem[]> {
  if (type === 'notices') {
    const rows = await db
      .selectFrom('notices')
      .select(['id', 'title', 'cover', 'published_at'])
      .where('rid', '=', rid)
      .where('status', '=', 'P')
      .where('scope', '=', 'all')
      .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', sql<Date>`now()`)]))
      .orderBy('pinned', 'desc')
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), title: r.title, cover: r.cover, date: wireTime(r.published_at).slice(0, 10) }));
  }
  if (type === 'articles') {
    const day = today();
    const rows = await db
      .selectFrom('app_graphics')
      .select(['id', 'title', 'cover', sql<string>`to_char(online_date, 'YYYY-MM-DD')`.as('day')])
      .where('rid', '=', rid)
      .where('kind', '=', 'article')
      .where('status', '=', 'P')
      .where(sql<boolean>`online_date <= ${day}::date`)
      .where(sql<boolean>`(offline_date IS NULL OR offline_date >= ${day}::date)`)
      .orderBy('online_date', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    // the group's articles for the community beside its own, the group's pinned first (/mobile/graphiclist)
    const group = await groupArticlesFor(db, rid, day, limit);
    return mergeNews<DiyPreviewItem>(
      group,
      rows.map((r) => ({ id: Number(r.id), title: r.title, cover: r.cover, date: r.day })),
      limit,
    ).map(({ item, source }) =>
      source === 'group' ? { id: item.id, title: item.title, cover: item.cover, date: item.date, source } : item,
    );
  }
  const rows = await db
    .selectFrom('activities')
    .select(['id', 'title', 'cover', 'event_start_time', 'create_time'])
    .where('rid', '=', rid)
    .where('status', '=', 'Y')
    .where('cancelled_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    title: r.title,
    cover: r.cover,
    date: wireTime(r.event_start_time ?? r.create_time).slice(0, 10),
  }));
}

/** The module each list block reads: notices are the steward's, articles the owner app content's, activities their own. */
const LIST_MODULE: Record<'notices' | 'articles' | 'activities', CommunityModule> = {
  notices: APP_SERVICE_MODULE.notice,
  articles: 'mobile',
  activities: APP_SERVICE_MODULE.activity,
};

/**
 * The blocks as an owner of the community sees them (`community` null: the template as such, no
 * community's data). `closed(code)` names why a service is not offered there, or null.
 */
export async function previewBlocks(
  db: Db,
  blocks: DiyBlock[],
  community: { id: number; modules_off: string[] } | null,
): Promise<{ blocks: DiyPreviewBlock[]; hidden: string[]; warnings: string[] }> {
  const hidden: string[] = [];
  const warnings: string[] = [];
  const services = community ? await servicesOf(db, community.id) : null;
  const moduleOff = (m: CommunityModule) => !!community && community.modules_off.includes(m);
  const closed = (code: AppServiceCode): string | null => {
    const m = APP_SERVICE_MODULE[code];
    if (moduleOff(m)) return `未开通“${COMMUNITY_MODULES[m]}”模块`;
    const s = services?.get(code);
    if (s && s.enabled !== 'Y') return '应用未开通';
    return null;
  };
  const linkClosed = (l: { link_type: string; target: string }) => (l.link_type === 'service' ? closed(l.target as AppServiceCode) : null);
  const title = (code: AppServiceCode) => services?.get(code)?.title;
  const out: DiyPreviewBlock[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case 'grid': {
        const items = b.items.flatMap((i) => {
          const why = closed(i.service);
          const name = i.title || title(i.service) || (APP_SERVICE_TITLE[i.service] ?? i.service);
          if (why) {
            hidden.push(`图标导航“${name}”：${why}`);
            return [];
          }
          return [{ service: i.service, title: name, icon: i.icon || APP_SERVICE_ICON[i.service] }];
        });
        if (items.length) out.push({ ...b, items });
        break;
      }
      case 'banner': {
        const slides = b.slides.filter((s, n) => {
          const why = linkClosed(s);
          if (why) hidden.push(`轮播图第${n + 1}张：${why}`);
          return !why;
        });
        if (slides.length) out.push({ ...b, slides });
        break;
      }
      case 'shortcut': {
        const why = linkClosed(b);
        if (why) hidden.push(`快捷入口“${b.title}”：${why}`);
        else out.push(b);
        break;
      }
      case 'tabbar': {
        const tabs = b.tabs.filter((t) => {
          const why = linkClosed(t);
          if (why) hidden.push(`底部导航“${t.title}”：${why}`);
          return !why;
        });
        if (tabs.length < 2) warnings.push('底部导航可用的菜单不足2个，App不显示底部导航');
        else out.push({ ...b, tabs });
        break;
      }
      case 'notices':
      case 'articles':
      case 'activities': {
        const m = LIST_MODULE[b.type];
        if (moduleOff(m)) {
          hidden.push(`${BLOCK_NAME[b.type]}：未开通“${COMMUNITY_MODULES[m]}”模块`);
          break;
        }
        out.push({ ...b, list: community ? await latestItems(db, community.id, b.type, b.count) : [] });
        break;
      }
      default:
        out.push(b);
    }
  }
  if (!community) warnings.push('集团模板的预览不含小区数据，选择小区后显示该小区的公告、资讯和活动');
  return { blocks: out, hidden, warnings };
}

const BLOCK_NAME = { notices: '社区公告', articles: '图文资讯', activities: '社区活动' } as const;
const APP_SERVICE_TITLE: Record<string, string> = Object.fromEntries(Object.entries(APP_SERVICES).map(([k, v]) => [k, v.title]));

const diypagepreview = defineMethod('diypagepreview', {
  side: 'group',
  roles: SETDIY_ROLES,
  writes: false,
  summary:
    'DIY页面预览：某小区的业主看到的页面（小区自己的页面，没有则集团模板；已发布版本，或指定版本、草稿）：去掉所需模块未开通或应用未开通的模块与图标，公告、资讯、活动模块填入该小区最新的内容',
  async handler(ctx, input): Promise<DiyPreview> {
    requireFlag(ctx.session);
    const community = input.rid === null ? null : await regionOf(ctx.db, ctx.session.groupId, input.rid);
    const { page, source, versions } = await effectivePage(ctx.db, ctx.session.groupId, input.kind, input.rid);
    if (!page) fail(`${enumText(DIY_KIND, input.kind)}还没有内容`);
    const wanted = typeof input.version === 'number' ? input.version : null;
    const row =
      wanted !== null
        ? versions.find((v) => v.version === wanted)
        : input.draft === 'Y'
          ? (versions.find((v) => v.status === 'D') ?? versions.find((v) => v.status === 'P'))
          : versions.find((v) => v.status === 'P');
    if (!row) fail(wanted !== null ? `版本${wanted}不存在` : `${enumText(DIY_KIND, input.kind)}尚未发布`);
    const shown = await previewBlocks(ctx.db, row.blocks as DiyBlock[], community);
    return {
      kind: input.kind,
      rid: input.rid,
      scope_ch: community ? community.title : TEMPLATE,
      source,
      version: row.version,
      version_status: row.status as DiyVersionStatus,
      ...shown,
    };
  },
});

export const setdiyMethods = [
  diypagelist,
  diypageinfo,
  diypagesave,
  diypagepublish,
  diypagerollback,
  diypagecopy,
  diypagedel,
  diypagepreview,
];
