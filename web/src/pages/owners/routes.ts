import { CarOutlined, TeamOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const MemberList = lazyPage(() => import('./MemberList'));
const CarList = lazyPage(() => import('./CarList'));

/** Owner management (docs/product.md#route-table, /basismembers/index) and the cars bound to rooms. */
export const ownersRoutes: AppRoute[] = [
  {
    path: '/basismembers',
    redirect: '/basismembers/index',
    meta: { title: 'route.basismembers', icon: TeamOutlined, roles: ['memberbasis', 'carpark'] },
    children: [
      {
        path: 'index',
        component: MemberList,
        meta: { title: 'route.memberlist', icon: TeamOutlined, roles: ['memberbasis'], keepAlive: true },
      },
      {
        path: 'cars',
        component: CarList,
        meta: { title: 'route.ownercars', icon: CarOutlined, roles: ['memberbasis', 'carpark'], keepAlive: true },
      },
    ],
  },
];
