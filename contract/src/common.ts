import { z } from 'zod';
import { LIMITS } from './codes.js';

/**
 * Control characters: C0 but tab, line feed and carriage return; DEL; C1. Never part of a name, a
 * title or a remark, and PostgreSQL refuses NUL outright. The server refuses them in every field of
 * every call (http/dispatcher.ts, the same expression); the helpers below say so in the form too.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
export const CONTROL_CHARS_MSG = '不能包含控制字符（如 NUL）';

/** A text schema that refuses control characters with a clear message. */
export const noControlChars = <T extends z.ZodType<string>>(schema: T): T =>
  schema.refine((v) => !CONTROL_CHARS.test(v), { message: CONTROL_CHARS_MSG }) as T;

/**
 * An integer from a number or a decimal text ('12'); never from true, [1], '1e3' or '0x10', which
 * z.coerce.number() took for numbers.
 */
export const int = (min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d{1,16}$/)
          .transform(Number),
      ],
      {
        error: (issue) => (issue.input === undefined || issue.input === null ? '不能为空' : '应为整数'),
      },
    )
    .pipe(z.number().int().min(min).max(max));

/** Integer id on the wire, accepted as number or numeric string (strictly: see int). */
export const id = int(1, 2 ** 31 - 1);
export const optionalId = z
  .union([z.literal(''), z.null(), id])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));
export const yn = z.enum(['Y', 'N']);
export const sortOrder = z.enum(['asc', 'desc']).default('asc');
/** Trimmed text of at most `max` characters, without control characters. */
export const text = (max: number) => noControlChars(z.string().trim().max(max));

/** Paging fields every list method takes (docs/product.md#paging: 10 a page, first page 1, asc). */
export const paging = {
  page: int(1, 100000).default(LIMITS.firstPage),
  limit: int(1, 200).default(LIMITS.pageSize),
  sort: sortOrder,
};
export const pagingSchema = z.object(paging);
export type Paging = z.infer<typeof pagingSchema>;

export const empty = z.object({});

/** A write's idempotency key (docs/architecture.md#call-conventions): a retry with the same key happens once. */
export const idempotencyKey = z
  .string()
  .trim()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'idempotency_key 只能包含字母、数字、- 和 _');

/** A coordinate in degrees ('' or null: none): a patrol point's, a store's map point. */
export const coordinate = (max: number, label: string) =>
  z
    .union([
      z.literal(''),
      z.null(),
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d{1,3}(\.\d{1,7})?$/, `${label}格式不正确`)
        .transform(Number),
    ])
    .optional()
    .transform((v) => (v === '' || v === null || v === undefined ? null : v))
    .refine((v) => v === null || (Number.isFinite(v) && Math.abs(v) <= max), { message: `${label}超出范围` });
