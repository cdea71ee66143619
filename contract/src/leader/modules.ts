import { z } from 'zod';
import { id } from '../common.js';

/**
 * The areas a group opens or closes per community (docs/product.md#community-modules). A closed
 * module's methods answer NO_PERMISSION in that community and its pages and menu entries are not
 * there; the shell, structure, owners, team and settings are always open.
 */
export const COMMUNITY_MODULES = {
  fees: '收费管理',
  parking: '停车管理',
  access: '门禁通行',
  visitors: '访客管理',
  steward: '管家服务',
  patrols: '安保巡更',
  activities: '社区活动',
  assets: '设备台账',
  cards: '会员卡与商城',
  contracts: '客户与合同',
  meters: '智能仪表',
  charging: '充电桩',
  invoice: '电子发票',
  mobile: '业主端内容',
} as const;
export type CommunityModule = keyof typeof COMMUNITY_MODULES;
export const COMMUNITY_MODULE_KEYS = Object.keys(COMMUNITY_MODULES) as CommunityModule[];

/** The modules a community has open, as a form sends them: known keys, each once. */
export const moduleKeys = z
  .array(z.enum(COMMUNITY_MODULE_KEYS as [CommunityModule, ...CommunityModule[]], { error: '功能模块取值不正确' }))
  .max(COMMUNITY_MODULE_KEYS.length)
  .transform((keys) => COMMUNITY_MODULE_KEYS.filter((k) => keys.includes(k)));

/** The message a closed module's method answers with. */
export const moduleClosedMessage = (m: CommunityModule): string => `本小区未开通“${COMMUNITY_MODULES[m]}”模块，请联系集团开通`;

/** The modules that stay closed, of those a community has open. */
export const modulesOff = (open: readonly string[]): CommunityModule[] => COMMUNITY_MODULE_KEYS.filter((k) => !open.includes(k));

export const moduleSchemas = {
  /** the modules one community of the group has open: all of them is every area */
  leaderregionmodules: z.object({ rid: id, modules: moduleKeys }),
} as const;

export interface ModuleOutputs {
  leaderregionmodules: { rid: number; modules: CommunityModule[] };
}
