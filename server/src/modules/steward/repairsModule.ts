import type { MethodDef } from '../../http/registry.js';
import { repairModule } from './repairs.js';
import { repairReportModule } from './repairReports.js';
import './repairsClock.js';
import { repairTypeModule } from './repairTypes.js';

/** The steward desk's repairs (docs/product.md#repairs): types and settings, tickets, the clock job. */
export const repairsModule: MethodDef[] = [...repairTypeModule, ...repairModule, ...repairReportModule];
