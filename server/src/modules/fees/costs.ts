/**
 * 成本登记 and 成本统计 (docs/product.md#costs; contract/src/fees/costs.ts): the cost items as a
 * two-level tree (categories and the items under them; a cost is registered on an item), the costs
 * paid (registered idempotently, voided with a reason through the cost workflow and then counted in
 * no sum), the list's sums over its filters, and the year's report by category and item × month
 * against the same months of last year, with its export.
 */
import {
  COST_CATEGORIES,
  costItem,
  costRecord,
  costVoidFlow,
  FEE_ROLES,
  fenToYuan,
  mulDivRoundHalfUp,
  toFen,
  type CostCount,
  type CostCountFigures,
  type CostCountRow,
  type CostItemOption,
  type CostRecordRow,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, notForMerchants, reply, type CommunityCtx, type MethodDef } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { registerDependents } from '../../lib/dependents.js';
import { sheetOf, type SheetColumn } from '../../lib/excel.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { onceByKey } from '../../lib/onceByKey.js';
import { defineResource, wireRows } from '../../lib/resource.js';
import { today, wireTime } from '../../lib/wire.js';
import { defineWorkflow, writeFlowLog } from '../../lib/workflow.js';

registerDependents({ cost_items: '成本项目', cost_records: '成本记录' });

type Values = Record<string, unknown>;
const num = (v: unknown) => Number(v);

// ---- cost items ---------------------------------------------------------------------------------

/** Adds the built-in categories (COST_CATEGORIES) a community lacks, by name; answers how many. */
export async function ensureCostCategories(db: Kysely<DB>, rid: number, by: number | null = null): Promise<number> {
  const added = await sql<{ id: number }>`
    INSERT INTO cost_items (rid, name, sort, created_by)
    SELECT ${rid}, c.name, c.sort, ${by}::bigint FROM unnest(${[...COST_CATEGORIES]}::text[]) WITH ORDINALITY AS c(name, sort)
    WHERE NOT EXISTS (SELECT 1 FROM cost_items x WHERE x.rid = ${rid} AND x.parent_id IS NULL AND x.name = c.name)
    RETURNING id`.execute(db);
  return added.rows.length;
}

/** The community's cost item or category `id`, or the refusal (another community's too). */
async function itemOf(ctx: CommunityCtx, id: number, what = '成本项目') {
  const row = await ctx.db
    .selectFrom('cost_items')
    .select(['id', 'parent_id', 'name', 'status'])
    .where('rid', '=', ctx.rid)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? fail(`所选${what}不存在`);
}

const countOf = async (ctx: CommunityCtx, table: 'cost_items' | 'cost_records', column: 'parent_id' | 'item_id', id: number) =>
  (
    await ctx.db
      .selectFrom(table)
      .select(sql<number>`count(*)::int`.as('n'))
      .where('rid', '=', ctx.rid)
      .where(column, '=', id)
      .executeTakeFirstOrThrow()
  ).n;

