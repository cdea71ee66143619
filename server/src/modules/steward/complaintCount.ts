/**
 * 投诉统计 (/feecounts/complaintcount; docs/product.md#complaint-count): the complaints registered in
 * a period (business dates), by type, by category and by handler, with the totals: registered,
 * finished, on time, overdue, the average hours to the first response and to 办结, the average
 * rating and the satisfaction rate (4 or 5 stars over the ratings).
 */
import { COMPLAINT_KIND, enumText, type ComplaintCountRow } from '@wuye/contract';
import { STEWARD_ROLES } from '@wuye/contract/steward/roles';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { sheetOf } from '../../lib/excel.js';

type Period = { start_date: string; end_date: string };
type Figures = Omit<ComplaintCountRow, 'key' | 'label'>;
type Grouped = Figures & { k: string | null };

const MAX_DAYS = 366;

/** The aggregates over the period's complaints `c`, grouped by `key` (none: one row). */
async function figures(db: Kysely<DB>, rid: number, p: Period, key: RawBuilder<string> | null): Promise<Grouped[]> {
  const hours = (from: string, to: string) => sql.raw(`extract(epoch from (c.${to} - c.${from})) / 3600`);
  const finished = sql.raw(`c.status IN ('E', 'Y')`);
  const late = sql.raw(`(c.respond_overdue_at IS NOT NULL OR c.close_overdue_at IS NOT NULL)`);
  const q = sql<Grouped>`
    SELECT ${key ?? sql`NULL`}::text AS k,
      count(*)::int AS created,
      count(*) FILTER (WHERE ${finished})::int AS finished,
      count(*) FILTER (WHERE ${finished} AND NOT ${late} AND c.finished_at <= c.close_deadline)::int AS on_time,
      count(*) FILTER (WHERE ${late})::int AS overdue,
      round(avg(${hours('created_at', 'accepted_at')})::numeric, 1)::text AS avg_response_hours,
      round(avg(${hours('created_at', 'finished_at')}) FILTER (WHERE ${finished})::numeric, 1)::text AS avg_close_hours,
      count(c.rating)::int AS rated,
      round(avg(c.rating)::numeric, 2)::text AS avg_rating,
      CASE WHEN count(c.rating) = 0 THEN NULL
        ELSE round(100.0 * count(*) FILTER (WHERE c.rating >= 4) / count(c.rating), 1)::text END AS satisfaction_rate
    FROM complaints c
    WHERE c.rid = ${rid}
      AND c.created_at >= (${p.start_date}::date)::timestamp AT TIME ZONE current_setting('TimeZone')
      AND c.created_at < (${p.end_date}::date + 1)::timestamp AT TIME ZONE current_setting('TimeZone')
    ${key ? sql`GROUP BY 1` : sql``}`;
  return (await q.execute(db)).rows;
}

const EMPTY: Figures = {
  created: 0,
  finished: 0,
  on_time: 0,
  overdue: 0,
  avg_response_hours: null,
  avg_close_hours: null,
  rated: 0,
  avg_rating: null,
  satisfaction_rate: null,
};

const pick = (g: Grouped | undefined): Figures => {
  if (!g) return EMPTY;
  const { k: _k, ...f } = g;
  return f;
};

