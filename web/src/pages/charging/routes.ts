import { AuditOutlined, BarChartOutlined, CreditCardOutlined, ProfileOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { charger } from '@wuye/contract/charging/charging';
import { CHARGING_ROLES } from '@wuye/contract/charging/roles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const PileList = lazyPage(() => import('./PileList'));
const OrderList = lazyPage(() => import('./OrderList'));
const ReconList = lazyPage(() => import('./ReconList'));
const ReportPage = lazyPage(() => import('./ReportPage'));
const CardList = lazyPage(() => import('./CardList'));

/** Route titles of the charging piles, keyed like 'route.<name>' without the prefix. */
export const chargingTitles = {
  'zh-CN': {
    charging: '充电桩',
    charging_add: '新增充电桩',
    charging_edit: '编辑充电桩',
    chargeorders: '充电订单',
    chargerecon: '充电对账',
    chargereport: '充电报表',
    chargecards: '充电月卡',
  },
  en: {
    charging: 'Charging piles',
    charging_add: 'New charging pile',
    charging_edit: 'Edit charging pile',
    chargeorders: 'Charging sessions',
    chargerecon: 'Charging reconciliation',
    chargereport: 'Charging report',
    chargecards: 'Charging month cards',
  },
};

const roles = [...CHARGING_ROLES.staff];

/** /carpark: the charging piles (docs/product.md#charging-piles): piles, sessions, reconciliation, report, month cards. */
export const chargingRoutes: AppRoute[] = [
  { path: 'charging', component: PileList, meta: { title: 'route.charging', icon: ThunderboltOutlined, roles, keepAlive: true } },
  // the pile form's own addresses (the spec's route table): the list with the form open
  ...(['charging_add', 'charging_edit'] as const).map((path): AppRoute => ({
    path,
    component: PileList,
    hidden: true,
    meta: {
      title: `route.${path}`,
      roles: [...(charger.def.roles.write as readonly string[])],
      activeMenu: '/carpark/charging',
      noCache: true,
    },
  })),
  { path: 'chargeorders', component: OrderList, meta: { title: 'route.chargeorders', icon: ProfileOutlined, roles, keepAlive: true } },
  { path: 'chargerecon', component: ReconList, meta: { title: 'route.chargerecon', icon: AuditOutlined, roles, keepAlive: true } },
  { path: 'chargereport', component: ReportPage, meta: { title: 'route.chargereport', icon: BarChartOutlined, roles, keepAlive: true } },
  { path: 'chargecards', component: CardList, meta: { title: 'route.chargecards', icon: CreditCardOutlined, roles, keepAlive: true } },
];
