/**
 * Access regions (/carpark/setregions), grants and their approval (/carpark/current,
 * /carpark/currentexamine), the sync of grants to devices (/carpark/face_user_synclog) and the pass
 * records (/carpark/currentlog); docs/product.md#access-control.
 */
import { z } from 'zod';
import { id, optionalId, paging, text, yn } from '../common.js';
import { imageUrl } from '../files.js';
import type { ExportQueued } from '../jobs.js';
import { createTimeColumn, resource, valueEnum, wireDay, type ResourceOutputs } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { FACE_STATUS, PASS_METHOD, PASS_RESULT } from '../owners.js';
import { ACCESS_ROLES } from './roles.js';

export const REGION_SCOPE = valueEnum({
  community: { text: '小区' },
  building: { text: '楼栋' },
  unit: { text: '单元' },
});
export const REGION_ENABLED = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });
export const REGION_AUTO = valueEnum({ Y: { text: '自动生成', tone: 'processing' }, N: { text: '手工', tone: 'default' } });

/** '1234567': the ISO weekdays a plan opens on, each once, in order. */
export const WEEKDAYS_PATTERN = /^(?=.)1?2?3?4?5?6?7?$/;
/** '' the whole day, or up to three windows 'HH:mm-HH:mm' separated by commas, each ending after it starts. */
export const WINDOWS_PATTERN =
  /^$|^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d(,([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d){0,2}$/;
export function windowsValid(v: string): boolean {
  if (!WINDOWS_PATTERN.test(v)) return false;
  if (v === '') return true;
  return v.split(',').every((w) => {
    const [a, b] = w.split('-') as [string, string];
    return a < b;
  });
}

export interface RegionItem {
  id: number;
  title: string;
  scope: 'community' | 'building' | 'unit';
  scope_ch: string;
  bid: number | null;
  tid: number | null;
  place: string;
  device_ids: number[];
  device_titles: string;
  weekdays: string;
  windows: string;
  enabled: 'Y' | 'N';
  enabled_ch: string;
  auto: 'Y' | 'N';
  auto_ch: string;
  remark: string;
  grant_count: number;
  create_time: string;
}

export const accessRegion = resource<RegionItem>()({
  name: 'accessregion',
  label: '门禁区域',
  methods: {
    list: 'accessregionlist',
    add: 'accessregionadd',
    edit: 'accessregionedit',
    del: 'accessregiondel',
    small: 'accessregion_small_list',
  },
  roles: { read: ACCESS_ROLES.staff, write: ACCESS_ROLES.staff },
  echoId: true,
  fields: {
    title: { label: '区域名称', zod: text(30).min(1, '请输入区域名称'), in: ['form', 'table', 'filter'], fixed: true, width: 160 },
    scope: {
      label: '范围',
      zod: z.enum(['community', 'building', 'unit'], { message: '请选择范围' }).default('community'),
      enum: REGION_SCOPE,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 70,
    },
    bid: { label: '楼栋', zod: optionalId, widget: { small: 'building_small_list' }, in: ['form', 'filter'] },
    tid: { label: '单元', zod: optionalId, widget: { small: 'unit_small_list', dependsOn: { bid: 'bid' } }, in: ['form'] },
    device_ids: {
      label: '门禁设备',
      zod: z.array(id).max(200, '设备最多200台').default([]),
      widget: { small: 'accessdevice_small_list', multiple: true },
      in: ['form'],
    },
    weekdays: {
      label: '通行星期',
      zod: text(7).regex(WEEKDAYS_PATTERN, '通行星期填 1 到 7 的数字，如 12345 为周一至周五').default('1234567'),
      in: ['form', 'table'],
      width: 90,
      help: '1 为周一，7 为周日，如 1234567 每天、12345 工作日',
    },
    windows: {
      label: '通行时段',
      zod: text(40).refine(windowsValid, '时段格式如 06:00-12:00,14:00-22:00，最多三段，结束须晚于开始').default(''),
      in: ['form', 'table'],
      width: 160,
      help: '留空为全天；最多三段，如 06:00-12:00,14:00-22:00',
    },
    enabled: { label: '启用', zod: yn.default('Y'), enum: REGION_ENABLED, widget: 'radio', in: ['form', 'table', 'filter'], width: 70 },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form'] },
  },
  rules: [
    { check: (v) => v.scope === 'community' || Boolean(v.bid), message: '请选择楼栋', path: 'bid' },
    { check: (v) => v.scope !== 'unit' || Boolean(v.tid), message: '请选择单元', path: 'tid' },
  ],
  columns: [
    { key: 'place', label: '楼栋单元', width: 120 },
    { key: 'device_titles', label: '门禁设备', width: 240 },
    { key: 'auto', label: '来源', enum: REGION_AUTO, width: 90 },
    { key: 'grant_count', label: '授权人数', width: 90 },
    createTimeColumn(),
  ],
});

/** The grant's status: the spec's face statuses (owners' FACE_STATUS, one enum for one coded value). */
export const GRANT_STATUS = FACE_STATUS;
export const PERSON_KIND = valueEnum({
  owner: { text: '业主' },
  family: { text: '家属' },
  tenant: { text: '租户' },
  staff: { text: '员工' },
  other: { text: '其他' },
  /** made by the visitor area for a visit's face (docs/product.md#visitors), not by hand */
  visitor: { text: '访客' },
});
export const SYNC_STATE = valueEnum({
  pending: { text: '下发中', tone: 'processing' },
  held: { text: '已下发', tone: 'success' },
  failed: { text: '失败', tone: 'error' },
  deleting: { text: '删除中', tone: 'warning' },
});
export { PASS_METHOD, PASS_RESULT };

export interface GrantSyncCell {
  device_id: number;
  device_title: string;
  state: 'pending' | 'held' | 'failed' | 'deleting';
  state_ch: string;
  last_error: string;
  updated_at: string;
}

export interface GrantItem {
  id: number;
  person_kind: string;
  person_kind_ch: string;
  person_name: string;
  mobile: string;
  member_id: number | null;
  hid: number | null;
  address: string;
  region_ids: number[];
  region_titles: string;
  door_start_time: string;
  door_end_time: string;
  face_image: string;
  card_no: string;
  qr_code: string;
  status: string;
  status_ch: string;
  reason: string;
  revoked: 'Y' | 'N';
  revoked_at: string;
  held: number;
  pending: number;
  failed: number;
  create_user: string;
  create_time: string;
}

export interface GrantDetail extends GrantItem {
  devices: GrantSyncCell[];
  log: WorkflowLogItem[];
}

const grantFields = {
  person_kind: z.enum(['owner', 'family', 'tenant', 'staff', 'other'], { message: '请选择人员类型' }),
  /** a resident of `hid` (owner, family, tenant); staff and others give a name */
  member_id: optionalId,
  person_name: text(30).default(''),
  mobile: text(20).default(''),
  hid: optionalId,
  region_ids: z.array(id).min(1, '请至少选择一个门禁区域').max(20, '门禁区域最多20个'),
  door_start_time: wireDay,
  door_end_time: wireDay,
  face_image: z.union([z.literal(''), imageUrl]).default(''),
  card_no: text(30)
    .regex(/^[A-Za-z0-9]*$/, '卡号只能是字母或数字')
    .default(''),
  qr_code: text(64).default(''),
};

const grantChecks = <T extends { door_start_time: string; door_end_time: string; face_image: string; card_no: string; qr_code: string }>(
  v: T,
  c: z.RefinementCtx,
) => {
  if (v.door_start_time > v.door_end_time) c.addIssue({ code: 'custom', path: ['door_end_time'], message: '结束日期不能早于开始日期' });
  if (!v.face_image && !v.card_no && !v.qr_code)
    c.addIssue({ code: 'custom', path: ['face_image'], message: '请至少提供人脸照片、卡号或二维码之一' });
};

const dateFilter = z.union([z.literal(''), wireDay]).default('');

export const grantFlow = workflow({
  name: 'accessgrant',
  label: '门禁授权',
  states: GRANT_STATUS,
  transitions: {
    approve: {
      method: 'accessgrantapprove',
      label: '通过',
      from: ['W'],
      to: 'P',
      roles: ACCESS_ROLES.staff,
      fixed: { approve: true },
      input: { reason: text(200).default('') },
      inputLabels: { reason: '审核意见' },
      confirm: '通过后将下发到授权区域的所有门禁设备。确定通过？',
    },
    reject: {
      method: 'accessgrantapprove',
      label: '驳回',
      from: ['W'],
      to: 'N',
      roles: ACCESS_ROLES.staff,
      fixed: { approve: false },
      // transitions sharing a method share their inputs' rules: the reason is checked by the server
      input: { reason: text(200).default('') },
      inputLabels: { reason: '驳回原因' },
      danger: true,
    },
  },
  steps: { edit: '修改', revoke: '注销', push: '下发结果' },
  logMethod: 'accessgrantlog',
  fieldLabels: { reason: '原因' },
});

export interface SyncDevice {
  id: number;
  code: string;
  title: string;
  online: 'Y' | 'N';
}
export interface SyncRow {
  grant_id: number;
  person_name: string;
  address: string;
  status: string;
  status_ch: string;
  cells: Array<{ device_id: number; state: string; state_ch: string; last_error: string }>;
}

export interface PassItem {
  id: number;
  device_id: number;
  device_title: string;
  person_name: string;
  member_id: number | null;
  hid: number | null;
  address: string;
  grant_id: number | null;
  visitor_id: number | null;
  method: string;
  method_ch: string;
  similarity: string;
  snapshot: string;
  result: string;
  result_ch: string;
  rec_time: string;
}

const passFilters = {
  keyword: text(30).default(''),
  device_id: optionalId,
  /** the pass's method (the wire's own field is called method) */
  mode: z.enum(['', 'face', 'card', 'qr', 'remote']).default(''),
  result: z.enum(['', 'open', 'refused']).default(''),
  start_date: dateFilter,
  end_date: dateFilter,
};

const syncFilters = {
  keyword: text(30).default(''),
  /** failed: only people with a failed device */
  state: z.enum(['', 'pending', 'held', 'failed']).default(''),
};

export const grantSchemas = {
  ...accessRegion.schemas,
  accessregiongenerate: z.object({}),
  accessgrantlist: z.object({
    ...paging,
    keyword: text(30).default(''),
    status: z.enum(['', 'none', 'W', 'P', 'Y', 'N']).default(''),
    person_kind: z.enum(['', 'owner', 'family', 'tenant', 'staff', 'other', 'visitor']).default(''),
    region_id: optionalId,
    hid: optionalId,
    /** Y: revoked ones too */
    revoked: z.enum(['', 'Y', 'N']).default('N'),
  }),
  accessgrantinfo: z.object({ id }),
  /** the people living now in a room (the grant form's 人员) */
  accessmember_small_list: z.object({ hid: id }),
  accessgrantadd: z.object(grantFields).superRefine(grantChecks),
  accessgrantedit: z
    .object({ id, ...grantFields })
    .omit({ person_kind: true, member_id: true, hid: true })
    .superRefine(grantChecks),
  accessgrantrevoke: z.object({ id, reason: text(200).min(1, '请填写注销原因') }),
  ...grantFlow.schemas,
  accesssynclist: z.object({ ...paging, ...syncFilters }),
  accesssyncretry: z.object({ grant_id: optionalId, device_id: optionalId }),
  accesssyncexport: z.object({ keyword: text(30).default('') }),
  accesspasslist: z.object({ ...paging, ...passFilters }),
  accesspassexport: z.object(passFilters),
  accesssimpass: z.object({
    device_id: id,
    mode: z.enum(['face', 'card']).default('face'),
    /** the person: a grant the device may hold; absent: an unknown face */
    grant_id: optionalId,
  }),
} as const;

export type GrantOutputs = ResourceOutputs<typeof accessRegion.def, RegionItem> & {
  accessregiongenerate: { created: number; updated: number };
  accessgrantlist: { items: GrantItem[]; total: number; counts: Record<string, number> };
  accessgrantinfo: GrantDetail;
  accessmember_small_list: { items: Array<{ id: number; title: string; relation: string }> };
  accessgrantadd: { id: number };
  accessgrantedit: { id: number; status: string };
  accessgrantrevoke: { id: number };
  accessgrantapprove: GrantItem;
  accessgrantlog: { items: WorkflowLogItem[] };
  accesssynclist: { devices: SyncDevice[]; items: SyncRow[]; total: number };
  accesssyncretry: { retried: number };
  accesssyncexport: ExportQueued;
  /** total counted up to 10,000 rows; more: there are more than that (共 10000+ 条) */
  accesspasslist: { items: PassItem[]; total: number; more: boolean };
  accesspassexport: ExportQueued;
  accesssimpass: { result: 'open' | 'refused'; result_ch: string; reason: string; pass_id: number; person_name: string };
};
