import { z } from 'zod';
import { optionalId, paging, text } from './common.js';
import type { ListAnswer } from './codes.js';
import type { ExportQueued } from './jobs.js';
import { valueEnum, wireDay } from './kit/resource.js';

/**
 * The operation log (操作日志, /setup/operationlog): the audit rows every write leaves, read only.
 * Community side: the session's community; group side: the group's communities and the group
 * accounts' own rows (sign-ins, group-side writes).
 */
/** Who reads it on the community side, and exports it there (an export is a job of one community). */
export const OPERATION_LOG_COMMUNITY = ['setup', 'team'] as const;
/** Who reads it on the group side. */
export const OPERATION_LOG_GROUP = ['leader_admin'] as const;
export const OPERATION_LOG_READERS = [...OPERATION_LOG_COMMUNITY, ...OPERATION_LOG_GROUP] as const;

/** 结果: SUCCESS, or the code the call was refused with (FAIL, NO_PERMISSION, AUTH_END…). */
export const OPERATION_RESULT = valueEnum({ Y: { text: '成功', tone: 'success' }, N: { text: '失败', tone: 'error' } });

/** A day range of the business time zone, both days included; '' or null: no filter. */
const dayRange = z
  .union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])])
  .optional()
  .transform((v) => v || undefined)
  .refine((v) => !v || v[0] <= v[1], { message: '开始日期不能晚于结束日期' });

const operationLogFilters = {
  /** when: [from, to] days */
  create_time: dayRange,
  /** who: a name or a username, in part */
  operator: text(60).optional(),
  /** what: one method's wire name (operationlog_small_list gives them with their labels); not `method`, the call's own */
  action: z
    .string()
    .trim()
    .max(60)
    .regex(/^[A-Za-z0-9_]*$/, '操作取值不正确')
    .optional(),
  result: z.union([z.literal(''), z.enum(['Y', 'N'])], { error: '结果取值不正确' }).optional(),
  /** in the message or the payload, in part; only with a time range of at most 31 days */
  keyword: text(60).optional(),
  /** group side: one of the group's communities */
  rid: optionalId,
};

export const operationLogMethods = {
  operationloglist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...operationLogFilters }),
  operationlogexport: z.object({ sort: z.enum(['asc', 'desc']).default('desc'), ...operationLogFilters }),
  /** the 操作 filter's choices: every write method with its readable label */
  operationlog_small_list: z.object({}),
} satisfies Record<string, z.ZodType>;

export interface OperationLogItem {
  id: number;
  create_time: string;
  /** the community, or 0 for a group-side row */
  rid: number;
  region_title: string;
  username: string;
  /** the account's name, '' when the row has no account (a refused sign-in) */
  operator_name: string;
  side: string;
  method: string;
  /** the method's readable action (录入一条抄表读数), or the method's name */
  action: string;
  /** a short summary of the payload's well-known keys (title, name, receipt_no…) */
  summary: string;
  /** the whole payload as recorded (secrets already replaced), pretty-printed JSON */
  payload: string;
  outcome: string;
  result: 'Y' | 'N';
  result_ch: string;
  message: string;
  ip: string;
}

export interface OperationLogOutputs {
  /** total counted up to 10,000 rows; more: there are more than that */
  operationloglist: ListAnswer<OperationLogItem> & { more: boolean };
  operationlogexport: ExportQueued;
  operationlog_small_list: { items: Array<{ value: string; label: string }> };
}
