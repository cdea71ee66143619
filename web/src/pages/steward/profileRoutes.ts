import { StarOutlined, IdcardOutlined } from '@ant-design/icons';
import { steward } from '@wuye/contract/steward/profiles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const StewardList = lazyPage(() => import('./StewardList'));
const StewardEdit = lazyPage(() => import('./StewardEdit'));
const ScoreList = lazyPage(() => import('./ScoreList'));

/** Route titles of the steward desk's profiles, keyed like 'route.<name>' without the prefix. */
export const profileTitles = {
  'zh-CN': { stewardlist: '管家档案', steadd: '新增管家档案', steedit: '编辑管家档案', scorelist: '管家评分' },
  en: { stewardlist: 'Steward profiles', steadd: 'New profile', steedit: 'Edit profile', scorelist: 'Steward scores' },
};

/** The steward desk's profiles pages under /steward (docs/product.md#steward-profiles). */
export const profileRoutes: AppRoute[] = [
  {
    path: 'stewardlist',
    component: StewardList,
    meta: { title: 'route.stewardlist', icon: IdcardOutlined, roles: [...steward.def.roles.read], keepAlive: true },
  },
  {
    path: 'steadd',
    component: StewardEdit,
    hidden: true,
    meta: { title: 'route.steadd', roles: [...steward.def.roles.write], activeMenu: '/steward/stewardlist' },
  },
  {
    path: 'steedit',
    component: StewardEdit,
    hidden: true,
    meta: { title: 'route.steedit', roles: [...steward.def.roles.write], activeMenu: '/steward/stewardlist' },
  },
  {
    path: 'scorelist',
    component: ScoreList,
    meta: { title: 'route.scorelist', icon: StarOutlined, roles: [...steward.def.roles.read], keepAlive: true },
  },
];
