import { ToolOutlined, ApartmentOutlined, ScheduleOutlined } from '@ant-design/icons';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const RepairList = lazyPage(() => import('./RepairList'));
const MyRepairs = lazyPage(() => import('./MyRepairs'));
const RepairTypeList = lazyPage(() => import('./RepairTypeList'));
export const RepairCount = lazyPage(() => import('./RepairCount'));

/** Route titles of the steward desk's repairs, keyed like 'route.<name>' without the prefix. */
export const repairTitles = {
  'zh-CN': { repairs: '报修工单', myrepairs: '我的工单', repairtype: '报修类型', repaircount: '报修统计' },
  en: { repairs: 'Repair tickets', myrepairs: 'My tickets', repairtype: 'Repair types', repaircount: 'Repair figures' },
};

/** The steward desk's repairs pages under /steward (docs/product.md#repairs). */
export const repairRoutes: AppRoute[] = [
  {
    path: 'repairs',
    component: RepairList,
    meta: { title: 'route.repairs', icon: ToolOutlined, roles: [...STEWARD_ROLES.repairRead], keepAlive: true },
  },
  {
    path: 'myrepairs',
    component: MyRepairs,
    meta: { title: 'route.myrepairs', icon: ScheduleOutlined, roles: [...STEWARD_ROLES.technician] },
  },
  {
    path: 'repairtype',
    component: RepairTypeList,
    meta: { title: 'route.repairtype', icon: ApartmentOutlined, roles: [...STEWARD_ROLES.repairRead] },
  },
];
