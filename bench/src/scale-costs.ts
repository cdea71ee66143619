/**
 * Costs (成本登记, docs/product.md#costs) of the scale data (bench/README.md#scale-data): per
 * community the seven built-in categories with three items each, and COSTS_PER_COMMUNITY costs
 * spread over the last two years (every 50th voided), so 成本统计 groups two full years and the
 * cost list pages and sums tens of thousands of rows.
 */
import { COST_CATEGORIES } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

type Step = <T>(label: string, run: () => Promise<T>) => Promise<T>;

export const COST_STEPS = 1;
export const ITEMS_PER_CATEGORY = 3;
export const COSTS_PER_COMMUNITY = 20_000;
/** the days back the costs are spread over */
const DAYS = 730;

export async function fillCosts(c: Kysely<DB>, rids: number[], step: Step): Promise<void> {
  await step(
    `costs: ${COST_CATEGORIES.length} categories of ${ITEMS_PER_CATEGORY} items, ${COSTS_PER_COMMUNITY} costs over two years a community`,
    async () => {
      await sql`
        INSERT INTO cost_items (rid, name, sort)
        SELECT r.rid, c.name, c.sort FROM unnest(${rids}::int[]) AS r(rid)
        CROSS JOIN unnest(${[...COST_CATEGORIES]}::text[]) WITH ORDINALITY AS c(name, sort)`.execute(c);
      await sql`
        INSERT INTO cost_items (rid, parent_id, name, sort)
        SELECT p.rid, p.id, p.name || '项目' || k, k FROM cost_items p CROSS JOIN generate_series(1, ${ITEMS_PER_CATEGORY}) k
        WHERE p.rid = ANY(${rids}::int[]) AND p.parent_id IS NULL`.execute(c);
      await sql`
        WITH items AS (
          SELECT rid, id, row_number() OVER (PARTITION BY rid ORDER BY id) - 1 AS k, count(*) OVER (PARTITION BY rid) AS cnt
          FROM cost_items WHERE rid = ANY(${rids}::int[]) AND parent_id IS NOT NULL
        )
        INSERT INTO cost_records (rid, pay_date, item_id, amount, payee, pay_method, handler, invoice_no, status, void_reason,
          voided_at, created_at)
        SELECT r.rid, current_date - (n % ${DAYS}), i.id, (50 + (n * 7919) % 20000) + (n % 100) / 100.0, '供应商' || (n % 40),
               (ARRAY['transfer', 'cash', 'check', 'other'])[1 + n % 4], '经办人' || (n % 5),
               CASE WHEN n % 4 = 1 THEN '' ELSE 'FP' || lpad(n::text, 8, '0') END,
               CASE WHEN n % 50 = 0 THEN 'X' ELSE 'Y' END, CASE WHEN n % 50 = 0 THEN '录入错误' ELSE '' END,
               CASE WHEN n % 50 = 0 THEN now() END, now() - (n % ${DAYS}) * interval '1 day'
        FROM unnest(${rids}::int[]) AS r(rid) CROSS JOIN generate_series(1, ${COSTS_PER_COMMUNITY}) n
        JOIN items i ON i.rid = r.rid AND i.k = n % i.cnt`.execute(c);
    },
  );
}
