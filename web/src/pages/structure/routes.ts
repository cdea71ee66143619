import { ApartmentOutlined, HistoryOutlined, HomeOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../router/types';
import type { RouteAlias } from '../../router/helpers';
import { lazyPage } from '../../router/lazyPage';
import { MEMBER_MANAGERS } from '@wuye/contract/owners/roles';

const RegionInfo = lazyPage(() => import('./RegionInfo'));
const BuildingList = lazyPage(() => import('./BuildingList'));
const UnitList = lazyPage(() => import('./UnitList'));
const RoomList = lazyPage(() => import('./RoomList'));
const RoomEdit = lazyPage(() => import('./RoomEdit'));
const RoomInfo = lazyPage(() => import('./RoomInfo'));
const HouseShow = lazyPage(() => import('./HouseShow'));
const CategoryList = lazyPage(() => import('./CategoryList'));
const BuildingImport = lazyPage(() => import('./BuildingImport'));
const ImportLog = lazyPage(() => import('./ImportLog'));
const LeaderRegions = lazyPage(() => import('./LeaderRegions'));
const RegionDelayLog = lazyPage(() => import('./RegionDelayLog'));

const BASIS = MEMBER_MANAGERS;

/**
 * Community side: the root-area structure pages (docs/product.md#route-table) at the product's own
 * addresses ('/buildinglist', '/editroom?id=…'), gathered in the menu under one top entry.
 */
export const structureRoutes: AppRoute[] = [
  {
    path: '/basis',
    redirect: '/roomlist',
    meta: { title: 'route.basis', icon: HomeOutlined, roles: BASIS },
    children: [
      { path: '/regions/index', component: RegionInfo, meta: { title: 'route.regions', roles: BASIS } },
      { path: '/buildinglist', component: BuildingList, meta: { title: 'route.buildinglist', roles: BASIS, keepAlive: true } },
      { path: '/unitlist', component: UnitList, meta: { title: 'route.unitlist', roles: BASIS } },
      { path: '/roomlist', component: RoomList, meta: { title: 'route.roomlist', roles: BASIS, keepAlive: true } },
      {
        path: '/addroom',
        component: RoomEdit,
        hidden: true,
        meta: { title: 'route.addroom', roles: BASIS, activeMenu: '/roomlist', isBack: true, noCache: true, search: true },
      },
      {
        path: '/editroom',
        component: RoomEdit,
        hidden: true,
        meta: { title: 'route.editroom', roles: BASIS, activeMenu: '/roomlist', isBack: true, noCache: true },
      },
      {
        path: '/roominfo',
        component: RoomInfo,
        hidden: true,
        meta: { title: 'route.roominfo', roles: BASIS, activeMenu: '/roomlist', isBack: true, noCache: true },
      },
      { path: '/house_show', component: HouseShow, meta: { title: 'route.house_show', roles: BASIS } },
      { path: '/category', component: CategoryList, meta: { title: 'route.roomcategory', roles: BASIS } },
      { path: '/buildingimport', component: BuildingImport, meta: { title: 'route.buildingimport', roles: BASIS } },
      { path: '/importlog', component: ImportLog, meta: { title: 'route.importlog', roles: BASIS } },
    ],
  },
];

/** The addresses these pages had under /basis, kept for links and bookmarks made before. */
export const structureAliases: RouteAlias[] = [
  { from: '/basis/editroom/:id', to: '/editroom?id=:id' },
  { from: '/basis/roominfo/:id', to: '/roominfo?id=:id' },
  { from: '/basis/*', to: '/*' },
];

/** Group side: /leader/regions (index, regiondelaylog). */
export const structureLeaderRoutes: AppRoute[] = [
  {
    path: '/leader/regions',
    redirect: '/leader/regions/index',
    meta: { title: 'route.leaderRegions', icon: ApartmentOutlined, roles: ['leader_admin'] },
    children: [
      { path: 'index', component: LeaderRegions, meta: { title: 'route.leaderRegionsIndex', roles: ['leader_admin'] } },
      { path: 'regiondelaylog', component: RegionDelayLog, meta: { title: 'route.regiondelaylog', roles: ['leader_admin'] } },
    ],
  },
];

/** Children of '/setup': the community's own renewal log (the roles regiondelaylog allows on this side). */
export const structureSetupRoutes: AppRoute[] = [
  {
    path: 'regiondelaylog',
    component: RegionDelayLog,
    meta: { title: 'route.regiondelaylog', icon: HistoryOutlined, roles: ['setup'], keepAlive: true },
  },
];
