import { z } from 'zod';
import { LIMITS } from './codes.js';

/** Integer id on the wire, accepted as number or numeric string. */
export const id = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);
export const optionalId = z
  .union([z.literal(''), z.null(), id])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));
export const yn = z.enum(['Y', 'N']);
export const sortOrder = z.enum(['asc', 'desc']).default('asc');
export const text = (max: number) => z.string().trim().max(max);

/** Paging fields every list method takes (docs/product.md#paging: 10 a page, first page 1, asc). */
export const paging = {
  page: z.coerce.number().int().min(1).max(100000).default(LIMITS.firstPage),
  limit: z.coerce.number().int().min(1).max(200).default(LIMITS.pageSize),
  sort: sortOrder,
};
export const pagingSchema = z.object(paging);
export type Paging = z.infer<typeof pagingSchema>;

export const empty = z.object({});
