import { CarOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../router/types';
import { feeRoutes, feeTitles } from './feeRoutes';

export const carparkTitles = [{ 'zh-CN': { carpark: '智能物联' }, en: { carpark: 'Smart IoT' } }, feeTitles];

/** /carpark (docs/product.md#route-table): parking. */
export const carparkRoutes: AppRoute[] = [
  {
    path: '/carpark',
    meta: { title: 'route.carpark', icon: CarOutlined },
    children: [...feeRoutes],
  },
];
