import type { MethodDef } from '../../http/registry.js';
import { applicationMethods } from './applications.js';
import { invoiceListMethods } from './invoices.js';
import { issueMethods } from './issue.js';
import { settingsMethods } from './settings.js';

/** 发票 (docs/product.md#invoices): settings and mapping, titles, the waiting list and issuing, invoices and reversal, applications, the report. */
export const invoiceModule: MethodDef[] = [...settingsMethods, ...issueMethods, ...invoiceListMethods, ...applicationMethods];
