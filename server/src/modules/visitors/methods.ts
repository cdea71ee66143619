import type { MethodDef } from '../../http/registry.js';
import './jobs.js';
import { visitorSettingsMethods } from './settings.js';
import { visitorMethods } from './visitors.js';

/** The visitor area's methods (/carpark/visitorlist; docs/product.md#visitors). */
export const visitorsModule: MethodDef[] = [...visitorMethods, ...visitorSettingsMethods];
