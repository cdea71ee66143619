/**
 * Departments (部门, a tree) and positions (岗位) of the property company (/team/classifylist), as
 * resource descriptions (docs/resources.md). Their rows are the group's (`owner: 'group'`): the
 * same org chart serves every community of the company, on both sides.
 */
import { z } from 'zod';
import { id, int, text, yn } from '../common.js';
import { createTimeColumn, resource, valueEnum } from '../kit/resource.js';
import { TEAM_MANAGERS } from './staff.js';

export const TEAM_STATUS = valueEnum({ Y: { text: '正常', tone: 'success' }, N: { text: '停用', tone: 'default' } });

/** A mobile (13800138000) or a landline with its area code (021-58881234, an extension after a dash). */
export const PHONE_RE = /^(1[3-9]\d{9}|0\d{2,3}-?\d{7,8}(-\d{1,6})?)$/;
const phone = text(20)
  .refine((v) => v === '' || PHONE_RE.test(v), { message: '电话格式不正确（手机号或带区号的座机，如 021-58881234）' })
  .optional()
  .default('');

/** The parent department: none (a top-level department) is null, so an edit can move one to the top. */
const parentId = z
  .union([z.literal(''), z.null(), id])
  .optional()
  .transform((v) => (v === '' || v === undefined ? null : v));

const sortNo = int(0, 9999).default(0);

export interface DeptItem {
  id: number;
  parent_id: number | null;
  /** the parent's title ('' at the top level) */
  parent_title: string;
  title: string;
  leader_name: string;
  phone: string;
  /** staff of the department (accounts.dept_id) */
  staff_count: number;
  sort: number;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  create_time: string;
}

/** A department in the tree select: the tree is built from parent_id. */
export interface DeptSmallItem {
  id: number;
  title: string;
  parent_id: number | null;
}

export const department = resource<DeptItem>()({
  name: 'dept',
  label: '部门',
  owner: 'group',
  methods: { list: 'deptlist', add: 'deptadd', edit: 'deptedit', del: 'deptdel', small: 'dept_small_list', export: 'deptexport' },
  roles: { read: TEAM_MANAGERS, write: TEAM_MANAGERS },
  fields: {
    parent_id: { label: '上级部门', zod: parentId, widget: 'custom', in: ['form'], help: '不选为顶级部门' },
    title: {
      label: '名称',
      zod: text(30).min(1, '请输入部门名称'),
      in: ['form', 'table', 'filter', 'export'],
      fixed: true,
      placeholder: '如 工程部',
    },
    leader_name: { label: '负责人', zod: text(20).optional().default(''), width: 100 },
    phone: { label: '电话', zod: phone, width: 140, placeholder: '手机号或座机' },
    staff_count: { label: '人数', in: ['table', 'export'], width: 70 },
    sort: { label: '排序', zod: sortNo, widget: 'int', width: 70, help: '同级中数字小的在前' },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: TEAM_STATUS, in: ['form', 'table', 'filter', 'export'], width: 80 },
    remark: { label: '备注', zod: text(200).optional().default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [{ key: 'parent_title', label: '上级部门', in: ['export'] }, createTimeColumn('创建时间', { in: ['export'] })],
});

const positionCode = text(20)
  .min(1, '请输入岗位编码')
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, '编码只能包含字母、数字、下划线和短横线');

export interface PositionItem {
  id: number;
  code: string;
  title: string;
  /** staff holding the position (accounts.position_id) */
  staff_count: number;
  sort: number;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  create_time: string;
}

export const position = resource<PositionItem>()({
  name: 'position',
  label: '岗位',
  owner: 'group',
  methods: {
    list: 'positionlist',
    add: 'positionadd',
    edit: 'positionedit',
    del: 'positiondel',
    small: 'position_small_list',
    export: 'positionexport',
  },
  roles: { read: TEAM_MANAGERS, write: TEAM_MANAGERS },
  fields: {
    code: { label: '编码', zod: positionCode, in: ['form', 'table', 'filter', 'export'], width: 120, placeholder: '如 PM、cashier' },
    title: { label: '名称', zod: text(30).min(1, '请输入岗位名称'), in: ['form', 'table', 'filter', 'export'], placeholder: '如 客服管家' },
    staff_count: { label: '人数', in: ['table', 'export'], width: 70 },
    sort: { label: '排序', zod: sortNo, widget: 'int', width: 70 },
    status: { label: '状态', zod: yn.optional().default('Y'), enum: TEAM_STATUS, in: ['form', 'table', 'filter', 'export'], width: 80 },
    remark: { label: '备注', zod: text(200).optional().default(''), widget: 'textarea', in: ['form', 'export'] },
  },
  columns: [createTimeColumn('创建时间', { in: ['export'] })],
});
