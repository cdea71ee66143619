import { AuditOutlined, BarChartOutlined, FileTextOutlined, KeyOutlined } from '@ant-design/icons';
import { LEASE_ROLES } from '@wuye/contract/crm/leases';
import type { AppRoute } from '../../../router/types';
import { lazyPage } from '../../../router/lazyPage';

const LeaseList = lazyPage(() => import('./LeaseList'));
const LeaseAdd = lazyPage(() => import('./LeaseAdd'));
const LeaseEdit = lazyPage(() => import('./LeaseEdit'));
const Rerent = lazyPage(() => import('./Rerent'));
const Signout = lazyPage(() => import('./Signout'));
const LeaseApproval = lazyPage(() => import('./LeaseApproval'));
const LeaseApprovalInfo = lazyPage(() => import('./LeaseApprovalInfo'));
const LeaseReport = lazyPage(() => import('./LeaseReport'));

/** Route titles of the tenant leases. */
export const leaseTitles = {
  'zh-CN': {
    crm_tenant: '租赁合同',
    leaselist: '租约列表',
    leaseadd: '新增租约',
    leaseedit: '编辑租约',
    rerent: '续租',
    signout: '退租结算',
    lease_approval: '租赁审批',
    lease_approval_info: '租约审批详情',
    leasereport: '租赁报表',
  },
  en: {
    crm_tenant: 'Tenant leases',
    leaselist: 'Leases',
    leaseadd: 'New lease',
    leaseedit: 'Edit lease',
    rerent: 'Renew lease',
    signout: 'Check-out',
    lease_approval: 'Lease approval',
    lease_approval_info: 'Lease approval detail',
    leasereport: 'Lease reports',
  },
};

const read = [...LEASE_ROLES.read];
const write = [...LEASE_ROLES.write];
const back = '/crm/leaselist';

/** /crm's 租赁合同 sub-menu (docs/product.md#crm-leases): the leases, their approval and reports; the forms and the check-out hidden. */
export const leaseRoutes: AppRoute[] = [
  {
    path: '/crm/tenant',
    redirect: '/crm/leaselist',
    meta: { title: 'route.crm_tenant', icon: KeyOutlined, roles: read },
    children: [
      {
        path: '/crm/leaselist',
        component: LeaseList,
        meta: { title: 'route.leaselist', icon: FileTextOutlined, roles: read, keepAlive: true },
      },
      {
        path: '/crm/lease_approval',
        component: LeaseApproval,
        meta: { title: 'route.lease_approval', icon: AuditOutlined, roles: read, keepAlive: true },
      },
      { path: '/crm/leasereport', component: LeaseReport, meta: { title: 'route.leasereport', icon: BarChartOutlined, roles: read } },
      {
        path: '/crm/leaseadd',
        component: LeaseAdd,
        hidden: true,
        meta: { title: 'route.leaseadd', roles: write, activeMenu: back, noCache: true, search: true },
      },
      {
        path: '/crm/leaseedit',
        component: LeaseEdit,
        hidden: true,
        meta: { title: 'route.leaseedit', roles: write, activeMenu: back, noCache: true },
      },
      {
        path: '/crm/rerent',
        component: Rerent,
        hidden: true,
        meta: { title: 'route.rerent', roles: write, activeMenu: back, noCache: true },
      },
      {
        path: '/crm/signout',
        component: Signout,
        hidden: true,
        meta: { title: 'route.signout', roles: write, activeMenu: back, noCache: true },
      },
      {
        path: '/crm/lease_approval_info',
        component: LeaseApprovalInfo,
        hidden: true,
        meta: { title: 'route.lease_approval_info', roles: read, activeMenu: '/crm/lease_approval', noCache: true },
      },
    ],
  },
];
