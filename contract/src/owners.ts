import { z } from 'zod';

/** Method input schemas of the owners area. */
export const ownersMethods = {} satisfies Record<string, z.ZodType>;

/** Answer `data` shapes of the owners area, by method name. */
export interface OwnersOutputs {}
