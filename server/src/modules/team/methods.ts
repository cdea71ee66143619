import type { MethodDef } from '../../http/registry.js';
import { roleMethods } from './roles.js';
import { staffMethods } from './staff.js';

/** The team area: staff accounts, roles (docs/product.md#team). */
export const teamModule: MethodDef[] = [...staffMethods, ...roleMethods];
