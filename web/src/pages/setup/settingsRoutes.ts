import { ControlOutlined, LinkOutlined, SettingOutlined } from '@ant-design/icons';
import { SETTINGS_ROLES } from '@wuye/contract/setup/settings';
import { groupLink, link } from '@wuye/contract/setup/links';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const Setsys = lazyPage(() => import('./Setsys'));
const SetDaily = lazyPage(() => import('./SetDaily'));
const LinkList = lazyPage(() => import('./LinkList'));

/** Route titles of setup's settings pages, keyed like 'route.<name>' without the prefix. */
export const settingsTitles = {
  'zh-CN': { setsys: '系统设置', setdaily: '日常设置', linklist: '常用链接' },
  en: { setsys: 'System settings', setdaily: 'Daily settings', linklist: 'Common links' },
  es: { setsys: 'Configuración del sistema', setdaily: 'Ajustes diarios', linklist: 'Enlaces frecuentes' },
};

/** Children of '/setup' (docs/product.md#setup-settings): system settings and daily switches. */
export const settingsSetupRoutes: AppRoute[] = [
  { path: 'setsys', component: Setsys, meta: { title: 'route.setsys', icon: SettingOutlined, roles: [...SETTINGS_ROLES] } },
  { path: 'setdaily', component: SetDaily, meta: { title: 'route.setdaily', icon: ControlOutlined, roles: [...SETTINGS_ROLES] } },
  {
    path: 'linklist',
    component: LinkList,
    meta: { title: 'route.linklist', icon: LinkOutlined, roles: [...link.def.roles.read], keepAlive: true },
  },
];

/** Children of the group side's '/setup': the group's security policy and common links, kept by the head office. */
export const settingsLeaderRoutes: AppRoute[] = [
  { path: 'setsys', component: Setsys, meta: { title: 'route.setsys', icon: SettingOutlined, roles: ['leader_admin'] } },
  {
    path: 'linklist',
    component: LinkList,
    meta: { title: 'route.linklist', icon: LinkOutlined, roles: [...groupLink.def.roles.write], keepAlive: true },
  },
];
