/**
 * 应用 (/apply/apply, /apply/apply_info; docs/product.md#owner-app): the owner app's services as a
 * community offers them. The catalogue is the contract's; a community's row, once it changed
 * anything, holds its choice, and every change is logged with what it was and became.
 */
import {
  APP_SERVICES,
  APP_SERVICE_CODES,
  APP_SERVICE_STATE,
  MENU_POSITION,
  MOBILESYS_ROLES,
  enumText,
  type AppServiceCode,
  type AppServiceItem,
  type AppServiceLog,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { wireTime } from '../../lib/wire.js';
import { groupCatalogue, unavailableReason, type GroupService } from '../leader/applysCatalogue.js';

const ROLES = MOBILESYS_ROLES.apply;

type Service = Omit<AppServiceItem, 'menus'>;

/** A community's own row of a service (app_services), as servicesOf reads it. */
export interface OwnService {
  code: string;
  enabled: string;
  title: string;
  intro: string;
  hours: string;
  phone: string;
  sort: number;
  updated_at: Date;
  updated_by: string;
}

/**
 * A service as a community offers it, from the group's catalogue (g) and the community's own row:
 * not available (the group does not open it there, or the community lacks its module) means off,
 * whatever the community chose; allow_hide N keeps it on where available; allow_reorder N puts it
 * at the group's place.
 */
export function serviceState(code: AppServiceCode, g: GroupService, rid: number, modulesOff: readonly string[], r?: OwnService): Service {
  const d = APP_SERVICES[code];
  const reason = unavailableReason(g, rid, modulesOff);
  const own = (r?.enabled ?? d.default) as 'Y' | 'N';
  const enabled = reason ? 'N' : g.allow_hide === 'N' ? 'Y' : own;
  return {
    code,
    enabled,
    enabled_ch: enumText(APP_SERVICE_STATE, enabled),
    title: r?.title ?? d.title,
    default_title: d.title,
    intro: r?.intro || d.intro,
    hours: r?.hours ?? '',
    phone: r?.phone ?? '',
    sort: g.allow_reorder === 'N' ? g.sort : (r?.sort ?? g.sort),
    console: d.console,
    available: reason ? 'N' : 'Y',
    unavailable_reason: reason,
    allow_hide: g.allow_hide,
    allow_reorder: g.allow_reorder,
    icon: g.icon,
    updated_by: r?.updated_by ?? '',
    update_time: r ? wireTime(r.updated_at) : '',
  };
}

/**
 * Every service of the catalogue as the community offers it, in the app's order: its own choices
 * within what its group's catalogue (/applys/applyslist) and its modules allow.
 */
export async function servicesOf(db: Kysely<DB>, rid: number): Promise<Map<AppServiceCode, Service>> {
  const region = await db.selectFrom('regions').select(['group_id', 'modules_off']).where('id', '=', rid).executeTakeFirstOrThrow();
  const catalogue = await groupCatalogue(db, region.group_id);
  const rows = await db
    .selectFrom('app_services as s')
    .leftJoin('accounts as a', 'a.id', 's.updated_by')
    .select(['s.code', 's.enabled', 's.title', 's.intro', 's.hours', 's.phone', 's.sort', 's.updated_at'])
    .select(sql<string>`coalesce(a.name, '')`.as('updated_by'))
    .where('s.rid', '=', rid)
    .execute();
  const own = new Map(rows.map((r) => [r.code, r]));
  const out = new Map<AppServiceCode, Service>();
  for (const code of APP_SERVICE_CODES) out.set(code, serviceState(code, catalogue.get(code)!, rid, region.modules_off, own.get(code)));
  return out;
}

/** The services a community's owner app shows (available there and on), in the app's order: for the pages and blocks that list them. */
export async function availableServices(db: Kysely<DB>, rid: number): Promise<AppServiceCode[]> {
  return [...(await servicesOf(db, rid)).values()]
    .filter((s) => s.enabled === 'Y')
    .sort((a, b) => a.sort - b.sort || APP_SERVICE_CODES.indexOf(a.code) - APP_SERVICE_CODES.indexOf(b.code))
    .map((s) => s.code);
}

/** Enabled menu entries opening each service. */
async function menuCounts(db: Kysely<DB>, rid: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('app_menus')
    .select(['target'])
    .select(sql<number>`count(*)::int`.as('n'))
    .where('rid', '=', rid)
    .where('link_type', '=', 'service')
    .where('status', '=', 'Y')
    .groupBy('target')
    .execute();
  return new Map(rows.map((r) => [r.target, r.n]));
}

const applylist = defineMethod('applylist', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '业主App的应用（在线报修、物业缴费、访客邀请…）：本小区是否开通、名称、简介、服务时间与电话、排序、指向它的启用菜单数',
  async handler(ctx, input) {
    const [services, menus] = await Promise.all([servicesOf(ctx.db, ctx.rid), menuCounts(ctx.db, ctx.rid)]);
    const items = [...services.values()]
      .filter((s) => !input.enabled || s.enabled === input.enabled)
      .map((s) => ({ ...s, menus: menus.get(s.code) ?? 0 }))
      .sort((a, b) => a.sort - b.sort || APP_SERVICE_CODES.indexOf(a.code) - APP_SERVICE_CODES.indexOf(b.code));
    return { items };
  },
});

