import { TeamOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const StaffList = lazyPage(() => import('./StaffList'));
const UserRole = lazyPage(() => import('./UserRole'));
const WebRoles = lazyPage(() => import('./UserRole').then((m) => ({ default: m.WebRoles })));
const MobileRoles = lazyPage(() => import('./UserRole').then((m) => ({ default: m.MobileRoles })));
const ClassifyList = lazyPage(() => import('./ClassifyList'));

/** Route titles of the team area, keyed like 'route.<name>' without the prefix. */
export const teamTitles = {
  'zh-CN': {
    team: '团队管理',
    team_short: '团队',
    user: '员工管理',
    userrole: '角色权限',
    setupRole: '后台角色',
    setupMobileRole: '手机端角色',
    classifylist: '部门岗位',
    categoryadd: '新增部门',
    categoryedit: '编辑部门',
  },
  en: {
    team: 'Team',
    user: 'Staff',
    userrole: 'Roles',
    setupRole: 'Console roles',
    setupMobileRole: 'App roles',
    classifylist: 'Departments and positions',
    categoryadd: 'New department',
    categoryedit: 'Edit department',
  },
};

/** The team area (docs/product.md#team): the community's staff with the team code, the group's with leader_admin. */
function teamArea(roles: readonly string[]): AppRoute {
  return {
    path: '/team',
    redirect: '/team/user',
    meta: { title: 'route.team', icon: TeamOutlined, roles },
    children: [
      { path: 'user', component: StaffList, meta: { title: 'route.user', roles, keepAlive: true } },
      { path: 'userrole', component: UserRole, meta: { title: 'route.userrole', roles, keepAlive: true } },
      // 部门岗位: the company's departments (a tree) and positions
      { path: 'classifylist', component: ClassifyList, meta: { title: 'route.classifylist', roles, keepAlive: true } },
      // the department form on its own address (a link to it opens the list with the form open)
      {
        path: 'categoryadd',
        component: ClassifyList,
        hidden: true,
        meta: { title: 'route.categoryadd', roles, activeMenu: '/team/classifylist', noCache: true },
      },
      {
        path: 'categoryedit',
        component: ClassifyList,
        hidden: true,
        meta: { title: 'route.categoryedit', roles, activeMenu: '/team/classifylist', noCache: true },
      },
    ],
  };
}

export const teamRoutes: AppRoute[] = [teamArea(['team'])];
export const teamLeaderRoutes: AppRoute[] = [teamArea(['leader_admin'])];

/** Children of '/setup': the spec's permission role and mobile role pages, the role screen of each set. */
export const teamSetupRoutes: AppRoute[] = [
  { path: 'role', component: WebRoles, meta: { title: 'route.setupRole', roles: ['team'] } },
  { path: 'mobilerole', component: MobileRoles, meta: { title: 'route.setupMobileRole', roles: ['team'] } },
];
