/**
 * Roles the company defines (/team/userrole; docs/product.md#team): a title and a set of permission
 * codes of the console (app web) or of the staff app (app mobile). Built-in roles are seeded with the
 * group and cannot be deleted; the administrator's role is all of a community and is not edited.
 * A role still held is deleted only by naming the role that replaces it.
 */
import {
  ROLE_APP,
  ROLE_APPS,
  ROLE_SCOPE,
  ROLE_STATUS,
  TEAM_MANAGERS,
  unknownCodes,
  withImpliedCodes,
  type RoleApp,
  type RoleRow,
  type RoleScope,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type Ctx, type Session } from '../../http/registry.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { wireTime } from '../../lib/wire.js';
import { refuseUngrantable } from './grants.js';
import { revokeUnenterableSessions } from './scope.js';

type Caller = Ctx & { session: Session };

/** The role's row as the list shows it. */
function toRoleRow(r: {
  id: number;
  title: string;
  app: string;
  scope: string;
  remark: string;
  codes: string[];
  builtin: boolean;
  status: string;
  member_count: number | string;
  updated_at: Date;
}): RoleRow {
  const app = r.app as RoleApp;
  const status = r.status as 'Y' | 'N';
  return {
    id: r.id,
    title: r.title,
    app,
    app_ch: ROLE_APP[app].text,
    scope: r.scope as RoleScope,
    scope_ch: ROLE_SCOPE[r.scope as RoleScope].text,
    remark: r.remark,
    codes: r.codes,
    builtin: r.builtin,
    status,
    status_ch: ROLE_STATUS[status].text,
    member_count: Number(r.member_count),
    updated_at: wireTime(r.updated_at),
  };
}

/** The group's roles with the number of accounts holding each. */
export function rolesOf(db: Kysely<DB>, groupId: number) {
  return db
    .selectFrom('staff_roles as r')
    .select(['r.id', 'r.title', 'r.app', 'r.scope', 'r.remark', 'r.codes', 'r.builtin', 'r.status', 'r.updated_at'])
    .select(sql<number>`(SELECT count(DISTINCT ar.account_id) FROM account_roles ar WHERE ar.role_id = r.id)`.as('member_count'))
    .where('r.group_id', '=', groupId);
}

/** A role of the caller's group, or 角色不存在. */
export async function roleOfGroup(ctx: Caller, id: number) {
  const role = await rolesOf(ctx.db, ctx.session.groupId).where('r.id', '=', id).executeTakeFirst();
  return role ?? fail('角色不存在');
}

/** The codes a save stores: known to the app's tree, with the pages their actions sit under. */
function checkedCodes(app: RoleApp, codes: readonly string[]): string[] {
  const unknown = unknownCodes(app, codes);
  if (unknown.length) fail(`未知的权限：${unknown.slice(0, 3).join('、')}`);
  const all = withImpliedCodes(app, codes);
  if (all.length === 0) fail('请至少选择一项权限');
  return all;
}

const rolelist = defineMethod('rolelist', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: false,
  summary: '角色列表：本公司的后台与手机端角色，含权限、是否内置、持有的账号数；按端、名称、状态筛选',
  async handler(ctx, input) {
    let qb = rolesOf(ctx.db, ctx.session.groupId);
    if (input.app) qb = qb.where('r.app', '=', input.app);
    if (input.status) qb = qb.where('r.status', '=', input.status);
    if (input.keyword) qb = qb.where(sql<boolean>`r.title ${sql.raw(containsOperator(input.keyword))} ${likePattern(input.keyword)}`);
    // built-in roles first, then as made
    const page = await listPage(qb.orderBy('r.builtin', 'desc'), input, 'r.id');
    return { total: page.total, items: page.items.map(toRoleRow) };
  },
});

const roleSmallList = defineMethod('role_small_list', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: false,
  summary: '角色下拉：本公司某一端的角色（id、名称、是否内置、状态）',
  async handler(ctx, input) {
    const items = await ctx.db
      .selectFrom('staff_roles')
      .select(['id', 'title', 'builtin', 'status'])
      .where('group_id', '=', ctx.session.groupId)
      .where('app', '=', input.app)
      .orderBy('builtin', 'desc')
      .orderBy('id')
      .execute();
    return { items: items.map((r) => ({ ...r, status: r.status as 'Y' | 'N' })) };
  },
});

const roleinfo = defineMethod('roleinfo', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: false,
  summary: '角色详情：权限与持有它的账号（账号、姓名、在哪些小区持有）',
  async handler(ctx, input) {
    const role = await roleOfGroup(ctx, input.id);
    const members = await ctx.db
      .selectFrom('account_roles as ar')
      .innerJoin('accounts as a', 'a.id', 'ar.account_id')
      .innerJoin('regions as g', 'g.id', 'ar.rid')
      .select(['a.id', 'a.username', 'a.name'])
      .select(sql<string[]>`array_agg(g.title ORDER BY g.id)`.as('regions'))
      .where('ar.role_id', '=', role.id)
      // the community side sees its own community's holders
      .$if(ctx.session.side === 'community', (qb) => qb.where('ar.rid', '=', ctx.session.rid!))
      .groupBy(['a.id', 'a.username', 'a.name'])
      .orderBy('a.id')
      .execute();
    return { ...toRoleRow(role), members };
  },
});

