/**
 * The route tree: the single source of truth for the top menu, the sidebar, breadcrumbs,
 * route search, permissions and fixed tabs. A feature area adds a page by adding one entry
 * with a lazy import under its top route (create the top route if it is the area's first page).
 *
 * meta: title (i18n key under `route.`), icon, roles, noCache, affix, keepAlive, activeMenu,
 * isBack, breadcrumb; `hidden` keeps a page out of the menu (detail/edit pages, with activeMenu).
 */
import { CloudDownloadOutlined, DashboardOutlined, DesktopOutlined, HistoryOutlined, SettingOutlined } from '@ant-design/icons';
import type { AppRoute } from './router/types';
import type { Side } from './utils/auth';
import { registerRouteTitles } from './i18n';
import { structureLeaderRoutes, structureRoutes } from './pages/structure/routes';
import { structureTitles } from './pages/structure/i18n';
import { ownersRoutes } from './pages/owners/routes';
import { ownersTitles } from './pages/owners/i18n';
import { feecountsRoutes, feesDesktopRoutes, feesRoutes, feesSetupRoutes } from './pages/fees/routes';
import { feesTitles } from './pages/fees/i18n';
import { lazyPage } from './router/lazyPage';

for (const titles of [structureTitles, ownersTitles, feesTitles]) registerRouteTitles(titles);

const Dashboard = lazyPage(() => import('./pages/dashboard/Dashboard'));
const RegionList = lazyPage(() => import('./pages/region/RegionList'));
const Backlog = lazyPage(() => import('./pages/setup/Backlog'));
const Download = lazyPage(() => import('./pages/setup/Download'));
const UpdateLog = lazyPage(() => import('./pages/updatelog/UpdateLog'));

const dashboard: AppRoute = {
  path: '/dashboard',
  component: Dashboard,
  meta: { title: 'route.dashboard', icon: DashboardOutlined, affix: true, keepAlive: true },
};

const updatelog: AppRoute = {
  path: '/updatelog',
  redirect: '/updatelog/updatelog',
  meta: { title: 'route.updatelog', icon: HistoryOutlined, roles: ['admin', 'updatelog'] },
  children: [
    { path: 'updatelog', component: UpdateLog, meta: { title: 'route.updatelog', icon: HistoryOutlined, roles: ['admin', 'updatelog'] } },
  ],
};

/** Community side (the admin areas of docs/product.md#route-table). */
export const communityRoutes: AppRoute[] = [
  dashboard,
  {
    path: '/desktop',
    redirect: '/desktop/regionlist',
    meta: { title: 'route.desktop', icon: DesktopOutlined },
    children: [
      {
        path: 'regionlist',
        component: RegionList,
        meta: { title: 'route.regionlist', icon: DesktopOutlined, notForSysTypes: ['merchant'] },
      },
      ...feesDesktopRoutes,
    ],
  },
  ...structureRoutes,
  ...ownersRoutes,
  ...feesRoutes,
  ...feecountsRoutes,
  {
    path: '/setup',
    meta: { title: 'route.setup', icon: SettingOutlined },
    children: [
      { path: 'backlog', component: Backlog, meta: { title: 'route.backlog', keepAlive: true } },
      { path: 'download', component: Download, meta: { title: 'route.download', icon: CloudDownloadOutlined } },
      ...feesSetupRoutes,
    ],
  },
  updatelog,
];

/** Group side (the leader_admin areas of docs/product.md#route-table-group). */
export const leaderRoutes: AppRoute[] = [dashboard, ...structureLeaderRoutes, updatelog];

export function routesFor(side: Side): AppRoute[] {
  return side === 'group' ? leaderRoutes : communityRoutes;
}
