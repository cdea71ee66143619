import { NotificationOutlined } from '@ant-design/icons';
import { NOTICE_READERS, NOTICE_WRITERS } from '@wuye/contract';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const NoticeList = lazyPage(() => import('./NoticeList'));
const NoticeEdit = lazyPage(() => import('./NoticeEdit'));
const ReadNumList = lazyPage(() => import('./ReadNumList'));

/** Route titles of the steward desk's notices, keyed like 'route.<name>' without the prefix. */
export const noticeTitles = {
  'zh-CN': { notices: '通知公告', noticesadd: '发布公告', noticesedit: '编辑公告', readnumlist: '阅读明细' },
  en: { notices: 'Notices', noticesadd: 'New notice', noticesedit: 'Edit notice', readnumlist: 'Read receipts' },
};

/** The steward desk's notices pages under /steward (docs/product.md#notices). */
export const noticeRoutes: AppRoute[] = [
  {
    path: 'notices',
    component: NoticeList,
    meta: { title: 'route.notices', icon: NotificationOutlined, roles: [...NOTICE_READERS], keepAlive: true },
  },
  {
    path: 'noticesadd',
    component: NoticeEdit,
    hidden: true,
    meta: { title: 'route.noticesadd', roles: [...NOTICE_WRITERS], activeMenu: '/steward/notices', noCache: true },
  },
  {
    path: 'noticesedit',
    component: NoticeEdit,
    hidden: true,
    meta: { title: 'route.noticesedit', roles: [...NOTICE_WRITERS], activeMenu: '/steward/notices', noCache: true },
  },
  {
    path: 'readnumlist',
    component: ReadNumList,
    hidden: true,
    meta: { title: 'route.readnumlist', roles: [...NOTICE_READERS], activeMenu: '/steward/notices' },
  },
];
