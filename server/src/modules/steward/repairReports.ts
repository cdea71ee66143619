/**
 * The repair desk's figures (docs/product.md#repair-count): 报修统计 (repaircount and its export,
 * /feecounts/repaircount) and the home page's repair card (repairdashboard, also drawn by the first
 * screen). Each figure counts its own event in the period, in the business time zone.
 */
import { REPAIR_OPEN, type RepairCountAnswer, type RepairCountGroup, type RepairCountRow, type RepairDashboard } from '@wuye/contract';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineMethod } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';
import { today, wireTime } from '../../lib/wire.js';

type CountInput = { start_date: string; end_date: string; group: RepairCountGroup };

const dayStart = (day: string) => sql<Date>`${day}::date::timestamp AT TIME ZONE current_setting('TimeZone')`;
const dayAfter = (day: string) => sql<Date>`(${day}::date + 1)::timestamp AT TIME ZONE current_setting('TimeZone')`;

interface Acc {
  key: string;
  label: string;
  created: number;
  finished: number;
  ontime: number;
  overdue: number;
  acceptN: number;
  acceptS: number;
  finishS: number;
  rated: number;
  rateSum: number;
  good: number;
}

const blank = (key: string, label: string): Acc => ({
  key,
  label,
  created: 0,
  finished: 0,
  ontime: 0,
  overdue: 0,
  acceptN: 0,
  acceptS: 0,
  finishS: 0,
  rated: 0,
  rateSum: 0,
  good: 0,
});

const hours = (seconds: number, n: number) => (n ? (seconds / n / 3600).toFixed(1) : '');

function rowOf(a: Acc): RepairCountRow {
  return {
    key: a.key,
    label: a.label,
    created: a.created,
    finished: a.finished,
    ontime: a.ontime,
    overdue: a.overdue,
    accept_hours: hours(a.acceptS, a.acceptN),
    finish_hours: hours(a.finishS, a.finished),
    rated: a.rated,
    rating_avg: a.rated ? (a.rateSum / a.rated).toFixed(2) : '',
    satisfaction: a.rated ? ((a.good * 100) / a.rated).toFixed(1) : '',
  };
}

/** The figures of docs/product.md#repair-count for a period, grouped; rows in order, then the totals. */
export async function repairCount(db: Kysely<DB>, rid: number, f: CountInput): Promise<RepairCountAnswer> {
  const from = dayStart(f.start_date);
  const to = dayAfter(f.end_date);
  const inPeriod = (col: string) => sql<boolean>`(${sql.ref(col)} >= ${from} AND ${sql.ref(col)} < ${to})`;
  const breach = sql<Date | null>`least(t.accept_breached_at, t.finish_breached_at)`;
  const rows = await db
    .selectFrom('repair_tickets as t')
    .innerJoin('repair_types as y', (j) => j.onRef('y.rid', '=', 't.rid').onRef('y.id', '=', 't.type_id'))
    .leftJoin('repair_types as yp', (j) => j.onRef('yp.rid', '=', 'y.rid').onRef('yp.id', '=', 'y.parent_id'))
    .select([
      't.type_id',
      'y.title as type_title',
      'yp.title as parent_title',
      'y.sort as type_sort',
      'yp.sort as parent_sort',
      't.handler_id',
      't.handler_name',
      't.created_at',
      't.finished_at',
      't.accepted_at',
      't.dispatched_at',
      't.rated_at',
      't.rate_overall',
    ])
    .select(breach.as('breached_at'))
    .select(
      sql<boolean>`t.finished_at IS NOT NULL AND t.finish_breached_at IS NULL
      AND t.finished_at <= t.finish_by + make_interval(secs => t.paused_seconds)`.as('ontime'),
    )
    .select(sql<number>`extract(epoch FROM t.finished_at - t.created_at)::float8 - t.paused_seconds`.as('finish_seconds'))
    .select(sql<number>`extract(epoch FROM t.accepted_at - t.dispatched_at)::float8`.as('accept_seconds'))
    .where('t.rid', '=', rid)
    .where((eb) =>
      eb.or([
        eb(inPeriod('t.created_at'), '=', true),
        eb(inPeriod('t.finished_at'), '=', true),
        eb(inPeriod('t.accepted_at'), '=', true),
        eb(inPeriod('t.rated_at'), '=', true),
        eb(sql<boolean>`(${breach} >= ${from} AND ${breach} < ${to})`, '=', true),
      ]),
    )
    .orderBy('t.id')
    .execute();
  const startMs = Date.parse(`${f.start_date}T00:00:00Z`);
  const endMs = Date.parse(`${f.end_date}T00:00:00Z`);
  const dayOf = (d: Date | null) => (d ? wireTime(d).slice(0, 10) : '');
  const within = (d: Date | null) => {
    const day = dayOf(d);
    if (!day) return false;
    const ms = Date.parse(`${day}T00:00:00Z`);
    return ms >= startMs && ms <= endMs;
  };
  const groups = new Map<string, Acc & { sort: string }>();
  const total = blank('', '合计');
  const typeLabel = (r: (typeof rows)[number]) => (r.parent_title ? `${r.parent_title} / ${r.type_title}` : r.type_title);
  const typeSort = (r: (typeof rows)[number]) =>
    `${String(r.parent_sort ?? r.type_sort).padStart(6, '0')}|${r.parent_title ?? r.type_title}|${r.parent_title ? String(r.type_sort).padStart(6, '0') : ''}|${r.type_id}`;
  const accOf = (r: (typeof rows)[number], when: Date | null): Acc[] => {
    let key: string;
    let label: string;
    let sort: string;
    if (f.group === 'type') [key, label, sort] = [String(r.type_id), typeLabel(r), typeSort(r)];
    else if (f.group === 'handler') [key, label, sort] = r.handler_id ? [String(r.handler_id), r.handler_name, '1'] : ['0', '未派单', '2'];
    else {
      const day = dayOf(when);
      key = f.group === 'day' ? day : day.slice(0, 7);
      [label, sort] = [key, key];
    }
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ...blank(key, label), sort }));
    return [g, total];
  };
  for (const r of rows) {
    if (within(r.created_at)) for (const a of accOf(r, r.created_at)) a.created++;
    if (within(r.finished_at))
      for (const a of accOf(r, r.finished_at)) {
        a.finished++;
        a.finishS += Math.max(0, Number(r.finish_seconds));
        if (r.ontime) a.ontime++;
      }
    if (within(r.breached_at)) for (const a of accOf(r, r.breached_at)) a.overdue++;
    if (within(r.accepted_at) && r.dispatched_at)
      for (const a of accOf(r, r.accepted_at)) {
        a.acceptN++;
        a.acceptS += Math.max(0, Number(r.accept_seconds));
      }
    if (within(r.rated_at) && r.rate_overall)
      for (const a of accOf(r, r.rated_at)) {
        a.rated++;
        a.rateSum += r.rate_overall;
        if (r.rate_overall >= 4) a.good++;
      }
  }
  const byHandler = (a: Acc & { sort: string }, b: Acc & { sort: string }) =>
    a.sort.localeCompare(b.sort, 'en') || b.created - a.created || b.finished - a.finished || a.label.localeCompare(b.label, 'zh-CN');
  const bySort = (a: Acc & { sort: string }, b: Acc & { sort: string }) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0);
  // handlers: the busiest first (those without a handler last); the rest in their own order
  const items = [...groups.values()].sort(f.group === 'handler' ? byHandler : bySort).map(rowOf);
  return { items, totals: rowOf(total) };
}

