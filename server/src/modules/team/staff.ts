/**
 * Staff accounts (/team/user; docs/product.md#team): who works in which communities with which roles.
 * On the community side the list is the community's staff and a manager assigns the communities
 * they work in themselves; on the group side leader_admin sees and assigns the whole group.
 * Disabling ends the account's sessions at once; no community is left without an enabled admin.
 */
import {
  passwordProblem,
  permissionCodes,
  permissionTitle,
  STAFF_STATUS,
  STAFF_TYPE,
  TEAM_MANAGERS,
  type StaffAccess,
  type StaffRow,
  type staffSchemas,
} from '@wuye/contract';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { fail } from '../../http/errors.js';
import { defineMethod, reply, type Ctx, type Session } from '../../http/registry.js';
import { defineExport } from '../../jobs/exports.js';
import { EXPORT_MAX, refuseOversizedExport, sheetOf } from '../../lib/excel.js';
import { containsOperator, likePattern } from '../../lib/like.js';
import { listPage } from '../../lib/paging.js';
import { today, wireTime } from '../../lib/wire.js';
import { hashPassword } from '../auth/password.js';
import { sessionPolicy } from '../setup/security.js';
import { temporaryPassword } from '../auth/reset.js';
import { codesByRegion, refuseHigherAccount, refuseNoAdminLeft, refuseUngrantable } from './grants.js';
import { accountRegionIds, revokeUnenterableSessions } from './scope.js';

type Caller = Ctx & { session: Session };
type Filters = Partial<Omit<z.output<(typeof staffSchemas)['stafflist']>, 'page' | 'limit' | 'sort'>>;
type Assignment = z.output<(typeof staffSchemas)['staffadd']>['assignments'][number];

/** The community the list is seen from: the session's on the community side, none (the group) on the group side. */
const sideRid = (ctx: Caller): number | null => (ctx.session.side === 'community' ? ctx.session.rid : null);

/** The group's staff (not the group's own leader accounts) that the caller's side sees, filtered. */
function filteredStaff(db: Kysely<DB>, groupId: number, rid: number | null, f: Filters) {
  let qb = db.selectFrom('accounts as a').where('a.group_id', '=', groupId).where('a.sys_type', '!=', 'leader');
  if (rid !== null) qb = qb.where(sql<boolean>`EXISTS (SELECT 1 FROM account_regions x WHERE x.account_id = a.id AND x.rid = ${rid})`);
  if (f.keyword) {
    const op = sql.raw(containsOperator(f.keyword));
    const p = likePattern(f.keyword);
    qb = qb.where(sql<boolean>`(a.name ${op} ${p} OR a.username ${op} ${p} OR a.mobile ${op} ${p})`);
  }
  if (f.status) qb = qb.where('a.status', '=', f.status);
  if (f.dept_id)
    qb = qb.where(sql<boolean>`a.dept_id IN (WITH RECURSIVE d AS (
      SELECT id FROM departments WHERE id = ${f.dept_id} AND group_id = ${groupId}
      UNION ALL SELECT c.id FROM departments c JOIN d ON c.parent_id = d.id) SELECT id FROM d)`);
  if (f.rid) qb = qb.where(sql<boolean>`EXISTS (SELECT 1 FROM account_regions x WHERE x.account_id = a.id AND x.rid = ${f.rid})`);
  if (f.role_id) qb = qb.where(sql<boolean>`EXISTS (SELECT 1 FROM account_roles x WHERE x.account_id = a.id AND x.role_id = ${f.role_id})`);
  return qb;
}

