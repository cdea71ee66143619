/**
 * Tenant leases (租赁合同 /crm: leaselist, leaseadd, leaseedit, lease_approval, lease_approval_info,
 * rerent, signout, leasereport; docs/product.md#crm-leases): the lease and its rent schedule
 * (leaseSchedule.ts), its approval (a workflow over `approval_status`) kept apart from its business
 * status (`status`), its bills, its renewal and its check-out settlement, the lease defaults of
 * setcrmsys and the reports.
 */
import { z } from 'zod';
import type { ListAnswer } from '../codes.js';
import { id, int, optionalId, paging, text } from '../common.js';
import { enumOrAll, enumSchema, valueEnum, wireDay } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import type { ExportQueued } from '../jobs.js';
import { money, moneyUpTo, MAX_BILL_FEN, toFen } from '../money.js';
import { MOBILE_RE } from '../owners.js';
import { CRM_ROLES } from './roles.js';
import { LEASE_CYCLES, type LeaseSchedule, type SchedulePeriod } from './leaseSchedule.js';

export * from './leaseSchedule.js';

/* ---------- who ---------- */

/** Who may do what with leases: `tenant` drafts, submits, renews and checks out; `leaseaudit` approves. */
export const LEASE_ROLES = {
  /** read the leases, their schedules, logs and reports */
  read: [...CRM_ROLES.leases, ...CRM_ROLES.leaseAudit],
  write: CRM_ROLES.leases,
  approve: CRM_ROLES.leaseAudit,
} as const;

/* ---------- coded values ---------- */

/** The business status: what the lease is doing (the approval is `LEASE_APPROVAL`). */
export const LEASE_STATUS = valueEnum({
  D: { text: '未生效', tone: 'default' },
  Y: { text: '生效', tone: 'success' },
  X: { text: '即将到期', tone: 'warning' },
  O: { text: '已到期', tone: 'error' },
  R: { text: '已续租', tone: 'processing' },
  F: { text: '已结束', tone: 'default' },
  C: { text: '已作废', tone: 'default' },
});
export type LeaseStatus = keyof typeof LEASE_STATUS;
/** The statuses of a lease in force: billed by the job, renewable, checked out. */
export const LEASE_LIVE: readonly LeaseStatus[] = ['Y', 'X', 'O', 'R'];

export const LEASE_APPROVAL = valueEnum({
  N: { text: '草稿', tone: 'default' },
  P: { text: '审批中', tone: 'processing' },
  Y: { text: '已通过', tone: 'success' },
  B: { text: '已退回', tone: 'error' },
});
export type LeaseApproval = keyof typeof LEASE_APPROVAL;

export const LEASE_TENANT_KIND = valueEnum({ P: { text: '个人' }, C: { text: '企业' } });
export const LEASE_RENT_MODE = valueEnum({ M: { text: '按月租金' }, A: { text: '按面积（元/㎡·月）' } });
export const LEASE_CYCLE = valueEnum({ '1': { text: '月付' }, '3': { text: '季付' }, '6': { text: '半年付' }, '12': { text: '年付' } });
export const LEASE_ESCALATION = valueEnum({
  none: { text: '不递增' },
  amount: { text: '按金额递增' },
  percent: { text: '按比例递增' },
});
export const SIGNOUT_KIND = valueEnum({
  N: { text: '正常退租', tone: 'success' },
  E: { text: '提前退租', tone: 'warning' },
  O: { text: '逾期退租', tone: 'error' },
  T: { text: '其他', tone: 'default' },
});
export type SignoutKind = keyof typeof SIGNOUT_KIND;
/** What a lease bill is for. */
export const LEASE_BILL_KIND = valueEnum({
  rent: { text: '租金' },
  charge: { text: '其他费用' },
  deposit: { text: '押金' },
  damage: { text: '损坏赔偿' },
  penalty: { text: '违约金' },
});
/** Where a lease's deposit stands. */
export const LEASE_DEPOSIT_STATE = valueEnum({
  '': { text: '无' },
  E: { text: '未收', tone: 'warning' },
  Y: { text: '已收', tone: 'success' },
  K: { text: '已扣留', tone: 'default' },
  R: { text: '已退还', tone: 'processing' },
});
/** How far ahead the expiry filters and report look. */
export const LEASE_EXPIRING_WINDOWS = [30, 60, 90] as const;

