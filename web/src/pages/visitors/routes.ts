import { TeamOutlined } from '@ant-design/icons';
import { visitor } from '@wuye/contract/visitors/visitors';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const VisitorList = lazyPage(() => import('./VisitorList'));

/** Route titles of the visitors, keyed like 'route.<name>' without the prefix. */
export const visitorTitles = {
  'zh-CN': { visitorlist: '访客管理' },
  en: { visitorlist: 'Visitors' },
};

/** /carpark/visitorlist (docs/product.md#visitors). */
export const visitorRoutes: AppRoute[] = [
  {
    path: 'visitorlist',
    component: VisitorList,
    meta: { title: 'route.visitorlist', icon: TeamOutlined, roles: [...(visitor.def.roles.read as readonly string[])], keepAlive: true },
  },
];
