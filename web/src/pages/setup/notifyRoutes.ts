import { BellOutlined, NotificationOutlined } from '@ant-design/icons';
import { NOTIFY_ROLES } from '@wuye/contract/setup/notify';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const Inbox = lazyPage(() => import('./Inbox'));
const MessageSet = lazyPage(() => import('../leader/MessageSet'));

/** Route titles of the notification pages, keyed like 'route.<name>' without the prefix. */
export const notifyTitles = {
  'zh-CN': { inbox: '站内消息', message: '消息设置' },
  en: { inbox: 'Messages', message: 'Notification settings' },
  es: { inbox: 'Mensajes', message: 'Ajustes de avisos' },
};

/** Community side /setup: the staff member's 站内消息 (docs/product.md#notifications); not for merchants, as the to-dos. */
export const inboxSetupRoutes: AppRoute[] = [
  { path: 'inbox', component: Inbox, meta: { title: 'route.inbox', icon: BellOutlined, notForSysTypes: ['merchant'], keepAlive: true } },
];

/** Group side /setup: 消息设置, the group's event × recipient × channel matrix and its send log. */
export const messageLeaderRoutes: AppRoute[] = [
  {
    path: 'message',
    component: MessageSet,
    meta: { title: 'route.message', icon: NotificationOutlined, roles: [...NOTIFY_ROLES], keepAlive: true },
  },
];
