/**
 * The sales CRM of 客户合同 (docs/product.md#crm-sales): customers and their pipeline, follow-ups and
 * visit invitations, intention deposits, the pool's rules, its daily job and the funnel.
 */
import type { MethodDef } from '../../http/registry.js';
import { salesCallMethods } from './salesCalls.js';
import { salesCustomerMethods } from './salesCustomers.js';
import { salesIntentionMethods } from './salesIntentions.js';
import { salesPoolMethods } from './salesPool.js';

export { markCustomerSigned } from './salesCustomers.js';

export const salesMethods: MethodDef[] = [...salesCustomerMethods, ...salesCallMethods, ...salesIntentionMethods, ...salesPoolMethods];
