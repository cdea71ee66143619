import { DashboardOutlined, SwapOutlined } from '@ant-design/icons';
import { GATE_ROLES } from '@wuye/contract/carpark/gate';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const CarInout = lazyPage(() => import('./CarInout'));
const BoothConsole = lazyPage(() => import('./BoothConsole'));

/** Route titles of the gates, keyed like 'route.<name>' without the prefix. */
export const gateTitles = {
  'zh-CN': { carInout: '车辆进出', booth: '岗亭值守' },
  en: { carInout: 'Entries and exits', booth: 'Booth console' },
};

/** /carpark: the stays and the booth console (docs/product.md#parking-gates). */
export const gateRoutes: AppRoute[] = [
  {
    path: 'booth',
    component: BoothConsole,
    meta: { title: 'route.booth', icon: DashboardOutlined, roles: [...GATE_ROLES], keepAlive: true },
  },
  {
    path: 'carInout',
    component: CarInout,
    meta: { title: 'route.carInout', icon: SwapOutlined, roles: [...GATE_ROLES], keepAlive: true },
  },
];