const itemMethods = defineResource(costItem, {
  table: 'cost_items',
  query: (db, rid) =>
    (db as Kysely<DB>)
      .selectFrom('cost_items as t')
      .leftJoin('cost_items as p', (j) => j.onRef('p.rid', '=', 't.rid').onRef('p.id', '=', 't.parent_id'))
      .selectAll('t')
      .select(sql<string>`coalesce(p.name, '')`.as('parent_name'))
      // an item's costs; a category's, of its items
      .select(
        sql<number>`CASE WHEN t.parent_id IS NULL
          THEN (SELECT count(*)::int FROM cost_records r JOIN cost_items i ON i.rid = r.rid AND i.id = r.item_id
                WHERE r.rid = t.rid AND i.parent_id = t.id)
          ELSE (SELECT count(*)::int FROM cost_records r WHERE r.rid = t.rid AND r.item_id = t.id) END`.as('record_count'),
      )
      .where('t.rid', '=', rid),
  order: (p) => [sql.ref(`${p}sort`)],
  row: (r) => ({ ...r, id: num(r.id), parent_id: r.parent_id === null ? null : num(r.parent_id), created_by: undefined }),
  unique: [
    {
      on: ['parent_id', 'name'],
      message: (v) => `${v.parent_id === null ? '成本分类' : '该分类下的成本项目'}「${String(v.name)}」已存在`,
    },
  ],
  values: (input, ctx, before) => ({ ...input, ...(before ? {} : { created_by: ctx.session.accountId }) }),
  async check(ctx, values, before) {
    const parent = values.parent_id as number | null;
    const self = before ? num(before.id) : 0;
    if (parent !== null) {
      if (parent === self) fail('所属分类不能是自己');
      const p = await itemOf(ctx, parent, '分类');
      if (p.parent_id !== null) fail('所属分类只能选一级成本分类，成本项目最多两级');
      if (before && (await countOf(ctx, 'cost_items', 'parent_id', self)) > 0) fail('该分类下还有成本项目，不能再归到其他分类下');
    } else if (before && before.parent_id !== null && (await countOf(ctx, 'cost_records', 'item_id', self)) > 0) {
      fail('该成本项目已有成本记录，不能改为分类');
    }
  },
  async beforeDelete(ctx, row) {
    const id = num(row.id);
    const children = await countOf(ctx, 'cost_items', 'parent_id', id);
    if (children > 0) fail(`该分类下还有 ${children} 个成本项目，请先删除项目`);
    const records = await countOf(ctx, 'cost_records', 'item_id', id);
    if (records > 0) fail(`该成本项目已有 ${records} 条成本记录，不能删除（可改为停用）`);
  },
  replace: {
    small: defineMethod('costitem_small_list', {
      side: 'community',
      roles: FEE_ROLES.costRead,
      writes: false,
      summary: '成本分类与项目下拉（树的顺序：分类在前，其项目随后；项目的 title 为「分类 / 项目」），含 parent_id、name、status',
      async handler(ctx) {
        const rows = await ctx.db
          .selectFrom('cost_items as t')
          .leftJoin('cost_items as p', (j) => j.onRef('p.rid', '=', 't.rid').onRef('p.id', '=', 't.parent_id'))
          .select(['t.id', 't.parent_id', 't.name', 't.status', 'p.name as parent_name'])
          .where('t.rid', '=', ctx.rid)
          .orderBy(sql`coalesce(p.sort, t.sort)`)
          .orderBy(sql`coalesce(t.parent_id, t.id)`)
          .orderBy(sql`t.parent_id IS NOT NULL`)
          .orderBy('t.sort')
          .orderBy('t.id')
          .execute();
        const items: CostItemOption[] = rows.map((r) => ({
          id: num(r.id),
          parent_id: r.parent_id === null ? null : num(r.parent_id),
          name: r.name,
          title: r.parent_name ? `${r.parent_name} / ${r.name}` : r.name,
          status: r.status,
        }));
        return { items };
      },
    }),
  },
  summaries: {
    list: '成本项目（两级树）：成本分类及其下的项目，名称（同级唯一）、排序、启用/停用、备注、成本记录数',
    add: '新增成本分类（不选所属分类）或分类下的成本项目',
    del: '删除成本分类或项目（分类下还有项目、项目已有成本记录时拒绝，并说明原因）',
  },
});

const costcategory_small_list = defineMethod('costcategory_small_list', {
  side: 'community',
  roles: FEE_ROLES.costRead,
  writes: false,
  summary: '成本分类下拉（一级，id、title，按排序）',
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('cost_items')
      .select(['id', 'name as title'])
      .where('rid', '=', ctx.rid)
      .where('parent_id', 'is', null)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return { items: rows.map((r) => ({ id: num(r.id), title: r.title })) };
  },
});

const costcategoryinit = defineMethod('costcategoryinit', {
  side: 'community',
  roles: FEE_ROLES.costs,
  writes: true,
  summary: `补齐默认成本分类（${COST_CATEGORIES.join('、')}；已有的同名分类不重复添加），返回新增个数`,
  async handler(ctx) {
    const added = await ensureCostCategories(ctx.db, ctx.rid, ctx.session.accountId);
    return reply({ added }, added > 0 ? `已添加 ${added} 个默认分类` : '默认分类都已存在');
  },
});

// ---- cost records -------------------------------------------------------------------------------

function recordQuery(db: Kysely<DB>, rid: number) {
  return db
    .selectFrom('cost_records as t')
    .innerJoin('cost_items as i', (j) => j.onRef('i.rid', '=', 't.rid').onRef('i.id', '=', 't.item_id'))
    .leftJoin('cost_items as c', (j) => j.onRef('c.rid', '=', 'i.rid').onRef('c.id', '=', 'i.parent_id'))
    .leftJoin('accounts as a', 'a.id', 't.created_by')
    .leftJoin('accounts as v', 'v.id', 't.voided_by')
    .selectAll('t')
    .select(['i.name as item_name', 'c.id as category_id', 'c.name as category_name'])
    .select(sql<string>`coalesce(a.name, '')`.as('creator'))
    .select(sql<string>`coalesce(v.name, '')`.as('voider'))
    .where('t.rid', '=', rid);
}

