import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import {
  daysBetween,
  enumText,
  OPERATION_LOG_COMMUNITY,
  OPERATION_LOG_READERS,
  OPERATION_RESULT,
  RC,
  type OperationLogItem,
} from '@wuye/contract';
import type { DB } from '../../db/schema.js';
import { defineMethod, type MethodDef } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, sheetOf } from '../../lib/excel.js';
import { likePattern } from '../../lib/like.js';
import { fail } from '../../http/errors.js';
import { today, wireTime } from '../../lib/wire.js';

/**
 * The operation log (操作日志): the audit rows the dispatcher writes for every write, read only.
 *
 * Pages walk audit_log_page (rid, created_at DESC, id DESC), one community at a time: on the group
 * side each community (and the group accounts' own rows, rid NULL, through audit_log_unscoped) gives
 * its first rows in page order and the page is taken from their union, so no plan sorts a
 * community's whole log (bench/README.md, 操作日志).
 */

/**
 * The readable action of each method: its summary up to the first （, ；, ，, ：, 。 (录入一条抄表读数),
 * worked out once from the registry's modules (imported when first asked: they import this file).
 */
let labels: Map<string, string> | undefined;
let writers: MethodDef[] = [];
async function loadLabels(): Promise<void> {
  if (labels) return;
  const { modules } = await import('../index.js');
  const all = modules.flat();
  const map = new Map<string, string>();
  for (const def of all) map.set(def.name, labelOf(def));
  map.set('login', '账号登录');
  writers = all.filter((d) => d.spec.writes !== false);
  labels = map;
}

export function labelOf(def: Pick<MethodDef, 'name' | 'spec'>): string {
  const text = def.spec.summary.split(/[（(；;，,：:。]/)[0]!.trim();
  return text && text.length <= 40 ? text : def.name;
}

const actionOf = (method: string) => labels?.get(method) ?? method;

/** What the 操作 filter offers: the methods that leave a row (writes), by label. */
async function writeMethods(): Promise<Array<{ value: string; label: string }>> {
  await loadLabels();
  const items = writers.map((d) => ({ value: d.name as string, label: actionOf(d.name) }));
  if (!items.some((i) => i.value === 'login')) items.push({ value: 'login', label: actionOf('login') });
  return items.sort((a, b) => a.label.localeCompare(b.label, 'zh-CN') || a.value.localeCompare(b.value));
}

/** The payload's keys that name the thing acted on, in the order a summary gives them. */
const SUMMARY_KEYS: Array<[string, string]> = [
  ['title', ''],
  ['name', ''],
  ['realname', ''],
  ['username', '账号'],
  ['receipt_no', '收据'],
  ['payer_name', '缴费人'],
  ['paid_amount', '金额'],
  ['carlicense', '车牌'],
  ['period', '账期'],
  ['remark', '备注'],
  ['reason', '原因'],
  ['id', 'ID'],
  ['ids', 'ID'],
  ['hid', '房屋ID'],
  ['bill_ids', '账单'],
  ['job_id', '任务'],
  ['filename', '文件'],
];
const SECRET = /pass(word)?|pwd|secret|token|act_code|^code$/i;

/** A short summary of a payload: a few well-known keys, never a secret (the payload is redacted already). */
export function summaryOf(payload: unknown): string {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return '';
  const p = payload as Record<string, unknown>;
  const parts: string[] = [];
  for (const [key, label] of SUMMARY_KEYS) {
    if (parts.length >= 3 || SECRET.test(key)) break;
    const v = p[key];
    let shown: string | undefined;
    if (typeof v === 'string' && v.trim() !== '' && v !== '***') shown = v.trim();
    else if (typeof v === 'number') shown = String(v);
    else if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number' || typeof x === 'string')) {
      shown = v.length > 5 ? `${v.slice(0, 5).join(',')} 等 ${v.length} 个` : v.join(',');
    }
    if (shown === undefined) continue;
    if (shown.length > 40) shown = shown.slice(0, 40) + '…';
    parts.push(label ? `${label} ${shown}` : shown);
  }
  return parts.join('；');
}

