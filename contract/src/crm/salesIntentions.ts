/**
 * Intention deposits (认筹 /crm/intentions; docs/product.md#crm-sales): a queue number (排号,
 * sequential in the community, never given twice) and an ordinary fee bill of the room chosen (the
 * sales office or the unit wanted; item 认筹金 under the cost type 销售收入), paid at the cashier and
 * refunded through the fees' refund workflow. Paying it moves the customer to 认筹.
 */
import { z } from 'zod';
import { id, text } from '../common.js';
import { createTimeColumn, resource, valueEnum, type ResourceOutputs } from '../kit/resource.js';
import { workflow, type WorkflowLogItem } from '../kit/workflow.js';
import { MAX_BILL_FEN, moneyUpTo, toFen } from '../money.js';
import { SALES_ROLES } from './salesCustomers.js';

/**
 * As read: 待缴费 until its bill is paid at the cashier (again if the receipt is voided), 已缴费,
 * 退款中 while the refund request waits (已缴费 again if it is rejected), 已退款 once approved,
 * 已取消 (unpaid, its bill deleted).
 */
export const INTENTION_STATUS = valueEnum({
  P: { text: '待缴费', tone: 'warning' },
  Y: { text: '已缴费', tone: 'success' },
  R: { text: '退款中', tone: 'processing' },
  T: { text: '已退款', tone: 'default' },
  C: { text: '已取消', tone: 'default' },
});
export type IntentionStatus = keyof typeof INTENTION_STATUS;

/** The fee item and cost type the deposits are billed under. */
export const INTENTION_ITEM = { title: '认筹金', cost: { code: 'sales', title: '销售收入', sort: 92 } } as const;

/** 第 007 号 */
export const queueText = (n: number): string => `第 ${String(n).padStart(3, '0')} 号`;

export interface IntentionItem {
  id: number;
  queue_no: number;
  /** 第 007 号 */
  queue_text: string;
  customer_id: number;
  customer_name: string;
  mobile: string;
  consultant_name: string;
  amount: string;
  hid: number;
  address: string;
  bill_id: number | null;
  receipt_no: string;
  status: IntentionStatus;
  status_ch: string;
  paid_at: string;
  refund_id: number | null;
  reason: string;
  remark: string;
  creator: string;
  create_time: string;
}

export const intention = resource<IntentionItem>()({
  name: 'intention',
  label: '认筹',
  methods: { list: 'intentionlist', add: 'intentionadd', info: 'intentioninfo', export: 'intentionexport' },
  roles: { read: SALES_ROLES.staff, write: SALES_ROLES.staff },
  sort: 'desc',
  fields: {
    customer_id: { label: '客户', zod: id, widget: { small: 'crmcustomer_small_list' }, in: ['form', 'filter'] },
    amount: {
      label: '认筹金额',
      zod: moneyUpTo(MAX_BILL_FEN).refine((v) => toFen(v) > 0n, '认筹金额须大于0'),
      widget: 'money',
      in: ['form', 'table', 'export'],
      width: 120,
    },
    hid: {
      label: '缴费房屋',
      zod: z
        .union([z.literal(''), z.null(), id])
        .optional()
        .transform((v) => (v === '' || v === null ? undefined : v)),
      widget: 'room',
      in: ['form'],
      help: '认筹金账单记在这个房屋上（售楼处或客户的意向房源，不能是已有业主的房屋）；不选为客户的意向房源',
    },
    remark: { label: '备注', zod: text(200).default(''), widget: 'textarea', in: ['form', 'table', 'export'], width: 160 },
    status: { label: '状态', enum: INTENTION_STATUS, in: ['table', 'filter', 'export'], width: 90 },
    keyword: { label: '客户姓名/手机号/排号', zod: text(30), in: ['filter'] },
    create_time: { label: '登记时间', widget: 'dateRange', in: ['filter'] },
  },
  columns: [
    { key: 'queue_text', label: '排号', width: 100, fixed: true },
    { key: 'customer_name', label: '客户', width: 100 },
    { key: 'mobile', label: '手机号', width: 130 },
    { key: 'consultant_name', label: '置业顾问', width: 100 },
    { key: 'address', label: '缴费房屋', width: 160 },
    { key: 'receipt_no', label: '收据号', width: 120 },
    { key: 'paid_at', label: '缴费时间', width: 170 },
    { key: 'reason', label: '取消/退款原因', width: 160, in: ['export'] },
    createTimeColumn('登记时间'),
  ],
});

const why = (label: string) => ({ reason: text(200).min(1, `请填写${label}`) });

/** The deposit's own steps: an unpaid one cancelled, a paid one refunded through the refund workflow (finance approves). */
export const intentionFlow = workflow({
  name: 'intention',
  label: '认筹',
  states: INTENTION_STATUS,
  transitions: {
    cancel: {
      method: 'intentioncancel',
      label: '取消认筹',
      from: ['P'],
      to: 'C',
      roles: SALES_ROLES.staff,
      input: why('取消原因'),
      inputLabels: { reason: '取消原因' },
      confirm: '取消后认筹金账单删除，收银台不能再收；排号作废不再使用。',
      danger: true,
    },
    refund: {
      method: 'intentionrefund',
      label: '申请退款',
      from: ['Y'],
      to: 'R',
      roles: SALES_ROLES.staff,
      input: why('退款原因'),
      inputLabels: { reason: '退款原因' },
      confirm: '按收据提交退款申请，财务审核通过后原路退回；已开发票的须先红冲。',
      danger: true,
    },
  },
  steps: { create: '登记认筹', pay: '收银台缴费', refunded: '退款完成' },
  logMethod: 'intentionlog',
  fieldLabels: { amount: '认筹金额', queue_no: '排号', receipt_no: '收据号', refund_id: '退款申请' },
});

export const salesIntentionSchemas = {
  ...intention.schemas,
  ...intentionFlow.schemas,
} as const;

export type SalesIntentionOutputs = ResourceOutputs<typeof intention.def, IntentionItem> & {
  intentioncancel: IntentionItem;
  intentionrefund: IntentionItem;
  intentionlog: { items: WorkflowLogItem[] };
};