export async function complaintCount(db: Kysely<DB>, rid: number, p: Period) {
  const days = (Date.parse(p.end_date) - Date.parse(p.start_date)) / 86_400_000;
  if (days > MAX_DAYS) fail(`统计区间不能超过 ${MAX_DAYS} 天`);
  const [kinds, cats, handlers, [all]] = await Promise.all([
    figures(db, rid, p, sql<string>`c.kind`),
    figures(db, rid, p, sql<string>`c.category_id`),
    figures(db, rid, p, sql<string>`coalesce(c.handler_id, 0)`),
    figures(db, rid, p, null),
  ]);
  const categories = await db
    .selectFrom('complaint_categories')
    .select(['id', 'name'])
    .where('rid', '=', rid)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const handlerNames = new Map(
    (
      await db
        .selectFrom('complaints')
        .select(['handler_id', 'handler_name'])
        .distinct()
        .where('rid', '=', rid)
        .where('handler_id', 'is not', null)
        .execute()
    ).map((h) => [String(h.handler_id), h.handler_name]),
  );
  const byKey = (rows: Grouped[]) => new Map(rows.map((r) => [String(r.k), r]));
  const k = byKey(kinds);
  const c = byKey(cats);
  const by_kind: ComplaintCountRow[] = (['C', 'S', 'Q'] as const).map((kind) => ({
    key: kind,
    label: enumText(COMPLAINT_KIND, kind),
    ...pick(k.get(kind)),
  }));
  const by_category: ComplaintCountRow[] = categories
    .filter((g) => c.has(String(g.id)))
    .map((g) => ({ key: String(g.id), label: g.name, ...pick(c.get(String(g.id))) }));
  const by_handler: ComplaintCountRow[] = handlers
    .map((h) => ({ key: String(h.k), label: h.k === '0' ? '未受理' : (handlerNames.get(String(h.k)) ?? '—'), ...pick(h) }))
    .sort((a, b) => (a.key === '0' ? 1 : b.key === '0' ? -1 : b.created - a.created || a.label.localeCompare(b.label, 'zh-CN')));
  return { by_kind, by_category, by_handler, totals: { key: 'all', label: '合计', ...pick(all) } };
}

const SUMMARY_FIGURES =
  '登记数、办结数（待评价与已完成）、按时办结数（未超任何时限且在办结截止前办结）、超时数（首次响应或办结超时）、平均首次响应时长与平均办结时长（小时）、评价数、平均满意度、满意率（4–5 星占评价数的百分比）';

const complaintcount = defineMethod('complaintcount', {
  side: 'community',
  roles: STEWARD_ROLES.reports,
  writes: false,
  summary: `投诉统计：所选日期区间内登记的投诉建议，按类型（投诉/建议/咨询）、分类、处理人分组及合计：${SUMMARY_FIGURES}；区间最长 ${MAX_DAYS} 天`,
  async handler(ctx, input) {
    return complaintCount(ctx.db, ctx.rid, input);
  },
});

const complaintcountexport = defineExport('complaintcountexport', {
  roles: STEWARD_ROLES.reports,
  summary: '导出投诉统计（与页面相同的区间；按类型、分类、处理人分组与合计）',
  filename: (input) => `投诉统计_${input.start_date}_${input.end_date}.xlsx`,
  async sheet(scope, input) {
    const r = await complaintCount(scope.db, scope.rid, input);
    const rows = [
      ...r.by_kind.map((x) => ({ ...x, group: '类型' })),
      ...r.by_category.map((x) => ({ ...x, group: '分类' })),
      ...r.by_handler.map((x) => ({ ...x, group: '处理人' })),
      { ...r.totals, group: '合计' },
    ];
    const dash = (v: string | null) => v ?? '—';
    return sheetOf<(typeof rows)[number]>(
      '投诉统计',
      [
        { header: '维度', value: (x) => x.group, width: 8 },
        { header: '名称', value: (x) => x.label, width: 14 },
        { header: '登记', value: (x) => x.created, width: 8 },
        { header: '办结', value: (x) => x.finished, width: 8 },
        { header: '按时办结', value: (x) => x.on_time, width: 10 },
        { header: '超时', value: (x) => x.overdue, width: 8 },
        { header: '平均首次响应（小时）', value: (x) => dash(x.avg_response_hours), width: 20 },
        { header: '平均办结（小时）', value: (x) => dash(x.avg_close_hours), width: 16 },
        { header: '评价数', value: (x) => x.rated, width: 8 },
        { header: '平均满意度', value: (x) => dash(x.avg_rating), width: 10 },
        { header: '满意率（%）', value: (x) => dash(x.satisfaction_rate), width: 12 },
      ],
      rows,
    );
  },
});

export const complaintCountMethods = [complaintcount, complaintcountexport];
