import type { MethodDef } from '../../http/registry.js';

export const internalOrdersModule: MethodDef[] = [];
