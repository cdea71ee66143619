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
    { path: '/desktop/regiondesktop', title: '小区桌面', roles: ['payment', 'cashier', 'financecount'] },
    { path: '/desktop/frombuilding', title: '从楼栋选房', roles: ['payment', 'cashier', 'financecount'] },
    { path: '/desktop/cashier', title: '收银台', roles: ['cashier'] },
    { path: '/regions/index', title: '小区资料', roles: ['memberbasis'] },
    { path: '/buildinglist', title: '楼栋管理', roles: ['memberbasis'] },
    { path: '/unitlist', title: '单元管理', roles: ['memberbasis'] },
    { path: '/roomlist', title: '房屋管理', roles: ['memberbasis'] },
    { path: '/addroom', title: '新增房屋', roles: ['memberbasis'], hidden: true },
    { path: '/editroom', title: '编辑房屋', roles: ['memberbasis'], hidden: true },
    { path: '/roominfo', title: '房屋详情', roles: ['memberbasis'], hidden: true },
    { path: '/house_show', title: '房态图', roles: ['memberbasis'] },
    { path: '/category', title: '房屋类型', roles: ['memberbasis'] },
    { path: '/buildingimport', title: '批量导入', roles: ['memberbasis'] },
    { path: '/importlog', title: '导入记录', roles: ['memberbasis'] },
    { path: '/basismembers/index', title: '业主列表', roles: ['memberbasis'] },
    { path: '/basismembers/cars', title: '住户车辆', roles: ['memberbasis', 'carpark'] },
    { path: '/fees/feebilllist', title: '账单列表', roles: ['fees', 'cashier', 'payment'] },
    { path: '/fees/conbill', title: '合并账单', roles: ['fees', 'cashier', 'payment'] },
    { path: '/fees/feebillworkadd', title: '生成账单', roles: ['fees'] },
    { path: '/fees/payment', title: '收费记录', roles: ['payment', 'cashier', 'financecount'] },
    { path: '/fees/quickpay', title: '临时收费', roles: ['cashier', 'payment', 'fees'] },
    { path: '/fees/meterreading', title: '抄表录入', roles: ['fees'] },
    { path: '/fees/feeitemlist', title: '收费项目', roles: ['setfees', 'fees'] },
    { path: '/fees/feeitemadd', title: '新增收费项目', roles: ['setfees', 'fees'], hidden: true },
    { path: '/fees/feeitemedit', title: '编辑收费项目', roles: ['setfees', 'fees'], hidden: true },
    { path: '/fees/feeitemcatelist', title: '费用类型', roles: ['setfees', 'fees'] },
    { path: '/fees/bindfee', title: '收费绑定', roles: ['setfees', 'fees'] },
    {
      path: '/fees/feethinglist',
      title: '收费对象',
      roles: ['setfees', 'fees', 'cashier', 'payment', 'feecount', 'fees_count', 'printbill', 'call'],
    },
    { path: '/fees/fees_cashier', title: '收银台', roles: ['cashier'] },
    { path: '/fees/refundlist', title: '退款审核', roles: ['fees', 'payment', 'cashier', 'financecount'] },
    { path: '/fees/discountlist', title: '优惠审批', roles: ['cashier', 'setfees', 'financecount'] },
    { path: '/fees/shift', title: '交班', roles: ['cashier', 'financecount'] },
    { path: '/fees/print/shift/:id', title: '打印交班单', roles: ['cashier', 'financecount'], hidden: true },
    { path: '/fees/feebillcall', title: '催缴管理', roles: ['call', 'fees'] },
    { path: '/fees/print_billcall', title: '打印催缴单', roles: ['call', 'fees'], hidden: true },
    { path: '/fees/print_billcallmx', title: '打印催缴明细', roles: ['call', 'fees'], hidden: true },
    { path: '/fees/feeimportlist', title: '历史账单导入', roles: ['fees'] },
    { path: '/fees/upload-excels', title: '收费数据导入', roles: ['fees'] },
    { path: '/fees/print/receipt/:id', title: '打印收据', roles: ['payment', 'cashier', 'financecount'], hidden: true },
    { path: '/feecounts/fees_count', title: '收费统计', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    { path: '/feecounts/fees_count_nopay', title: '欠费统计', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    { path: '/feecounts/month_fees', title: '月度收费', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    { path: '/feecounts/month_linting', title: '月度收缴明细', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    { path: '/feecounts/paymentstatis', title: '收款统计', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    { path: '/feecounts/propertypaystatis', title: '物业费收缴', roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'] },
    {
      path: '/feecounts/propertypaylog',
      title: '物业费缴费明细',
      roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'],
      hidden: true,
    },
    {
      path: '/feecounts/propertypaycount',
      title: '物业费收缴统计',
      roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'],
    },
    {
      path: '/feecounts/propertynopaycount',
      title: '物业费欠费统计',
      roles: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'],
    },
    { path: '/feecounts/repaircount', title: '报修统计', roles: ['steward', 'feecount'] },
    { path: '/feecounts/complaintcount', title: '投诉统计', roles: ['steward', 'feecount'] },
    { path: '/feecounts/financereport', title: '财务报表', roles: ['financecount', 'feecount'] },
    { path: '/steward/notices', title: '通知公告', roles: ['notices', 'steward'] },
    { path: '/steward/noticesadd', title: '发布公告', roles: ['notices'], hidden: true },
    { path: '/steward/noticesedit', title: '编辑公告', roles: ['notices'], hidden: true },
    { path: '/steward/readnumlist', title: '阅读明细', roles: ['notices', 'steward'], hidden: true },
    { path: '/steward/repairs', title: '报修工单', roles: ['steward', 'repairs'] },
    { path: '/steward/myrepairs', title: '我的工单', roles: ['repairs'] },
    { path: '/steward/repairtype', title: '报修类型', roles: ['steward', 'repairs'] },
    { path: '/steward/complaintlist', title: '投诉建议', roles: ['steward', 'repairs'] },
    { path: '/steward/complaintcategory', title: '投诉分类设置', roles: ['steward'], hidden: true },
    { path: '/steward/internalorder', title: '内部工单', roles: ['steward', 'repairs'] },
    { path: '/steward/stewardlist', title: '管家档案', roles: ['steward'] },
    { path: '/steward/steadd', title: '新增管家档案', roles: ['steward'], hidden: true },
    { path: '/steward/steedit', title: '编辑管家档案', roles: ['steward'], hidden: true },
    { path: '/steward/scorelist', title: '管家评分', roles: ['steward'] },
    { path: '/carpark/carparklist', title: '停车场管理', roles: ['carpark'] },
    { path: '/carpark/cdlist', title: '车位管理', roles: ['carpark'] },
    { path: '/carpark/carlist', title: '车辆管理', roles: ['memberbasis', 'carpark'] },
    { path: '/carpark/caradd', title: '新增车辆', roles: ['memberbasis', 'carpark'], hidden: true },
    { path: '/carpark/caredit', title: '编辑车辆', roles: ['memberbasis', 'carpark'], hidden: true },
    { path: '/carpark/moncarlist', title: '月租车管理', roles: ['carpark'] },
    { path: '/carpark/monthcarlog', title: '月租车记录', roles: ['carpark'] },
    { path: '/carpark/booth', title: '岗亭值守', roles: ['carpark', 'security'] },
    { path: '/carpark/carInout', title: '车辆进出', roles: ['carpark', 'security'] },
    { path: '/carpark/tempfee', title: '临时车收费标准', roles: ['carpark'] },
    { path: '/carpark/parkcardlist', title: '停车劵', roles: ['parkcard', 'carpark'] },
    { path: '/carpark/receivelist', title: '停车劵领取记录', roles: ['parkcard', 'carpark'] },
    { path: '/carpark/parkingincome', title: '停车收入报表', roles: ['carpark', 'feecount', 'fees_count', 'financecount'] },
    { path: '/carpark/parkingoccupancy', title: '车位占用', roles: ['carpark', 'security'] },
    { path: '/team/user', title: '员工管理', roles: ['team'] },
    { path: '/team/userrole', title: '角色权限', roles: ['team'] },
    { path: '/team/classifylist', title: '部门岗位', roles: ['team'] },
    { path: '/team/categoryadd', title: '新增部门', roles: ['team'], hidden: true },
    { path: '/team/categoryedit', title: '编辑部门', roles: ['team'], hidden: true },
    { path: '/setup/setsys', title: '系统设置', roles: ['setup'] },
    { path: '/setup/setdaily', title: '日常设置', roles: ['setup'] },
    { path: '/setup/linklist', title: '常用链接', roles: ['setup'] },
    { path: '/setup/backlog', title: '待办事项' },
    { path: '/setup/download', title: '下载中心' },
    { path: '/setup/setfees', title: '收费设置', roles: ['setfees'] },
    { path: '/setup/regiondelaylog', title: '续费记录', roles: ['setup'] },
    { path: '/setup/role', title: '后台角色', roles: ['team'] },
    { path: '/setup/mobilerole', title: '手机端角色', roles: ['team'] },
    { path: '/setup/category', title: '业务分类', roles: ['setup'] },
    { path: '/setup/categoryadd', title: '新增分类', roles: ['setup'], hidden: true },
    { path: '/setup/categoryedit', title: '编辑分类', roles: ['setup'], hidden: true },
    { path: '/setup/dict_list', title: '数据字典', roles: ['setup'] },
    { path: '/setup/smsjob', title: '短信任务', roles: ['setup'] },
    { path: '/setup/smsjoblog', title: '短信发送日志', roles: ['setup'] },
    { path: '/setup/schedulelist', title: '排班管理', roles: ['setup', 'security'] },
    { path: '/setup/scheduleedit', title: '编辑排班', roles: ['setup'], hidden: true },
    { path: '/setup/operationlog', title: '操作日志', roles: ['setup', 'team'] },
    { path: '/updatelog/updatelog', title: '更新日志', roles: ['admin', 'updatelog'] },
  ],
  group: [
    { path: '/dashboard', title: '首页' },
    { path: '/leader/regions/index', title: '小区列表', roles: ['leader_admin'] },
    { path: '/leader/regions/regiondelaylog', title: '续费记录', roles: ['leader_admin'] },
    { path: '/team/user', title: '员工管理', roles: ['leader_admin'] },
    { path: '/team/userrole', title: '角色权限', roles: ['leader_admin'] },
    { path: '/team/classifylist', title: '部门岗位', roles: ['leader_admin'] },
    { path: '/team/categoryadd', title: '新增部门', roles: ['leader_admin'], hidden: true },
    { path: '/team/categoryedit', title: '编辑部门', roles: ['leader_admin'], hidden: true },
    { path: '/setup/operationlog', title: '操作日志', roles: ['leader_admin'] },
    { path: '/setup/setsys', title: '系统设置', roles: ['leader_admin'] },
    { path: '/setup/linklist', title: '常用链接', roles: ['leader_admin'] },
    { path: '/updatelog/updatelog', title: '更新日志', roles: ['admin', 'updatelog'] },
  ],
};