/** The rows' columns: the account, its communities with their roles, its last sign-in. */
function staffColumns<Q extends ReturnType<typeof filteredStaff>>(qb: Q, rid: number | null) {
  return qb
    .select(['a.id', 'a.username', 'a.name', 'a.mobile', 'a.sys_type', 'a.status', 'a.password_status', 'a.roles', 'a.created_at'])
    .select(['a.dept_id', 'a.position_id'])
    .select(sql<string>`coalesce((SELECT d.title FROM departments d WHERE d.id = a.dept_id), '')`.as('dept_title'))
    .select(sql<string>`coalesce((SELECT p.title FROM positions p WHERE p.id = a.position_id), '')`.as('position_title'))
    .select(
      sql<Array<{ rid: number; title: string; roles: Array<{ id: number; title: string }> }>>`(
        SELECT coalesce(json_agg(json_build_object('rid', g.id, 'title', g.title, 'roles', (
          SELECT coalesce(json_agg(json_build_object('id', sr.id, 'title', sr.title) ORDER BY sr.id), '[]')
          FROM account_roles x JOIN staff_roles sr ON sr.id = x.role_id WHERE x.account_id = a.id AND x.rid = g.id))
          ORDER BY ar.sort, g.id), '[]')
        FROM account_regions ar JOIN regions g ON g.id = ar.rid
        WHERE ar.account_id = a.id AND (${rid}::int IS NULL OR ar.rid = ${rid}))`.as('regions'),
    )
    .select(sql<Date | null>`(SELECT max(s.created_at) FROM sessions s WHERE s.account_id = a.id)`.as('last_login_at'));
}

type StaffDbRow = Awaited<ReturnType<ReturnType<typeof staffColumns>['executeTakeFirstOrThrow']>>;

/** Every community an account works in (not only those the caller's side shows). */
async function regionsOf(db: Kysely<DB>, accountId: number): Promise<number[]> {
  return (await db.selectFrom('account_regions').select('rid').where('account_id', '=', accountId).execute()).map((r) => r.rid);
}

function toStaffRow(r: StaffDbRow): StaffRow {
  const status = r.status as 'Y' | 'N';
  const sysType = r.sys_type === 'merchant' ? 'merchant' : 'property';
  return {
    id: r.id,
    username: r.username,
    name: r.name,
    mobile: r.mobile,
    dept_id: r.dept_id,
    dept_title: r.dept_title,
    position_id: r.position_id,
    position_title: r.position_title,
    sys_type: sysType,
    sys_type_ch: STAFF_TYPE[sysType].text,
    status,
    status_ch: STAFF_STATUS[status].text,
    password_status: r.password_status as 'Y' | 'N',
    regions: r.regions,
    direct_codes: r.roles.map((code) => ({ code, title: permissionTitle(code) })),
    last_login_at: wireTime(r.last_login_at),
    created_at: wireTime(r.created_at),
  };
}

/** A staff account the caller's side sees, or 员工账号不存在. */
async function staffOf(ctx: Caller, id: number): Promise<StaffRow> {
  const row = await staffColumns(filteredStaff(ctx.db, ctx.session.groupId, sideRid(ctx), {}), sideRid(ctx))
    .where('a.id', '=', id)
    .executeTakeFirst();
  return row ? toStaffRow(row) : fail('员工账号不存在');
}

/**
 * The communities the caller assigns: on the community side the session's own (the team page works
 * inside the current community), on the group side every community of the group.
 */
async function assignableRids(ctx: Caller): Promise<Set<number>> {
  if (ctx.session.side === 'community') return new Set([ctx.session.rid!]);
  const rows = await ctx.db.selectFrom('regions').select('id').where('group_id', '=', ctx.session.groupId).execute();
  return new Set(rows.map((r) => r.id));
}

