import { BarChartOutlined, DashboardOutlined } from '@ant-design/icons';
import { PARKING_REPORT_ROLES } from '@wuye/contract/carpark/reports';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const ParkingIncome = lazyPage(() => import('./ParkingIncome'));
const ParkingOccupancy = lazyPage(() => import('./ParkingOccupancy'));

/** Route titles of the parking reports, keyed like 'route.<name>' without the prefix. */
export const reportTitles = {
  'zh-CN': { parkingincome: '停车收入报表', parkingoccupancy: '车位占用' },
  en: { parkingincome: 'Parking income', parkingoccupancy: 'Space occupancy' },
};

/** /carpark: the parking income per day and lot, the occupancy now and by hour (docs/product.md#parking-reports). */
export const reportRoutes: AppRoute[] = [
  {
    path: 'parkingincome',
    component: ParkingIncome,
    meta: { title: 'route.parkingincome', icon: BarChartOutlined, roles: [...PARKING_REPORT_ROLES.income], keepAlive: true },
  },
  {
    path: 'parkingoccupancy',
    component: ParkingOccupancy,
    meta: { title: 'route.parkingoccupancy', icon: DashboardOutlined, roles: [...PARKING_REPORT_ROLES.occupancy], keepAlive: true },
  },
];
