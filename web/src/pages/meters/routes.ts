import {
  AlertOutlined,
  ApiOutlined,
  BarChartOutlined,
  CalendarOutlined,
  ClusterOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  HomeOutlined,
  MoneyCollectOutlined,
  ProfileOutlined,
  SettingOutlined,
  TagsOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { METER_ROLES } from '@wuye/contract/meters/roles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const MeterGateways = lazyPage(() => import('./MeterGateways'));
const MeterList = lazyPage(() => import('./MeterList'));
const MeterValves = lazyPage(() => import('./MeterValves'));
const MeterPlans = lazyPage(() => import('./MeterPlans'));
const MeterHouses = lazyPage(() => import('./MeterHouses'));
const MeterPayment = lazyPage(() => import('./MeterPayment'));
const MeterDayBills = lazyPage(() => import('./MeterDayBills'));
const MeterBillLogs = lazyPage(() => import('./MeterBillLogs'));
const MeterHardLogs = lazyPage(() => import('./MeterHardLogs'));
const MeterPlatform = lazyPage(() => import('./MeterPlatform'));
const MeterAmounts = lazyPage(() => import('./MeterAmounts'));
const MeterReadTime = lazyPage(() => import('./MeterReadTime'));
const MeterReport = lazyPage(() => import('./MeterReport'));
const MeterAlerts = lazyPage(() => import('./MeterAlerts'));

/** Route titles of the smart meters, keyed like 'route.<name>' without the prefix. */
export const meterTitles = {
  'zh-CN': {
    meters: '智能表计',
    meterpayment: '充值缴费',
    meterhouse: '房屋管理',
    meterbilllog: '扣费日志',
    meterdaybill: '日账单',
    meterdtu: '采集器',
    meterlist: '表计管理',
    metervalve: '阀门管理',
    meterplan: '单价方案',
    meterhardlog: '硬件日志',
    meterplatform: '平台设置',
    meteramount: '充值金额',
    meterreadtime: '抄表时间设置',
    meterreport: '用量统计',
    meteralert: '业主通知',
  },
  en: {
    meters: 'Smart meters',
    meterpayment: 'Meter recharges',
    meterhouse: 'Meter rooms',
    meterbilllog: 'Deductions and bills',
    meterdaybill: 'Day bills',
    meterdtu: 'Gateways',
    meterlist: 'Meters',
    metervalve: 'Valves',
    meterplan: 'Price plans',
    meterhardlog: 'Hardware logs',
    meterplatform: 'Platform settings',
    meteramount: 'Recharge amounts',
    meterreadtime: 'Read-time settings',
    meterreport: 'Meter usage',
    meteralert: 'Owner alerts',
  },
};

const staff: string[] = [...METER_ROLES.staff];
const cashiers = [...METER_ROLES.recharge];
const page = (path: string, component: AppRoute['component'], icon: NonNullable<AppRoute['meta']>['icon'], roles = staff): AppRoute => ({
  path: `/carpark/${path}`,
  component,
  meta: { title: `route.${path}`, icon, roles, keepAlive: true },
});

/** /carpark's 智能表计 sub-menu (docs/product.md#smart-meters). */
export const meterRoutes: AppRoute[] = [
  {
    path: '/carpark/meters',
    redirect: '/carpark/meterlist',
    meta: { title: 'route.meters', icon: ThunderboltOutlined, roles: cashiers },
    children: [
      page('meterpayment', MeterPayment, WalletOutlined, cashiers),
      page('meterhouse', MeterHouses, HomeOutlined),
      page('meterlist', MeterList, DashboardOutlined),
      page('meterdtu', MeterGateways, ClusterOutlined),
      page('metervalve', MeterValves, ToolOutlined),
      page('meterdaybill', MeterDayBills, CalendarOutlined),
      page('meterbilllog', MeterBillLogs, ProfileOutlined),
      page('meterhardlog', MeterHardLogs, FileSearchOutlined),
      page('meterreport', MeterReport, BarChartOutlined),
      page('meteralert', MeterAlerts, AlertOutlined),
      page('meterplan', MeterPlans, TagsOutlined),
      page('meteramount', MeterAmounts, MoneyCollectOutlined),
      page('meterreadtime', MeterReadTime, SettingOutlined),
      page('meterplatform', MeterPlatform, ApiOutlined),
    ],
  },
];
