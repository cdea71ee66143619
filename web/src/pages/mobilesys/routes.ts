import { AppstoreOutlined, MobileOutlined, PictureOutlined, UnorderedListOutlined, EyeOutlined } from '@ant-design/icons';
import { MOBILESYS_ROLES } from '@wuye/contract/mobilesys/roles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const GraphicList = lazyPage(() => import('./GraphicList'));
const MenuList = lazyPage(() => import('./MenuList'));
const AppPreview = lazyPage(() => import('./AppPreview'));
const ApplyList = lazyPage(() => import('./ApplyList'));
const ApplyInfo = lazyPage(() => import('./ApplyInfo'));

export const mobilesysTitles = {
  'zh-CN': {
    mobilesys: '业主App',
    graphiclist: '图文管理',
    graphicadd: '新增图文',
    graphicedit: '编辑图文',
    menulist: '菜单管理',
    menuadd: '新增菜单',
    menuedit: '编辑菜单',
    apppreview: '首页预览',
    apply: '应用管理',
    apply_info: '应用设置',
  },
  en: {
    mobilesys: 'Owner app',
    graphiclist: 'Articles and banners',
    graphicadd: 'New article',
    graphicedit: 'Edit article',
    menulist: 'App menus',
    menuadd: 'New menu',
    menuedit: 'Edit menu',
    apppreview: 'Home preview',
    apply: 'App services',
    apply_info: 'Service settings',
  },
};

const content = [...MOBILESYS_ROLES.content];
const apply = [...MOBILESYS_ROLES.apply];

/**
 * 业主App: /mobilesys (the owner app's articles, banners and menus, with a preview of its home) and
 * /apply (the services it offers), one area of the top menu; docs/product.md#owner-app. The add and edit addresses open the list's form.
 */
export const mobilesysRoutes: AppRoute[] = [
  {
    path: '/mobilesys',
    meta: { title: 'route.mobilesys', icon: MobileOutlined },
    children: [
      {
        path: 'graphiclist',
        component: GraphicList,
        meta: { title: 'route.graphiclist', icon: PictureOutlined, roles: content, keepAlive: true },
      },
      {
        path: 'graphicadd',
        component: GraphicList,
        hidden: true,
        meta: { title: 'route.graphicadd', roles: content, activeMenu: '/mobilesys/graphiclist', noCache: true },
      },
      {
        path: 'graphicedit',
        component: GraphicList,
        hidden: true,
        meta: { title: 'route.graphicedit', roles: content, activeMenu: '/mobilesys/graphiclist', noCache: true },
      },
      {
        path: 'menulist',
        component: MenuList,
        meta: { title: 'route.menulist', icon: UnorderedListOutlined, roles: content, keepAlive: true },
      },
      {
        path: 'menuadd',
        component: MenuList,
        hidden: true,
        meta: { title: 'route.menuadd', roles: content, activeMenu: '/mobilesys/menulist', noCache: true },
      },
      {
        path: 'menuedit',
        component: MenuList,
        hidden: true,
        meta: { title: 'route.menuedit', roles: content, activeMenu: '/mobilesys/menulist', noCache: true },
      },
      // the services the app offers (/apply keeps its address) belong with the app's content in one area
      { path: '/apply/apply', component: ApplyList, meta: { title: 'route.apply', icon: AppstoreOutlined, roles: apply, keepAlive: true } },
      {
        path: '/apply/apply_info',
        component: ApplyInfo,
        hidden: true,
        meta: { title: 'route.apply_info', roles: apply, activeMenu: '/apply/apply', noCache: true },
      },
      { path: 'apppreview', component: AppPreview, meta: { title: 'route.apppreview', icon: EyeOutlined, roles: [...content, ...apply] } },
    ],
  },
];
