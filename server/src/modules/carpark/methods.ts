import type { MethodDef } from '../../http/registry.js';
import { carModule } from './cars.js';
import { gateMethods } from './gate.js';
import { stayMethods } from './stays.js';
import { lotModule } from './lots.js';
import { monthlyModule } from './monthly.js';
import { spaceModule } from './spaces.js';

/** Parking (智能物联 /carpark; docs/product.md#carpark): lots, booths, lanes, spaces, cars, lists, monthly cars;
 * the gates' decisions, stays and their payments (#parking-gates). */
export const carparkModule: MethodDef[] = [...lotModule, ...spaceModule, ...carModule, ...monthlyModule, ...gateMethods, ...stayMethods];