export interface LogFilters {
  create_time?: [string, string];
  operator?: string;
  action?: string;
  result?: '' | 'Y' | 'N';
  keyword?: string;
}

/** Where the rows come from: one community, or a group's communities and its accounts' own rows. */
export type LogScope = { rid: number } | { groupId: number; rids: number[]; usernames: string[] };

/** The filters as conditions on audit_log `a`; the operator as the usernames of the group's accounts it names. */
function conditions(f: LogFilters, operators: string[] | undefined): Array<RawBuilder<SqlBool>> {
  const out: Array<RawBuilder<SqlBool>> = [];
  if (f.create_time) {
    // days of the business time zone (the connection's), both included
    const [from, to] = f.create_time;
    out.push(sql<SqlBool>`a.created_at >= ${from}::date`, sql<SqlBool>`a.created_at < ${to}::date + 1`);
  }
  if (operators) out.push(sql<SqlBool>`a.username = ANY(${operators}::text[])`);
  if (f.action) out.push(sql<SqlBool>`a.method = ${f.action}`);
  if (f.result === 'Y') out.push(sql<SqlBool>`a.outcome = ${RC.SUCCESS}`);
  if (f.result === 'N') out.push(sql<SqlBool>`a.outcome <> ${RC.SUCCESS}`);
  if (f.keyword) {
    const p = likePattern(f.keyword);
    out.push(sql<SqlBool>`(a.message ILIKE ${p} OR a.payload::text ILIKE ${p})`);
  }
  return out;
}

/** The usernames of the group's accounts whose name or username holds the operator's text. */
async function operatorsOf(db: Kysely<DB>, groupId: number, operator: string | undefined): Promise<string[] | undefined> {
  if (!operator) return undefined;
  const p = likePattern(operator);
  const rows = await db
    .selectFrom('accounts')
    .select('username')
    .where('group_id', '=', groupId)
    .where((eb) => eb.or([eb('name', 'ilike', p), eb('username', 'ilike', p)]))
    .limit(500)
    .execute();
  return rows.map((r) => r.username);
}

/** A keyword reads every row's payload: only within a month at most (bench/README.md, 操作日志). */
export const KEYWORD_MAX_DAYS = 31;
function checkKeyword(f: LogFilters): void {
  if (!f.keyword) return;
  if (!f.create_time || daysBetween(f.create_time[0], f.create_time[1]) >= KEYWORD_MAX_DAYS) {
    fail(`按关键字查询时，请选择不超过 ${KEYWORD_MAX_DAYS} 天的时间范围`);
  }
}

/**
 * Totals are counted up to LOG_COUNT_CAP rows: the log grows without end, and an exact count of a
 * community's whole log read every row of it on each page (bench/README.md, 操作日志); beyond
 * it the answer says `more` and the pager shows 10000+.
 */
export const LOG_COUNT_CAP = 10_000;

const and = (conds: Array<RawBuilder<SqlBool>>) => (conds.length ? sql`AND ${sql.join(conds, sql` AND `)}` : sql``);

/** The ids of the first `upTo` rows of the scope in page order, each part walking its own index. */
function firstIds(scope: LogScope, conds: Array<RawBuilder<SqlBool>>, dir: RawBuilder<unknown>, upTo: number) {
  const n = sql.lit(upTo);
  if ('rid' in scope) {
    return sql`SELECT a.id, a.created_at FROM audit_log a WHERE a.rid = ${scope.rid} ${and(conds)} ORDER BY a.created_at ${dir}, a.id ${dir} LIMIT ${n}`;
  }
  return sql`
    SELECT x.id, x.created_at FROM unnest(${scope.rids}::int[]) r(rid) CROSS JOIN LATERAL (
      SELECT a.id, a.created_at FROM audit_log a WHERE a.rid = r.rid ${and(conds)}
      ORDER BY a.created_at ${dir}, a.id ${dir} LIMIT ${n}) x
    UNION ALL
    SELECT x.id, x.created_at FROM unnest(${scope.usernames}::text[]) u(username) CROSS JOIN LATERAL (
      SELECT a.id, a.created_at FROM audit_log a WHERE a.rid IS NULL AND a.username = u.username ${and(conds)}
      ORDER BY a.created_at ${dir}, a.id ${dir} LIMIT ${n}) x`;
}

