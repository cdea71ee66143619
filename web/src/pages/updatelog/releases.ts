import changelog from './changelog.json';

/**
 * What the product does, release by release, newest first: changelog.json beside this file, which
 * a change that users will notice adds its lines to.
 */
export type ChangeArea = keyof typeof AREA_NAMES;

/** The areas a change belongs to, as the update log names them. */
export const AREA_NAMES = {
  shell: '控制台',
  structure: '房产管理',
  owners: '业主管理',
  fees: '收费管理',
  refunds: '退款',
  renewal: '续费',
  imports: '导入',
  exports: '导出',
  lists: '列表页',
  backlog: '待办事项',
} as const;

export interface Release {
  version: string;
  date: string;
  title: string;
  changes: { area: ChangeArea; items: string[] }[];
}

export const RELEASES: readonly Release[] = changelog.releases as Release[];