const permissiontree = defineMethod('permissiontree', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: false,
  summary: '权限树：后台（菜单页面及其操作）或手机端的权限编码与名称，角色按它勾选',
  async handler(_ctx, input) {
    return { items: ROLE_APPS[input.app] };
  },
});

/** The accounts holding a role in any community. */
async function holdersOf(ctx: Caller, roleId: number): Promise<number[]> {
  const rows = await ctx.db.selectFrom('account_roles').select('account_id').distinct().where('role_id', '=', roleId).execute();
  return rows.map((r) => r.account_id);
}

/** A group-wide role reaches every community: only the group side (leader_admin) sets it or edits one. */
function refuseGroupScope(ctx: Caller, scope: RoleScope): void {
  if (scope === 'group' && !ctx.session.roles.includes('leader_admin')) fail('“集团全部小区”的角色只能由集团管理员设置');
}

const roleadd = defineMethod('roleadd', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: true,
  summary: '新增角色：名称（公司内同一端唯一）、端、说明、权限编码（勾选操作时自动包含其页面）、状态',
  async handler(ctx, input) {
    const codes = checkedCodes(input.app, input.codes);
    refuseUngrantable(ctx, codes);
    refuseGroupScope(ctx, input.scope);
    const row = await ctx.db
      .insertInto('staff_roles')
      .values({
        group_id: ctx.session.groupId,
        app: input.app,
        scope: input.scope,
        title: input.title,
        remark: input.remark,
        codes,
        status: input.status,
        created_by: ctx.session.accountId,
      })
      .onConflict((oc) => oc.columns(['group_id', 'app', 'title']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return fail('角色名称已存在');
    return reply({ id: row.id }, '添加成功');
  },
});

const roleedit = defineMethod('roleedit', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: true,
  summary: '修改角色：名称、说明、权限、状态；立即作用于持有它的账号（下一次调用起），返回受影响的账号数；管理员角色不可改',
  async handler(ctx, input) {
    const role = await roleOfGroup(ctx, input.id);
    if (role.codes.includes('admin')) return fail('管理员角色拥有全部权限，不能修改');
    if (role.app !== input.app) return fail('角色的端不能修改');
    const codes = checkedCodes(input.app, input.codes);
    refuseUngrantable(ctx, [...codes, ...role.codes]);
    if (role.scope !== input.scope || role.scope === 'group') refuseGroupScope(ctx, 'group');
    const clash = await ctx.db
      .selectFrom('staff_roles')
      .select('id')
      .where('group_id', '=', ctx.session.groupId)
      .where('app', '=', input.app)
      .where('title', '=', input.title)
      .where('id', '!=', role.id)
      .executeTakeFirst();
    if (clash) return fail('角色名称已存在');
    await ctx.db
      .updateTable('staff_roles')
      .set({ title: input.title, remark: input.remark, scope: input.scope, codes, status: input.status, updated_at: sql`now()` })
      .where('id', '=', role.id)
      .execute();
    if (role.scope === 'group') await revokeUnenterableSessions(ctx.db, await holdersOf(ctx, role.id));
    ctx.services.sessions.clear();
    const affected = Number(role.member_count);
    return reply({ affected }, affected ? `修改成功，已作用于 ${affected} 个账号` : '修改成功');
  },
});

const roledel = defineMethod('roledel', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: true,
  summary: '删除角色：内置角色不可删；仍有账号持有时须指定替代角色，这些账号改为持有替代角色',
  async handler(ctx, input) {
    const role = await roleOfGroup(ctx, input.id);
    if (role.builtin) return fail('内置角色不能删除，可以停用');
    refuseGroupScope(ctx, role.scope);
    const holders = await holdersOf(ctx, role.id);
    const held = Number(role.member_count);
    if (held > 0) {
      if (!input.replacement_id) return fail(`该角色仍有 ${held} 个账号持有，请选择替代角色`);
      const replacement = await roleOfGroup(ctx, input.replacement_id);
      if (replacement.id === role.id) return fail('替代角色不能是要删除的角色');
      if (replacement.app !== role.app) return fail('替代角色须为同一端的角色');
      refuseGroupScope(ctx, replacement.scope);
      await sql`INSERT INTO account_roles (account_id, rid, role_id, created_by)
        SELECT account_id, rid, ${replacement.id}, ${ctx.session.accountId} FROM account_roles WHERE role_id = ${role.id}
        ON CONFLICT DO NOTHING`.execute(ctx.db);
    }
    await ctx.db.deleteFrom('account_roles').where('role_id', '=', role.id).execute();
    await ctx.db.deleteFrom('staff_roles').where('id', '=', role.id).execute();
    if (role.scope === 'group') await revokeUnenterableSessions(ctx.db, holders);
    ctx.services.sessions.clear();
    return reply(null, '删除成功');
  },
});

export const roleMethods = [rolelist, roleSmallList, roleinfo, permissiontree, roleadd, roleedit, roledel];
