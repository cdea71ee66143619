import { ScheduleOutlined } from '@ant-design/icons';
import { schedule } from '@wuye/contract/setup/roster';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const ScheduleList = lazyPage(() => import('./ScheduleList'));
const ScheduleEdit = lazyPage(() => import('./ScheduleEdit'));

/** Route titles of the duty rosters, keyed like 'route.<name>' without the prefix. */
export const rosterTitles = {
  'zh-CN': { schedulelist: '排班管理', scheduleedit: '编辑排班' },
  en: { schedulelist: 'Duty rosters', scheduleedit: 'Edit roster' },
};

/** /setup/schedulelist and /setup/scheduleedit (docs/product.md#duty-rosters). */
export const rosterSetupRoutes: AppRoute[] = [
  {
    path: 'schedulelist',
    component: ScheduleList,
    meta: { title: 'route.schedulelist', icon: ScheduleOutlined, roles: [...schedule.def.roles.read], keepAlive: true },
  },
  {
    path: 'scheduleedit',
    component: ScheduleEdit,
    hidden: true,
    meta: { title: 'route.scheduleedit', roles: [...schedule.def.roles.write], activeMenu: '/setup/schedulelist' },
  },
];
