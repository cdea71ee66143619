import { CarOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../router/types';
import { inModule } from '../../router/helpers';
import { structureRoutes, structureTitles } from './structureRoutes';
import { feeRoutes, feeTitles } from './feeRoutes';
import { gateRoutes, gateTitles } from './gateRoutes';
import { reportRoutes, reportTitles } from './reportRoutes';
import { assetRoutes, assetTitles } from '../assets/assetRoutes';
import { accessRoutes, accessTitles } from '../access/routes';
import { visitorRoutes, visitorTitles } from '../visitors/routes';
import { cardRoutes, cardTitles } from '../cards/routes';
import { chargingRoutes, chargingTitles } from '../charging/routes';
import { meterRoutes, meterTitles } from '../meters/routes';

export const carparkTitles = [
  { 'zh-CN': { carpark: '智能物联', carpark_short: '物联' }, en: { carpark: 'Smart IoT' } },
  structureTitles,
  feeTitles,
  gateTitles,
  reportTitles,
  assetTitles,
  accessTitles,
  visitorTitles,
  cardTitles,
  meterTitles,
  chargingTitles,
];

/**
 * /carpark (docs/product.md#route-table, #carpark): lots, spaces, cars, monthly cars and their
 * history; the entries and exits and the booth console; temporary-car fee standards and parking
 * coupons; the parking reports; access control (pages/access), the visitors (pages/visitors) and the
 * equipment ledger (pages/assets) and the member cards (pages/cards).
 */
export const carparkRoutes: AppRoute[] = [
  {
    path: '/carpark',
    meta: { title: 'route.carpark', icon: CarOutlined },
    // each part is closed with its community module (docs/product.md#community-modules)
    children: [
      ...inModule('parking', [...structureRoutes, ...gateRoutes, ...feeRoutes, ...reportRoutes]),
      ...inModule('access', accessRoutes),
      ...inModule('visitors', visitorRoutes),
      ...inModule('assets', assetRoutes),
      ...inModule('cards', cardRoutes),
      ...inModule('charging', chargingRoutes),
      ...inModule('meters', meterRoutes),
    ],
  },
];
