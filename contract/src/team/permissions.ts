/**
 * The permission codes a role is made of (docs/product.md#team). The module-level codes are the
 * role names of spec section 6: a method names the codes that let it run (its `roles`), a route its
 * `meta.roles`, so a role holding `cashier` opens the cashier's pages and calls. Below a page sit
 * its action codes (退款申请 under 收费记录): holding an action implies holding its page ("manage
 * implies view"), which `withImpliedCodes` applies on every save.
 */
import type { RoleName } from '../roles.js';

export interface PermissionNode {
  /** a code a role can hold; a node without one only groups its children (an area of the menu) */
  code?: string;
  title: string;
  children?: PermissionNode[];
}

/** Action codes: finer than a page, checked by the methods that do the action. */
export const ACTION_CODES = [
  'refund',
  'contact_whole',
  'smssend',
  'cardset',
  'cardopen',
  'cardmall',
  'merchantset',
  'cardcoupon',
  'contractaudit',
  'leaseaudit',
] as const;
export type ActionCode = (typeof ACTION_CODES)[number];

type WebCode = Exclude<RoleName, 'admin' | 'leader_admin'> | ActionCode;
const page = (code: WebCode, title: string, children?: PermissionNode[]): PermissionNode => ({ code, title, children });

/** The console's pages and actions, by area of the menu. */
export const WEB_PERMISSIONS: PermissionNode[] = [
  {
    title: '收费管理',
    children: [
      page('fees', '收费设置与账单（收费项目、绑定、生成、账单、导入）'),
      page('cashier', '收银台'),
      page('payment', '收费记录', [page('refund', '退款申请')]),
      page('setfees', '收费参数设置'),
      page('preprint', '预打印'),
      page('printbill', '打印账单'),
      page('call', '催缴'),
    ],
  },
  {
    title: '统计报表',
    children: [
      page('feecount', '收费报表与面板'),
      page('propertypaystatis', '物业费收缴'),
      page('fees_count', '收费统计'),
      page('businesscounts', '营业统计'),
      page('financecount', '财务报表与审批（退款、优惠、作废）'),
    ],
  },
  { title: '住户', children: [page('memberbasis', '住户管理')] },
  {
    title: '管家服务',
    children: [page('steward', '管家服务'), page('notices', '通知公告'), page('repairs', '报修工单')],
  },
  { title: '安保巡更', children: [page('security', '巡更')] },
  { title: '社区活动', children: [page('service', '活动报名')] },
  { title: '团队管理', children: [page('team', '员工、角色与部门')] },
  {
    title: '客户与合同',
    children: [
      page('crm', '销售客户（客户、跟进、来访、认筹、公海）'),
      page('care', '客户关怀'),
      page('rentroom', '房屋销售与其他合同', [page('contractaudit', '合同审批（含变更与退款）')]),
      page('tenant', '租赁合同', [page('leaseaudit', '租赁审批')]),
    ],
  },
  {
    title: '智慧物联',
    children: [
      page('carpark', '停车场'),
      page('currents', '门禁'),
      page('parkcard', '停车券'),
      page('charginglist', '充电桩'),
      page('devicelist', '设备台账'),
      page('card', '会员卡', [
        page('cardset', '会员卡设置（卡面、有效期、积分规则、充值套餐、退款审批）'),
        page('cardopen', '开卡、充值与会员卡操作（冻结、挂失、注销、调整积分）'),
        page('cardmall', '积分商城管理（商城设置、分类、商品、兑换订单）'),
        page('merchantset', '商户管理（商户、结算账户、登录账号、服务小区）'),
        page('cardcoupon', '优惠券管理（券模板、发放、作废）'),
      ]),
    ],
  },
  { title: '发票', children: [page('invoicelist', '电子发票')] },
  { title: '应用', children: [page('apply', '应用入口')] },
  { title: '系统设置', children: [page('setup', '系统设置', [page('smssend', '短信发送（任务、重发、退订名单）')])] },
  // not a page: holding it opens none, it only unmasks what the role's pages show (contact.ts)
  { title: '数据权限', children: [page('contact_whole', '查看业主完整手机号与证件号（列表与导出）')] },
];

/** The staff app's functions (the spec's mobilerole): held by roles of app `mobile`. */
export const MOBILE_PERMISSIONS: PermissionNode[] = [
  {
    title: '手机端',
    children: [
      { code: 'm_repair', title: '手机工单（接单、处理）' },
      { code: 'm_patrol', title: '手机巡更' },
      { code: 'm_meter', title: '手机抄表' },
      { code: 'm_cashier', title: '手机收费' },
      { code: 'm_report', title: '手机报表' },
      { code: 'm_gate', title: '手机开门' },
    ],
  },
];

export const ROLE_APPS = { web: WEB_PERMISSIONS, mobile: MOBILE_PERMISSIONS } as const;
export type RoleApp = keyof typeof ROLE_APPS;

/** Every code of a tree with the code of the page it sits under (undefined at the top). */
function walk(nodes: PermissionNode[], parent?: string, into = new Map<string, { title: string; parent?: string }>()) {
  for (const n of nodes) {
    if (n.code) into.set(n.code, { title: n.title, parent });
    if (n.children) walk(n.children, n.code ?? parent, into);
  }
  return into;
}
const INDEX = { web: walk(WEB_PERMISSIONS), mobile: walk(MOBILE_PERMISSIONS) };

/** The codes of one app's tree. */
export function permissionCodes(app: RoleApp): string[] {
  return [...INDEX[app].keys()];
}

/** A code's title in either tree ('admin' reads 全部权限). */
export function permissionTitle(code: string): string {
  if (code === 'admin') return '全部权限（管理员）';
  if (code === 'leader_admin') return '集团管理员';
  return INDEX.web.get(code)?.title ?? INDEX.mobile.get(code)?.title ?? code;
}

/** The codes with the pages their actions sit under (an action implies its page), sorted as the tree. */
export function withImpliedCodes(app: RoleApp, codes: readonly string[]): string[] {
  const index = INDEX[app];
  const out = new Set<string>();
  for (const c of codes) {
    for (let k: string | undefined = c; k && index.has(k); k = index.get(k)!.parent) out.add(k);
  }
  return [...index.keys()].filter((k) => out.has(k));
}

/** The codes of a list no tree of the app knows (a role's save refuses them). */
export function unknownCodes(app: RoleApp, codes: readonly string[]): string[] {
  return codes.filter((c) => !INDEX[app].has(c));
}
