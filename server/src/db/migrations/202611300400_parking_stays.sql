-- Entries and exits (车辆进出, /carpark/carInout; docs/product.md#parking-gates): the in/out
-- records grow into stays with a state, the lanes they passed, why each gate opened, the fee version
-- and breakdown they were priced with; every decision at a lane is logged, refused ones included;
-- a temporary stay's payment is a receipt of the fees area without a room.

ALTER TABLE parking_records
  -- the car's kind as priced (small | large | new_energy)
  ADD COLUMN car_kind       text NOT NULL DEFAULT 'small' CHECK (car_kind IN ('small', 'large', 'new_energy')),
  -- I 在场 | P 已支付 (paid inside the lot: leaves within the lot's minutes) | O 已离场
  ADD COLUMN state          char(1) NOT NULL DEFAULT 'O' CHECK (state IN ('I', 'P', 'O')),
  ADD COLUMN entry_lane_id  bigint,
  ADD COLUMN exit_lane_id   bigint,
  -- why the gate opened at the entry and at the exit (codes: docs/product.md#parking-gates)
  ADD COLUMN entry_reason   text NOT NULL DEFAULT '',
  ADD COLUMN exit_reason    text NOT NULL DEFAULT '',
  -- the fee version the stay was priced with, and the last breakdown (free time, normal, over, capped, coupons, due, paid)
  ADD COLUMN version_id     bigint,
  ADD COLUMN breakdown      jsonb,
  -- the last payment: a paid stay leaves within the lot's minutes of it, after that it bills again from it
  ADD COLUMN paid_at        timestamptz,
  -- a manual opening: the guard and the note
  ADD COLUMN manual_by      bigint,
  ADD COLUMN manual_by_name text NOT NULL DEFAULT '',
  ADD COLUMN manual_note    text NOT NULL DEFAULT '',
  -- the plate the camera read when the guard corrected it
  ADD COLUMN read_plate     text NOT NULL DEFAULT '',
  ADD COLUMN snapshot       text NOT NULL DEFAULT '',
  ADD COLUMN created_at     timestamptz NOT NULL DEFAULT now(),
  ADD FOREIGN KEY (rid, entry_lane_id) REFERENCES parking_lanes (rid, id),
  ADD FOREIGN KEY (rid, exit_lane_id) REFERENCES parking_lanes (rid, id),
  ADD FOREIGN KEY (rid, version_id) REFERENCES parking_fee_versions (rid, id);
-- the demo's records still inside are stays in the lot
UPDATE parking_records SET state = 'I' WHERE outtime IS NULL;
-- one open stay a plate a lot: a second entry closes the first (reenter) or is refused
CREATE UNIQUE INDEX parking_records_open ON parking_records (rid, lot_id, carno) WHERE state <> 'O';
CREATE INDEX parking_records_intime ON parking_records (rid, intime);
CREATE INDEX parking_records_outtime ON parking_records (rid, outtime) WHERE outtime IS NOT NULL;
CREATE INDEX parking_records_inside ON parking_records (rid, lot_id, intime) WHERE state <> 'O';

-- Every decision at a lane: opened, refused (with the reason), waiting for the guard, or to pay.
CREATE TABLE parking_gate_events (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  lane_id      bigint NOT NULL,
  lot_id       bigint NOT NULL,
  plate        text NOT NULL,
  -- I in | O out
  direction    char(1) NOT NULL CHECK (direction IN ('I', 'O')),
  event_at     timestamptz NOT NULL,
  -- open | refuse | wait (the guard confirms a temporary car) | pay (the exit waits for the fee)
  decision     text NOT NULL CHECK (decision IN ('open', 'refuse', 'wait', 'pay')),
  reason       text NOT NULL,
  content      text NOT NULL DEFAULT '',
  due          numeric(14,2) NOT NULL DEFAULT 0 CHECK (due >= 0),
  stay_id      bigint,
  -- a manual opening's guard
  operator     text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, lane_id) REFERENCES parking_lanes (rid, id)
);
CREATE INDEX parking_gate_events_time ON parking_gate_events (rid, event_at);
CREATE INDEX parking_gate_events_lane ON parking_gate_events (rid, lane_id, id);

-- A temporary stay's QR payment: the order registered with the payment provider, settled once by
-- what the provider says (as renewal orders are).
CREATE TABLE parking_pay_orders (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  orderid      text NOT NULL UNIQUE,
  stay_id      bigint NOT NULL,
  -- the exit time the fee was priced at, and the coupons it used
  priced_at    timestamptz NOT NULL,
  coupon_ids   bigint[] NOT NULL DEFAULT '{}',
  -- the exit lane it was asked at: the gate opens there once it is paid
  lane_id      bigint,
  amount       numeric(14,2) NOT NULL CHECK (amount > 0),
  code_url     text NOT NULL,
  -- W waiting | Y paid | C cancelled (another payment or a newer order settled the stay)
  status       char(1) NOT NULL DEFAULT 'W' CHECK (status IN ('W', 'Y', 'C')),
  payment_id   bigint,
  created_by   bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, stay_id) REFERENCES parking_records (rid, id)
);
CREATE INDEX parking_pay_orders_stay ON parking_pay_orders (rid, stay_id);

-- A receipt without a room: a temporary stay's fee (临时停车费) is paid by a plate, not a household.
ALTER TABLE fee_payments
  ALTER COLUMN hid DROP NOT NULL,
  ALTER COLUMN bid DROP NOT NULL,
  ALTER COLUMN tid DROP NOT NULL,
  ADD COLUMN stay_id bigint,
  ADD FOREIGN KEY (rid, stay_id) REFERENCES parking_records (rid, id),
  ADD CONSTRAINT fee_payments_payer CHECK ((hid IS NOT NULL AND bid IS NOT NULL AND tid IS NOT NULL) OR stay_id IS NOT NULL);
CREATE INDEX fee_payments_stay ON fee_payments (rid, stay_id) WHERE stay_id IS NOT NULL;
ALTER TABLE fee_payment_items ALTER COLUMN bill_id DROP NOT NULL;
