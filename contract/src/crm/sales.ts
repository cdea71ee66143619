/**
 * The sales CRM of 客户合同 (docs/product.md#crm-sales): customers and their pipeline, follow-ups and
 * visit invitations, intention deposits, the public pool's rules and the funnel, gathered for the
 * area's catalogue (contract/src/crm/index.ts).
 */
import { salesCallSchemas, type SalesCallOutputs } from './salesCalls.js';
import { salesCustomerSchemas, type SalesCustomerOutputs } from './salesCustomers.js';
import { salesIntentionSchemas, type SalesIntentionOutputs } from './salesIntentions.js';
import { salesSettingSchemas, type SalesSettingOutputs } from './salesSettings.js';

export * from './salesCustomers.js';
export * from './salesCalls.js';
export * from './salesIntentions.js';
export * from './salesSettings.js';

export const salesSchemas = {
  ...salesCustomerSchemas,
  ...salesCallSchemas,
  ...salesIntentionSchemas,
  ...salesSettingSchemas,
} as const;

export type SalesOutputs = SalesCustomerOutputs & SalesCallOutputs & SalesIntentionOutputs & SalesSettingOutputs;
