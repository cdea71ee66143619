/**
 * Who may do what with invoices (/invoice; docs/product.md#invoices). The spec role `invoicelist`
 * gates settings, issuing, reversal and the reports; a cashier may also ask for an invoice for an
 * owner (开票申请), which an `invoicelist` holder reviews. admin always passes.
 */
export const INVOICE_ROLES = {
  /** settings, mappings, the waiting list, issuing, reversal, reviewing applications */
  staff: ['invoicelist'],
  /** reading titles and the waiting list, and applying for an owner: the cashiers too */
  apply: ['invoicelist', 'cashier'],
  /** the electronic invoice report (businesscount group) */
  report: ['invoicelist', 'businesscounts', 'financecount'],
} as const;