/** Checks the communities and roles asked for; answers the codes they grant. */
async function checkAssignments(
  ctx: Caller,
  assignments: readonly Assignment[],
  allowed: Set<number>,
  /** the account edited (none for a new one): a group-wide role it already holds in a community may stay there */
  accountId?: number,
): Promise<void> {
  const rids = assignments.map((a) => a.rid);
  if (new Set(rids).size !== rids.length) fail('小区重复，请合并为一行');
  if (rids.some((r) => !allowed.has(r))) fail(ctx.session.side === 'community' ? '只能分配当前小区，其他小区请切换后分配' : '小区不存在');
  const roleIds = [...new Set(assignments.flatMap((a) => a.role_ids))];
  const roles = await ctx.db
    .selectFrom('staff_roles')
    .select(['id', 'codes', 'scope'])
    .where('group_id', '=', ctx.session.groupId)
    .where('id', 'in', roleIds)
    .execute();
  if (roles.length !== roleIds.length) fail('角色不存在');
  await refuseGroupWideGrant(ctx, assignments, new Set(roles.filter((r) => r.scope === 'group').map((r) => r.id)), accountId);
  refuseUngrantable(
    ctx,
    roles.flatMap((r) => r.codes),
  );
}

/** A group-wide role reaches every community: only the group side hands one out (a community keeps what the account holds). */
async function refuseGroupWideGrant(ctx: Caller, assignments: readonly Assignment[], wide: Set<number>, accountId?: number): Promise<void> {
  if (wide.size === 0 || ctx.session.roles.includes('leader_admin')) return;
  const held =
    accountId === undefined
      ? []
      : await ctx.db
          .selectFrom('account_roles')
          .select(['rid', 'role_id'])
          .where('account_id', '=', accountId)
          .where('role_id', 'in', [...wide])
          .execute();
  const kept = new Set(held.map((h) => `${h.rid}:${h.role_id}`));
  const added = assignments.some((a) => a.role_ids.some((id) => wide.has(id) && !kept.has(`${a.rid}:${id}`)));
  if (added) fail('“集团全部小区”的角色只能由集团管理员分配');
}

/** Refuses a department or position that is not the caller's group's. */
async function checkPlacement(ctx: Caller, input: { dept_id?: number; position_id?: number }): Promise<void> {
  const ofGroup = async (table: 'departments' | 'positions', id: number | undefined, missing: string) => {
    if (!id) return;
    const row = await ctx.db
      .selectFrom(table)
      .select('id')
      .where('id', '=', id)
      .where('group_id', '=', ctx.session.groupId)
      .executeTakeFirst();
    if (!row) fail(missing);
  };
  await ofGroup('departments', input.dept_id, '部门不存在');
  await ofGroup('positions', input.position_id, '岗位不存在');
}

/** Writes the account's communities and roles among `within`, leaving its others as they are. */
async function writeAssignments(
  ctx: Caller,
  accountId: number,
  assignments: readonly Assignment[],
  within: Set<number>,
): Promise<number[]> {
  const before = await ctx.db.selectFrom('account_regions').select('rid').where('account_id', '=', accountId).execute();
  const touched = [...new Set([...before.map((r) => r.rid).filter((r) => within.has(r)), ...assignments.map((a) => a.rid)])];
  if (touched.length) {
    await ctx.db.deleteFrom('account_roles').where('account_id', '=', accountId).where('rid', 'in', touched).execute();
    const kept = assignments.map((a) => a.rid);
    const dropped = touched.filter((r) => !kept.includes(r));
    if (dropped.length) {
      await ctx.db.deleteFrom('account_regions').where('account_id', '=', accountId).where('rid', 'in', dropped).execute();
      // a session in a community the account no longer works in ends now
      await ctx.db
        .updateTable('sessions')
        .set({ ended_at: sql`now()`, end_reason: 'revoked' })
        .where('account_id', '=', accountId)
        .where('rid', 'in', dropped)
        .where('ended_at', 'is', null)
        .execute();
    }
  }
  for (const [sort, a] of assignments.entries()) {
    await ctx.db
      .insertInto('account_regions')
      .values({ account_id: accountId, rid: a.rid, sort })
      .onConflict((oc) => oc.columns(['account_id', 'rid']).doUpdateSet({ sort }))
      .execute();
  }
  const roleRows = assignments.flatMap((a) =>
    a.role_ids.map((role_id) => ({ account_id: accountId, rid: a.rid, role_id, created_by: ctx.session.accountId })),
  );
  if (roleRows.length)
    await ctx.db
      .insertInto('account_roles')
      .values(roleRows)
      .onConflict((oc) => oc.doNothing())
      .execute();
  const left = await ctx.db.selectFrom('account_regions').select('rid').where('account_id', '=', accountId).executeTakeFirst();
  if (!left) fail('请至少分配一个小区及其角色');
  await revokeUnenterableSessions(ctx.db, [accountId]);
  ctx.services.sessions.clear();
  return touched;
}

