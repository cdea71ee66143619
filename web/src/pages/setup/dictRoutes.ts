import { AppstoreOutlined, BookOutlined } from '@ant-design/icons';
import { SETUP_MANAGERS } from '@wuye/contract/setup/category';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const CategoryList = lazyPage(() => import('./CategoryList'));
const DictList = lazyPage(() => import('./DictList'));

/** Route titles of the setup area's categories and dictionary, keyed like 'route.<name>' without the prefix. */
export const dictTitles = {
  'zh-CN': { setupCategory: '业务分类', setupCategoryAdd: '新增分类', setupCategoryEdit: '编辑分类', dictList: '数据字典' },
  en: { setupCategory: 'Categories', setupCategoryAdd: 'New category', setupCategoryEdit: 'Edit category', dictList: 'Dictionary' },
};

const roles = [...SETUP_MANAGERS];

/** Children of '/setup': business categories (with their form's own addresses) and the data dictionary. */
export const dictSetupRoutes: AppRoute[] = [
  { path: 'category', component: CategoryList, meta: { title: 'route.setupCategory', icon: AppstoreOutlined, roles, keepAlive: true } },
  {
    path: 'categoryadd',
    component: CategoryList,
    hidden: true,
    meta: { title: 'route.setupCategoryAdd', roles, activeMenu: '/setup/category', noCache: true },
  },
  {
    path: 'categoryedit',
    component: CategoryList,
    hidden: true,
    meta: { title: 'route.setupCategoryEdit', roles, activeMenu: '/setup/category', noCache: true },
  },
  { path: 'dict_list', component: DictList, meta: { title: 'route.dictList', icon: BookOutlined, roles } },
];

/** Children of the group side's '/setup': the group's dictionary items and the labels of the code's values. */
export const dictLeaderRoutes: AppRoute[] = [
  {
    path: 'dict_list',
    component: DictList,
    meta: { title: 'route.dictList', icon: BookOutlined, roles: ['leader_admin'] },
  },
];
