/**
 * The route tree: the single source of truth for the top menu, the sidebar, breadcrumbs,
 * route search, permissions and fixed tabs. A feature area adds a page by adding one entry
 * with a lazy import under its top route (create the top route if it is the area's first page).
 *
 * meta: title (i18n key under `route.`), icon, roles, noCache, affix, keepAlive, activeMenu,
 * isBack, breadcrumb; `hidden` keeps a page out of the menu (detail/edit pages, with activeMenu).
 */
import {
  AuditOutlined,
  BarChartOutlined,
  CloudDownloadOutlined,
  DashboardOutlined,
  DesktopOutlined,
  HistoryOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { OPERATION_LOG_COMMUNITY, OPERATION_LOG_GROUP } from '@wuye/contract/operationlog';
import { FEE_ROLES } from '@wuye/contract/fees/roles';
import type { AppRoute } from './router/types';
import { inModule, type RouteAlias } from './router/helpers';
import type { Side } from './utils/auth';
import { registerRouteTitles } from './i18n';
import { structureAliases, structureLeaderRoutes, structureRoutes, structureSetupRoutes } from './pages/structure/routes';
import { structureTitles } from './pages/structure/i18n';
import { ownersRoutes } from './pages/owners/routes';
import { ownersTitles } from './pages/owners/i18n';
import { feecountsRoutes, feesDesktopRoutes, feesRoutes, feesSetupRoutes } from './pages/fees/routes';
import { feesTitles } from './pages/fees/i18n';
import { teamLeaderRoutes, teamRoutes, teamSetupRoutes, teamTitles } from './pages/team/routes';
import { smsSetupRoutes, smsTitles } from './pages/setup/smsRoutes';
import { rosterSetupRoutes, rosterTitles } from './pages/setup/rosterRoutes';
import { lazyPage } from './router/lazyPage';
import { settingsLeaderRoutes, settingsSetupRoutes, settingsTitles } from './pages/setup/settingsRoutes';
import { dictLeaderRoutes, dictSetupRoutes, dictTitles } from './pages/setup/dictRoutes';
import { stewardRoutes, stewardTitles } from './pages/steward/routes';
import { carparkRoutes, carparkTitles } from './pages/carpark/routes';
import { mobilesysRoutes, mobilesysTitles } from './pages/mobilesys/routes';
import { securityRoutes, securityTitles } from './pages/security/routes';
import { serviceRoutes, serviceTitles } from './pages/service/routes';
import { invoiceRoutes, invoiceTitles } from './pages/invoice/routes';
import { crmRoutes, crmTitles } from './pages/crm/routes';
import { leaderTitles } from './pages/leader/i18n';
import { setpayLeaderRoutes, setpayTitles } from './pages/leader/setpayRoutes';
import { wxsysLeaderRoutes, wxsysTitles } from './pages/leader/wxsysRoutes';
import { ownerAppLeaderRoutes, ownerAppTitles } from './pages/leader/ownerAppRoutes';
import { smsquotaLeaderRoutes, smsquotaTitles } from './pages/leader/smsquotaRoutes';
import { setdiyLeaderRoutes, setdiyTitles } from './pages/setdiy/routes';
import { inboxSetupRoutes, messageLeaderRoutes, notifyTitles } from './pages/setup/notifyRoutes';

for (const titles of [
  structureTitles,
  ownersTitles,
  feesTitles,
  teamTitles,
  settingsTitles,
  dictTitles,
  smsTitles,
  rosterTitles,
  ...stewardTitles,
  ...carparkTitles,
  mobilesysTitles,
  securityTitles,
  ...serviceTitles,
  invoiceTitles,
  ...crmTitles,
  leaderTitles,
  setpayTitles,
  wxsysTitles,
  ownerAppTitles,
  smsquotaTitles,
  setdiyTitles,
  notifyTitles,
])
  registerRouteTitles(titles);

const Dashboard = lazyPage(() => import('./pages/dashboard/Dashboard'));
const RegionList = lazyPage(() => import('./pages/region/RegionList'));
const RegionDesktop = lazyPage(() => import('./pages/desktop/RegionDesktop'));
const FromBuilding = lazyPage(() => import('./pages/desktop/FromBuilding'));
const Backlog = lazyPage(() => import('./pages/setup/Backlog'));
const Download = lazyPage(() => import('./pages/setup/Download'));
const OperationLog = lazyPage(() => import('./pages/setup/OperationLog'));
const UpdateLog = lazyPage(() => import('./pages/updatelog/UpdateLog'));
const LeaderFeeSummary = lazyPage(() => import('./pages/leader/FeeSummary'));

const dashboard: AppRoute = {
  path: '/dashboard',
  component: Dashboard,
  meta: { title: 'route.dashboard', icon: DashboardOutlined, affix: true, keepAlive: true },
};

// not an area of the top menu: the top bar's 更新日志 opens it, so the areas keep their room
const updatelog: AppRoute = {
  path: '/updatelog',
  redirect: '/updatelog/updatelog',
  hidden: true,
  meta: { title: 'route.updatelog', icon: HistoryOutlined, roles: ['admin', 'updatelog'], search: true },
  children: [
    // one crumb for the log: 首页 / 更新日志
    {
      path: 'updatelog',
      component: UpdateLog,
      meta: { title: 'route.updatelog', icon: HistoryOutlined, roles: ['admin', 'updatelog'], breadcrumb: false },
    },
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
      {
        path: 'regiondesktop',
        component: RegionDesktop,
        // its figures (regiondesktop, paymentlist) are the counter's: FEE_ROLES.payments
        meta: { title: 'route.regiondesktop', icon: DesktopOutlined, roles: FEE_ROLES.payments, keepAlive: true, module: 'fees' },
      },
      {
        path: 'frombuilding',
        component: FromBuilding,
        // its board (roomboard) is the counter's: FEE_ROLES.payments
        meta: { title: 'route.frombuilding', icon: DesktopOutlined, roles: FEE_ROLES.payments, module: 'fees' },
      },
      ...inModule('fees', feesDesktopRoutes),
    ],
  },
  ...structureRoutes,
  ...ownersRoutes,
  ...inModule('fees', feesRoutes),
  ...feecountsRoutes,
  // invoices for what owners paid (issue 41)
  ...inModule('invoice', invoiceRoutes),
  // patrols and activities are sub-menus of the steward's area, so every area fits the top menu of
  // an office screen (docs/product.md#shell-menus)
  ...stewardRoutes.map((r) => ({
    ...r,
    children: [...(r.children ?? []), ...inModule('patrols', securityRoutes), ...inModule('activities', serviceRoutes)],
  })),
  ...carparkRoutes,
  // customers and contracts (issue 43)
  ...inModule('contracts', crmRoutes),
  ...inModule('mobile', mobilesysRoutes),
  ...teamRoutes,
  {
    path: '/setup',
    meta: { title: 'route.setup', icon: SettingOutlined },
    children: [
      // system settings and daily switches (issue 36)
      ...settingsSetupRoutes,
      { path: 'backlog', component: Backlog, meta: { title: 'route.backlog', keepAlive: true } },
      // the staff member's 站内消息, where the group's message settings deliver (issue 45)
      ...inboxSetupRoutes,
      { path: 'download', component: Download, meta: { title: 'route.download', icon: CloudDownloadOutlined } },
      ...inModule('fees', feesSetupRoutes),
      ...structureSetupRoutes,
      ...teamSetupRoutes,
      ...dictSetupRoutes,
      ...smsSetupRoutes,
      // duty rosters (issue 36)
      ...rosterSetupRoutes,
      {
        path: 'operationlog',
        component: OperationLog,
        meta: { title: 'route.operationlog', icon: AuditOutlined, roles: [...OPERATION_LOG_COMMUNITY], keepAlive: true },
      },
    ],
  },
  updatelog,
];

