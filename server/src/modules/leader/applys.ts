/**
 * 应用目录 of the group (/applys/applyslist, /applys/applysinfo on the group side; issue 45 "Owner
 * app layout and content"): one row per service of the owner app's catalogue (APP_SERVICES) with the
 * group's icon, order, the communities it is open to, and whether communities may hide or reorder
 * it; per community, whether it may be offered there, why not, and whether it shows. A community's
 * 应用 follows it (servicesOf, modules/mobilesys/apply.ts).
 */
import {
  APPLYS_ALLOW,
  APPLYS_ROLES,
  APPLYS_SCOPE,
  APP_SERVICES,
  APP_SERVICE_CODES,
  APP_SERVICE_ICON,
  APP_SERVICE_MODULE,
  APP_SERVICE_STATE,
  COMMUNITY_MODULES,
  MENU_ICON,
  enumText,
  type AppServiceCode,
  type ApplysItem,
  type ApplysRegion,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { serviceState, type OwnService } from '../mobilesys/apply.js';
import { groupCatalogue, type GroupService } from './applysCatalogue.js';
import { foreignRegions } from '../structure/groupRegion.js';

/** The group's communities with their closed modules and their own service rows. */
async function groupRegions(db: Kysely<DB>, groupId: number) {
  const [regions, own] = await Promise.all([
    db.selectFrom('regions').select(['id', 'title', 'modules_off']).where('group_id', '=', groupId).orderBy('id').execute(),
    db
      .selectFrom('app_services as s')
      .innerJoin('regions as r', 'r.id', 's.rid')
      .leftJoin('accounts as a', 'a.id', 's.updated_by')
      .select(['s.rid', 's.code', 's.enabled', 's.title', 's.intro', 's.hours', 's.phone', 's.sort', 's.updated_at'])
      .select(sql<string>`coalesce(a.name, '')`.as('updated_by'))
      .where('r.group_id', '=', groupId)
      .execute(),
  ]);
  const byRegion = new Map<string, OwnService>(own.map((r) => [`${r.rid}:${r.code}`, r]));
  return { regions: regions.map((r) => ({ ...r, id: Number(r.id) })), own: byRegion };
}

type Regions = Awaited<ReturnType<typeof groupRegions>>;

/** Each community of the group as it stands for one service. */
function regionStates(code: AppServiceCode, g: GroupService, { regions, own }: Regions): ApplysRegion[] {
  return regions.map((r) => {
    const s = serviceState(code, g, r.id, r.modules_off, own.get(`${r.id}:${code}`));
    return {
      rid: r.id,
      title: r.title,
      available: s.available,
      reason: s.available === 'N' ? s.unavailable_reason : s.enabled === 'N' ? '本小区已停用' : '',
      enabled: s.enabled,
      enabled_ch: enumText(APP_SERVICE_STATE, s.enabled),
    };
  });
}

function itemOf(g: GroupService, regions: Regions): ApplysItem & { states: ApplysRegion[] } {
  const d = APP_SERVICES[g.code];
  const module = APP_SERVICE_MODULE[g.code];
  const titles = new Map(regions.regions.map((r) => [r.id, r.title]));
  const states = regionStates(g.code, g, regions);
  return {
    code: g.code,
    title: d.title,
    intro: d.intro,
    icon: g.icon,
    icon_ch: enumText(MENU_ICON, g.icon),
    default_icon: APP_SERVICE_ICON[g.code],
    module,
    module_ch: COMMUNITY_MODULES[module],
    sort: g.sort,
    region_scope: g.region_scope,
    region_scope_ch: enumText(APPLYS_SCOPE, g.region_scope),
    rids: g.rids,
    regions_text:
      g.region_scope === 'some'
        ? g.rids
            .map((id) => titles.get(id))
            .filter(Boolean)
            .join('、')
        : enumText(APPLYS_SCOPE, g.region_scope),
    allow_hide: g.allow_hide,
    allow_hide_ch: enumText(APPLYS_ALLOW, g.allow_hide),
    allow_reorder: g.allow_reorder,
    allow_reorder_ch: enumText(APPLYS_ALLOW, g.allow_reorder),
    available_count: states.filter((s) => s.available === 'Y').length,
    shown_count: states.filter((s) => s.enabled === 'Y').length,
    region_count: states.length,
    updated_by: g.updated_by,
    update_time: g.update_time,
    states,
  };
}

const byOrder = (a: { sort: number; code: AppServiceCode }, b: { sort: number; code: AppServiceCode }) =>
  a.sort - b.sort || APP_SERVICE_CODES.indexOf(a.code) - APP_SERVICE_CODES.indexOf(b.code);

const applyslist = defineMethod('applyslist', {
  side: 'group',
  roles: APPLYS_ROLES,
  writes: false,
  summary:
    '集团应用目录：业主App的每个应用（图标、所需模块、集团排序、开放范围 全部小区/指定小区/不开放、是否允许小区隐藏与调整排序），以及可用、展示的小区数',
  async handler(ctx) {
    const [catalogue, regions] = await Promise.all([
      groupCatalogue(ctx.db, ctx.session.groupId),
      groupRegions(ctx.db, ctx.session.groupId),
    ]);
    const items = [...catalogue.values()]
      .map((g) => {
        const { states: _states, ...item } = itemOf(g, regions);
        return item;
      })
      .sort(byOrder);
    return { items };
  },
});

const applysinfo = defineMethod('applysinfo', {
  side: 'group',
  roles: APPLYS_ROLES,
  writes: false,
  summary: '集团应用目录中一个应用：设置，以及本集团每个小区能否使用、原因（集团未开放 / 本小区未开通某模块 / 本小区已停用）与是否展示',
  async handler(ctx, input) {
    const [catalogue, regions] = await Promise.all([
      groupCatalogue(ctx.db, ctx.session.groupId),
      groupRegions(ctx.db, ctx.session.groupId),
    ]);
    const { states, ...item } = itemOf(catalogue.get(input.code)!, regions);
    return { ...item, regions: states };
  },
});

const applysedit = defineMethod('applysedit', {
  side: 'group',
  roles: APPLYS_ROLES,
  writes: true,
  summary: '保存集团应用目录中一个应用：图标、排序、开放范围（指定小区须为本集团的小区）、是否允许小区隐藏、是否允许小区调整排序',
  async handler(ctx, input) {
    const rids = input.region_scope === 'some' ? [...new Set(input.rids)] : [];
    if (input.region_scope === 'some') {
      if (rids.length === 0) fail('请选择开放的小区');
      const foreign = await foreignRegions(ctx.db, ctx.session.groupId, rids);
      if (foreign.length > 0) fail(`所选小区不存在或不属于本集团（ID：${foreign.join('、')}）`);
    }
    const values = {
      icon: input.icon,
      sort: input.sort,
      region_scope: input.region_scope,
      rids,
      allow_hide: input.allow_hide,
      allow_reorder: input.allow_reorder,
    };
    await ctx.db
      .insertInto('group_app_services')
      .values({
        group_id: ctx.session.groupId,
        code: input.code,
        ...values,
        created_by: ctx.session.accountId,
        updated_by: ctx.session.accountId,
      })
      .onConflict((oc) =>
        oc.columns(['group_id', 'code']).doUpdateSet({ ...values, updated_at: new Date(), updated_by: ctx.session.accountId }),
      )
      .execute();
    return reply({ code: input.code }, '保存成功');
  },
});

export const applysModule = [applyslist, applysinfo, applysedit];
