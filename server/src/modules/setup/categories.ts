import { category, enumText, CATEGORY_MODULE, type CategoryModule } from '@wuye/contract';
import { sql } from 'kysely';
import { fail } from '../../http/errors.js';
import { defineMethod, reply } from '../../http/registry.js';
import { defineResource } from '../../lib/resource.js';
import { categoryUseCounts, moveCategoryUses, useCountSql } from './categoryUses.js';

/**
 * 业务分类 (/setup/category): a community's categories by module; a name once in its module. A
 * used category (registered uses, categoryUses.ts) is deleted only by moving its rows to another
 * category of the module.
 */
const categorydel = defineMethod('categorydel', {
  side: 'community',
  roles: category.def.roles.write,
  writes: true,
  summary: '删除分类：仍被使用时须指定同一模块的另一分类（move_to），使用它的记录移到该分类后再删除',
  async handler(ctx, input) {
    // a refusal takes no lock: the row lock waits on every open write of a row referring to the
    // category (an activity saved meanwhile), and the answer would wait with it
    const locked = input.move_to !== undefined;
    const row = await ctx.db
      .selectFrom('categories')
      .select(['id', 'module', 'title'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.id)
      .$if(locked, (q) => q.forUpdate())
      .executeTakeFirst();
    if (!row) return fail('分类不存在');
    const id = Number(row.id);
    const used = await categoryUseCounts(ctx.db, ctx.rid, row.module, id);
    let moved = 0;
    if (used.length > 0) {
      const words = used.map((u) => `${u.n} 条${u.use.label}`).join('、');
      if (input.move_to === undefined) return fail(`该分类下还有 ${words}，请选择要移到的分类后再删除`);
      if (input.move_to === id) return fail('不能移到要删除的分类本身');
      const target = await ctx.db
        .selectFrom('categories')
        .select(['id', 'module', 'title'])
        .where('rid', '=', ctx.rid)
        .where('id', '=', input.move_to)
        .forUpdate()
        .executeTakeFirst();
      if (!target) return fail('要移到的分类不存在');
      if (target.module !== row.module) return fail(`要移到的分类须同属“${enumText(CATEGORY_MODULE, row.module)}”`);
      moved = await moveCategoryUses(ctx.db, ctx.rid, row.module, id, Number(target.id));
      await ctx.db.deleteFrom('categories').where('rid', '=', ctx.rid).where('id', '=', id).execute();
      return reply({ moved }, `已将 ${moved} 条记录移到“${target.title}”，分类已删除`);
    }
    await ctx.db.deleteFrom('categories').where('rid', '=', ctx.rid).where('id', '=', id).execute();
    return reply({ moved }, '删除成功');
  },
});

export const categorySmall = defineMethod('category_small_list', {
  side: 'community',
  roles: 'staff',
  writes: false,
  summary: '某模块启用中的分类（id、title、icon，按排序）：各模块选择分类用',
  async handler(ctx, input) {
    const rows = await ctx.db
      .selectFrom('categories')
      .select(['id', 'title', 'icon'])
      .where('rid', '=', ctx.rid)
      .where('module', '=', input.module)
      .where('status', '=', 'Y')
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return { items: rows.map((r) => ({ id: Number(r.id), title: r.title, icon: r.icon })) };
  },
});

export const categoryMethods = defineResource(category, {
  table: 'categories',
  query: (db, rid) =>
    db
      .selectFrom('categories as t')
      .select(['t.id', 't.module', 't.title', 't.icon', 't.sort', 't.show_owner', 't.status', 't.remark', 't.created_at'])
      .select(useCountSql().as('use_count'))
      .where('t.rid', '=', rid),
  order: (prefix) => [sql.ref(`${prefix}module`), sql.ref(`${prefix}sort`)],
  values: (input, ctx, before) => (before ? input : { ...input, created_by: ctx.session.accountId }),
  // a name once in its module (the module is kept on edit, so the check reads it from the row)
  async check(ctx, values, before) {
    const module = (before?.module ?? values.module) as CategoryModule;
    let qb = ctx.db
      .selectFrom('categories')
      .select('id')
      .where('rid', '=', ctx.rid)
      .where('module', '=', module)
      .where('title', '=', String(values.title));
    if (before) qb = qb.where('id', '<>', before.id as number);
    if (await qb.executeTakeFirst()) fail(`“${enumText(CATEGORY_MODULE, module)}”中已有分类“${String(values.title)}”`);
  },
  replace: { del: categorydel },
  summaries: {
    list: '业务分类列表（按模块、排序；含使用数）；按模块、名称、业主端显示、状态筛选',
    add: '新增分类（同一模块内名称唯一）',
    edit: '修改分类（模块不可改）',
    export: '导出业务分类',
  },
});
