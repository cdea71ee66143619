/**
 * Discount approval as a workflow (docs/resources.md): a cashier asks for a discount above the
 * community's cap (max_discount_percent) on chosen bills, with a reason; a manager approves or
 * rejects it; the cashier who asked may then use an approved one once, when collecting exactly
 * those bills (issue 33).
 */
import { text } from '../common.js';
import { valueEnum } from '../kit/resource.js';
import { workflow } from '../kit/workflow.js';

/** Who may ask: the cashiers. */
export const DISCOUNT_APPLY_ROLES = ['cashier'] as const;
/**
 * The roles that may discount above the community's cap (max_discount_percent; admin always may)
 * and approve a cashier's request to: the managers of the fee settings and of finance. A cashier is
 * refused above it, and may ask for an approval.
 */
export const DISCOUNT_MANAGER_ROLES = ['setfees', 'financecount'] as const;

export const DISCOUNT_STATUS = valueEnum({
  E: { text: '待审批', tone: 'warning' },
  Y: { text: '已批准', tone: 'success' },
  N: { text: '已驳回', tone: 'error' },
  U: { text: '已使用', tone: 'processing' },
});
export type DiscountStatus = keyof typeof DISCOUNT_STATUS;

const remark = { remark: text(200).default('') };

export const discountFlow = workflow({
  name: 'discount',
  label: '优惠申请',
  states: DISCOUNT_STATUS,
  transitions: {
    approve: {
      method: 'discountapprove',
      label: '批准',
      from: ['E'],
      to: 'Y',
      roles: DISCOUNT_MANAGER_ROLES,
      fixed: { approve: true },
      input: remark,
      inputLabels: { remark: '审批意见' },
      confirm: '批准后，申请人收取这些账单时可使用此优惠一次。确定批准？',
    },
    reject: {
      method: 'discountapprove',
      label: '驳回',
      from: ['E'],
      to: 'N',
      roles: DISCOUNT_MANAGER_ROLES,
      fixed: { approve: false },
      input: remark,
      inputLabels: { remark: '驳回原因' },
      danger: true,
    },
  },
  steps: { use: '收款使用', void: '收据作废，可再次使用' },
  logMethod: 'discountlog',
  fieldLabels: { reason: '申请原因', amount: '优惠金额', receipt_no: '收据号' },
});