const CHANGE_WORDS: Record<string, string> = { title: '名称', intro: '简介', hours: '服务时间', phone: '服务电话', sort: '排序' };

/** 开通 / 停用 / 修改：名称、服务时间 — what a logged change did. */
function changeText(before: Record<string, unknown> | null, after: Record<string, unknown>): string {
  const parts: string[] = [];
  if (!before || before.enabled !== after.enabled) parts.push(after.enabled === 'Y' ? '开通' : '停用');
  const changed = Object.keys(CHANGE_WORDS).filter((k) => before && before[k] !== after[k]);
  if (changed.length > 0) parts.push(`修改：${changed.map((k) => CHANGE_WORDS[k]).join('、')}`);
  return parts.join('；') || '保存（无变化）';
}

const applyinfo = defineMethod('applyinfo', {
  side: 'community',
  roles: ROLES,
  writes: false,
  summary: '一个应用的设置：开通与否、名称、简介、服务时间与电话，指向它的菜单，以及每次修改的记录',
  async handler(ctx, input) {
    const [services, menus, logs] = await Promise.all([
      servicesOf(ctx.db, ctx.rid),
      ctx.db
        .selectFrom('app_menus')
        .select(['id', 'title', 'position', 'status'])
        .where('rid', '=', ctx.rid)
        .where('link_type', '=', 'service')
        .where('target', '=', input.code)
        .orderBy('position')
        .orderBy('sort')
        .execute(),
      ctx.db
        .selectFrom('app_service_logs as l')
        .leftJoin('accounts as a', 'a.id', 'l.created_by')
        .select(['l.id', 'l.before', 'l.after', 'l.created_at'])
        .select(sql<string>`coalesce(a.name, '')`.as('operator'))
        .where('l.rid', '=', ctx.rid)
        .where('l.code', '=', input.code)
        .orderBy('l.id', 'desc')
        .limit(100)
        .execute(),
    ]);
    const s = services.get(input.code)!;
    return {
      ...s,
      menus: menus.filter((m) => m.status === 'Y').length,
      menu_items: menus.map((m) => ({
        id: Number(m.id),
        title: m.title,
        position_ch: enumText(MENU_POSITION, m.position),
        status: m.status as 'Y' | 'N',
      })),
      logs: logs.map((l): AppServiceLog => ({
        id: Number(l.id),
        before: l.before as AppServiceLog['before'],
        after: l.after as AppServiceLog['after'],
        change: changeText(l.before as Record<string, unknown> | null, l.after as Record<string, unknown>),
        operator: l.operator,
        create_time: wireTime(l.created_at),
      })),
    };
  },
});

const applyedit = defineMethod('applyedit', {
  side: 'community',
  roles: ROLES,
  writes: true,
  summary: '开通或停用一个应用并保存它的名称、简介、服务时间与电话、排序（停用后指向它的菜单在App中隐藏）；每次修改留记录',
  async handler(ctx, input) {
    // what the group's catalogue and the community's modules allow (/applys/applyslist)
    const state = (await servicesOf(ctx.db, ctx.rid)).get(input.code)!;
    if (input.enabled === 'Y' && state.available === 'N')
      fail(
        state.unavailable_reason === '集团未开放'
          ? `集团未向本小区开放“${state.default_title}”，不能开通`
          : `${state.unavailable_reason}，不能开通“${state.default_title}”`,
      );
    if (input.enabled === 'N' && state.available === 'Y' && state.allow_hide === 'N')
      fail(`集团要求各小区展示“${state.default_title}”，不能停用`);
    // the community's row locked (or made) first, so two saves log in turn
    const before = await ctx.db
      .selectFrom('app_services')
      .select(['enabled', 'title', 'intro', 'hours', 'phone', 'sort'])
      .where('rid', '=', ctx.rid)
      .where('code', '=', input.code)
      .forUpdate()
      .executeTakeFirst();
    const after = {
      enabled: input.enabled,
      title: input.title,
      intro: input.intro,
      hours: input.hours,
      phone: input.phone,
      sort: input.sort,
    };
    const was =
      before ??
      (() => {
        const s = APP_SERVICES[input.code];
        return {
          enabled: s.default,
          title: s.title,
          intro: s.intro,
          hours: '',
          phone: '',
          sort: (APP_SERVICE_CODES.indexOf(input.code) + 1) * 10,
        };
      })();
    await ctx.db
      .insertInto('app_services')
      .values({ rid: ctx.rid, code: input.code, ...after, created_by: ctx.session.accountId, updated_by: ctx.session.accountId })
      .onConflict((oc) => oc.columns(['rid', 'code']).doUpdateSet({ ...after, updated_at: new Date(), updated_by: ctx.session.accountId }))
      .execute();
    await ctx.db
      .insertInto('app_service_logs')
      .values({
        rid: ctx.rid,
        code: input.code,
        before: JSON.stringify(was),
        after: JSON.stringify(after),
        created_by: ctx.session.accountId,
      })
      .execute();
    const message = was.enabled !== after.enabled ? (after.enabled === 'Y' ? `已开通${input.title}` : `已停用${input.title}`) : '保存成功';
    return reply({ code: input.code }, message);
  },
});

export const applyModule = [applylist, applyinfo, applyedit];
