import { ToolOutlined } from '@ant-design/icons';
import { INTERNAL_ORDER_ROLES } from '@wuye/contract/steward/internalOrders';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const InternalOrderList = lazyPage(() => import('./InternalOrderList'));

/** Route titles of the steward desk's internalorders, keyed like 'route.<name>' without the prefix. */
export const internalOrderTitles = { 'zh-CN': { internalorder: '内部工单' }, en: { internalorder: 'Internal work orders' } };

/** The steward desk's internalorders pages under /steward (docs/product.md#internal-orders). */
export const internalOrderRoutes: AppRoute[] = [
  {
    path: 'internalorder',
    component: InternalOrderList,
    meta: { title: 'route.internalorder', icon: ToolOutlined, roles: [...INTERNAL_ORDER_ROLES], keepAlive: true },
  },
];
