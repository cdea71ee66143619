import { AppstoreOutlined, MobileOutlined, PictureOutlined, ReadOutlined } from '@ant-design/icons';
import { BANNER_ROLES } from '@wuye/contract/leader/banners';
import { APPLYS_ROLES } from '@wuye/contract/leader/applys';
import { LEADER_GRAPHIC_ROLES } from '@wuye/contract/leader/graphics';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const BannerList = lazyPage(() => import('./BannerList'));
const ApplysList = lazyPage(() => import('./ApplysList'));
const ApplysInfo = lazyPage(() => import('./ApplysInfo'));
const LeaderGraphicList = lazyPage(() => import('./GraphicList'));

/** Route titles of the group's owner-app pages, keyed like 'route.<name>' without the prefix. */
export const ownerAppTitles = {
  'zh-CN': {
    leaderApply: '业主App',
    bannerlist: '轮播图',
    banneradd: '新增轮播图',
    banneredit: '编辑轮播图',
    applyslist: '应用目录',
    applysinfo: '应用详情',
    leaderMobile: '图文',
    leaderGraphiclist: '图文管理',
    leaderGraphicadd: '新增图文',
    leaderGraphicedit: '编辑图文',
  },
  en: {
    leaderApply: 'Owner app',
    bannerlist: 'Banners',
    banneradd: 'New banner',
    banneredit: 'Edit banner',
    applyslist: 'App catalogue',
    applysinfo: 'App details',
    leaderMobile: 'Articles',
    leaderGraphiclist: 'Articles',
    leaderGraphicadd: 'New article',
    leaderGraphicedit: 'Edit article',
  },
  es: {
    leaderApply: 'App de propietarios',
    bannerlist: 'Banners',
    banneradd: 'Nuevo banner',
    banneredit: 'Editar banner',
    applyslist: 'Catálogo de aplicaciones',
    applysinfo: 'Detalle de la aplicación',
    leaderMobile: 'Artículos',
    leaderGraphiclist: 'Artículos',
    leaderGraphicadd: 'Nuevo artículo',
    leaderGraphicedit: 'Editar artículo',
  },
};

const banners = [...BANNER_ROLES];
const applys = [...APPLYS_ROLES];
const graphics = [...LEADER_GRAPHIC_ROLES];

/**
 * Group side /apply (the group's banners, with …add and …edit?id= opening the list's form) and
 * /applys (the group's app catalogue and one service's detail), one area of the top menu (issue 45).
 */
export const ownerAppLeaderRoutes: AppRoute[] = [
  {
    path: '/apply',
    redirect: '/apply/bannerlist',
    meta: { title: 'route.leaderApply', icon: MobileOutlined, roles: banners },
    children: [
      {
        path: 'bannerlist',
        component: BannerList,
        meta: { title: 'route.bannerlist', icon: PictureOutlined, roles: banners, keepAlive: true },
      },
      {
        path: 'banneradd',
        component: BannerList,
        hidden: true,
        meta: { title: 'route.banneradd', roles: banners, activeMenu: '/apply/bannerlist', noCache: true },
      },
      {
        path: 'banneredit',
        component: BannerList,
        hidden: true,
        meta: { title: 'route.banneredit', roles: banners, activeMenu: '/apply/bannerlist', noCache: true },
      },
      // the catalogue keeps the spec's /applys addresses, in the same area of the menu
      {
        path: '/applys/applyslist',
        component: ApplysList,
        meta: { title: 'route.applyslist', icon: AppstoreOutlined, roles: applys, keepAlive: true },
      },
      {
        path: '/applys/applysinfo',
        component: ApplysInfo,
        hidden: true,
        meta: { title: 'route.applysinfo', roles: applys, activeMenu: '/applys/applyslist', noCache: true },
      },
    ],
  },
  // the group's articles in its communities' owner app (SPEC "/mobile (graphic list/add/edit)")
  {
    path: '/mobile',
    redirect: '/mobile/graphiclist',
    meta: { title: 'route.leaderMobile', icon: ReadOutlined, roles: graphics },
    children: [
      {
        path: 'graphiclist',
        component: LeaderGraphicList,
        meta: { title: 'route.leaderGraphiclist', icon: ReadOutlined, roles: graphics, keepAlive: true },
      },
      {
        path: 'graphicadd',
        component: LeaderGraphicList,
        hidden: true,
        meta: { title: 'route.leaderGraphicadd', roles: graphics, activeMenu: '/mobile/graphiclist', noCache: true },
      },
      {
        path: 'graphicedit',
        component: LeaderGraphicList,
        hidden: true,
        meta: { title: 'route.leaderGraphicedit', roles: graphics, activeMenu: '/mobile/graphiclist', noCache: true },
      },
    ],
  },
];
