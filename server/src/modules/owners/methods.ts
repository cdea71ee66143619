import type { MethodDef } from '../../http/registry.js';
import { carMethods } from './cars.js';
import { drawerMethods } from './drawer.js';
import { importMethods } from './import.js';
import { memberMethods } from './members.js';
import { searchMethods } from './search.js';

/** Owners: search and drawer (spec 2.4, 2.5), owner management, cars, imports. */
export const ownersModule: MethodDef[] = [...searchMethods, ...drawerMethods, ...memberMethods, ...importMethods, ...carMethods];
