import { department, position } from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod } from '../../http/registry.js';
import { defineResource, type GroupCtx } from '../../lib/resource.js';

/** Department writes of one group take turns, so two moves at once cannot close a loop (A under B, B under A). */
const DEPT_LOCK = 724_335;

/** Staff in a department or position: the accounts pointing at it. */
const staffCount = (column: 'dept_id' | 'position_id') =>
  sql<number>`(SELECT count(*)::int FROM accounts a WHERE a.${sql.ref(column)} = t.id)`.as('staff_count');

/** The department and its ancestors, from `id` up, within the group (empty: not the group's). */
async function ancestry(db: Kysely<DB>, groupId: number, id: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    WITH RECURSIVE up AS (
      SELECT id, parent_id, 1 AS depth FROM departments WHERE id = ${id} AND group_id = ${groupId}
      UNION ALL
      SELECT d.id, d.parent_id, up.depth + 1 FROM departments d JOIN up ON d.id = up.parent_id
      WHERE d.group_id = ${groupId} AND up.depth < 64
    )
    SELECT id FROM up`.execute(db);
  return rows.map((r) => r.id);
}

const withCreator = (input: Record<string, unknown>, ctx: GroupCtx, before?: Record<string, unknown>) =>
  before ? input : { ...input, created_by: ctx.session.accountId };

/**
 * 部门: a tree of the property company's departments. A parent must be the group's, and an edit
 * cannot put a department under itself or one of its own sub-departments; a department with
 * sub-departments or staff is not deleted.
 */
export const deptMethods = defineResource(department, {
  table: 'departments',
  query: (db, groupId) =>
    db
      .selectFrom('departments as t')
      .leftJoin('departments as p', 'p.id', 't.parent_id')
      .select(['t.id', 't.parent_id', sql<string>`coalesce(p.title, '')`.as('parent_title'), 't.title', 't.leader_name', 't.phone'])
      .select([staffCount('dept_id'), 't.sort', 't.status', 't.remark', 't.created_at'])
      .where('t.group_id', '=', groupId),
  order: (prefix) => [sql.ref(`${prefix}sort`)],
  values: withCreator,
  async check(ctx, values, before) {
    const groupId = ctx.session.groupId;
    await sql`SELECT pg_advisory_xact_lock(${DEPT_LOCK}, ${groupId})`.execute(ctx.db);
    const parent = values.parent_id as number | null;
    if (parent === null) return;
    const chain = await ancestry(ctx.db, groupId, parent);
    if (chain.length === 0) fail('上级部门不存在');
    if (before && chain.includes(before.id as number)) fail('不能把部门移到它自己或它的下级部门之下');
  },
  unique: [
    {
      on: ['parent_id', 'title'],
      message: (v) => (v.parent_id === null ? `顶级部门中已有“${String(v.title)}”` : `该上级部门下已有“${String(v.title)}”`),
    },
  ],
  dependents: {
    departments: '该部门下还有下级部门，请先删除或移走下级部门',
    accounts: '该部门下还有员工，请先调整员工所属部门',
  },
  replace: {
    small: defineMethod('dept_small_list', {
      side: 'both',
      roles: 'staff',
      writes: false,
      summary: '部门下拉（id、title、parent_id，按排序；前端据 parent_id 组成树）',
      async handler(ctx) {
        const items = await ctx.db
          .selectFrom('departments')
          .select(['id', 'title', 'parent_id'])
          .where('group_id', '=', ctx.session.groupId)
          .orderBy('sort')
          .orderBy('id')
          .execute();
        return { items };
      },
    }),
  },
  summaries: {
    list: '部门列表（集团的组织架构，按排序；含上级部门名称与人数）',
    add: '新增部门（同一上级下名称唯一；上级须为本集团的部门）',
    edit: '修改部门（不能移到它自己或它的下级部门之下）',
    del: '删除部门（还有下级部门或员工时拒绝）',
  },
});

/** 岗位: the property company's positions; code and title unique in the group, kept while staff hold one. */
export const positionMethods = defineResource(position, {
  table: 'positions',
  query: (db, groupId) =>
    db
      .selectFrom('positions as t')
      .select(['t.id', 't.code', 't.title', staffCount('position_id'), 't.sort', 't.status', 't.remark', 't.created_at'])
      .where('t.group_id', '=', groupId),
  order: (prefix) => [sql.ref(`${prefix}sort`)],
  values: withCreator,
  unique: [
    { on: ['code'], message: (v) => `岗位编码“${String(v.code)}”已存在` },
    { on: ['title'], message: (v) => `岗位“${String(v.title)}”已存在` },
  ],
  dependents: { accounts: '该岗位下还有员工，请先调整员工岗位' },
  summaries: {
    list: '岗位列表（集团的岗位，按排序；含人数）',
    add: '新增岗位（编码、名称在集团内唯一）',
    del: '删除岗位（还有员工担任时拒绝）',
  },
});
