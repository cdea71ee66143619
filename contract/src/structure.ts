import { z } from 'zod';

/** Method input schemas of the structure area. */
export const structureMethods = {} satisfies Record<string, z.ZodType>;

/** Answer `data` shapes of the structure area, by method name. */
export interface StructureOutputs {}
