/**
 * Staff accounts from Excel (/team/user 导入; docs/product.md#team): username, name, mobile,
 * department, position, roles and community per row, all with the first password the uploader
 * typed, changed at each account's first sign-in. Any bad row and nothing is imported. Imports
 * are the community's jobs: the accounts work in the current community.
 */
import {
  LIST_SEPARATORS,
  MOBILE_RE,
  STAFF_IMPORT_HEADERS,
  STAFF_IMPORT_MAX_ROWS,
  TEAM_MANAGERS,
  type ImportRowError,
  type StaffImportResult,
} from '@wuye/contract';
import { passwordProblem } from '@wuye/contract/setup/security';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { defineImport, type ImportScope } from '../../jobs/imports.js';
import type { SheetRow } from '../../lib/xlsxReader.js';
import { hashPassword } from '../auth/password.js';
import { fail } from '../../http/errors.js';
import { sessionPolicy } from '../setup/security.js';
import { codesByRegion } from './grants.js';

const USERNAME_RE = /^[A-Za-z0-9_]{4,30}$/;

interface StaffPlan {
  accounts: Array<{
    username: string;
    name: string;
    mobile: string;
    dept_id: number | null;
    position_id: number | null;
    role_ids: number[];
  }>;
}

/** What the rows are checked against: the community, its group's departments (by title and path), positions, web roles and the taken usernames. */
async function loadLookups(db: Kysely<DB>, rid: number, usernames: string[]) {
  const region = await db.selectFrom('regions').select(['title', 'group_id']).where('id', '=', rid).executeTakeFirstOrThrow();
  const [depts, positions, roles, taken] = await Promise.all([
    db
      .selectFrom('departments')
      .select(['id', 'parent_id', 'title'])
      .where('group_id', '=', region.group_id)
      .where('status', '=', 'Y')
      .execute(),
    db.selectFrom('positions').select(['id', 'title']).where('group_id', '=', region.group_id).where('status', '=', 'Y').execute(),
    db
      .selectFrom('staff_roles')
      .select(['id', 'title', 'codes', 'scope'])
      .where('group_id', '=', region.group_id)
      .where('app', '=', 'web')
      .where('status', '=', 'Y')
      .execute(),
    usernames.length ? db.selectFrom('accounts').select('username').where('username', 'in', usernames).execute() : [],
  ]);
  const byId = new Map(depts.map((d) => [d.id, d]));
  const pathOf = (id: number): string => {
    const d = byId.get(id)!;
    return d.parent_id && byId.has(d.parent_id) ? `${pathOf(d.parent_id)}/${d.title}` : d.title;
  };
  // a department by its path (总部/工程部) or by its title where that is unique in the group
  const deptIds = new Map<string, number | 'ambiguous'>();
  for (const d of depts) {
    deptIds.set(pathOf(d.id), d.id);
    deptIds.set(d.title, deptIds.has(d.title) && deptIds.get(d.title) !== d.id ? 'ambiguous' : d.id);
  }
  return {
    region,
    deptIds,
    positionIds: new Map(positions.map((p) => [p.title, p.id])),
    roles: new Map(roles.map((r) => [r.title, r])),
    taken: new Set(taken.map((t) => t.username.toLowerCase())),
  };
}

