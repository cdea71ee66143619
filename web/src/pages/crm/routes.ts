import { ContactsOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../router/types';
import { careRoutes, careTitles } from './care/routes';
import { contractRoutes, contractTitles } from './contracts/routes';
import { leaseRoutes, leaseTitles } from './leases/routes';
import { salesRoutes, salesTitles, setcrmsysRoute } from './sales/routes';

/** Route titles of 客户与合同, keyed like 'route.<name>' without the prefix. */
export const crmTitles = [
  { 'zh-CN': { crm_area: '客户合同', crm_area_short: '客户' }, en: { crm_area: 'Customers & contracts' } },
  contractTitles,
  leaseTitles,
  careTitles,
  salesTitles,
];

/** 客户与合同 (docs/product.md#crm): sales customers, care, room-sales contracts, tenant leases. */
export const crmRoutes: AppRoute[] = [
  {
    path: '/crm',
    meta: { title: 'route.crm_area', icon: ContactsOutlined },
    children: [...salesRoutes, ...contractRoutes, ...leaseRoutes, ...careRoutes, setcrmsysRoute],
  },
];
