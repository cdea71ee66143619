import { FEE_ROLES } from '@wuye/contract/fees/roles';
import type { AppRoute } from '../../../router/types';
import { lazyPage } from '../../../router/lazyPage';

const CostDetailList = lazyPage(() => import('./CostDetailList'));
const CostEdit = lazyPage(() => import('./CostEdit'));
const CostInfo = lazyPage(() => import('./CostInfo'));
const CostItemList = lazyPage(() => import('./CostItemList'));
const CostCount = lazyPage(() => import('./CostCount'));

const read = [...FEE_ROLES.costRead];
const write = [...FEE_ROLES.costs];
// never a merchant's, whatever codes it holds (the server refuses them too)
const notForSysTypes = ['merchant' as const];

/** 成本登记: children of /fees (docs/product.md#costs). */
export const costRoutes: AppRoute[] = [
  {
    path: 'costdetaillist',
    component: CostDetailList,
    meta: { title: 'route.costdetaillist', roles: read, notForSysTypes, keepAlive: true },
  },
  {
    path: 'costadd',
    component: CostEdit,
    hidden: true,
    meta: { title: 'route.costadd', roles: write, notForSysTypes, activeMenu: '/fees/costdetaillist', noCache: true },
  },
  {
    path: 'costedit',
    component: CostEdit,
    hidden: true,
    meta: { title: 'route.costedit', roles: write, notForSysTypes, activeMenu: '/fees/costdetaillist', noCache: true },
  },
  {
    path: 'costinfo',
    component: CostInfo,
    hidden: true,
    meta: { title: 'route.costinfo', roles: read, notForSysTypes, activeMenu: '/fees/costdetaillist', noCache: true },
  },
  { path: 'costitemlist', component: CostItemList, meta: { title: 'route.costitemlist', roles: read, notForSysTypes, keepAlive: true } },
  {
    path: 'costitemadd',
    component: CostItemList,
    hidden: true,
    meta: { title: 'route.costitemadd', roles: write, notForSysTypes, activeMenu: '/fees/costitemlist', noCache: true },
  },
  {
    path: 'costitemedit',
    component: CostItemList,
    hidden: true,
    meta: { title: 'route.costitemedit', roles: write, notForSysTypes, activeMenu: '/fees/costitemlist', noCache: true },
  },
];

/** 成本统计: a child of /feecounts, in its feecountpannel group. */
export const costCountRoute: AppRoute = {
  path: 'costcount',
  component: CostCount,
  meta: { title: 'route.costcount', roles: read, notForSysTypes },
};
