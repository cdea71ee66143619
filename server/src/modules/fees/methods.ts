import type { MethodDef } from '../../http/registry.js';

export const feesModule: MethodDef[] = [];
