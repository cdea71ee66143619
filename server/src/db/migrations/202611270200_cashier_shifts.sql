-- 交班单 (issue 34; modules/fees/shifts.ts): a cashier's hand-over, closing what they took since
-- their last one. The figures are a snapshot of the receipts, refunds and voids of the shift as
-- they were when it was handed over: a later refund does not change a closed shift.
CREATE TABLE cashier_shifts (
  rid              int NOT NULL,
  id               bigserial,
  cashier_id       bigint NOT NULL,
  cashier_name     text NOT NULL DEFAULT '',
  -- the previous hand-over's end, or the cashier's first receipt; the shift holds (started_at, ended_at]
  started_at       timestamptz NOT NULL,
  ended_at         timestamptz NOT NULL,
  -- per pay method: [{ pay_type, count, amount, balance_used }]
  by_method        jsonb NOT NULL DEFAULT '[]',
  receipts         int NOT NULL DEFAULT 0,
  receipts_amount  numeric(14,2) NOT NULL DEFAULT 0,
  balance_used     numeric(14,2) NOT NULL DEFAULT 0,
  refunds          int NOT NULL DEFAULT 0,
  refunds_amount   numeric(14,2) NOT NULL DEFAULT 0,
  voided           int NOT NULL DEFAULT 0,
  voided_amount    numeric(14,2) NOT NULL DEFAULT 0,
  remark           text NOT NULL DEFAULT '',
  idempotency_key  text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, idempotency_key),
  -- one hand-over ends a cashier's shift at a time
  UNIQUE (rid, cashier_id, ended_at),
  CHECK (ended_at >= started_at)
);
CREATE INDEX cashier_shifts_cashier ON cashier_shifts (rid, cashier_id, ended_at DESC);
CREATE INDEX cashier_shifts_time ON cashier_shifts (rid, ended_at DESC);
-- a cashier's receipts in a time window (the shift's takings)
CREATE INDEX fee_payments_cashier_time ON fee_payments (rid, cashier_id, created_at);
