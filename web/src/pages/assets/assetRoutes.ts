import { ApartmentOutlined, CalendarOutlined, CheckSquareOutlined, DatabaseOutlined, ProfileOutlined } from '@ant-design/icons';
import { ASSET_ROLES } from '@wuye/contract/assets/roles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const CategoryList = lazyPage(() => import('./CategoryList'));
const AssetList = lazyPage(() => import('./AssetList'));
const AssetEdit = lazyPage(() => import('./AssetEdit'));
const AssetLabels = lazyPage(() => import('./AssetLabels'));
const StandardList = lazyPage(() => import('./StandardList'));
const PlanList = lazyPage(() => import('./PlanList'));
const TaskList = lazyPage(() => import('./TaskList'));

/** Route titles of the equipment ledger, keyed like 'route.<name>' without the prefix. */
export const assetTitles = {
  'zh-CN': {
    device: '设备台账',
    device_add: '新增设备',
    device_edit: '编辑设备',
    device_print: '打印设备标签',
    device_cate: '设备分类',
    maintainplan: '维保计划',
    maintaintask: '维保任务',
    maintainstandard: '维保标准',
  },
  en: {
    device: 'Equipment',
    device_add: 'New equipment',
    device_edit: 'Edit equipment',
    device_print: 'Equipment labels',
    device_cate: 'Equipment categories',
    maintainplan: 'Maintenance plans',
    maintaintask: 'Maintenance tasks',
    maintainstandard: 'Maintenance standards',
  },
};

const roles = [...ASSET_ROLES.staff];

/** /carpark: the equipment ledger and its maintenance (docs/product.md#equipment-ledger). */
export const assetRoutes: AppRoute[] = [
  { path: 'device', component: AssetList, meta: { title: 'route.device', icon: DatabaseOutlined, roles, keepAlive: true } },
  {
    path: 'device_add',
    component: AssetEdit,
    hidden: true,
    meta: { title: 'route.device_add', roles, activeMenu: '/carpark/device', noCache: true },
  },
  {
    path: 'device_edit',
    component: AssetEdit,
    hidden: true,
    meta: { title: 'route.device_edit', roles, activeMenu: '/carpark/device', noCache: true },
  },
  {
    path: 'device_print',
    component: AssetLabels,
    hidden: true,
    meta: { title: 'route.device_print', roles, activeMenu: '/carpark/device', noCache: true },
  },
  { path: 'device_cate', component: CategoryList, meta: { title: 'route.device_cate', icon: ApartmentOutlined, roles, keepAlive: true } },
  {
    path: 'maintainstandard',
    component: StandardList,
    meta: { title: 'route.maintainstandard', icon: ProfileOutlined, roles, keepAlive: true },
  },
  { path: 'maintainplan', component: PlanList, meta: { title: 'route.maintainplan', icon: CalendarOutlined, roles, keepAlive: true } },
  { path: 'maintaintask', component: TaskList, meta: { title: 'route.maintaintask', icon: CheckSquareOutlined, roles, keepAlive: true } },
];
