import { AppstoreOutlined, BuildOutlined, HomeOutlined, MenuOutlined, UserOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const DiyEditor = lazyPage(() => import('./DiyEditor'));

/** Route titles of the DIY pages, keyed like 'route.<name>' without the prefix. */
export const setdiyTitles = {
  'zh-CN': {
    setdiy: 'DIY页面',
    diyHome: '首页DIY',
    diyService: '服务页DIY',
    diyNavbar: '底部导航DIY',
    diyPersonal: '我的页面DIY',
    diyApply: '应用页DIY',
  },
  en: {
    setdiy: 'DIY pages',
    diyHome: 'Home page',
    diyService: 'Service page',
    diyNavbar: 'Bottom bar',
    diyPersonal: '"Me" page',
    diyApply: 'App page',
  },
  es: {
    setdiy: 'Páginas DIY',
    diyHome: 'Página de inicio',
    diyService: 'Página de servicios',
    diyNavbar: 'Barra inferior',
    diyPersonal: 'Página "Yo"',
    diyApply: 'Página de aplicaciones',
  },
};

/** The account permission that opens the DIY pages (the group side's leader_admin holding it). */
const roles = ['is_diyhome_auth'] as const;

/**
 * The group side's /setdiy (issue 45): the owner app's pages built from blocks, one editor whose
 * kind is the last part of the path. Hidden to an account without is_diyhome_auth.
 */
export const setdiyLeaderRoutes: AppRoute[] = [
  {
    path: '/setdiy',
    redirect: '/setdiy/homeDIY',
    meta: { title: 'route.setdiy', icon: BuildOutlined, roles },
    children: [
      { path: 'homeDIY', component: DiyEditor, meta: { title: 'route.diyHome', icon: HomeOutlined, roles, keepAlive: true } },
      { path: 'serviceDIY', component: DiyEditor, meta: { title: 'route.diyService', icon: AppstoreOutlined, roles, keepAlive: true } },
      { path: 'navbar', component: DiyEditor, meta: { title: 'route.diyNavbar', icon: MenuOutlined, roles, keepAlive: true } },
      { path: 'personalDIY', component: DiyEditor, meta: { title: 'route.diyPersonal', icon: UserOutlined, roles, keepAlive: true } },
      { path: 'apply', component: DiyEditor, meta: { title: 'route.diyApply', icon: AppstoreOutlined, roles, keepAlive: true } },
    ],
  },
];
