import type { MethodDef } from '../../http/registry.js';
import { careMethods } from './care.js';
import { contractsModule } from './contractsModule.js';
import { careAffairMethods } from './careAffairs.js';
import { careRuleMethods } from './careRules.js';
import { leaseMethods } from './leases.js';
import { leaseBillingMethods } from './leasesBilling.js';
import { leaseReportMethods } from './leasesReports.js';
import { leaseSignoutMethods } from './leasesSignout.js';
import { salesMethods } from './sales.js';

/** 客户与合同 (docs/product.md#crm): sales customers, customer care, room-sales contracts, tenant leases. */
export const crmModule: MethodDef[] = [
  ...contractsModule,
  ...careMethods,
  ...careAffairMethods,
  ...careRuleMethods,
  ...leaseMethods,
  ...leaseBillingMethods,
  ...leaseSignoutMethods,
  ...leaseReportMethods,
  ...salesMethods,
];
