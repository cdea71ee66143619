import type { MethodDef } from '../../http/registry.js';

export const structureModule: MethodDef[] = [];
