import type { MethodDef } from '../../http/registry.js';
import './jobs.js';
import { buildingMethods, unitMethods } from './buildings.js';
import { categoryMethods } from './categories.js';
import { importMethods } from './import.js';
import { regionMethods } from './regions.js';
import { roomMethods } from './rooms.js';

/** Community structure: communities, room categories, buildings, units, rooms, room import. */
export const structureModule: MethodDef[] = [
  ...regionMethods,
  ...categoryMethods,
  ...buildingMethods,
  ...unitMethods,
  ...roomMethods,
  ...importMethods,
];