/** A cost's wire row, after the resource's defaults (times, `*_ch`). */
function toRecordRow(r: Values): CostRecordRow {
  const { created_by: _by, voided_by: _vb, voided_at, ...rest } = r;
  return {
    ...(rest as unknown as CostRecordRow),
    id: num(r.id),
    item_id: num(r.item_id),
    category_id: num(r.category_id),
    category_name: String(r.category_name ?? ''),
    void_time: voided_at instanceof Date ? wireTime(voided_at) : typeof voided_at === 'string' ? voided_at : '',
  };
}

/** The columns a cost's add or edit writes: the handler defaults to the registering account. */
function recordValues(input: Values, ctx: CommunityCtx, before?: Values): Values {
  const { idempotency_key: _key, ...values } = input;
  return {
    ...values,
    handler: String(values.handler ?? '') || (before ? String(before.handler) : ctx.session.name),
    ...(before ? {} : { created_by: ctx.session.accountId }),
  };
}

/** A cost's rules: an enabled item under a category (an unchanged one may stay), a day not to come, a voided cost unchanged. */
async function checkRecord(ctx: CommunityCtx, values: Values, before?: Values): Promise<void> {
  if (before?.status === 'X') fail('该成本记录已作废，不能修改');
  const item = await itemOf(ctx, num(values.item_id));
  if (item.parent_id === null) fail('请选择分类下的成本项目（不能直接登记在分类上）');
  if (item.status !== 'Y' && num(before?.item_id) !== num(item.id)) fail(`成本项目「${item.name}」已停用，请选择其他项目`);
  if (String(values.pay_date) > today()) fail('付款日期不能晚于今天');
}

