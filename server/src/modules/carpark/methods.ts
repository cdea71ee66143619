import type { MethodDef } from '../../http/registry.js';
import { carModule } from './cars.js';
import { lotModule } from './lots.js';
import { monthlyModule } from './monthly.js';
import { spaceModule } from './spaces.js';

/** Parking (智能物联 /carpark; docs/product.md#carpark): lots, booths, lanes, spaces, cars, lists, monthly cars. */
export const carparkModule: MethodDef[] = [...lotModule, ...spaceModule, ...carModule, ...monthlyModule];
