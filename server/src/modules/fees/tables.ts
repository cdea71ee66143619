import type { ColumnType, Generated } from 'kysely';

type Default<T> = ColumnType<T, T | undefined, T>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Numeric = ColumnType<string, string | number | undefined, string | number>;

export interface FeeCostTypesTable {
  rid: number;
  id: Generated<number>;
  cost_type: string;
  title: string;
  sort: Default<number>;
  created_at: Timestamp;
}

export type Pricing = 'area_built' | 'area_indoor' | 'fixed' | 'meter' | 'quantity';

export interface FeeItemsTable {
  rid: number;
  id: Generated<number>;
  cost_type: string;
  title: string;
  pricing: Pricing;
  unit_price: Numeric;
  default_quantity: Numeric;
  cycle_months: Default<number>;
  due_day: Default<number>;
  late_fee_rule: Default<'none' | 'daily'>;
  late_fee_rate: Numeric;
  late_fee_grace_days: Default<number>;
  late_fee_cap_percent: Default<number>;
  status: Default<'Y' | 'N'>;
  remark: Default<string>;
  created_at: Timestamp;
}

export type BindScope = 'region' | 'building' | 'unit' | 'category' | 'room' | 'lot' | 'space' | 'car';

export interface FeeBindingsTable {
  rid: number;
  id: Generated<number>;
  item_id: number;
  scope: BindScope;
  ref_id: Default<number>;
  created_by: Default<string>;
  created_at: Timestamp;
}

export interface FeeBatchesTable {
  rid: number;
  id: Generated<number>;
  period: string;
  item_ids: number[];
  filters: ColumnType<unknown, string | undefined, string>;
  job_id: number | null;
  status: Default<'running' | 'done' | 'failed' | 'cancelled'>;
  bill_count: Default<number>;
  total_fee: Numeric;
  created_by: Default<string>;
  created_at: Timestamp;
}

export interface FeeReceiptCountersTable {
  rid: number;
  last_no: Default<number>;
}

export type PayType = 'cash' | 'wechat' | 'alipay' | 'bankcard' | 'transfer' | 'balance';

export interface FeePaymentsTable {
  rid: number;
  id: Generated<number>;
  receipt_no: string;
  hid: number;
  bid: number;
  tid: number;
  member_id: number | null;
  payer_name: Default<string>;
  receivable: Numeric;
  late_fee: Numeric;
  discount: Numeric;
  balance_used: Numeric;
  due: Numeric;
  paid_amount: Numeric;
  to_balance: Numeric;
  pay_type: PayType;
  cashier_id: number | null;
  cashier_name: Default<string>;
  idempotency_key: string;
  remark: Default<string>;
  status: Default<'Y' | 'R' | 'P'>;
  refunded_amount: Numeric;
  print_count: Default<number>;
  created_at: Timestamp;
}

export interface FeeBillsTable {
  rid: number;
  id: Generated<number>;
  hid: number;
  bid: number;
  tid: number;
  item_id: number;
  cost_type: string;
  title: string;
  period: string;
  daterange: Default<string>;
  measure: Default<string>;
  unit_price: Numeric;
  fee: Numeric;
  status: Default<'E' | 'Y' | 'N'>;
  is_check: Default<'Y' | 'N'>;
  batch_id: number | null;
  source: Default<string>;
  due_date: string;
  late_fee: Numeric;
  paid_at: NullableTimestamp;
  payment_id: number | null;
  create_time: Timestamp;
  /** the parking space / car a parking bill is for; 0 for a room's own bill */
  space_id: Default<number>;
  car_id: Default<number>;
}

/**
 * Changes to the bills' count and fees per community, period, item, cost type and status, added
 * by fee_bills' own triggers and folded daily (migration 024, totals.ts): summed, they are the
 * bills' totals.
 */
export interface FeeBillTotalsTable {
  rid: number;
  id: Generated<number>;
  period: string;
  item_id: number;
  cost_type: string;
  status: 'E' | 'Y' | 'N';
  bills: number;
  fee: Numeric;
}

/** The payments' kept totals per community, business day, pay type and cashier (migration 025, totals.ts). */
export interface FeePaymentTotalsTable {
  rid: number;
  id: Generated<number>;
  day: string;
  pay_type: PayType;
  cashier_name: string;
  payments: number;
  paid_amount: Numeric;
  balance_used: Numeric;
  discount: Numeric;
  late_fee: Numeric;
}

export interface FeePaymentItemsTable {
  rid: number;
  id: Generated<number>;
  payment_id: number;
  bill_id: number;
  /** the bill's cost type (013_payment_item_cost_type.sql) */
  cost_type: string;
  title: string;
  period: string;
  daterange: Default<string>;
  fee: Numeric;
  late_fee: Numeric;
  refunded: Default<'Y' | 'N'>;
}

export interface FeeBillAdjustmentsTable {
  rid: number;
  id: Generated<number>;
  bill_id: number;
  old_fee: Numeric;
  new_fee: Numeric;
  reason: string;
  created_by: Default<string>;
  created_at: Timestamp;
}

export interface FeeRefundsTable {
  rid: number;
  id: Generated<number>;
  payment_id: number;
  bill_ids: number[];
  amount: Numeric;
  cash_amount: Numeric;
  balance_amount: Numeric;
  reason: string;
  status: Default<'E' | 'Y' | 'N'>;
  applicant: Default<string>;
  approver: Default<string>;
  approve_remark: Default<string>;
  created_at: Timestamp;
  approved_at: NullableTimestamp;
}

export interface FeeMeterReadingsTable {
  rid: number;
  id: Generated<number>;
  hid: number;
  item_id: number;
  period: string;
  last_reading: Numeric;
  this_reading: Numeric;
  /** generated: this_reading - last_reading */
  quantity: ColumnType<string, never, never>;
  remark: Default<string>;
  created_by: Default<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FeeSettingsTable {
  rid: number;
  receipt_title: Default<string>;
  receipt_footnote: Default<string>;
  receipt_prefix: Default<string>;
  allow_discount: Default<'Y' | 'N'>;
  max_discount_percent: Default<number>;
  default_due_day: Default<number>;
  updated_by: Default<string>;
  updated_at: Timestamp;
}

/** Tables of the fees area (cost types, fee items, bindings, bills, payments, receipts, refunds). */
export interface FeesTables {
  fee_cost_types: FeeCostTypesTable;
  fee_items: FeeItemsTable;
  fee_bindings: FeeBindingsTable;
  fee_batches: FeeBatchesTable;
  fee_receipt_counters: FeeReceiptCountersTable;
  fee_payments: FeePaymentsTable;
  fee_bills: FeeBillsTable;
  fee_bill_totals: FeeBillTotalsTable;
  fee_payment_totals: FeePaymentTotalsTable;
  fee_payment_items: FeePaymentItemsTable;
  fee_bill_adjustments: FeeBillAdjustmentsTable;
  fee_refunds: FeeRefundsTable;
  fee_meter_readings: FeeMeterReadingsTable;
  fee_settings: FeeSettingsTable;
}
