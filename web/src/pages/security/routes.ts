import {
  AimOutlined,
  BarChartOutlined,
  EnvironmentOutlined,
  FileSearchOutlined,
  HistoryOutlined,
  SafetyOutlined,
  ScheduleOutlined,
} from '@ant-design/icons';
import { patrolPlan, patrolPoint } from '@wuye/contract';
import { PATROL_ROLES } from '@wuye/contract/patrols/roles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const PointList = lazyPage(() => import('./PointList'));
const PointEdit = lazyPage(() => import('./PointEdit'));
const PlanList = lazyPage(() => import('./PlanList'));
const PlanEdit = lazyPage(() => import('./PlanEdit'));
const CheckIn = lazyPage(() => import('./CheckIn'));
const RecordList = lazyPage(() => import('./RecordList'));
const RecordLog = lazyPage(() => import('./RecordLog'));
const RecordEdit = lazyPage(() => import('./RecordEdit'));
const PlanReport = lazyPage(() => import('./PlanReport'));

/** Route titles of security patrols, keyed like 'route.<name>' without the prefix. */
export const securityTitles = {
  'zh-CN': {
    security: '安保巡更',
    patrolpointlist: '巡更点',
    patrolpointadd: '新增巡更点',
    patrolpointedit: '编辑巡更点',
    patrol_plan: '巡更计划',
    patrol_plan_add: '新增巡更计划',
    patrol_plan_edit: '编辑巡更计划',
    patrolcheckin: '巡更签到',
    patrolrecordlist: '巡更记录',
    patrolrecordlist_log: '巡更日志',
    patrolrecordedit: '修正巡更记录',
    patrolplanreport: '巡更报表',
  },
  en: {
    security: 'Security patrols',
    patrolpointlist: 'Patrol points',
    patrolpointadd: 'New patrol point',
    patrolpointedit: 'Edit patrol point',
    patrol_plan: 'Patrol plans',
    patrol_plan_add: 'New patrol plan',
    patrol_plan_edit: 'Edit patrol plan',
    patrolcheckin: 'Patrol check-in',
    patrolrecordlist: 'Patrol records',
    patrolrecordlist_log: 'Patrol log',
    patrolrecordedit: 'Correct patrol record',
    patrolplanreport: 'Patrol report',
  },
};

const staff = [...PATROL_ROLES.staff];

/** /security (docs/product.md#patrols): points, plans, the check-in page, records, their log and corrections, the report. */
export const securityRoutes: AppRoute[] = [
  {
    path: '/security',
    meta: { title: 'route.security', icon: SafetyOutlined },
    children: [
      {
        path: 'patrolcheckin',
        component: CheckIn,
        meta: { title: 'route.patrolcheckin', icon: AimOutlined, roles: staff, noCache: true },
      },
      {
        path: 'patrolpointlist',
        component: PointList,
        meta: { title: 'route.patrolpointlist', icon: EnvironmentOutlined, roles: [...patrolPoint.def.roles.read], keepAlive: true },
      },
      {
        path: 'patrolpointadd',
        component: PointEdit,
        hidden: true,
        meta: { title: 'route.patrolpointadd', roles: [...patrolPoint.def.roles.write], activeMenu: '/security/patrolpointlist' },
      },
      {
        path: 'patrolpointedit',
        component: PointEdit,
        hidden: true,
        meta: { title: 'route.patrolpointedit', roles: [...patrolPoint.def.roles.write], activeMenu: '/security/patrolpointlist' },
      },
      {
        path: 'patrol_plan',
        component: PlanList,
        meta: { title: 'route.patrol_plan', icon: ScheduleOutlined, roles: [...patrolPlan.def.roles.read], keepAlive: true },
      },
      {
        path: 'patrol_plan_add',
        component: PlanEdit,
        hidden: true,
        meta: { title: 'route.patrol_plan_add', roles: [...patrolPlan.def.roles.write], activeMenu: '/security/patrol_plan' },
      },
      {
        path: 'patrol_plan_edit',
        component: PlanEdit,
        hidden: true,
        meta: { title: 'route.patrol_plan_edit', roles: [...patrolPlan.def.roles.write], activeMenu: '/security/patrol_plan' },
      },
      {
        path: 'patrolrecordlist',
        component: RecordList,
        meta: { title: 'route.patrolrecordlist', icon: FileSearchOutlined, roles: staff, keepAlive: true },
      },
      {
        path: 'patrolrecordlist_log',
        component: RecordLog,
        meta: { title: 'route.patrolrecordlist_log', icon: HistoryOutlined, roles: staff },
      },
      {
        path: 'patrolrecordedit',
        component: RecordEdit,
        hidden: true,
        meta: { title: 'route.patrolrecordedit', roles: staff, activeMenu: '/security/patrolrecordlist', noCache: true },
      },
      {
        path: 'patrolplanreport',
        component: PlanReport,
        meta: { title: 'route.patrolplanreport', icon: BarChartOutlined, roles: staff },
      },
    ],
  },
];
