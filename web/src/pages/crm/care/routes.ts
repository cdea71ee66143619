import { CalendarOutlined, GiftOutlined, HeartOutlined, ScheduleOutlined, TeamOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { CARE_ROLES } from '@wuye/contract/crm/care';
import type { AppRoute } from '../../../router/types';
import { lazyPage } from '../../../router/lazyPage';

const CustomerList = lazyPage(() => import('./CustomerList'));
const CustomerForm = lazyPage(() => import('./CustomerForm'));
const CustomerShow = lazyPage(() => import('./CustomerShow'));
const AffairList = lazyPage(() => import('./AffairList'));
const GroupAffair = lazyPage(() => import('./GroupAffair'));
const RuleList = lazyPage(() => import('./RuleList'));

/** Route titles of customer care, keyed like 'route.<name>' without the prefix. */
export const careTitles = {
  'zh-CN': {
    crm_care: '客户关怀',
    customerlist: '关怀客户',
    customshow: '客户档案',
    addcus: '新增关怀客户',
    editcus: '编辑关怀客户',
    affair: '关怀事务',
    groupaffairadds: '批量事务',
    setaffair: '纪念日规则',
    setgroupaffair: '定期规则',
  },
  en: {
    crm_care: 'Customer care',
    customerlist: 'Care customers',
    customshow: 'Customer profile',
    addcus: 'New care customer',
    editcus: 'Edit care customer',
    affair: 'Care affairs',
    groupaffairadds: 'Group affairs',
    setaffair: 'Anniversary rules',
    setgroupaffair: 'Recurring rules',
  },
};

const roles = [...CARE_ROLES];
const LIST = '/crm/customerlist';

/**
 * 客户关怀 (docs/product.md#crm-care), a sub-menu of /crm at the spec's paths: the records and their
 * profile, the affairs, group affairs and the two kinds of recurring rules.
 */
export const careRoutes: AppRoute[] = [
  {
    path: '/crm/care',
    redirect: LIST,
    meta: { title: 'route.crm_care', icon: HeartOutlined, roles },
    children: [
      { path: LIST, component: CustomerList, meta: { title: 'route.customerlist', icon: TeamOutlined, roles, keepAlive: true } },
      {
        path: '/crm/customshow',
        component: CustomerShow,
        hidden: true,
        meta: { title: 'route.customshow', roles, activeMenu: LIST, noCache: true },
      },
      {
        path: '/crm/addcus',
        component: CustomerForm,
        hidden: true,
        meta: { title: 'route.addcus', roles, activeMenu: LIST, noCache: true, search: true },
      },
      {
        path: '/crm/editcus',
        component: CustomerForm,
        hidden: true,
        meta: { title: 'route.editcus', roles, activeMenu: LIST, noCache: true },
      },
      { path: '/crm/affair', component: AffairList, meta: { title: 'route.affair', icon: ScheduleOutlined, roles, keepAlive: true } },
      { path: '/crm/groupaffairadds', component: GroupAffair, meta: { title: 'route.groupaffairadds', icon: UsergroupAddOutlined, roles } },
      { path: '/crm/setaffair', component: RuleList, meta: { title: 'route.setaffair', icon: GiftOutlined, roles, keepAlive: true } },
      {
        path: '/crm/setgroupaffair',
        component: RuleList,
        meta: { title: 'route.setgroupaffair', icon: CalendarOutlined, roles, keepAlive: true },
      },
    ],
  },
];