export interface NewAccount {
  username: string;
  /** none: a temporary password is made */
  password?: string;
  name: string;
  mobile?: string;
  sys_type: 'property' | 'merchant';
  /** the account's own codes (a merchant's `card`); a staff member's come from the roles assigned */
  roles: string[];
  dept_id?: number | null;
  position_id?: number | null;
}

/**
 * Creates an account of the caller's group (staffadd; a merchant's login account,
 * modules/cards/merchants.ts): the username free in the whole system, the password within the
 * security policy of the session's community (or the group's), or a temporary one when none is
 * given. The account changes the password it was given before anything else (http/dispatcher.ts).
 * Answers its id and that password. Its communities are the caller's to write.
 */
export async function createAccount(ctx: Caller, a: NewAccount): Promise<{ id: number; password: string }> {
  const taken = await ctx.db.selectFrom('accounts').select('id').where('username', '=', a.username).executeTakeFirst();
  if (taken) return fail('账号已存在');
  const policy = await sessionPolicy(ctx.db, ctx.session);
  if (a.password) {
    const problem = passwordProblem(policy, a.password);
    if (problem) return fail(problem);
  }
  const password = a.password || temporaryPassword(policy.min_length);
  const row = await ctx.db
    .insertInto('accounts')
    .values({
      username: a.username,
      password_hash: await hashPassword(password),
      name: a.name,
      mobile: a.mobile ?? '',
      dept_id: a.dept_id ?? null,
      position_id: a.position_id ?? null,
      sys_type: a.sys_type,
      group_id: ctx.session.groupId,
      roles: a.roles,
      password_status: 'N',
      password_reset_at: sql`now()`,
    })
    .onConflict((oc) => oc.column('username').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return fail('账号已存在');
  return { id: row.id, password };
}

const stafflist = defineMethod('stafflist', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: false,
  contact: 'staff',
  summary: '员工账号列表：本小区（集团端为全集团）的员工，含所在小区及各小区的角色、状态、最近登录；按姓名/手机/账号、角色、小区、状态筛选',
  async handler(ctx, input) {
    const qb = staffColumns(filteredStaff(ctx.db, ctx.session.groupId, sideRid(ctx), input), sideRid(ctx));
    const page = await listPage(qb, input, 'a.id');
    return { total: page.total, items: page.items.map(toStaffRow) };
  },
});

const staffinfo = defineMethod('staffinfo', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: false,
  contact: 'staff',
  summary: '员工账号详情（编辑表单用）：账号、姓名、手机、类型、所在小区及各小区的角色',
  async handler(ctx, input) {
    return staffOf(ctx, input.id);
  },
});

const staffadd = defineMethod('staffadd', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: true,
  summary:
    '新增员工账号：账号（4到30位，全局唯一）、姓名、手机、类型、所在小区及各小区的角色；密码不填则生成临时密码并只显示一次；首次登录须修改密码',
  async handler(ctx, input) {
    const allowed = await assignableRids(ctx);
    await checkAssignments(ctx, input.assignments, allowed);
    await checkPlacement(ctx, input);
    const row = await createAccount(ctx, { ...input, roles: [] });
    await writeAssignments(ctx, row.id, input.assignments, allowed);
    return reply(
      { id: row.id, username: input.username, password: input.password ? '' : row.password },
      input.password ? '添加成功，首次登录须修改密码' : `添加成功，临时密码 ${row.password} 只显示这一次，请告知本人登录后立即修改`,
    );
  },
});