/* ---------- the lease ---------- */

const MASKED_MOBILE_RE = /^1\d{2}\*{4}\d{4}$/;
const positive = (label: string) => moneyUpTo(MAX_BILL_FEN).refine((v) => toFen(v) > 0n, `${label}须大于0`);
const dayRange = z.object({ start: wireDay, end: wireDay });

/** The fields of a lease as its form sends them (leaseadd, leaseedit, rerent). */
export const leaseFields = {
  tenant_kind: enumSchema(LEASE_TENANT_KIND, '租户类型'),
  tenant_name: text(60).min(1, '请输入租户名称'),
  /** a company's contact person */
  contact: text(30).default(''),
  /** shown masked to an account without contact_whole: sent back masked, the stored one is kept */
  mobile: z
    .string()
    .trim()
    .refine((v) => MOBILE_RE.test(v) || MASKED_MOBILE_RE.test(v), '手机号码格式不正确，应为11位手机号'),
  /** a person's ID number or a company's unified social credit code */
  id_card: text(18).toUpperCase().default(''),
  /** an existing resident picked from the owners area (null: found by mobile or made at activation) */
  member_id: optionalId,
  hids: z.array(id).min(1, '请至少选择一个房屋').max(20, '一份租约最多 20 个房屋'),
  start_date: wireDay,
  end_date: wireDay,
  rent_mode: enumSchema(LEASE_RENT_MODE, '计租方式'),
  /** the monthly rent, or the price per m² a month */
  rent_price: positive('租金'),
  deposit: moneyUpTo(MAX_BILL_FEN).default('0.00'),
  cycle_months: int(1, 12).refine((v) => (LEASE_CYCLES as readonly number[]).includes(v), '付款周期取值不正确'),
  bill_ahead_days: int(0, 90),
  free_periods: z.array(dayRange).max(12, '免租期最多 12 段').default([]),
  escalation_kind: enumSchema(LEASE_ESCALATION, '递增方式').default('none'),
  /** yuan a month, or a percent */
  escalation_value: money.default('0.00'),
  escalation_years: int(1, 10).default(1),
  charges: z
    .array(z.object({ name: text(20).min(1, '请填写费用名称'), monthly: moneyUpTo(MAX_BILL_FEN) }))
    .max(8, '其他费用最多 8 项')
    .default([]),
  remark: text(500).default(''),
};

export interface LeaseRoom {
  hid: number;
  address: string;
  area: string;
}

export interface LeaseRow {
  id: number;
  lease_no: string;
  tenant_kind: 'P' | 'C';
  tenant_kind_ch: string;
  tenant_name: string;
  contact: string;
  mobile: string;
  id_card: string;
  member_id: number | null;
  rooms: LeaseRoom[];
  /** the rooms' addresses, joined */
  address: string;
  start_date: string;
  end_date: string;
  /** days from today to the end (negative once past) */
  days_left: number;
  rent_mode: 'M' | 'A';
  rent_mode_ch: string;
  rent_price: string;
  rent_area: string;
  monthly_rent: string;
  deposit: string;
  /** LEASE_DEPOSIT_STATE: '' none, E unpaid, Y paid, K kept in full, R refunded (requested or made) */
  deposit_state: string;
  deposit_state_ch: string;
  cycle_months: number;
  cycle_months_ch: string;
  total_amount: string;
  /** unpaid lease bills past due */
  overdue: string;
  status: LeaseStatus;
  status_ch: string;
  approval_status: LeaseApproval;
  approval_status_ch: string;
  renew_of: number | null;
  renew_of_no: string;
  /** the renewal made of it (not void), if any */
  renewal_id: number | null;
  renewal_no: string;
  ended_on: string | null;
  creator: string;
  /** created by the reader: the approval is someone else's */
  mine: boolean;
  approver: string;
  approve_remark: string;
  approve_time: string;
  create_time: string;
}