const repaircount = defineMethod('repaircount', {
  side: 'community',
  roles: STEWARD_ROLES.reports,
  writes: false,
  summary:
    '报修统计：区间内（按业务日期）按类型、处理人、日或月分组的登记数、完工数、按时完工数、超时数、平均接单与完工时长（小时，扣除暂停）、平均评分与满意率（4 分及以上占比），含合计行',
  async handler(ctx, input) {
    return repairCount(ctx.db, ctx.rid, input);
  },
});

const COLUMNS: Array<{ header: string; value: (r: RepairCountRow) => string | number; width?: number }> = [
  { header: '登记', value: (r) => r.created },
  { header: '完工', value: (r) => r.finished },
  { header: '按时完工', value: (r) => r.ontime },
  { header: '超时', value: (r) => r.overdue },
  { header: '平均接单时长（小时）', value: (r) => r.accept_hours, width: 18 },
  { header: '平均完工时长（小时）', value: (r) => r.finish_hours, width: 18 },
  { header: '评价数', value: (r) => r.rated },
  { header: '平均评分', value: (r) => r.rating_avg },
  { header: '满意率（%）', value: (r) => r.satisfaction, width: 12 },
];

const GROUP_HEADER: Record<RepairCountGroup, string> = { type: '报修类型', handler: '处理人', day: '日期', month: '月份' };

const repaircountexport = defineExport('repaircountexport', {
  roles: STEWARD_ROLES.reports,
  summary: '导出报修统计（同 repaircount 的区间与分组），含合计行',
  filename: (input) => `报修统计_${String(input.start_date)}_${String(input.end_date)}.xlsx`,
  async sheet(scope, input) {
    const answer = await repairCount(scope.db, scope.rid, input as CountInput);
    return sheetOf(
      '报修统计',
      [{ header: GROUP_HEADER[(input as CountInput).group], value: (r: RepairCountRow) => r.label, width: 20 }, ...COLUMNS],
      [...answer.items, answer.totals],
    );
  },
});

/** The home page's repair card: open tickets, the overdue ones among them, registered today. */
export async function repairDashboard(db: Kysely<DB>, rid: number): Promise<RepairDashboard> {
  const day = today();
  const row = await db
    .selectFrom('repair_tickets')
    .select([
      sql<number>`count(*) FILTER (WHERE status IN (${sql.join(REPAIR_OPEN)}))::int`.as('open'),
      sql<number>`count(*) FILTER (WHERE status IN (${sql.join(REPAIR_OPEN)}) AND overdue)::int`.as('overdue'),
      sql<number>`count(*) FILTER (WHERE created_at >= ${dayStart(day)})::int`.as('today'),
    ])
    .where('rid', '=', rid)
    .executeTakeFirstOrThrow();
  return { open: row.open, overdue: row.overdue, today: row.today };
}

const repairdashboard = defineMethod('repairdashboard', {
  side: 'community',
  roles: STEWARD_ROLES.repairRead,
  writes: false,
  summary: '首页报修卡片：未完成的报修工单数、其中超时数、今日新增数',
  async handler(ctx) {
    return repairDashboard(ctx.db, ctx.rid);
  },
});

export const repairReportModule = [repaircount, repaircountexport, repairdashboard];
