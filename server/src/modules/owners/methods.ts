import type { MethodDef } from '../../http/registry.js';
import { drawerMethods } from './drawer.js';
import { importMethods } from './import.js';
import { memberMethods } from './members.js';
import { searchMethods } from './search.js';

/** Owners: search and drawer (docs/product.md#owner-search, #owner-drawer), owner management, imports (cars: modules/carpark/cars.ts). */
export const ownersModule: MethodDef[] = [...searchMethods, ...drawerMethods, ...memberMethods, ...importMethods];
