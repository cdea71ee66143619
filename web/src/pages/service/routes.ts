import { CalendarOutlined, SmileOutlined } from '@ant-design/icons';
import { ACTIVITY_ROLES } from '@wuye/contract';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const ActivityList = lazyPage(() => import('./ActivityList'));
const ActivityEdit = lazyPage(() => import('./ActivityEdit'));
const SignupUserList = lazyPage(() => import('./SignupUserList'));
const SignupFormShow = lazyPage(() => import('./SignupFormShow'));

export const serviceTitles = [
  {
    'zh-CN': {
      service: '社区活动',
      signuplist: '活动报名',
      signup_add: '新增活动',
      signup_edit: '编辑活动',
      signup_userlist: '报名名单',
      signup_form_show: '表单数据',
    },
    en: {
      service: 'Activities',
      signuplist: 'Activities',
      signup_add: 'New activity',
      signup_edit: 'Edit activity',
      signup_userlist: 'Sign-ups',
      signup_form_show: 'Form answers',
    },
  },
];

const roles = [...ACTIVITY_ROLES];

/** /service (docs/product.md#activities): activities with sign-up, their sign-ups and form answers. */
export const serviceRoutes: AppRoute[] = [
  {
    path: '/service',
    meta: { title: 'route.service', icon: SmileOutlined },
    children: [
      { path: 'signuplist', component: ActivityList, meta: { title: 'route.signuplist', icon: CalendarOutlined, roles, keepAlive: true } },
      {
        path: 'signup_add',
        component: ActivityEdit,
        hidden: true,
        meta: { title: 'route.signup_add', roles, activeMenu: '/service/signuplist', noCache: true },
      },
      {
        path: 'signup_edit',
        component: ActivityEdit,
        hidden: true,
        meta: { title: 'route.signup_edit', roles, activeMenu: '/service/signuplist', noCache: true },
      },
      {
        path: 'signup_userlist',
        component: SignupUserList,
        hidden: true,
        meta: { title: 'route.signup_userlist', roles, activeMenu: '/service/signuplist', noCache: true },
      },
      {
        path: 'signup_form_show',
        component: SignupFormShow,
        hidden: true,
        meta: { title: 'route.signup_form_show', roles, activeMenu: '/service/signuplist', noCache: true },
      },
    ],
  },
];