const staffedit = defineMethod('staffedit', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: true,
  summary: '修改员工账号：姓名、手机、类型、所在小区及各小区的角色（只改本人能分配的小区，其余小区不变）；立即作用于其已登录的会话',
  async handler(ctx, input) {
    const staff = await staffOf(ctx, input.id);
    const allowed = await assignableRids(ctx);
    await refuseHigherAccount(
      ctx,
      staff.id,
      staff.regions.map((r) => r.rid).filter((r) => allowed.has(r)),
    );
    await checkAssignments(ctx, input.assignments, allowed, staff.id);
    await checkPlacement(ctx, input);
    await ctx.db
      .updateTable('accounts')
      .set({
        name: input.name,
        mobile: input.mobile,
        dept_id: input.dept_id ?? null,
        position_id: input.position_id ?? null,
        sys_type: input.sys_type,
      })
      .where('id', '=', staff.id)
      .execute();
    const touched = await writeAssignments(ctx, staff.id, input.assignments, allowed);
    await refuseNoAdminLeft(ctx.db, touched);
    return reply(null, '修改成功');
  },
});

/** Enables or disables an account; disabling ends its sessions at once. */
function statusMethod(name: 'staffdisable' | 'staffenable', status: 'Y' | 'N') {
  return defineMethod(name, {
    side: 'both',
    roles: TEAM_MANAGERS,
    writes: true,
    summary:
      status === 'N'
        ? '停用员工账号：立即结束其所有会话，停用后不能登录；不能停用本人，不能停用小区最后一个启用的管理员'
        : '启用员工账号：恢复登录',
    async handler(ctx, input) {
      const staff = await staffOf(ctx, input.id);
      if (staff.id === ctx.session.accountId) return fail(status === 'N' ? '不能停用本人的账号' : '不能启用本人的账号');
      const rids = await regionsOf(ctx.db, staff.id);
      const allowed = await assignableRids(ctx);
      // an account is one for all its communities: a community's manager acts on it only when it works nowhere else
      if (rids.some((r) => !allowed.has(r))) return fail('该账号还在其他小区任职，请由集团统一停用或启用');
      await refuseHigherAccount(ctx, staff.id, rids);
      if (staff.status === status) return fail(status === 'N' ? '该账号已停用' : '该账号已启用');
      await ctx.db.updateTable('accounts').set({ status }).where('id', '=', staff.id).execute();
      if (status === 'N') {
        await ctx.db
          .updateTable('sessions')
          .set({ ended_at: sql`now()`, end_reason: 'revoked' })
          .where('account_id', '=', staff.id)
          .where('ended_at', 'is', null)
          .execute();
        await refuseNoAdminLeft(ctx.db, rids);
      }
      ctx.services.sessions.clear();
      return reply(null, status === 'N' ? `已停用 ${staff.name}，其登录已结束` : `已启用 ${staff.name}`);
    },
  });
}

