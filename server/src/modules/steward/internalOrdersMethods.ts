import type { MethodDef } from '../../http/registry.js';
import { internalOrderMethods } from './internalOrders.js';
import './internalOrdersJobs.js';

/** 内部工单 (docs/product.md#internal-orders): orders, recurring templates, the checklist and the order workflow. */
export const internalOrdersModule: MethodDef[] = [...internalOrderMethods];
