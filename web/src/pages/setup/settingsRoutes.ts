import { ControlOutlined, SettingOutlined } from '@ant-design/icons';
import { SETTINGS_ROLES } from '@wuye/contract/setup/settings';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const Setsys = lazyPage(() => import('./Setsys'));
const SetDaily = lazyPage(() => import('./SetDaily'));

/** Route titles of setup's settings pages, keyed like 'route.<name>' without the prefix. */
export const settingsTitles = {
  'zh-CN': { setsys: '系统设置', setdaily: '日常设置' },
  en: { setsys: 'System settings', setdaily: 'Daily settings' },
  es: { setsys: 'Configuración del sistema', setdaily: 'Ajustes diarios' },
};

/** Children of '/setup' (docs/product.md#setup-settings): system settings and daily switches. */
export const settingsSetupRoutes: AppRoute[] = [
  { path: 'setsys', component: Setsys, meta: { title: 'route.setsys', icon: SettingOutlined, roles: [...SETTINGS_ROLES] } },
  { path: 'setdaily', component: SetDaily, meta: { title: 'route.setdaily', icon: ControlOutlined, roles: [...SETTINGS_ROLES] } },
];
