/**
 * Every page of the route tree (routes.tsx and the areas' routes.ts) as plain data: no React, no
 * components, so the browser journeys can read it (e2e/smoke.e2e.ts opens each page). Generated
 * from the tree, which stays the single source: routeManifest.test.ts fails when the two differ;
 * after changing the tree run
 *   UPDATE_ROUTE_MANIFEST=1 npx vitest run --project web web/src/routeManifest.test.ts
 */

/** The two sides of the console (utils/auth.ts Side): community operators and the group head office. */
export type ManifestSide = 'community' | 'group';

/** One page: its absolute path (a pattern, with :params), its zh-CN title and its meta. */
export interface ManifestPage {
  path: string;
  /** the zh-CN title the breadcrumb, tab and menu show */
  title: string;
  /** meta.roles: one of them opens it (admin opens every page of the community side) */
  roles?: string[];
  /** kept out of the menu (detail and edit pages) */
  hidden?: boolean;
  notForSysTypes?: string[];
}

/**
 * The pages of a side an account opens, by the rule the menus use (router/helpers.ts filterRoutes):
 * admin opens every page, others need one of a page's roles; some account types never get a page.
 */
export function pagesFor(side: ManifestSide, keys: readonly string[], sysType?: string): ManifestPage[] {
  return routeManifest[side].filter(
    (p) =>
      (keys.includes('admin') || !p.roles || p.roles.some((r) => keys.includes(r))) && !(sysType && p.notForSysTypes?.includes(sysType)),
  );
}

export const routeManifest: Record<ManifestSide, readonly ManifestPage[]> = {
  community: [
    { path: '/dashboard', title: '首页' },
    { path: '/desktop/regionlist', title: '切换小区', notForSysTypes: ['merchant'] },
    { path: '/desktop/cashier', title: '收银台', roles: ['cashier'] },
    { path: '/basis/regions/index', title: '小区资料', roles: ['memberbasis'] },
    { path: '/basis/buildinglist', title: '楼栋管理', roles: ['memberbasis'] },
    { path: '/basis/unitlist', title: '单元管理', roles: ['memberbasis'] },
    { path: '/basis/roomlist', title: '房屋管理', roles: ['memberbasis'] },
    { path: '/basis/addroom', title: '新增房屋', roles: ['memberbasis'], hidden: true },
    { path: '/basis/editroom/:id', title: '编辑房屋', roles: ['memberbasis'], hidden: true },
    { path: '/basis/roominfo/:id', title: '房屋详情', roles: ['memberbasis'], hidden: true },
    { path: '/basis/house_show', title: '房态图', roles: ['memberbasis'] },
    { path: '/basis/category', title: '房屋类型', roles: ['memberbasis'] },
    { path: '/basis/buildingimport', title: '批量导入', roles: ['memberbasis'] },
    { path: '/basis/importlog', title: '导入记录', roles: ['memberbasis'] },
    { path: '/basismembers/index', title: '业主列表', roles: ['memberbasis'] },
    { path: '/basismembers/cars', title: '住户车辆', roles: ['memberbasis', 'carpark'] },
    { path: '/fees/feebilllist', title: '账单列表', roles: ['fees', 'cashier', 'payment'] },
    { path: '/fees/feebillworkadd', title: '生成账单', roles: ['fees'] },
    { path: '/fees/payment', title: '收费记录', roles: ['payment', 'cashier'] },
    { path: '/fees/quickpay', title: '快捷收费', roles: ['cashier', 'payment', 'fees'] },
    { path: '/fees/meterreading', title: '抄表录入', roles: ['fees'] },
    { path: '/fees/feeitemlist', title: '收费项目', roles: ['setfees', 'fees'] },
    { path: '/fees/feeitemadd', title: '新增收费项目', roles: ['setfees', 'fees'], hidden: true },
    { path: '/fees/feeitemedit', title: '编辑收费项目', roles: ['setfees', 'fees'], hidden: true },
    { path: '/fees/feeitemcatelist', title: '费用类型', roles: ['setfees', 'fees'] },
    { path: '/fees/bindfee', title: '收费绑定', roles: ['setfees', 'fees'] },
    { path: '/fees/fees_cashier', title: '收银台', roles: ['cashier'] },
    { path: '/fees/refundlist', title: '退款审核', roles: ['fees', 'payment', 'cashier', 'financecount'] },
    { path: '/fees/feebillcall', title: '催缴管理', roles: ['call', 'fees'] },
    { path: '/fees/print_billcall', title: '打印催缴单', roles: ['call', 'fees'], hidden: true },
    { path: '/fees/print_billcallmx', title: '打印催缴明细', roles: ['call', 'fees'], hidden: true },
    { path: '/fees/feeimportlist', title: '历史账单导入', roles: ['fees'] },
    { path: '/fees/print/receipt/:id', title: '打印收据', roles: ['payment', 'cashier'], hidden: true },
    { path: '/feecounts/fees_count', title: '收费统计', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    { path: '/feecounts/fees_count_nopay', title: '欠费统计', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    { path: '/feecounts/month_fees', title: '月度收费', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    { path: '/feecounts/paymentstatis', title: '收款统计', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    { path: '/feecounts/propertypaystatis', title: '物业费收缴', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    {
      path: '/feecounts/propertypaylog',
      title: '物业费缴费明细',
      roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'],
      hidden: true,
    },
    { path: '/feecounts/financereport', title: '财务报表', roles: ['financecount', 'feecount'] },
    { path: '/setup/backlog', title: '待办事项' },
    { path: '/setup/download', title: '下载中心' },
    { path: '/setup/setfees', title: '收费设置', roles: ['setfees'] },
    { path: '/updatelog/updatelog', title: '更新日志', roles: ['admin', 'updatelog'] },
  ],
  group: [
    { path: '/dashboard', title: '首页' },
    { path: '/leader/regions/index', title: '小区列表', roles: ['leader_admin'] },
    { path: '/leader/regions/regiondelaylog', title: '续费记录', roles: ['leader_admin'] },
    { path: '/updatelog/updatelog', title: '更新日志', roles: ['admin', 'updatelog'] },
  ],
};