function inScope(scope: LogScope) {
  return 'rid' in scope
    ? sql<SqlBool>`a.rid = ${scope.rid}`
    : sql<SqlBool>`(a.rid = ANY(${scope.rids}::int[]) OR (a.rid IS NULL AND a.username = ANY(${scope.usernames}::text[])))`;
}

interface LogRow {
  id: number;
  created_at: Date;
  rid: number | null;
  region_title: string | null;
  username: string;
  operator_name: string | null;
  side: string;
  method: string;
  payload: unknown;
  outcome: string;
  message: string;
  ip: string;
}

/** The rows with their community and account names, in page order. */
function rowsOf(db: Kysely<DB>, ids: RawBuilder<unknown>, dir: RawBuilder<unknown>) {
  return sql<LogRow>`
    SELECT a.id, a.created_at, a.rid, g.title AS region_title, a.username, acc.name AS operator_name,
           a.side, a.method, a.payload, a.outcome, a.message, a.ip
    FROM audit_log a
    LEFT JOIN regions g ON g.id = a.rid
    LEFT JOIN accounts acc ON acc.id = a.account_id
    WHERE a.id IN (${ids})
    ORDER BY a.created_at ${dir}, a.id ${dir}`.execute(db);
}

/** One page of the log, newest first unless asked otherwise, and its total (up to LOG_COUNT_CAP). */
export async function logPage(
  db: Kysely<DB>,
  scope: LogScope,
  groupId: number,
  f: LogFilters,
  paging: { page: number; limit: number; sort: 'asc' | 'desc' },
): Promise<{ items: OperationLogItem[]; total: number; more: boolean }> {
  checkKeyword(f);
  const [operators] = await Promise.all([operatorsOf(db, groupId, f.operator), loadLabels()]);
  if (operators && operators.length === 0) return { items: [], total: 0, more: false };
  const conds = conditions(f, operators);
  const dir = sql.raw(paging.sort === 'asc' ? 'ASC' : 'DESC');
  const offset = (paging.page - 1) * paging.limit;
  const first = firstIds(scope, conds, dir, paging.page * paging.limit);
  const pageIds = sql`SELECT f.id FROM (${first}) f ORDER BY f.created_at ${dir}, f.id ${dir} LIMIT ${sql.lit(paging.limit)} OFFSET ${sql.lit(offset)}`;
  const [rows, counted] = await Promise.all([
    rowsOf(db, pageIds, dir),
    sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_log a WHERE ${inScope(scope)} ${and(conds)} LIMIT ${sql.lit(LOG_COUNT_CAP + 1)}) c`.execute(
      db,
    ),
  ]);
  const n = counted.rows[0]?.n ?? 0;
  return { items: rows.rows.map(toItem), total: Math.min(n, LOG_COUNT_CAP), more: n > LOG_COUNT_CAP };
}

const toItem = (r: LogRow): OperationLogItem => {
  const result = r.outcome === RC.SUCCESS ? 'Y' : 'N';
  return {
    id: Number(r.id),
    create_time: wireTime(r.created_at),
    rid: r.rid ?? 0,
    region_title: r.region_title ?? (r.rid === null ? '集团' : ''),
    username: r.username,
    operator_name: r.operator_name ?? '',
    side: r.side,
    method: r.method,
    action: actionOf(r.method),
    summary: summaryOf(r.payload),
    payload: JSON.stringify(r.payload ?? {}, null, 2),
    outcome: r.outcome,
    result,
    result_ch: enumText(OPERATION_RESULT, result),
    message: r.message,
    ip: r.ip,
  };
};

/** The group's communities and its accounts' usernames: what the group side reads. */
async function groupScope(db: Kysely<DB>, groupId: number, rid: number | undefined): Promise<LogScope> {
  const [regions, accounts] = await Promise.all([
    db.selectFrom('regions').select('id').where('group_id', '=', groupId).execute(),
    rid ? Promise.resolve([]) : db.selectFrom('accounts').select('username').where('group_id', '=', groupId).execute(),
  ]);
  if (rid) {
    if (!regions.some((r) => r.id === rid)) fail('小区不存在');
    return { rid };
  }
  return { groupId, rids: regions.map((r) => r.id), usernames: accounts.map((a) => a.username) };
}

const operationloglist = defineMethod('operationloglist', {
  side: 'both',
  roles: [...OPERATION_LOG_READERS],
  writes: false,
  summary:
    '操作日志：每次写操作的记录（时间、操作人、小区、操作、对象摘要、结果、说明、IP），新的在前；小区端只看本小区，集团端看全部小区及集团账号的记录（可按 rid 筛选）；可按日期、操作人、操作、结果、关键字筛选',
  async handler(ctx, input) {
    const { groupId } = ctx.session;
    // community side: the session's community only, whatever the payload says
    const scope = ctx.session.rid !== null ? { rid: ctx.session.rid } : await groupScope(ctx.db, groupId, input.rid);
    return logPage(ctx.db, scope, groupId, input, input);
  },
});

const operationlog_small_list = defineMethod('operationlog_small_list', {
  side: 'both',
  roles: [...OPERATION_LOG_READERS],
  writes: false,
  summary: '操作日志的“操作”筛选项：每个写操作的方法名与可读名称',
  async handler() {
    return { items: await writeMethods() };
  },
});

const operationlogexport = defineExport('operationlogexport', {
  roles: [...OPERATION_LOG_COMMUNITY],
  summary: '按当前筛选条件导出本小区操作日志（Excel，最多 10 万行）',
  filename: () => `操作日志_${today()}.xlsx`,
  async check({ db, rid }, input) {
    checkKeyword(input);
    const operators = await operatorsOf(db, await groupOf(db, rid), input.operator);
    const counted = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_log a WHERE a.rid = ${rid} ${and(conditions(input, operators ?? undefined))} LIMIT ${sql.lit(EXPORT_MAX + 1)}) c`.execute(
      db,
    );
    if ((counted.rows[0]?.n ?? 0) > EXPORT_MAX) fail('导出数据超过 10 万行，请缩小筛选范围');
  },
  async sheet({ db, rid }, input) {
    await loadLabels();
    const operators = await operatorsOf(db, await groupOf(db, rid), input.operator);
    const dir = sql.raw(input.sort === 'asc' ? 'ASC' : 'DESC');
    const ids = sql`SELECT f.id FROM (${firstIds({ rid }, conditions(input, operators), dir, EXPORT_MAX)}) f`;
    const rows = await rowsOf(db, ids, dir).then((r) => r.rows.map(toItem));
    return sheetOf(
      '操作日志',
      [
        { header: '时间', value: (r) => r.create_time, width: 20 },
        { header: '操作人', value: (r) => r.operator_name, width: 12 },
        { header: '账号', value: (r) => r.username, width: 14 },
        { header: '操作', value: (r) => r.action, width: 24 },
        { header: '方法', value: (r) => r.method, width: 20 },
        { header: '对象/摘要', value: (r) => r.summary, width: 30 },
        { header: '结果', value: (r) => r.result_ch, width: 8 },
        { header: '说明', value: (r) => r.message, width: 30 },
        { header: 'IP', value: (r) => r.ip, width: 16 },
      ],
      rows,
    );
  },
});

async function groupOf(db: Kysely<DB>, rid: number): Promise<number> {
  const r = await db.selectFrom('regions').select('group_id').where('id', '=', rid).executeTakeFirstOrThrow();
  return r.group_id;
}

export const operationLogMethods = [operationloglist, operationlog_small_list, operationlogexport];
