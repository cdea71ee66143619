-- A cashier's request for a discount above the community's cap (fee_settings.max_discount_percent)
-- on chosen bills, decided by a manager and used once by the cashier when collecting exactly those
-- bills (issue 33; modules/fees/discounts.ts, the discount workflow of the contract).
CREATE TABLE fee_discount_requests (
  rid             int NOT NULL,
  id              bigserial,
  -- the desk's room: the receipt's room when it is used
  hid             bigint NOT NULL,
  -- exactly these bills, in id order
  bill_ids        bigint[] NOT NULL,
  -- what the bills came to when asked: their fees (a bill changed since refuses the use) and late fees
  receivable      numeric(14,2) NOT NULL CHECK (receivable >= 0),
  late_fee        numeric(14,2) NOT NULL DEFAULT 0 CHECK (late_fee >= 0),
  amount          numeric(14,2) NOT NULL CHECK (amount > 0),
  reason          text NOT NULL,
  -- E waiting | Y approved | N rejected | U used by a payment
  status          char(1) NOT NULL DEFAULT 'E' CHECK (status IN ('E', 'Y', 'N', 'U')),
  applicant       text NOT NULL DEFAULT '',
  approver        text NOT NULL DEFAULT '',
  approve_remark  text NOT NULL DEFAULT '',
  approved_at     timestamptz,
  payment_id      bigint,
  used_at         timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  -- the applicant's account: only they use it, never they decide it
  created_by      bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, payment_id) REFERENCES fee_payments (rid, id)
);
CREATE INDEX fee_discount_requests_status ON fee_discount_requests (rid, status, id);
CREATE INDEX fee_discount_requests_hid ON fee_discount_requests (rid, hid, id);
