/**
 * The group's app catalogue as stored (group_app_services, /applys/applyslist on the group side):
 * for every service of APP_SERVICES the group's icon, order, open communities and what communities
 * may change; a service without a row has the catalogue's defaults. Read by the group's pages
 * (applys.ts) and by a community's services (modules/mobilesys/apply.ts).
 */
import { APP_SERVICE_CODES, APP_SERVICE_ICON, APP_SERVICE_MODULE, COMMUNITY_MODULES, type AppServiceCode } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { wireTime } from '../../lib/wire.js';

export interface GroupService {
  code: AppServiceCode;
  icon: string;
  sort: number;
  region_scope: 'all' | 'some' | 'none';
  rids: number[];
  allow_hide: 'Y' | 'N';
  allow_reorder: 'Y' | 'N';
  updated_by: string;
  update_time: string;
}

/** The catalogue's order when the group set none: 10, 20, 30… */
export const defaultSort = (code: AppServiceCode): number => (APP_SERVICE_CODES.indexOf(code) + 1) * 10;

/** Every service of the catalogue as the group offers it. */
export async function groupCatalogue(db: Kysely<DB>, groupId: number): Promise<Map<AppServiceCode, GroupService>> {
  const rows = await db
    .selectFrom('group_app_services as g')
    .leftJoin('accounts as a', 'a.id', 'g.updated_by')
    .select(['g.code', 'g.icon', 'g.sort', 'g.region_scope', 'g.rids', 'g.allow_hide', 'g.allow_reorder', 'g.updated_at'])
    .select(sql<string>`coalesce(a.name, '')`.as('updated_by'))
    .where('g.group_id', '=', groupId)
    .execute();
  const own = new Map(rows.map((r) => [r.code, r]));
  const out = new Map<AppServiceCode, GroupService>();
  for (const code of APP_SERVICE_CODES) {
    const r = own.get(code);
    out.set(code, {
      code,
      icon: r?.icon ?? APP_SERVICE_ICON[code],
      sort: r?.sort ?? defaultSort(code),
      region_scope: r?.region_scope ?? 'all',
      rids: (r?.rids ?? []).map(Number),
      allow_hide: r?.allow_hide ?? 'Y',
      allow_reorder: r?.allow_reorder ?? 'Y',
      updated_by: r?.updated_by ?? '',
      update_time: r ? wireTime(r.updated_at) : '',
    });
  }
  return out;
}

/** Why a community may not offer a service: the group's scope first, then its module; '' when it may. */
export function unavailableReason(g: GroupService, rid: number, modulesOff: readonly string[]): string {
  const offered = g.region_scope === 'all' || (g.region_scope === 'some' && g.rids.includes(rid));
  if (!offered) return '集团未开放';
  const module = APP_SERVICE_MODULE[g.code];
  if (modulesOff.includes(module)) return `本小区未开通“${COMMUNITY_MODULES[module]}”模块`;
  return '';
}
