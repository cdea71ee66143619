import { CarOutlined, ClockCircleOutlined, HistoryOutlined, AppstoreOutlined, TableOutlined } from '@ant-design/icons';
import { car, lot, space } from '@wuye/contract';
import { CARPARK_ROLES } from '@wuye/contract/carpark/roles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const LotList = lazyPage(() => import('./LotList'));
const SpaceList = lazyPage(() => import('./SpaceList'));
const CarList = lazyPage(() => import('./CarList'));
const MonthlyCars = lazyPage(() => import('./MonthlyCars'));
const MonthCarLog = lazyPage(() => import('./MonthCarLog'));

/** Route titles of the parking structure, keyed like 'route.<name>' without the prefix. */
export const structureTitles = {
  'zh-CN': {
    carparklist: '停车场管理',
    cdlist: '车位管理',
    carlist: '车辆管理',
    caradd: '新增车辆',
    caredit: '编辑车辆',
    moncarlist: '月租车管理',
    monthcarlog: '月租车记录',
  },
  en: {
    carparklist: 'Parking lots',
    cdlist: 'Parking spaces',
    carlist: 'Cars',
    caradd: 'New car',
    caredit: 'Edit car',
    moncarlist: 'Monthly cars',
    monthcarlog: 'Monthly car log',
  },
};

const staff = [...CARPARK_ROLES.staff];

/** Lots, spaces, cars, monthly cars and their history under /carpark (docs/product.md#carpark). */
export const structureRoutes: AppRoute[] = [
  {
    path: 'carparklist',
    component: LotList,
    meta: { title: 'route.carparklist', icon: AppstoreOutlined, roles: [...(lot.def.roles.read as readonly string[])], keepAlive: true },
  },
  {
    path: 'cdlist',
    component: SpaceList,
    meta: { title: 'route.cdlist', icon: TableOutlined, roles: [...(space.def.roles.read as readonly string[])], keepAlive: true },
  },
  {
    path: 'carlist',
    component: CarList,
    meta: { title: 'route.carlist', icon: CarOutlined, roles: [...(car.def.roles.read as readonly string[])], keepAlive: true },
  },
  {
    path: 'caradd',
    component: CarList,
    hidden: true,
    meta: { title: 'route.caradd', roles: [...(car.def.roles.write as readonly string[])], activeMenu: '/carpark/carlist', noCache: true },
  },
  {
    path: 'caredit',
    component: CarList,
    hidden: true,
    meta: { title: 'route.caredit', roles: [...(car.def.roles.write as readonly string[])], activeMenu: '/carpark/carlist', noCache: true },
  },
  {
    path: 'moncarlist',
    component: MonthlyCars,
    meta: { title: 'route.moncarlist', icon: ClockCircleOutlined, roles: staff, keepAlive: true },
  },
  {
    path: 'monthcarlog',
    component: MonthCarLog,
    meta: { title: 'route.monthcarlog', icon: HistoryOutlined, roles: staff, keepAlive: true },
  },
];
