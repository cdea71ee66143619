import type { MethodDef } from '../../http/registry.js';
import { checkinMethods } from './checkin.js';
import { planMethods } from './plans.js';
import { pointMethods } from './points.js';
import { recordMethods } from './records.js';
import './tasks.js';

/** Security patrols (docs/product.md#patrols): points, plans, tasks and their jobs, check-in, records, report. */
export const patrolsModule: MethodDef[] = [...pointMethods, ...planMethods, ...checkinMethods, ...recordMethods];
