/**
 * Repair types (报修类型, /steward/repairtype; docs/product.md#repairs): a two-level tree (水电 >
 * 水管漏水) with each type's handling settings and the technicians bound to it, described as a
 * resource (docs/resources.md), and the desk's repair settings (max open tickets per technician,
 * auto-rating, reopen window).
 */
import { z } from 'zod';
import { id, int, optionalId, text, yn } from '../common.js';
import { createTimeColumn, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { STEWARD_ROLES } from './roles.js';

export const REPAIR_MODE = valueEnum({
  A: { text: '指派', tone: 'processing' },
  G: { text: '抢单', tone: 'warning' },
  R: { text: '轮派', tone: 'success' },
});
export const REPAIR_AREA = valueEnum({ H: { text: '房屋', tone: 'processing' }, P: { text: '公共区域', tone: 'default' } });
export const REPAIR_PAID = valueEnum({ Y: { text: '有偿', tone: 'warning' }, N: { text: '无偿', tone: 'default' } });
export const REPAIR_VISIT_POLICY = valueEnum({
  A: { text: '全部回访', tone: 'processing' },
  U: { text: '已评价不回访', tone: 'warning' },
  N: { text: '不回访', tone: 'default' },
});
export const REPAIR_TYPE_STATUS = valueEnum({ Y: { text: '启用', tone: 'success' }, N: { text: '停用', tone: 'default' } });

export interface RepairTypeItem {
  id: number;
  parent_id: number;
  parent_title: string;
  /** 水电 / 水管漏水 for a child */
  full_title: string;
  title: string;
  mode: 'A' | 'G' | 'R';
  mode_ch: string;
  area: 'H' | 'P';
  area_ch: string;
  paid: 'Y' | 'N';
  paid_ch: string;
  accept_hours: number;
  finish_hours: number;
  warn_minutes: number;
  visit_policy: 'A' | 'U' | 'N';
  visit_policy_ch: string;
  staff_ids: number[];
  staff_names: string;
  sort: number;
  status: 'Y' | 'N';
  status_ch: string;
  remark: string;
  ticket_count: number;
  create_time: string;
}

export const repairType = resource<RepairTypeItem>()({
  name: 'repairtype',
  label: '报修类型',
  methods: {
    list: 'repairtypelist',
    add: 'repairtypeadd',
    edit: 'repairtypeedit',
    del: 'repairtypedel',
    small: 'repairtype_small_list',
  },
  roles: { read: STEWARD_ROLES.repairRead, write: STEWARD_ROLES.desk },
  fields: {
    title: {
      label: '类型名称',
      zod: text(30).min(1, '请输入类型名称'),
      in: ['form', 'table', 'filter'],
      fixed: true,
      placeholder: '如 水管漏水',
    },
    parent_id: {
      label: '上级类型',
      zod: optionalId,
      widget: { small: 'repairtype_small_list' },
      in: ['form', 'filter'],
      help: '不选为一级类型（如 水电）；选了为其下的二级类型',
    },
    mode: {
      label: '派单方式',
      zod: z.enum(['A', 'G', 'R'], { message: '请选择派单方式' }).default('A'),
      enum: REPAIR_MODE,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 90,
    },
    area: {
      label: '报修范围',
      zod: z.enum(['H', 'P'], { message: '请选择报修范围' }).default('H'),
      enum: REPAIR_AREA,
      widget: 'radio',
      in: ['form', 'table', 'filter'],
      width: 90,
    },
    paid: { label: '收费', zod: yn.default('N'), enum: REPAIR_PAID, widget: 'radio', in: ['form', 'table', 'filter'], width: 70 },
    accept_hours: { label: '接单时限(小时)', zod: int(1, 720).default(2), widget: 'int', in: ['form', 'table'], width: 110 },
    finish_hours: { label: '完成时限(小时)', zod: int(1, 2160).default(24), widget: 'int', in: ['form', 'table'], width: 110 },
    warn_minutes: {
      label: '预警(分钟)',
      zod: int(0, 1440).default(30),
      widget: 'int',
      in: ['form', 'table'],
      width: 90,
      help: '截止前多少分钟提醒维修师傅',
    },
    visit_policy: {
      label: '回访设置',
      zod: z.enum(['A', 'U', 'N'], { message: '请选择回访设置' }).default('A'),
      enum: REPAIR_VISIT_POLICY,
      widget: 'radio',
      in: ['form', 'table'],
      width: 110,
    },
    staff_ids: {
      label: '维修师傅',
      zod: z.array(id).max(50, '最多绑定50名维修师傅').default([]),
      widget: { small: 'repair_tech_small_list', multiple: true },
      in: ['form'],
      help: '持有维修权限的本小区员工；抢单、轮派只在这些师傅中进行',
    },
    sort: { label: '排序', zod: int(0, 9999).default(0), widget: 'int', in: ['form'] },
    status: { label: '状态', zod: yn.default('Y'), enum: REPAIR_TYPE_STATUS, in: ['form', 'table', 'filter'], width: 70 },
    remark: { label: '说明', zod: text(200).default(''), widget: 'textarea', in: ['form', 'table'] },
  },
  columns: [
    { key: 'parent_title', label: '上级类型', width: 100 },
    { key: 'staff_names', label: '维修师傅', width: 160 },
    { key: 'ticket_count', label: '工单数', width: 80 },
    createTimeColumn(),
  ],
});

export interface RepairSettings {
  max_open: number;
  auto_rate_hours: number;
  reopen_days: number;
}
export const repairSettingsInput = z.object({
  max_open: int(1, 99),
  auto_rate_hours: int(1, 720),
  reopen_days: int(0, 90),
});

/** A technician the desk may pick: a staff account of the community holding repairs. */
export interface RepairTech {
  id: number;
  title: string;
  /** their open tickets (待接单, 处理中, 已暂停) */
  open_count: number;
  /** on duty now by the duty rosters */
  on_duty: boolean;
}

/** A type with its children, for the ticket forms and filters. */
export interface RepairTypeNode {
  id: number;
  title: string;
  full_title: string;
  mode: 'A' | 'G' | 'R';
  area: 'H' | 'P';
  paid: 'Y' | 'N';
  status: 'Y' | 'N';
  children: RepairTypeNode[];
}

export const repairTypeSchemas = {
  ...repairType.schemas,
  repair_tech_small_list: z.object({ type_id: optionalId }),
  repairtypetree: z.object({}),
  repairsettings: z.object({}),
  repairsettingsedit: repairSettingsInput,
} as const;

export type RepairTypeOutputs = ResourceOutputs<typeof repairType.def, RepairTypeItem> & {
  repair_tech_small_list: { items: RepairTech[] };
  repairtypetree: { items: RepairTypeNode[] };
  repairsettings: RepairSettings;
  repairsettingsedit: RepairSettings;
};
