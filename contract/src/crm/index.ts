/**
 * 客户与合同 (docs/product.md#crm): each part's method schemas and answers, gathered for the
 * catalogue (contract/src/index.ts).
 */
import { contractSchemas, type ContractOutputs } from './contracts.js';
import { careSchemas, type CareOutputs } from './care.js';
import { careAffairSchemas, type CareAffairOutputs } from './careAffairs.js';
import { leaseSchemas, type LeaseOutputs } from './leases.js';
import { salesSchemas, type SalesOutputs } from './sales.js';

export * from './roles.js';
export * from './contracts.js';
export * from './care.js';
export * from './careAffairs.js';
export * from './leases.js';
export * from './sales.js';

export const crmSchemas = {
  ...contractSchemas,
  ...careSchemas,
  ...careAffairSchemas,
  ...leaseSchemas,
  ...salesSchemas,
};

export type CrmOutputs = Record<never, never> & ContractOutputs & CareOutputs & CareAffairOutputs & LeaseOutputs & SalesOutputs;
