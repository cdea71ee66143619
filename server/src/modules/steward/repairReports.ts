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
import { dayStart, today } from '../../lib/wire.js';

type CountInput = { start_date: string; end_date: string; group: RepairCountGroup };

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

/** One group's sums as the statement answers them (repairCount). */
interface Sums {
  key: string | null;
  /** the name the group's tickets carry (a handler renamed since keeps the tickets' name) */
  handler_name: string | null;
  created: number;
  finished: number;
  ontime: number;
  overdue: number;
  accept_n: number;
  accept_s: number;
  finish_s: number;
  rated: number;
  rate_sum: number;
  good: number;
}

/**
 * The figures of docs/product.md#repair-count for a period, grouped; rows in order, then the totals.
 * Each ticket counts once per event of the period (registered, finished, breached, accepted,
 * rated), on the event's business day. The events' figures are kept per day, type and handler by
 * the tickets' triggers (repair_day_totals, 202611300502): a year is a few thousand rows there
 * instead of every ticket expanded five times (bench/README.md#steward-desk).
 */
export async function repairCount(db: Kysely<DB>, rid: number, f: CountInput): Promise<RepairCountAnswer> {
  // the kept rows summed per group (a day for days and months) and handler's name, then labelled
  const inner = f.group === 'type' ? sql`type_id` : f.group === 'handler' ? sql`handler_id` : sql`day`;
  const key =
    f.group === 'type' || f.group === 'handler' ? sql`k::text` : sql`to_char(k, ${sql.lit(f.group === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM')})`;
  // every day's rows of a group and name count what the tickets have now (0 or more), so a group
  // or a handler's name whose events all went (a ticket moved to another type or handler, not yet
  // folded) sums to 0 events over the period and is left out, as it was from the tickets
  const { rows } = await sql<Sums>`
    SELECT ${key} AS key, max(handler_name) FILTER (WHERE events > 0) AS handler_name,
      coalesce(sum(created), 0)::int AS created, coalesce(sum(finished), 0)::int AS finished, coalesce(sum(ontime), 0)::int AS ontime,
      coalesce(sum(overdue), 0)::int AS overdue, coalesce(sum(accept_n), 0)::int AS accept_n, coalesce(sum(accept_s), 0)::float8 AS accept_s,
      coalesce(sum(finish_s), 0)::float8 AS finish_s, coalesce(sum(rated), 0)::int AS rated, coalesce(sum(rate_sum), 0)::int AS rate_sum,
      coalesce(sum(good), 0)::int AS good
    FROM (
      SELECT ${inner} AS k, handler_name, sum(events) AS events, sum(created) AS created, sum(finished) AS finished,
        sum(ontime) AS ontime, sum(overdue) AS overdue, sum(accept_n) AS accept_n, sum(accept_s) AS accept_s,
        sum(finish_s) AS finish_s, sum(rated) AS rated, sum(rate_sum) AS rate_sum, sum(good) AS good
      FROM repair_day_totals
      WHERE rid = ${rid} AND day BETWEEN ${f.start_date}::date AND ${f.end_date}::date
      GROUP BY 1, 2) g
    GROUP BY GROUPING SETS ((${key}), ())
    HAVING sum(events) > 0 OR GROUPING(${key}) = 1`.execute(db);
  const accOf = (r: Sums, label: string): Acc => ({
    key: r.key ?? '',
    label,
    created: r.created,
    finished: r.finished,
    ontime: r.ontime,
    overdue: r.overdue,
    acceptN: r.accept_n,
    acceptS: r.accept_s,
    finishS: r.finish_s,
    rated: r.rated,
    rateSum: r.rate_sum,
    good: r.good,
  });
  const totalRow = rows.find((r) => r.key === null);
  const grouped = rows.filter((r) => r.key !== null);
  const labels = await groupLabels(db, rid, f.group, grouped);
  const items = grouped.map((r) => ({ ...accOf(r, labels.get(r.key!)?.label ?? r.key!), sort: labels.get(r.key!)?.sort ?? r.key! }));
  const byHandler = (a: Acc & { sort: string }, b: Acc & { sort: string }) =>
    a.sort.localeCompare(b.sort, 'en') || b.created - a.created || b.finished - a.finished || a.label.localeCompare(b.label, 'zh-CN');
  const bySort = (a: Acc & { sort: string }, b: Acc & { sort: string }) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0);
  // handlers: the busiest first (those without a handler last); the rest in their own order
  return {
    items: items.sort(f.group === 'handler' ? byHandler : bySort).map(rowOf),
    totals: rowOf(totalRow ? accOf(totalRow, '合计') : blank('', '合计')),
  };
}

/** The groups' names and order: a type under its parent (in the tree's order), a handler by name, a day or month as it is. */
async function groupLabels(db: Kysely<DB>, rid: number, group: RepairCountGroup, rows: Sums[]) {
  const out = new Map<string, { label: string; sort: string }>();
  const ids = group === 'type' ? rows.map((r) => Number(r.key)) : [];
  if (ids.length) {
    const types = await db
      .selectFrom('repair_types as y')
      .leftJoin('repair_types as yp', (j) => j.onRef('yp.rid', '=', 'y.rid').onRef('yp.id', '=', 'y.parent_id'))
      .select(['y.id', 'y.title', 'y.sort', 'yp.title as parent_title', 'yp.sort as parent_sort'])
      .where('y.rid', '=', rid)
      .where('y.id', 'in', ids)
      .execute();
    for (const y of types)
      out.set(String(y.id), {
        label: y.parent_title ? `${y.parent_title} / ${y.title}` : y.title,
        sort: `${String(y.parent_sort ?? y.sort).padStart(6, '0')}|${y.parent_title ?? y.title}|${y.parent_title ? String(y.sort).padStart(6, '0') : ''}|${y.id}`,
      });
  }
  if (group === 'handler') {
    for (const r of rows) if (r.key !== '0') out.set(r.key!, { label: r.handler_name ?? '', sort: '1' });
    out.set('0', { label: '未派单', sort: '2' });
  }
  return out;
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
