import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { SALES_ROLES } from '@wuye/contract/crm/sales';
import { LEASE_ROLES } from '@wuye/contract/crm/leases';
import { CONTRACT_TYPE_READERS } from '@wuye/contract/crm/contracts';

/** One tab of /crm/setcrmsys: a part's own settings, shown to the codes that may read them. */
export interface CrmSettingsTab {
  key: string;
  label: string;
  /** who sees the tab (admin always); the page is open to anyone who sees one of its tabs */
  roles: readonly string[];
  /** the tab's content, loaded when first shown */
  component: LazyExoticComponent<ComponentType>;
}

/**
 * The tabs of 客户合同设置 (/crm/setcrmsys), in order: each part of the area appends one entry for
 * its settings (its contract types, lease defaults, approvals…); the first is the pool's rules.
 */
export const setcrmsysTabs: CrmSettingsTab[] = [
  { key: 'pool', label: '公海规则', roles: SALES_ROLES.settingsRead, component: lazy(() => import('./PoolRulesTab')) },
  {
    key: 'contracts',
    label: '合同类型与编号',
    roles: CONTRACT_TYPE_READERS,
    component: lazy(() => import('../contracts/ContractTypesTab')),
  },
  { key: 'lease', label: '租赁设置', roles: LEASE_ROLES.read, component: lazy(() => import('../leases/LeaseSettingsTab')) },
];

/** Everyone who sees a tab of the page: its route's roles. */
export const setcrmsysRoles = (): string[] => [...new Set(setcrmsysTabs.flatMap((t) => [...t.roles]))];
