import { CommentOutlined, SettingOutlined } from '@ant-design/icons';
import { COMPLAINT_HANDLERS, complaintCategory } from '@wuye/contract/steward/complaints';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const ComplaintList = lazyPage(() => import('./ComplaintList'));
const ComplaintCategoryList = lazyPage(() => import('./ComplaintCategoryList'));

/** Route titles of the steward desk's complaints, keyed like 'route.<name>' without the prefix. */
export const complaintTitles = {
  'zh-CN': { complaintlist: '投诉建议', complaintcategory: '投诉分类设置', complaintcount: '投诉统计' },
  en: { complaintlist: 'Complaints', complaintcategory: 'Complaint categories', complaintcount: 'Complaint report' },
};

/** The steward desk's complaints pages under /steward (docs/product.md#complaints). */
export const complaintRoutes: AppRoute[] = [
  {
    path: 'complaintlist',
    component: ComplaintList,
    meta: { title: 'route.complaintlist', icon: CommentOutlined, roles: [...COMPLAINT_HANDLERS], keepAlive: true },
  },
  {
    path: 'complaintcategory',
    component: ComplaintCategoryList,
    hidden: true,
    meta: {
      title: 'route.complaintcategory',
      icon: SettingOutlined,
      roles: [...complaintCategory.def.roles.write],
      activeMenu: '/steward/complaintlist',
      search: true,
    },
  },
];
