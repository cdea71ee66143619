/** Tables of the fees area (cost types, fee items, bindings, bills, payments, receipts, refunds). */
export interface FeesTables {}
