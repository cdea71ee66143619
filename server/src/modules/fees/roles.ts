/** Who may do what in the fees area (role names of docs/product.md#roles; admin always passes). */
export const ROLES = {
  /** cost types, fee items, bindings */
  setup: ['setfees', 'fees'],
  /** small lists the cashier, bill and report pages read */
  read: ['setfees', 'fees', 'cashier', 'payment', 'feecount', 'fees_count', 'printbill', 'call'],
  /** bill generation, edits, checks, exports */
  bills: ['fees'],
  billRead: ['fees', 'cashier', 'payment', 'printbill', 'call'],
  cashier: ['cashier'],
  payments: ['payment', 'cashier'],
  /** quick one-off payments (快捷收费) */
  quickpay: ['cashier', 'payment', 'fees'],
} as const;