async function checkRows(scope: ImportScope, rows: SheetRow[]): Promise<{ errors: ImportRowError[]; plan: StaffPlan }> {
  const cell = (r: SheetRow, h: string) => (r.values[h] ?? '').trim();
  const usernames = rows.map((r) => cell(r, '账号')).filter((u) => USERNAME_RE.test(u));
  const look = await loadLookups(scope.db, scope.rid, usernames);
  // the uploader hands out only codes it holds here (grants.ts), as on the staff page
  const uploader = scope.job.created_by;
  const held = uploader === null ? [] : ((await codesByRegion(scope.db, uploader, [scope.rid])).get(scope.rid) ?? []);
  const administrator = held.includes('admin');
  const errors: ImportRowError[] = [];
  const plan: StaffPlan = { accounts: [] };
  const seen = new Map<string, number>();
  for (const r of rows) {
    const bad = (column: string, reason: string) => errors.push({ row: r.rowNumber, column, reason });
    const before = errors.length;
    const username = cell(r, '账号');
    if (!USERNAME_RE.test(username)) bad('账号', '账号为4到30位字母、数字或下划线');
    else if (look.taken.has(username.toLowerCase())) bad('账号', '账号已存在');
    else if (seen.has(username.toLowerCase())) bad('账号', `与第 ${seen.get(username.toLowerCase())} 行的账号重复`);
    else seen.set(username.toLowerCase(), r.rowNumber);
    const name = cell(r, '姓名');
    if (name.length < 2 || name.length > 10) bad('姓名', '姓名为2到10个字');
    const mobile = cell(r, '手机号');
    if (mobile && !MOBILE_RE.test(mobile)) bad('手机号', '手机号码格式不正确，应为11位手机号');
    const deptText = cell(r, '部门');
    const dept = deptText ? look.deptIds.get(deptText) : null;
    if (deptText && dept === undefined) bad('部门', `部门“${deptText}”不存在`);
    if (dept === 'ambiguous') bad('部门', `有多个名为“${deptText}”的部门，请写完整路径（如 总部/${deptText}）`);
    const positionText = cell(r, '岗位');
    const position = positionText ? look.positionIds.get(positionText) : null;
    if (positionText && position === undefined) bad('岗位', `岗位“${positionText}”不存在`);
    const roleTitles = [
      ...new Set(
        cell(r, '角色')
          .split(LIST_SEPARATORS)
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ];
    if (roleTitles.length === 0) bad('角色', '请填写角色，多个用顿号分隔');
    const roles = roleTitles.map((t) => look.roles.get(t));
    roleTitles.forEach((t, i) => {
      const role = roles[i];
      if (!role) bad('角色', `角色“${t}”不存在或已停用`);
      else if (role.scope === 'group') bad('角色', `“${t}”是集团全部小区的角色，只能由集团管理员分配`);
      else if (!administrator && role.codes.some((c) => !held.includes(c))) bad('角色', `不能授予本人没有的权限（角色“${t}”）`);
    });
    const community = cell(r, '小区');
    if (community && community !== look.region.title) bad('小区', `只能导入到当前小区“${look.region.title}”，其他小区请切换后导入`);
    if (errors.length > before) continue;
    plan.accounts.push({
      username,
      name,
      mobile,
      dept_id: typeof dept === 'number' ? dept : null,
      position_id: position ?? null,
      role_ids: roles.map((x) => x!.id),
    });
  }
  return { errors, plan };
}

/** All accounts in one transaction (at most STAFF_IMPORT_MAX_ROWS): they stand or fall together. */
async function writeAccounts(scope: ImportScope, plan: StaffPlan): Promise<StaffImportResult> {
  const passwordHash = String(scope.options.password_hash);
  const groupId = (await scope.db.selectFrom('regions').select('group_id').where('id', '=', scope.rid).executeTakeFirstOrThrow()).group_id;
  await scope.batch(async (trx) => {
    for (let i = 0; i < plan.accounts.length; i += 500) {
      const slice = plan.accounts.slice(i, i + 500);
      const created = await trx
        .insertInto('accounts')
        .values(
          slice.map((a) => ({
            username: a.username,
            password_hash: passwordHash,
            name: a.name,
            mobile: a.mobile,
            dept_id: a.dept_id,
            position_id: a.position_id,
            sys_type: 'property' as const,
            group_id: groupId,
            roles: [],
            password_status: 'N' as const,
            // each changes the password it was given before anything else (http/dispatcher.ts)
            password_reset_at: sql<Date>`now()`,
          })),
        )
        .returning(['id', 'username'])
        .execute();
      const idOf = new Map(created.map((c) => [c.username, c.id]));
      await trx
        .insertInto('account_regions')
        .values(slice.map((a) => ({ account_id: idOf.get(a.username)!, rid: scope.rid, sort: 0 })))
        .execute();
      await trx
        .insertInto('account_roles')
        .values(
          slice.flatMap((a) =>
            a.role_ids.map((role_id) => ({ account_id: idOf.get(a.username)!, rid: scope.rid, role_id, created_by: scope.job.created_by })),
          ),
        )
        .execute();
      await scope.step(Math.min(plan.accounts.length, i + slice.length), plan.accounts.length);
    }
  });
  return { created: plan.accounts.length, errors: [] };
}

export const staffImportMethods = defineImport<'staffimport', 'staffimporttemplate', StaffPlan, StaffImportResult>({
  kind: 'staff_import',
  label: '员工',
  methods: { template: 'staffimporttemplate', upload: 'staffimport', errors: 'staffimporterrors' },
  summaries: {
    template: '员工导入模板（.xlsx）：账号、姓名、手机号、部门、岗位、角色、小区，含示例与填写说明',
    upload:
      '上传员工 Excel 与统一的初始密码：检查表头后作为后台任务导入当前小区（返回 job_id）；各账号首次登录须修改密码；有错误行则全部不导入',
  },
  roles: TEAM_MANAGERS,
  required: ['账号', '姓名', '角色'],
  maxRows: STAFF_IMPORT_MAX_ROWS,
  maxErrors: 5000,
  // the first password follows the community's security policy, as on the staff page
  accept: async (ctx, input) => {
    const problem = passwordProblem(await sessionPolicy(ctx.db, ctx.session), input.password);
    if (problem) fail(problem);
  },
  options: async (input) => ({ password_hash: await hashPassword(input.password) }),
  template: async (ctx) => {
    const region = await ctx.db.selectFrom('regions').select('title').where('id', '=', ctx.rid).executeTakeFirstOrThrow();
    return {
      filename: '员工导入模板.xlsx',
      sheet: '员工',
      headers: STAFF_IMPORT_HEADERS,
      widths: { 角色: 24, 部门: 18 },
      rows: [['zhangsan01', '张三', '13900000000', '工程部', '维修工', '维修工', region.title]],
      help: {
        sheet: '填写说明',
        lines: [
          ['账号', '必填，4到30位字母、数字或下划线，不能与已有账号重复'],
          ['姓名', '必填，2到10个字'],
          ['手机号', '可不填；填写时为11位手机号'],
          ['部门', '可不填；部门名称，有同名部门时写完整路径（如 总部/工程部）'],
          ['岗位', '可不填；岗位名称'],
          ['角色', '必填，后台角色名称，多个用顿号分隔（如 收银员、客服管家）'],
          ['小区', `可不填；导入到当前小区“${region.title}”，其他小区请切换后导入`],
          ['初始密码', '上传时统一填写；每个账号首次登录须修改密码'],
          ['注意', '任何一行有错误时整个文件都不导入，请下载错误报告按行修改后重新上传'],
        ],
      },
    };
  },
  check: checkRows,
  rejected: (errors) => ({ created: 0, errors }),
  write: writeAccounts,
  raced: '导入过程中有相同账号被他人创建，已全部撤销，请重新导入',
});