const staffaccess = defineMethod('staffaccess', {
  side: 'both',
  roles: TEAM_MANAGERS,
  writes: false,
  summary: '账号的实际权限：在每个所在小区能打开的页面和操作，以及来自哪个角色（或直接授予）',
  async handler(ctx, input): Promise<StaffAccess> {
    const staff = await staffOf(ctx, input.id);
    // a group-wide role opens every community: the group side lists them all, a community its own
    const entered = sideRid(ctx) === null ? await accountRegionIds(ctx.db, staff.id) : staff.regions.map((r) => r.rid);
    const rids = [...new Set([...staff.regions.map((r) => r.rid), ...entered])];
    const titles = new Map(staff.regions.map((r) => [r.rid, r.title]));
    const missing = rids.filter((r) => !titles.has(r));
    if (missing.length)
      for (const g of await ctx.db.selectFrom('regions').select(['id', 'title']).where('id', 'in', missing).execute())
        titles.set(g.id, g.title);
    const grants = rids.length
      ? await sql<{ rid: number | null; title: string; codes: string[] }>`
          SELECT CASE WHEN sr.scope = 'group' THEN NULL ELSE x.rid END AS rid, sr.title, sr.codes
          FROM account_roles x JOIN staff_roles sr ON sr.id = x.role_id AND sr.status = 'Y'
          WHERE x.account_id = ${staff.id} AND (x.rid IN (${sql.join(rids)}) OR sr.scope = 'group') ORDER BY sr.id`.execute(ctx.db)
      : { rows: [] };
    const own = await ctx.db.selectFrom('accounts').select('roles').where('id', '=', staff.id).executeTakeFirstOrThrow();
    const held = await codesByRegion(ctx.db, staff.id, rids);
    const order = permissionCodes('web');
    return {
      id: staff.id,
      name: staff.name,
      regions: rids
        .map((rid) => ({ rid, title: titles.get(rid) ?? '' }))
        .map((region) => {
          const sources = [
            ...own.roles.map((c) => ({ code: c, via: '直接授予' })),
            ...grants.rows
              .filter((g) => g.rid === region.rid || g.rid === null)
              .flatMap((g) => g.codes.map((c) => ({ code: c, via: g.rid === null ? `${g.title}（集团全部小区）` : g.title }))),
          ];
          const codes = held.get(region.rid) ?? [];
          const all = codes.includes('admin');
          const shown = all ? order : order.filter((c) => codes.includes(c));
          return {
            rid: region.rid,
            title: region.title,
            all,
            pages: shown.map((code) => ({
              code,
              title: permissionTitle(code),
              via: [...new Set(sources.filter((s) => s.code === code || s.code === 'admin').map((s) => s.via))],
            })),
          };
        }),
    };
  },
});

const staffexport = defineExport('staffexport', {
  roles: TEAM_MANAGERS,
  summary: '按员工列表的筛选条件导出 Excel：账号、姓名、手机、类型、所在小区及角色、状态、最近登录（最多 10 万行）',
  filename: () => `员工账号_${today()}.xlsx`,
  async check(scope, input) {
    const region = await scope.db.selectFrom('regions').select('group_id').where('id', '=', scope.rid).executeTakeFirstOrThrow();
    await refuseOversizedExport(scope.db, filteredStaff(scope.db, region.group_id, scope.rid, input).select('a.id'));
  },
  async sheet(scope, input) {
    const region = await scope.db.selectFrom('regions').select('group_id').where('id', '=', scope.rid).executeTakeFirstOrThrow();
    const rows = (
      await staffColumns(filteredStaff(scope.db, region.group_id, scope.rid, input), scope.rid)
        .orderBy('a.id')
        .limit(EXPORT_MAX)
        .execute()
    ).map(toStaffRow);
    return sheetOf(
      '员工账号',
      [
        { header: '账号', value: (r) => r.username },
        { header: '姓名', value: (r) => r.name },
        { header: '手机', value: (r) => r.mobile },
        { header: '部门', value: (r) => r.dept_title },
        { header: '岗位', value: (r) => r.position_title },
        { header: '类型', value: (r) => r.sys_type_ch },
        {
          header: '所在小区及角色',
          value: (r) => r.regions.map((g) => `${g.title}：${g.roles.map((x) => x.title).join('、') || '—'}`).join('；'),
          width: 40,
        },
        { header: '状态', value: (r) => r.status_ch },
        { header: '最近登录', value: (r) => r.last_login_at, width: 20 },
        { header: '创建时间', value: (r) => r.created_at, width: 20 },
      ],
      rows,
    );
  },
});

export const staffMethods = [
  stafflist,
  staffinfo,
  staffadd,
  staffedit,
  statusMethod('staffdisable', 'N'),
  statusMethod('staffenable', 'Y'),
  staffaccess,
  staffexport,
];