export interface LeaseDetail extends LeaseRow {
  bill_ahead_days: number;
  free_periods: Array<{ start: string; end: string }>;
  escalation_kind: 'none' | 'amount' | 'percent';
  escalation_kind_ch: string;
  escalation_value: string;
  escalation_years: number;
  charges: Array<{ name: string; monthly: string }>;
  remark: string;
  deposit_kept: string;
  signout: LeaseSettlement | null;
}

/** A bill of a schedule's period. */
export interface LeasePeriodBill {
  bill_id: number;
  kind: string;
  kind_ch: string;
  title: string;
  fee: string;
  /** E pending, Y paid, N overdue */
  status: string;
  status_ch: string;
}

export interface LeaseSchedulePeriod extends SchedulePeriod {
  bills: LeasePeriodBill[];
  /** 未出账, 已出账, 已缴清, 已取消 (after a check-out) */
  state: string;
}

export interface LeaseScheduleAnswer extends Omit<LeaseSchedule, 'periods'> {
  monthly_rent: string;
  periods: LeaseSchedulePeriod[];
}

/* ---------- the approval: a workflow over approval_status ---------- */

const opinion = { remark: text(200).default('') };

export const leaseFlow = workflow({
  name: 'lease',
  label: '租约',
  states: LEASE_APPROVAL,
  stateField: 'approval_status',
  transitions: {
    submit: {
      method: 'leasesubmit',
      label: '提交审批',
      from: ['N', 'B'],
      to: 'P',
      roles: LEASE_ROLES.write,
      confirm: '提交后由租赁审批人员审批，审批期间不能修改。确定提交？',
    },
    approve: {
      method: 'leaseapprove',
      label: '审批通过',
      from: ['P'],
      to: 'Y',
      roles: LEASE_ROLES.approve,
      fixed: { approve: true },
      input: opinion,
      inputLabels: { remark: '审批意见' },
      confirm: '通过后租约生效：租户登记为房屋的租户，押金出账，到期的租金按计划出账。确定通过？',
    },
    reject: {
      method: 'leaseapprove',
      label: '退回',
      from: ['P'],
      to: 'B',
      roles: LEASE_ROLES.approve,
      fixed: { approve: false },
      // the methods share one schema (the kit merges the inputs): the reason is required by the handler
      input: opinion,
      inputLabels: { remark: '退回原因' },
      danger: true,
    },
  },
  steps: {
    create: '起草',
    renew: '续租起草',
    void: '作废',
    expiring: '即将到期',
    expired: '到期未退租',
    renewed: '已续租',
    ended: '租期结束',
    signout: '退租',
  },
  fieldLabels: { reason: '原因', lease_no: '租约编号', date: '日期', kind: '退租类型' },
});

/* ---------- check-out ---------- */

const line = z.object({ name: text(40).min(1, '请填写项目名称'), amount: positive('金额') });

export const signoutFields = {
  id,
  kind: enumSchema(SIGNOUT_KIND, '退租类型'),
  date: wireDay,
  reason: text(200).default(''),
  /** final meter readings, noted on the settlement */
  readings: z
    .array(z.object({ name: text(20).min(1, '请填写表计名称'), reading: money }))
    .max(6)
    .default([]),
  damages: z.array(line).max(20).default([]),
  penalties: z.array(line).max(20).default([]),
  /** what of the paid deposit is kept (the rest is refunded) */
  deposit_kept: money.default('0.00'),
  kept_reason: text(200).default(''),
};

