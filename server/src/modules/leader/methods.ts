import type { MethodDef } from '../../http/registry.js';
import { feeSummaryMethods } from './feeSummary.js';
import { payTypeMethods } from './paytypes.js';

/** The group head office's own area (issue 45): the group fee summary and its drill-downs, the payment methods' rules. */
export const leaderModule: MethodDef[] = [...feeSummaryMethods, ...payTypeMethods];
