import {
  FunnelPlotOutlined,
  MessageOutlined,
  SettingOutlined,
  ShopOutlined,
  SolutionOutlined,
  TeamOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { SALES_ROLES } from '@wuye/contract/crm/sales';
import type { AppRoute } from '../../../router/types';
import { lazyPage } from '../../../router/lazyPage';
import { setcrmsysRoles } from './setcrmsysTabs';

const CustomerList = lazyPage(() => import('./CustomerList'));
const CustomerEdit = lazyPage(() => import('./CustomerEdit'));
const CustomerShow = lazyPage(() => import('./CustomerShow'));
const SalesCallList = lazyPage(() => import('./SalesCallList'));
const InviteList = lazyPage(() => import('./InviteList'));
const IntentionList = lazyPage(() => import('./IntentionList'));
const Funnel = lazyPage(() => import('./Funnel'));
const SetCrmSys = lazyPage(() => import('./SetCrmSys'));

/** Route titles of the sales CRM and of the area's settings page. */
export const salesTitles = {
  'zh-CN': {
    crm_sales: '销售客户',
    crm: '客户列表',
    addcrm: '新增客户',
    editcrm: '编辑客户',
    crm_show: '客户详情',
    salescall: '跟进记录',
    invitelist: '邀约到访',
    intentions: '认筹',
    intention: '销售漏斗',
    setcrmsys: '客户合同设置',
  },
  en: {
    crm_sales: 'Sales customers',
    crm: 'Customers',
    addcrm: 'New customer',
    editcrm: 'Edit customer',
    crm_show: 'Customer',
    salescall: 'Follow-ups',
    invitelist: 'Visits',
    intentions: 'Intention deposits',
    intention: 'Sales funnel',
    setcrmsys: 'CRM settings',
  },
};

const roles = [...SALES_ROLES.staff];
const back = '/crm/crm';

/** /crm's 销售客户 sub-menu (docs/product.md#crm-sales): customers, follow-ups, visits, deposits, the funnel; the forms and the detail hidden. */
export const salesRoutes: AppRoute[] = [
  {
    path: '/crm/sales',
    redirect: '/crm/crm',
    meta: { title: 'route.crm_sales', icon: TeamOutlined, roles },
    children: [
      { path: '/crm/crm', component: CustomerList, meta: { title: 'route.crm', icon: SolutionOutlined, roles, keepAlive: true } },
      {
        path: '/crm/salescall',
        component: SalesCallList,
        meta: { title: 'route.salescall', icon: MessageOutlined, roles, keepAlive: true },
      },
      { path: '/crm/invitelist', component: InviteList, meta: { title: 'route.invitelist', icon: ShopOutlined, roles, keepAlive: true } },
      {
        path: '/crm/intentions',
        component: IntentionList,
        meta: { title: 'route.intentions', icon: WalletOutlined, roles, keepAlive: true },
      },
      { path: '/crm/intention', component: Funnel, meta: { title: 'route.intention', icon: FunnelPlotOutlined, roles } },
      {
        path: '/crm/addcrm',
        component: CustomerEdit,
        hidden: true,
        meta: { title: 'route.addcrm', roles, activeMenu: back, noCache: true, search: true },
      },
      {
        path: '/crm/editcrm',
        component: CustomerEdit,
        hidden: true,
        meta: { title: 'route.editcrm', roles, activeMenu: back, noCache: true },
      },
      {
        path: '/crm/crm_show',
        component: CustomerShow,
        hidden: true,
        meta: { title: 'route.crm_show', roles, activeMenu: back, noCache: true },
      },
    ],
  },
];

/** /crm/setcrmsys: the area's settings, a tab per part (setcrmsysTabs.ts). */
export const setcrmsysRoute: AppRoute = {
  path: '/crm/setcrmsys',
  component: SetCrmSys,
  meta: { title: 'route.setcrmsys', icon: SettingOutlined, roles: setcrmsysRoles() },
};
