-- Fees, second part: parking bills per space or car, meter readings (抄表), the community's fee
-- settings (receipt title, footnote and number prefix, cashier discount limit, default due day).

-- a bill belongs to a room; parking bills also name the space or the car they are for (0 = none),
-- so a room with two spaces gets two bills of the same item and period
ALTER TABLE fee_bills ADD COLUMN space_id bigint NOT NULL DEFAULT 0;
ALTER TABLE fee_bills ADD COLUMN car_id bigint NOT NULL DEFAULT 0;
ALTER TABLE fee_bills DROP CONSTRAINT fee_bills_rid_hid_item_id_period_key;
ALTER TABLE fee_bills ADD CONSTRAINT fee_bills_bill_key UNIQUE (rid, hid, item_id, period, space_id, car_id);

-- lot: every sold/rented space of a parking lot that has a room; space: one space;
-- car: one car, or with ref_id 0 every car of the community
ALTER TABLE fee_bindings DROP CONSTRAINT fee_bindings_scope_check;
ALTER TABLE fee_bindings ADD CONSTRAINT fee_bindings_scope_check
  CHECK (scope IN ('region', 'building', 'unit', 'category', 'room', 'lot', 'space', 'car'));

-- one reading per room, meter item and period; generation bills `quantity` instead of the item's default
CREATE TABLE fee_meter_readings (
  rid           int NOT NULL,
  id            bigserial,
  hid           bigint NOT NULL,
  item_id       bigint NOT NULL,
  period        text NOT NULL,
  last_reading  numeric(14,2) NOT NULL DEFAULT 0 CHECK (last_reading >= 0),
  this_reading  numeric(14,2) NOT NULL CHECK (this_reading >= 0),
  quantity      numeric(14,2) GENERATED ALWAYS AS (this_reading - last_reading) STORED,
  remark        text NOT NULL DEFAULT '',
  created_by    text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  UNIQUE (rid, hid, item_id, period),
  CHECK (this_reading >= last_reading),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, item_id) REFERENCES fee_items (rid, id)
);
CREATE INDEX fee_meter_readings_item_period ON fee_meter_readings (rid, item_id, period);

-- one row per community; no row means the defaults below
CREATE TABLE fee_settings (
  rid                   int PRIMARY KEY REFERENCES regions(id),
  -- '' prints "<community> 收款收据"
  receipt_title         text NOT NULL DEFAULT '',
  receipt_footnote      text NOT NULL DEFAULT '',
  -- put before the sequential number: 'YG' + '00000012'
  receipt_prefix        text NOT NULL DEFAULT '',
  -- whether the cashier may give a discount (waive late fees), and at most this percent of the total
  allow_discount        char(1) NOT NULL DEFAULT 'Y' CHECK (allow_discount IN ('Y', 'N')),
  max_discount_percent  int NOT NULL DEFAULT 100 CHECK (max_discount_percent BETWEEN 0 AND 100),
  -- due day of new fee items
  default_due_day       int NOT NULL DEFAULT 15 CHECK (default_due_day BETWEEN 1 AND 28),
  updated_by            text NOT NULL DEFAULT '',
  updated_at            timestamptz NOT NULL DEFAULT now()
);
