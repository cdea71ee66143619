import {
  ApiOutlined,
  AuditOutlined,
  ClusterOutlined,
  CloudSyncOutlined,
  ExperimentOutlined,
  IdcardOutlined,
  NumberOutlined,
  ProfileOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { ACCESS_ROLES } from '@wuye/contract/access/roles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const DeviceList = lazyPage(() => import('./DeviceList'));
const RegionList = lazyPage(() => import('./RegionList'));
const GrantList = lazyPage(() => import('./GrantList'));
const GrantExamine = lazyPage(() => import('./GrantExamine'));
const SyncLog = lazyPage(() => import('./SyncLog'));
const PassLog = lazyPage(() => import('./PassLog'));
const AccessSim = lazyPage(() => import('./AccessSim'));
const RoomCodes = lazyPage(() => import('./RoomCodes'));
const RoomSyncLog = lazyPage(() => import('./RoomSyncLog'));

/** Route titles of access control, keyed like 'route.<name>' without the prefix. */
export const accessTitles = {
  'zh-CN': {
    current_device: '门禁设备',
    hardwareadd: '新增门禁设备',
    hardwareedit: '编辑门禁设备',
    add_device: '添加门禁设备',
    setregions: '门禁区域',
    current: '门禁授权',
    currentadd: '新增门禁授权',
    currentedit: '编辑门禁授权',
    currentexamine: '门禁审核',
    currentexamine_info: '审核门禁授权',
    currentexamine_show: '查看门禁授权',
    face_user_synclog: '人员下发情况',
    currentlog: '通行记录',
    accesssim: '门禁模拟器',
    roomcode: '房号编码',
    room_construct_sync_log: '房屋结构同步',
  },
  en: {
    current_device: 'Door devices',
    hardwareadd: 'New door device',
    hardwareedit: 'Edit door device',
    add_device: 'Add door device',
    setregions: 'Access regions',
    current: 'Access grants',
    currentadd: 'New grant',
    currentedit: 'Edit grant',
    currentexamine: 'Grant review',
    currentexamine_info: 'Review grant',
    currentexamine_show: 'View grant',
    face_user_synclog: 'Sync to devices',
    currentlog: 'Pass records',
    accesssim: 'Door simulator',
    roomcode: 'Room codes',
    room_construct_sync_log: 'Room structure sync',
  },
};

const roles = [...ACCESS_ROLES.staff];
const hidden = (path: string, component: AppRoute['component'], list: string): AppRoute => ({
  path,
  component,
  hidden: true,
  meta: { title: `route.${path}`, roles, activeMenu: `/carpark/${list}`, noCache: true },
});

/** /carpark access control (docs/product.md#access-control). */
export const accessRoutes: AppRoute[] = [
  { path: 'current_device', component: DeviceList, meta: { title: 'route.current_device', icon: ApiOutlined, roles, keepAlive: true } },
  hidden('hardwareadd', DeviceList, 'current_device'),
  hidden('hardwareedit', DeviceList, 'current_device'),
  hidden('add_device', DeviceList, 'current_device'),
  { path: 'setregions', component: RegionList, meta: { title: 'route.setregions', icon: ClusterOutlined, roles, keepAlive: true } },
  { path: 'current', component: GrantList, meta: { title: 'route.current', icon: IdcardOutlined, roles, keepAlive: true } },
  hidden('currentadd', GrantList, 'current'),
  hidden('currentedit', GrantList, 'current'),
  { path: 'currentexamine', component: GrantExamine, meta: { title: 'route.currentexamine', icon: AuditOutlined, roles, keepAlive: true } },
  hidden('currentexamine_info', GrantExamine, 'currentexamine'),
  hidden('currentexamine_show', GrantExamine, 'currentexamine'),
  { path: 'face_user_synclog', component: SyncLog, meta: { title: 'route.face_user_synclog', icon: SyncOutlined, roles, keepAlive: true } },
  { path: 'currentlog', component: PassLog, meta: { title: 'route.currentlog', icon: ProfileOutlined, roles, keepAlive: true } },
  { path: 'roomcode', component: RoomCodes, meta: { title: 'route.roomcode', icon: NumberOutlined, roles, keepAlive: true } },
  {
    path: 'room_construct_sync_log',
    component: RoomSyncLog,
    meta: { title: 'route.room_construct_sync_log', icon: CloudSyncOutlined, roles, keepAlive: true },
  },
  { path: 'accesssim', component: AccessSim, meta: { title: 'route.accesssim', icon: ExperimentOutlined, roles, keepAlive: true } },
];