/** Group side /setup (docs/product.md#route-table-group): the group's operation log. */
const leaderSetup: AppRoute = {
  path: '/setup',
  redirect: '/setup/operationlog',
  meta: { title: 'route.setup', icon: SettingOutlined, roles: [...OPERATION_LOG_GROUP] },
  children: [
    {
      path: 'operationlog',
      component: OperationLog,
      meta: { title: 'route.operationlog', icon: AuditOutlined, roles: [...OPERATION_LOG_GROUP], keepAlive: true },
    },
    // the group's common links (issue 36)
    ...settingsLeaderRoutes,
    // the group's payment merchants per community and kind of fee (issue 45)
    ...setpayLeaderRoutes,
    // the group's WeChat official account and mini-program, and the payment channel per scene (issue 45)
    ...wxsysLeaderRoutes,
    // the group's SMS quota package and its ledger, for an account holding is_smsset_auth (issue 45)
    ...smsquotaLeaderRoutes,
    // 消息设置: which events notify whom by which channel (issue 45)
    ...messageLeaderRoutes,
    // the group's dictionary items and labels (issue 45)
    ...dictLeaderRoutes,
  ],
};

/** Group side (the leader_admin areas of docs/product.md#route-table-group). */
/** Group side /leader/feecount: the group fee summary (docs/product.md#group-fee-summary). */
const leaderFeecount: AppRoute = {
  path: '/leader/feecount',
  component: LeaderFeeSummary,
  meta: { title: 'route.leaderFeecount', icon: BarChartOutlined, roles: ['leader_admin'], keepAlive: true },
};

export const leaderRoutes: AppRoute[] = [
  dashboard,
  ...structureLeaderRoutes,
  leaderFeecount,
  ...teamLeaderRoutes,
  // the owner app's DIY pages, for an account holding is_diyhome_auth (issue 45)
  ...setdiyLeaderRoutes,
  // the owner app's group banners and app catalogue (issue 45)
  ...ownerAppLeaderRoutes,
  leaderSetup,
  updatelog,
];

export function routesFor(side: Side): AppRoute[] {
  return side === 'group' ? leaderRoutes : communityRoutes;
}

/** Old addresses that lead to a page's present one (the query kept); the menu groups' own addresses are added from the tree. */
export const routeAliases: readonly RouteAlias[] = [...structureAliases];
