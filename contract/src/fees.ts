import { z } from 'zod';

/** Method input schemas of the fees area. */
export const feesMethods = {} satisfies Record<string, z.ZodType>;

/** Answer `data` shapes of the fees area, by method name. */
export interface FeesOutputs {}
