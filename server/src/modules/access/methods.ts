import type { MethodDef } from '../../http/registry.js';
import { accessdashboard } from './dashboard.js';
import { deviceModule } from './devices.js';
import { grantModule } from './grants.js';
import { passModule } from './passes.js';
import { regionModule } from './regions.js';
import { roomCodeModule } from './roomcodes.js';
import { syncModule } from './syncMethods.js';

/**
 * Access control (智能物联 /carpark 门禁; docs/product.md#access-control): door devices, the command
 * queue and the simulator (server/src/devices/access.ts), regions, grants and their review, the
 * sync to devices, pass records.
 */
export const accessModule: MethodDef[] = [
  ...deviceModule,
  ...regionModule,
  ...grantModule,
  ...syncModule,
  ...passModule,
  ...roomCodeModule,
  accessdashboard,
];
