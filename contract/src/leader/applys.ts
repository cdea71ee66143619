/**
 * 应用目录 of the group (/applys/applyslist, /applys/applysinfo on the group side; issue 45 "Owner
 * app layout and content"): the owner app's services (APP_SERVICES) as the head office offers them:
 * each with its icon, the community module it needs, the group's order, the communities it is open
 * to, and whether a community may hide it or reorder it. A community's 应用 (applylist, applyedit)
 * follows it: a service the group does not open to it, or whose module it lacks, is not available
 * there and cannot be switched on; allow_hide N keeps it on; allow_reorder N keeps the group's order.
 */
import { z } from 'zod';
import { id, int, yn } from '../common.js';
import { valueEnum } from '../kit/resource.js';
import { APP_SERVICE_CODES, type AppServiceCode } from '../mobilesys/apply.js';
import { MENU_ICON } from '../mobilesys/content.js';
import { GROUP_LEADERS } from '../structure/resources.js';
import type { CommunityModule } from './modules.js';

/** Who keeps the group's app catalogue: its head office. */
export const APPLYS_ROLES = GROUP_LEADERS;

export const APPLYS_SCOPE = valueEnum({
  all: { text: '全部小区', tone: 'success' },
  some: { text: '指定小区', tone: 'processing' },
  none: { text: '不开放', tone: 'default' },
});
export type ApplysScope = keyof typeof APPLYS_SCOPE;

export const APPLYS_ALLOW = valueEnum({ Y: { text: '允许', tone: 'success' }, N: { text: '不允许', tone: 'warning' } });

/** Why a service does not show in a community's app (none: it shows). */
export const APPLYS_REASON = {
  group: '集团未开放',
  disabled: '本小区已停用',
} as const;

const serviceCode = z.enum(APP_SERVICE_CODES, { error: '应用不存在' });

export interface ApplysItem {
  code: AppServiceCode;
  title: string;
  intro: string;
  /** the group's icon (a MENU_ICON key) */
  icon: string;
  icon_ch: string;
  default_icon: string;
  /** the community module it needs */
  module: CommunityModule;
  module_ch: string;
  sort: number;
  region_scope: ApplysScope;
  region_scope_ch: string;
  rids: number[];
  /** 全部小区, 不开放, or the chosen communities' names */
  regions_text: string;
  allow_hide: 'Y' | 'N';
  allow_hide_ch: string;
  allow_reorder: 'Y' | 'N';
  allow_reorder_ch: string;
  /** of the group's communities: where it may be offered (the group opens it and the module is open), and where it shows */
  available_count: number;
  shown_count: number;
  region_count: number;
  updated_by: string;
  update_time: string;
}

export interface ApplysRegion {
  rid: number;
  title: string;
  /** the group opens it there and the community has its module */
  available: 'Y' | 'N';
  /** 集团未开放 / 本小区未开通“X”模块 / 本小区已停用; '' when it shows */
  reason: string;
  /** shown in that community's app */
  enabled: 'Y' | 'N';
  enabled_ch: string;
}

export interface ApplysInfo extends ApplysItem {
  regions: ApplysRegion[];
}

export const applysSchemas = {
  applyslist: z.object({}),
  applysinfo: z.object({ code: serviceCode }),
  applysedit: z.object({
    code: serviceCode,
    icon: z.enum(Object.keys(MENU_ICON) as [string, ...string[]], { error: '请选择图标' }),
    sort: int(0, 9999).default(0),
    region_scope: z.enum(['all', 'some', 'none'], { error: '开放范围取值不正确' }).default('all'),
    rids: z.array(id).max(500, '最多选择500个小区').default([]),
    allow_hide: yn.default('Y'),
    allow_reorder: yn.default('Y'),
  }),
} as const;

export interface ApplysOutputs {
  applyslist: { items: ApplysItem[] };
  applysinfo: ApplysInfo;
  applysedit: { code: AppServiceCode };
}