export interface SettlementBill {
  bill_id: number;
  title: string;
  period: string;
  daterange: string;
  fee: string;
  due_date: string;
}
export interface SettlementLine {
  kind: string;
  kind_ch: string;
  title: string;
  daterange: string;
  amount: string;
}
export interface SettlementRefund {
  bill_id: number;
  title: string;
  receipt_no: string;
  paid: string;
  refund: string;
}

/** One check-out's sums, as the settlement page shows them before and after the confirmation. */
export interface LeaseSettlement {
  lease_id: number;
  lease_no: string;
  tenant_name: string;
  address: string;
  kind: SignoutKind;
  kind_ch: string;
  date: string;
  reason: string;
  readings: Array<{ name: string; reading: string }>;
  /** unpaid bills up to the date: they stay, the cashier takes them */
  unpaid: SettlementBill[];
  /** the last days (or an overstay), billed pro rata */
  last: SettlementLine[];
  /** unpaid bills of days after the date (or replaced by the last days): deleted */
  cancelled: SettlementBill[];
  /** paid bills of days after the date: refunded for those days */
  prepaid: SettlementRefund[];
  damages: SettlementLine[];
  penalties: SettlementLine[];
  deposit: { amount: string; paid: boolean; receipt_no: string; kept: string; kept_reason: string; refund: string };
  sums: { owed: string; refund: string; net: string };
  /** the refund requests made (after the confirmation) */
  refund_ids: number[];
  operator: string;
  create_time: string;
}

/* ---------- settings (a tab of setcrmsys) ---------- */

export interface LeaseSettings {
  number_prefix: string;
  next_seq: number;
  /** the next lease's number */
  next_no: string;
  expiring_days: number;
  deposit_months: number;
  bill_ahead_days: number;
  cycle_months: number;
}

export const leaseSettingsFields = {
  number_prefix: text(10)
    .toUpperCase()
    .regex(/^[A-Z0-9-]{1,10}$/, '编号前缀只能包含大写字母、数字和 -，最多10位'),
  next_seq: int(1, 99_999_999),
  expiring_days: int(1, 365),
  deposit_months: int(0, 12),
  bill_ahead_days: int(0, 90),
  cycle_months: int(1, 12).refine((v) => (LEASE_CYCLES as readonly number[]).includes(v), '付款周期取值不正确'),
};

/** A lease's number: the prefix and the sequence, five digits at least (ZL00012). */
export const leaseNumber = (prefix: string, seq: number) => `${prefix}${String(seq).padStart(5, '0')}`;

/* ---------- reports ---------- */

export interface LeaseOccupancyRow {
  hid: number;
  address: string;
  category: string;
  area: string;
  /** leased (a lease in force today), vacant */
  state: 'leased' | 'vacant';
  state_ch: string;
  lease_id: number | null;
  lease_no: string;
  tenant_name: string;
  end_date: string | null;
  monthly_rent: string;
  /** marked rentable by hand (besides ever leased) */
  marked: boolean;
}

export interface LeaseOverdueRow {
  bill_id: number;
  lease_id: number;
  lease_no: string;
  tenant_name: string;
  mobile: string;
  address: string;
  title: string;
  daterange: string;
  fee: string;
  due_date: string;
  days_overdue: number;
}

export const LEASE_OCCUPANCY_STATE = valueEnum({
  leased: { text: '在租', tone: 'success' },
  vacant: { text: '空置', tone: 'warning' },
});

/* ---------- methods ---------- */

const listFilters = {
  keyword: text(40).optional(),
  status: enumOrAll(LEASE_STATUS, '状态').optional(),
  approval_status: enumOrAll(LEASE_APPROVAL, '审批状态').optional(),
  hid: optionalId,
  bid: optionalId,
  /** in force and ending within 30, 60 or 90 days */
  expiring: z
    .union([z.literal(''), z.null(), int(1, 366)])
    .optional()
    .transform((v) => (v === '' || v === null ? undefined : v))
    .refine((v) => v === undefined || (LEASE_EXPIRING_WINDOWS as readonly number[]).includes(v), '到期范围取值不正确'),
  /** the approval page's views: waiting for me, decided, mine */
  view: z.enum(['', 'todo', 'decided', 'mine']).optional(),
  end_date: z.union([z.literal(''), z.null(), z.tuple([wireDay, wireDay])]).optional(),
};

