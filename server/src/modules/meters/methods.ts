import type { MethodDef } from '../../http/registry.js';
import { deviceAdminMethods } from './devices.js';
import { meterImportMethods } from './import.js';
import { meterLogMethods } from './logs.js';
import { rechargeMethods } from './recharges.js';
import './simulator.js';

/** 智能表计 (docs/product.md#smart-meters): device admin, the import, house admin, recharges, logs, reports, the simulator. */
export const metersModule: MethodDef[] = [...deviceAdminMethods, ...meterImportMethods, ...rechargeMethods, ...meterLogMethods];
