/**
 * Where a business category is used (docs/product.md#business-categories): each area whose rows
 * carry a category id registers the table and column once, at its module's load, and the category
 * screen counts those rows (使用数), refuses to delete a used category and moves its rows to another
 * category of the module on request (categorydel with move_to). Other areas check a chosen category
 * with `categoryOf`.
 */
import type { CategoryModule } from '@wuye/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';

export interface CategoryUse {
  module: CategoryModule;
  /** a community's table (keyed by rid) whose rows carry the category's id */
  table: string;
  column: string;
  /** what a row is called in a refusal: 通知 (该分类下还有 3 条通知) */
  label: string;
}

const uses: CategoryUse[] = [];

/** Registers a table whose rows carry a category id of the module (once per table and column). */
export function registerCategoryUse(use: CategoryUse): void {
  if (uses.some((u) => u.table === use.table && u.column === use.column)) return;
  uses.push(use);
}
/** Withdraws a registration (tests). */
export function unregisterCategoryUse(table: string, column: string): void {
  const i = uses.findIndex((u) => u.table === table && u.column === column);
  if (i >= 0) uses.splice(i, 1);
}
// the tables carrying a category today: a community activity's type
registerCategoryUse({ module: 'activity', table: 'activities', column: 'category_id', label: '活动' });

export const categoryUsesOf = (module: string): CategoryUse[] => uses.filter((u) => u.module === module);

/** The rows using the category `t` (of the list's query, aliased t), over every registered use. */
export function useCountSql(): RawBuilder<number> {
  if (uses.length === 0) return sql<number>`0`;
  const terms = uses.map(
    (u) =>
      sql`CASE WHEN t.module = ${u.module} THEN (SELECT count(*) FROM ${sql.table(u.table)} u WHERE u.rid = t.rid AND u.${sql.ref(u.column)} = t.id) ELSE 0 END`,
  );
  return sql<number>`(${sql.join(terms, sql` + `)})::int`;
}

/** The community's rows using one category, by registered use. */
export async function categoryUseCounts(
  db: Kysely<DB>,
  rid: number,
  module: string,
  id: number,
): Promise<Array<{ use: CategoryUse; n: number }>> {
  const out: Array<{ use: CategoryUse; n: number }> = [];
  for (const use of categoryUsesOf(module)) {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(use.table)}
      WHERE rid = ${rid} AND ${sql.ref(use.column)} = ${id}`.execute(db);
    const n = rows[0]?.n ?? 0;
    if (n > 0) out.push({ use, n });
  }
  return out;
}

/** Moves the community's rows of category `from` to `to` (same module); answers how many moved. */
export async function moveCategoryUses(db: Kysely<DB>, rid: number, module: string, from: number, to: number): Promise<number> {
  let moved = 0;
  for (const use of categoryUsesOf(module)) {
    const res = await sql`UPDATE ${sql.table(use.table)} SET ${sql.ref(use.column)} = ${to}
      WHERE rid = ${rid} AND ${sql.ref(use.column)} = ${from}`.execute(db);
    moved += Number(res.numAffectedRows ?? 0);
  }
  return moved;
}

/**
 * The accessor of the areas using categories: the community's enabled category of the module with
 * that id, or a refusal in the product's words (所选分类不存在 / 已停用).
 */
export async function categoryOf(
  db: Kysely<DB>,
  rid: number,
  module: CategoryModule,
  id: number,
): Promise<{ id: number; title: string; icon: string; show_owner: string }> {
  const row = await db
    .selectFrom('categories')
    .select(['id', 'title', 'icon', 'show_owner', 'status'])
    .where('rid', '=', rid)
    .where('module', '=', module)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return fail('所选分类不存在或不属于该模块');
  if (row.status !== 'Y') return fail(`分类“${row.title}”已停用，请选择其他分类`);
  return { id: Number(row.id), title: row.title, icon: row.icon, show_owner: row.show_owner };
}