const asOf = z.object({ as_of: wireDay });

export const leaseSchemas = {
  leaselist: z.object({ ...paging, sort: z.enum(['asc', 'desc']).default('desc'), ...listFilters }),
  leaseexport: z.object({ sort: z.enum(['asc', 'desc']).default('desc'), ...listFilters }),
  leaseinfo: z.object({ id }),
  leaseadd: z.object(leaseFields),
  leaseedit: z.object({ id, ...leaseFields }),
  leasevoid: z.object({ id, reason: text(200).min(1, '请填写作废原因') }),
  ...leaseFlow.schemas,
  leaselog: z.object({ id }),
  leaseschedule: z.object({ id }),
  /** a renewal: a new draft of the same tenant and rooms from the day after the old one's end */
  rerent: z.object({ id, ...leaseFields }),
  signoutpreview: z.object(signoutFields),
  signout: z.object(signoutFields),
  leasebillrun: asOf,
  leaseexpirerun: asOf,
  leasesettings: z.object({}),
  leasesettingsedit: z.object(leaseSettingsFields),
  /** residents to pick as the tenant (name or mobile) */
  lease_member_small_list: z.object({ keyword: text(30).default('') }),
  /** rooms to lease (address), with their area and the lease they are in */
  lease_room_small_list: z.object({ keyword: text(30).default(''), hids: z.array(id).max(20).default([]) }),
  leasereport: z.object({}),
  leaseoccupancylist: z.object({
    ...paging,
    state: enumOrAll(LEASE_OCCUPANCY_STATE, '出租状态').optional(),
    keyword: text(30).optional(),
  }),
  leaserentableset: z.object({ hid: id, rentable: z.enum(['Y', 'N']) }),
  leaseoverduelist: z.object({ ...paging, keyword: text(40).optional() }),
  leaseoverdueexport: z.object({ keyword: text(40).optional() }),
} as const;

export interface LeaseSmallRoom {
  id: number;
  title: string;
  area: string;
  /** the lease in force or in approval that holds it now, if any */
  lease_no: string;
}

export type LeaseOutputs = {
  leaselist: ListAnswer<LeaseRow>;
  leaseexport: ExportQueued;
  leaseinfo: LeaseDetail;
  leaseadd: { id: number; lease_no: string };
  leaseedit: { id: number };
  leasevoid: LeaseRow;
  leasesubmit: LeaseRow;
  leaseapprove: LeaseRow;
  leaselog: { items: WorkflowLogItem[] };
  leaseschedule: LeaseScheduleAnswer;
  rerent: { id: number; lease_no: string };
  signoutpreview: LeaseSettlement;
  signout: LeaseSettlement;
  leasebillrun: { leases: number; bills: number };
  leaseexpirerun: { expiring: number; expired: number; ended: number };
  leasesettings: LeaseSettings;
  leasesettingsedit: LeaseSettings;
  lease_member_small_list: { items: Array<{ id: number; title: string; realname: string; mobile: string; id_card: string }> };
  lease_room_small_list: { items: LeaseSmallRoom[] };
  leasereport: {
    expiring: Array<{ days: number; count: number; monthly_rent: string }>;
    occupancy: { rooms: number; leased: number; area: string; leased_area: string; rate: string };
    overdue: { bills: number; leases: number; amount: string };
  };
  leaseoccupancylist: ListAnswer<LeaseOccupancyRow>;
  leaserentableset: null;
  leaseoverduelist: ListAnswer<LeaseOverdueRow> & { sum: string };
  leaseoverdueexport: ExportQueued;
};
