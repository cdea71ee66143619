import type { MethodDef } from '../../http/registry.js';
import './jobs.js';
import { billMethods } from './bills.js';
import { cashierMethods } from './cashier.js';
import { setupMethods } from './setup.js';

/** The fees area: set-up, bills, cashier and payments (issue 5). */
export const feesModule: MethodDef[] = [...setupMethods, ...billMethods, ...cashierMethods];
