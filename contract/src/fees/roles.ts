/** Who may do what in the fees area (role names of docs/product.md; admin always passes). */
export const FEE_ROLES = {
  /** cost types, fee items, bindings */
  setup: ['setfees', 'fees'],
  /** small lists the cashier, bill and report pages read */
  read: ['setfees', 'fees', 'cashier', 'payment', 'feecount', 'fees_count', 'printbill', 'call'],
  /** bill generation, edits, checks, exports */
  bills: ['fees'],
  billRead: ['fees', 'cashier', 'payment', 'printbill', 'call'],
  cashier: ['cashier'],
  /** the receipts (收费记录) and the counter's figures: finance reads them and voids from them */
  payments: ['payment', 'cashier', 'financecount'],
  /** dunning notices (催缴) */
  call: ['call', 'fees'],
  /** the fee reports (收费统计, 财务报表, …) */
  reports: ['feecount', 'fees_count', 'propertypaystatis', 'financecount'],
  /** combined bills of an owner's rooms (合并账单): those who read the bill list */
  conbill: ['fees', 'cashier', 'payment'],
  /** quick one-off payments (临时收费) */
  quickpay: ['cashier', 'payment', 'fees'],
  /** 成本登记: the cost items and the costs paid, registered and voided by fee settings or finance */
  costs: ['setfees', 'financecount'],
  /** who reads the costs and 成本统计 (costcount): those who write them and the fee reports' readers */
  costRead: ['setfees', 'financecount', 'feecount'],
} as const;
