/** Refund approval as a workflow (docs/resources.md): a request waits, then is approved or rejected. */
import { text } from '../common.js';
import { valueEnum } from '../kit/resource.js';
import { workflow } from '../kit/workflow.js';

/** the action code 退款申请 (contract/src/team/permissions.ts), held by the built-in 收银员 */
export const REFUND_APPLY_ROLES = ['refund'] as const;
/** approval is a finance decision; the cashier who asked cannot approve */
export const REFUND_APPROVE_ROLES = ['financecount'] as const;
/**
 * Who may void a receipt (作废) on the day it was made: the cashier who took it (a cashier voids
 * only their own receipts), and finance, who decide refunds, any receipt of the community (admin
 * always passes).
 */
export const PAYMENT_VOID_ROLES = ['cashier', 'financecount'] as const;
/** of PAYMENT_VOID_ROLES, those who void any cashier's receipt */
export const PAYMENT_VOID_ANY_ROLES = ['financecount'] as const;
/** 交班: the cashiers hand over their own shifts; finance reads every cashier's (admin always passes) */
export const SHIFT_HANDOVER_ROLES = ['cashier'] as const;
export const SHIFT_READ_ROLES = ['cashier', 'financecount'] as const;
/** of SHIFT_READ_ROLES, those who read every cashier's hand-overs, not only their own */
export const SHIFT_ALL_ROLES = ['financecount'] as const;

export const REFUND_STATUS = valueEnum(
  {
    E: { text: '待审核', tone: 'warning' },
    Y: { text: '已退款', tone: 'success' },
    N: { text: '已驳回', tone: 'error' },
  },
  { key: 'refund_status', name: '退款状态' },
);

const remark = { remark: text(200).default('') };

export const refundFlow = workflow({
  name: 'refund',
  label: '退款申请',
  states: REFUND_STATUS,
  transitions: {
    approve: {
      method: 'refundapprove',
      label: '同意退款',
      from: ['E'],
      to: 'Y',
      roles: REFUND_APPROVE_ROLES,
      fixed: { approve: true },
      input: remark,
      inputLabels: { remark: '审核意见' },
      confirm: '同意后账单恢复未缴，余额抵扣的部分退回余额，其余原路退回。确定同意退款？',
    },
    reject: {
      method: 'refundapprove',
      label: '驳回',
      from: ['E'],
      to: 'N',
      roles: REFUND_APPROVE_ROLES,
      fixed: { approve: false },
      input: remark,
      inputLabels: { remark: '驳回原因' },
      danger: true,
    },
  },
  logMethod: 'refundlog',
  fieldLabels: { reason: '退款原因', amount: '退款金额' },
});
