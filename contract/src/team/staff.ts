/**
 * Staff accounts and the roles the company defines (/team/user, /team/userrole; docs/product.md#team).
 * A staff account works in some communities and holds, per community, some roles; a role is a set
 * of permission codes (./permissions.ts).
 */
import { z } from 'zod';
import { id, noControlChars, optionalId, paging, text, yn } from '../common.js';
import { valueEnum, enumSchema } from '../kit/resource.js';
import { newPassword } from '../auth.js';
import { MOBILE_RE } from '../owners.js';
import type { YN } from '../codes.js';
import type { ExportQueued } from '../jobs.js';
import { fileBase64 } from '../files.js';
import type { FileAnswer } from '../files.js';
import type { ImportRowError } from '../structure.js';
import type { PermissionNode, RoleApp } from './permissions.js';

/** Who manages staff and roles: the team area's code in a community (admin holds every code), the group's leader_admin on the group side. */
export const TEAM_MANAGERS = ['team', 'leader_admin'] as const;

export const STAFF_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const ROLE_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const ROLE_APP = valueEnum({ web: { text: '后台' }, mobile: { text: '手机端' } });
/** Where a role applies: the communities it is assigned in, or every community of the group (set and assigned by the group side only). */
export const ROLE_SCOPE = valueEnum({ own: { text: '所在小区' }, group: { text: '集团全部小区', tone: 'processing' } });
export type RoleScope = keyof typeof ROLE_SCOPE;
/** staff: the property company's people; merchant: a shop's account (spec 2.3 keeps the board, to-dos and the like from it) */
export const STAFF_TYPE = valueEnum({ property: { text: '员工' }, merchant: { text: '商户' } });

export const username = noControlChars(
  z
    .string({ error: '请输入账号' })
    .trim()
    .regex(/^[A-Za-z0-9_]{4,30}$/, '账号为4到30位字母、数字或下划线'),
);
export const staffName = text(10).pipe(z.string().min(2, '姓名为2到10个字'));
export const staffMobile = z.union([z.literal(''), z.string().trim().regex(MOBILE_RE, '手机号码格式不正确，应为11位手机号')]).default('');
const roleTitle = text(30).pipe(z.string().min(1, '请输入角色名称'));
const codes = z.array(z.string().max(40)).max(200);

/** The roles an account holds in one community. */
export const assignment = z.object({
  rid: id,
  role_ids: z.array(id).min(1, '每个小区至少选择一个角色').max(50),
});

/** The staff import's columns (staffimporttemplate), in order. */
export const STAFF_IMPORT_HEADERS = ['账号', '姓名', '手机号', '部门', '岗位', '角色', '小区'] as const;
export const STAFF_IMPORT_MAX_ROWS = 2000;
/** How a cell lists several roles: 收银员、客服管家 (also , ， ; ；) */
export const LIST_SEPARATORS = /[、,，;；]/;

export interface StaffImportResult {
  created: number;
  errors: ImportRowError[];
}

const staffFields = {
  name: staffName,
  mobile: staffMobile,
  dept_id: optionalId,
  position_id: optionalId,
  sys_type: enumSchema(STAFF_TYPE, '账号类型').default('property'),
  assignments: z.array(assignment).min(1, '请至少分配一个小区及其角色').max(200),
};

const staffFilters = {
  /** name, mobile or username */
  keyword: text(50).optional(),
  /** the department and those under it */
  dept_id: optionalId,
  role_id: optionalId,
  rid: optionalId,
  status: yn.optional().or(z.literal('').transform(() => undefined)),
};

const roleFields = {
  title: roleTitle,
  app: enumSchema(ROLE_APP, '角色端').default('web'),
  scope: enumSchema(ROLE_SCOPE, '数据范围').default('own'),
  remark: text(200).default(''),
  codes,
  status: yn.default('Y'),
};

export const staffSchemas = {
  stafflist: z.object({ ...paging, ...staffFilters }),
  staffexport: z.object({ ...staffFilters }),
  staffinfo: z.object({ id }),
  staffadd: z.object({
    username,
    ...staffFields,
    /** empty: a temporary password is made and shown once */
    password: z.union([z.literal(''), newPassword]).optional(),
  }),
  staffedit: z.object({ id, ...staffFields }),
  staffdisable: z.object({ id }),
  staffenable: z.object({ id }),
  staffaccess: z.object({ id }),
  staffimporttemplate: z.object({}),
  staffimport: z.object({
    file_base64: fileBase64,
    filename: text(200).min(1, '请选择文件'),
    /** every imported account's first password, changed at its first sign-in */
    password: newPassword,
  }),
  staffimporterrors: z.object({ job_id: id }),
  rolelist: z.object({ ...paging, app: enumSchema(ROLE_APP, '角色端').optional(), keyword: text(30).optional(), status: yn.optional() }),
  role_small_list: z.object({ app: enumSchema(ROLE_APP, '角色端').default('web') }),
  roleinfo: z.object({ id }),
  roleadd: z.object(roleFields),
  roleedit: z.object({ id, ...roleFields }),
  roledel: z.object({ id, replacement_id: optionalId }),
  permissiontree: z.object({ app: enumSchema(ROLE_APP, '角色端').default('web') }),
};

export interface RoleRef {
  id: number;
  title: string;
}

/** One community of a staff account with the roles it holds there. */
export interface StaffRegion {
  rid: number;
  title: string;
  roles: RoleRef[];
}

export interface StaffRow {
  id: number;
  username: string;
  name: string;
  mobile: string;
  dept_id: number | null;
  dept_title: string;
  position_id: number | null;
  position_title: string;
  sys_type: 'property' | 'merchant';
  sys_type_ch: string;
  status: YN;
  status_ch: string;
  /** N: must change the password at the next sign-in */
  password_status: YN;
  regions: StaffRegion[];
  /** codes granted in every community of the account (the demo's and older accounts), with titles */
  direct_codes: Array<{ code: string; title: string }>;
  last_login_at: string;
  created_at: string;
}

export interface StaffAccessPage {
  code: string;
  title: string;
  /** the roles that grant it ('直接授予' for the account's own codes) */
  via: string[];
}

/** What an account may open and do in each of its communities, and through which role (staffaccess). */
export interface StaffAccess {
  id: number;
  name: string;
  regions: Array<{ rid: number; title: string; all: boolean; pages: StaffAccessPage[] }>;
}

export interface RoleRow {
  id: number;
  title: string;
  app: RoleApp;
  app_ch: string;
  scope: RoleScope;
  scope_ch: string;
  remark: string;
  codes: string[];
  builtin: boolean;
  status: YN;
  status_ch: string;
  /** accounts holding it in at least one community */
  member_count: number;
  updated_at: string;
}

export interface RoleInfo extends RoleRow {
  members: Array<{ id: number; username: string; name: string; regions: string[] }>;
}

export interface StaffOutputs {
  stafflist: { items: StaffRow[]; total: number };
  staffexport: ExportQueued;
  staffinfo: StaffRow;
  staffadd: { id: number; username: string; password: string };
  staffedit: null;
  staffdisable: null;
  staffenable: null;
  staffaccess: StaffAccess;
  staffimporttemplate: FileAnswer;
  staffimport: { job_id: number };
  staffimporterrors: FileAnswer;
  rolelist: { items: RoleRow[]; total: number };
  role_small_list: { items: Array<RoleRef & { builtin: boolean; status: YN }> };
  roleinfo: RoleInfo;
  roleadd: { id: number };
  roleedit: { affected: number };
  roledel: null;
  permissiontree: { items: PermissionNode[] };
}
