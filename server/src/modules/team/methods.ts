import type { MethodDef } from '../../http/registry.js';
import { deptMethods, positionMethods } from './departments.js';
import { roleMethods } from './roles.js';
import { staffMethods } from './staff.js';
import { staffImportMethods } from './staffImport.js';

/** The team area: staff accounts, roles (docs/product.md#team), the company's departments and positions. */
export const teamModule: MethodDef[] = [...staffMethods, ...staffImportMethods, ...roleMethods, ...deptMethods, ...positionMethods];