const addCost = defineMethod('costadd', {
  side: 'community',
  roles: FEE_ROLES.costs,
  writes: true,
  summary:
    '登记一笔成本（日期、分类下启用的项目、金额 > 0、收款方、付款方式、经办人、发票号、附件图片、备注）；带 idempotency_key 时重试只登记一次',
  async handler(ctx, input) {
    return onceByKey(ctx, 'costadd', input.idempotency_key, async () => {
      const values = recordValues(input as Values, ctx);
      await checkRecord(ctx, values);
      const { id } = await ctx.db
        .insertInto('cost_records')
        .values({ ...values, rid: ctx.rid } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeFlowLog(ctx, costVoidFlow.def, num(id), {
        transition: 'create',
        from: '',
        to: 'Y',
        input: { amount: values.amount, item: (await itemOf(ctx, num(values.item_id))).name },
      });
      return reply({ id: num(id) }, '添加成功');
    });
  },
});

const recordMethods = defineResource(costRecord, {
  table: 'cost_records',
  query: (db, rid) => recordQuery(db as Kysely<DB>, rid),
  where: {
    keyword: (qb, v) => {
      const text = String(v);
      const [op, like] = [containsOperator(text), likePattern(text)];
      return qb.where((eb) =>
        eb.or([eb('t.payee', op, like), eb('t.handler', op, like), eb('t.invoice_no', op, like), eb('t.remark', op, like)]),
      );
    },
    // days of the business time zone, both included
    pay_range: (qb, v) => {
      const [from, to] = v as [string, string];
      return qb.where('t.pay_date', '>=', from).where('t.pay_date', '<=', to);
    },
    category_id: (qb, v) => qb.where('i.parent_id', '=', num(v)),
  },
  order: (p) => [sql.ref(`${p}pay_date`)],
  row: (r) => toRecordRow(r),
  values: (input, ctx, before) => recordValues(input, ctx, before),
  check: checkRecord,
  async after(ctx, id, values, before) {
    if (!before) return;
    // an edit is a step of the cost's log: what it came to after
    const item = await itemOf(ctx, num(values.item_id));
    await writeFlowLog(ctx, costVoidFlow.def, id, {
      transition: 'edit',
      from: 'Y',
      to: 'Y',
      input: { amount: values.amount, item: item.name },
    });
  },
  async beforeDelete(ctx, row) {
    if (row.status === 'X') fail('已作废的成本记录保留备查，不能删除');
    const created = row.created_at instanceof Date ? wireTime(row.created_at).slice(0, 10) : String(row.created_at).slice(0, 10);
    if (created !== today()) fail('只能删除当天登记的成本记录，之前登记的请作废');
  },
  async sums(filtered) {
    const s = (await filtered
      .clearSelect()
      .select(sql<string>`coalesce(sum(t.amount) FILTER (WHERE t.status = 'Y'), 0)::numeric(14,2)::text`.as('amount'))
      .select(sql<number>`count(*) FILTER (WHERE t.status = 'Y')::int`.as('count'))
      .select(sql<number>`count(*) FILTER (WHERE t.status = 'X')::int`.as('voided'))
      .executeTakeFirstOrThrow()) as { amount: string; count: number; voided: number };
    return { amount: s.amount, count: num(s.count), voided: num(s.voided) };
  },
  replace: { add: addCost },
  summaries: {
    list: '成本记录：付款日期、分类与项目、金额、收款方、付款方式、经办人、发票号、状态；筛选日期区间、分类、项目、付款方式、关键字、状态；sums 为筛选结果中已登记的金额与笔数（作废的不计）',
    edit: '修改成本记录（已作废的不能修改）',
    del: '删除成本记录（只能删除当天登记且未作废的；之前登记的请作废）',
    info: '成本记录详情（含附件、作废原因与作废人）',
  },
});

const wireRecord = wireRows(costRecord.def);

const voidMethods = defineWorkflow(costVoidFlow, {
  table: 'cost_records',
  // the row as the list answers it
  answer: async (ctx, id) =>
    toRecordRow(wireRecord((await recordQuery(ctx.db, ctx.rid).where('t.id', '=', id).executeTakeFirstOrThrow()) as Values)),
  transitions: {
    void: {
      set: (ctx, input) => ({ void_reason: input.reason, voided_at: sql`now()`, voided_by: ctx.session.accountId }),
      message: '已作废',
    },
  },
  logRoles: FEE_ROLES.costRead,
  summaries: {
    costvoid: '作废成本记录（填写原因；作废后保留在列表中，不计入任何合计和统计，不能恢复）',
    costlog: '成本记录的处理记录：登记、修改、作废（时间线）',
  },
});

// ---- 成本统计 -----------------------------------------------------------------------------------

const MONTHS = 12;
const zeros = () => Array.from({ length: MONTHS }, () => 0n);
/** part ÷ whole in %, two decimals ('0.00' for nothing of nothing) */
const percent = (part: bigint, whole: bigint) => (whole === 0n ? '0.00' : fenToYuan(mulDivRoundHalfUp(part, 10000n, whole)));

interface Acc {
  months: bigint[];
  counts: number[];
  last: bigint[];
}
const newAcc = (): Acc => ({ months: zeros(), counts: Array<number>(MONTHS).fill(0), last: zeros() });
const addInto = (to: Acc, from: Acc) => {
  for (let m = 0; m < MONTHS; m++) {
    to.months[m]! += from.months[m]!;
    to.counts[m]! += from.counts[m]!;
    to.last[m]! += from.last[m]!;
  }
};

/**
 * 成本统计 of `year` as of the day `asOf`: the registered costs (voided ones never) by category and
 * item × month, the year to date (this year: up to asOf's month; a past year: all of it), its share
 * of all costs, and the same months of the year before with the change. One grouped read of the two
 * years (cost_records_count) and one of the items.
 */
export async function costCount(db: Kysely<DB>, rid: number, year: number, asOf = today()): Promise<CostCount> {
  const nowYear = Number(asOf.slice(0, 4));
  const through = year < nowYear ? MONTHS : year === nowYear ? Number(asOf.slice(5, 7)) : 0;
  const [sums, items] = await Promise.all([
    sql<{ item_id: number; y: number; m: number; amount: string; n: number }>`
      SELECT item_id, extract(year FROM pay_date)::int AS y, extract(month FROM pay_date)::int AS m,
             sum(amount)::numeric(14,2)::text AS amount, count(*)::int AS n
      FROM cost_records
      WHERE rid = ${rid} AND status = 'Y' AND pay_date >= ${`${year - 1}-01-01`}::date AND pay_date < ${`${year + 1}-01-01`}::date
      GROUP BY 1, 2, 3`.execute(db),
    db
      .selectFrom('cost_items as t')
      .leftJoin('cost_items as p', (j) => j.onRef('p.rid', '=', 't.rid').onRef('p.id', '=', 't.parent_id'))
      .select(['t.id', 't.parent_id', 't.name'])
      .where('t.rid', '=', rid)
      .orderBy(sql`coalesce(p.sort, t.sort)`)
      .orderBy(sql`coalesce(t.parent_id, t.id)`)
      .orderBy(sql`t.parent_id IS NOT NULL`)
      .orderBy('t.sort')
      .orderBy('t.id')
      .execute(),
  ]);
  const byItem = new Map<number, Acc>();
  for (const s of sums.rows) {
    const acc = byItem.get(num(s.item_id)) ?? newAcc();
    byItem.set(num(s.item_id), acc);
    const m = num(s.m) - 1;
    if (num(s.y) === year) {
      acc.months[m]! += toFen(s.amount);
      acc.counts[m]! += num(s.n);
    } else acc.last[m]! += toFen(s.amount);
  }
  const ytd = (a: bigint[]) => a.slice(0, through).reduce((x, y) => x + y, 0n);
  const all = newAcc();
  for (const acc of byItem.values()) addInto(all, acc);
  const grand = ytd(all.months);
  const figures = (a: Acc): CostCountFigures => {
    const total = ytd(a.months);
    const last = ytd(a.last);
    return {
      months: a.months.map(fenToYuan),
      counts: [...a.counts],
      total: fenToYuan(total),
      count: a.counts.slice(0, through).reduce((x, y) => x + y, 0),
      share: percent(total, grand),
      last_total: fenToYuan(last),
      change: fenToYuan(total - last),
      change_rate: last === 0n ? null : percent(total - last, last),
    };
  };
  const some = (a: Acc) => a.months.some((v) => v !== 0n) || a.last.some((v) => v !== 0n);
  const rows: CostCountRow[] = [];
  for (const cat of items.filter((i) => i.parent_id === null)) {
    const children = items.filter((i) => i.parent_id !== null && num(i.parent_id) === num(cat.id) && byItem.has(num(i.id)));
    const sum = newAcc();
    for (const c of children) addInto(sum, byItem.get(num(c.id))!);
    if (!some(sum)) continue;
    rows.push({ key: `c${cat.id}`, level: 'category', id: num(cat.id), parent_id: null, name: cat.name, ...figures(sum) });
    for (const c of children) {
      const acc = byItem.get(num(c.id))!;
      if (some(acc)) rows.push({ key: `i${c.id}`, level: 'item', id: num(c.id), parent_id: num(cat.id), name: c.name, ...figures(acc) });
    }
  }
  return { year, through_month: through, rows, totals: figures(all), last_months: all.last.map(fenToYuan) };
}

const yearOf = (input: { year?: number | undefined }) => input.year ?? Number(today().slice(0, 4));

const costcount = defineMethod('costcount', {
  side: 'community',
  roles: FEE_ROLES.costRead,
  writes: false,
  summary:
    '成本统计：一年（默认本年）按成本分类和项目 × 月的金额与笔数、本年累计（至本月）、占比、上年同期与同比增减；只计已登记的成本（作废的不计）',
  handler: async (ctx, input) => costCount(ctx.db, ctx.rid, yearOf(input)),
});

type CountLine = CostCountRow | (CostCountFigures & { name: string; level: 'total' });

const costcountexport = defineExport('costcountexport', {
  roles: FEE_ROLES.costRead,
  summary: '导出成本统计（Excel）：分类与项目 × 月的金额、本年累计、笔数、占比、上年同期、同比增减',
  filename: (input) => `成本统计_${yearOf(input)}.xlsx`,
  async sheet({ db, rid }, input) {
    const report = await costCount(db, rid, yearOf(input));
    const lines: CountLine[] = [...report.rows, { ...report.totals, name: '合计', level: 'total' }];
    const columns: SheetColumn<CountLine>[] = [
      { header: '成本分类', value: (r) => (r.level === 'item' ? '' : r.name), width: 14 },
      { header: '成本项目', value: (r) => (r.level === 'item' ? r.name : ''), width: 16 },
      ...Array.from({ length: MONTHS }, (_, m): SheetColumn<CountLine> => ({ header: `${m + 1}月`, value: (r) => r.months[m] })),
      { header: '本年累计', value: (r) => r.total, width: 14 },
      { header: '笔数', value: (r) => r.count },
      { header: '占比(%)', value: (r) => r.share },
      { header: '上年同期', value: (r) => r.last_total, width: 14 },
      { header: '同比增减', value: (r) => r.change, width: 14 },
      { header: '增减率(%)', value: (r) => r.change_rate ?? '' },
    ];
    return sheetOf(`成本统计${report.year}`, columns, lines);
  },
});

/** 成本登记 and 成本统计: never a merchant account's, whatever codes it holds. */
export const costMethods: MethodDef[] = notForMerchants([
  ...itemMethods,
  costcategory_small_list,
  costcategoryinit,
  ...recordMethods,
  ...voidMethods,
  costcount,
  costcountexport,
]);
