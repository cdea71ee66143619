-- Parking structure (智能物联 /carpark; docs/product.md#carpark): lots grow their settings, booths
-- and lanes under them, the texts shown at the gate, spaces' kind and area, cars' lot, space,
-- lease and dates, black and white lists, and the monthly cars' renewal orders and change history.

-- A lot: its number, above or under ground, capacity, the rules a gate applies, the monthly price per car kind.
ALTER TABLE parking_lots
  ADD COLUMN code            text NOT NULL DEFAULT '',
  -- A above ground (地上) | U under ground (地下)
  ADD COLUMN ground          char(1) NOT NULL DEFAULT 'U' CHECK (ground IN ('A', 'U')),
  ADD COLUMN total_spaces    int NOT NULL DEFAULT 0 CHECK (total_spaces BETWEEN 0 AND 100000),
  -- an expired monthly car still passes as monthly for this many days
  ADD COLUMN grace_days      int NOT NULL DEFAULT 0 CHECK (grace_days BETWEEN 0 AND 90),
  -- a paid temporary stay may leave within this many minutes of paying
  ADD COLUMN leave_minutes   int NOT NULL DEFAULT 15 CHECK (leave_minutes BETWEEN 1 AND 240),
  -- Y: a monthly car without a space of its own takes a free space (counted against total_spaces)
  ADD COLUMN monthly_takes_free char(1) NOT NULL DEFAULT 'N' CHECK (monthly_takes_free IN ('Y', 'N')),
  -- a monthly car ending within this many days goes on the to-do list
  ADD COLUMN warn_days       int NOT NULL DEFAULT 7 CHECK (warn_days BETWEEN 1 AND 60),
  -- monthly price per car kind (a renewal of n months costs n × the price of the car's kind)
  ADD COLUMN price_small     numeric(14,2) NOT NULL DEFAULT 0 CHECK (price_small >= 0),
  ADD COLUMN price_large     numeric(14,2) NOT NULL DEFAULT 0 CHECK (price_large >= 0),
  ADD COLUMN price_new_energy numeric(14,2) NOT NULL DEFAULT 0 CHECK (price_new_energy >= 0),
  ADD COLUMN remark          text NOT NULL DEFAULT '',
  ADD COLUMN created_by      bigint;
UPDATE parking_lots SET code = 'P' || lpad(id::text, 2, '0') WHERE code = '';
CREATE UNIQUE INDEX parking_lots_code ON parking_lots (rid, code) WHERE code <> '';

-- A booth (岗亭) of a lot and its rules.
CREATE TABLE parking_booths (
  rid              int NOT NULL,
  id               bigserial,
  lot_id           bigint NOT NULL,
  title            text NOT NULL,
  -- temporary cars may enter
  allow_temp       char(1) NOT NULL DEFAULT 'Y' CHECK (allow_temp IN ('Y', 'N')),
  -- a temporary car's entry waits for the guard to open
  temp_confirm     char(1) NOT NULL DEFAULT 'N' CHECK (temp_confirm IN ('Y', 'N')),
  -- the booth collects fees (N: pay elsewhere before leaving)
  collects_fee     char(1) NOT NULL DEFAULT 'Y' CHECK (collects_fee IN ('Y', 'N')),
  -- a car already inside may enter again (a missed exit)
  reenter          char(1) NOT NULL DEFAULT 'Y' CHECK (reenter IN ('Y', 'N')),
  -- a car with no entry may leave
  exit_no_entry    char(1) NOT NULL DEFAULT 'N' CHECK (exit_no_entry IN ('Y', 'N')),
  remark           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, lot_id, title),
  FOREIGN KEY (rid, lot_id) REFERENCES parking_lots (rid, id)
);

-- A lane (车道, a gate) of a booth.
CREATE TABLE parking_lanes (
  rid              int NOT NULL,
  id               bigserial,
  booth_id         bigint NOT NULL,
  -- the code the device reports (unique in the community)
  code             text NOT NULL,
  title            text NOT NULL,
  -- I in | O out
  direction        char(1) NOT NULL CHECK (direction IN ('I', 'O')),
  vendor           text NOT NULL DEFAULT 'simulator' CHECK (vendor IN ('simulator')),
  -- the device's last heartbeat; online when within 2 minutes
  last_heartbeat   timestamptz,
  remark           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, code),
  FOREIGN KEY (rid, booth_id) REFERENCES parking_booths (rid, id)
);

-- The text shown and spoken at a lot's gates per event, where the lot changed the default.
CREATE TABLE parking_gate_texts (
  rid              int NOT NULL,
  lot_id           bigint NOT NULL,
  -- monthly_in | monthly_out | monthly_expiring | monthly_expired | temp_in | temp_out | temp_unpaid
  event            text NOT NULL,
  content          text NOT NULL,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, lot_id, event),
  FOREIGN KEY (rid, lot_id) REFERENCES parking_lots (rid, id) ON DELETE CASCADE
);

-- Spaces: their kind, area and remark. The state (idle, rented, sold) moves only with car operations.
ALTER TABLE parking_spaces
  -- ordinary (普通) | parent (子母) | virtual (虚拟)
  ADD COLUMN kind      text NOT NULL DEFAULT 'ordinary' CHECK (kind IN ('ordinary', 'parent', 'virtual')),
  ADD COLUMN area      numeric(10,2) NOT NULL DEFAULT 0 CHECK (area >= 0),
  ADD COLUMN remark    text NOT NULL DEFAULT '',
  ADD COLUMN created_by bigint;
CREATE INDEX parking_spaces_lot ON parking_spaces (rid, lot_id, status);

-- Cars: the lot and the space they hold, the lease, the dates; a member car shares its main car's space.
ALTER TABLE cars
  ADD COLUMN lot_id      bigint,
  ADD COLUMN space_id    bigint,
  -- '' none (a car only registered to its room) | M monthly (月租) | S sold (出售) | I internal (内部) | F free (免费)
  ADD COLUMN lease_type  char(1) NOT NULL DEFAULT '' CHECK (lease_type IN ('', 'M', 'S', 'I', 'F')),
  ADD COLUMN start_date  date,
  ADD COLUMN end_date    date,
  -- a member car: the main car whose space it shares
  ADD COLUMN main_car_id bigint,
  ADD COLUMN created_by  bigint,
  ADD FOREIGN KEY (rid, lot_id) REFERENCES parking_lots (rid, id),
  ADD FOREIGN KEY (rid, space_id) REFERENCES parking_spaces (rid, id),
  ADD FOREIGN KEY (rid, main_car_id) REFERENCES cars (rid, id);
CREATE INDEX cars_lot ON cars (rid, lot_id, lease_type, end_date);
CREATE INDEX cars_space ON cars (rid, space_id);
CREATE INDEX cars_main ON cars (rid, main_car_id);

-- The demo's and earlier cars bound to a space by plate take the space's lot, lease and dates.
UPDATE cars c SET lot_id = s.lot_id, space_id = s.id,
  lease_type = CASE s.status WHEN 'rented' THEN 'M' ELSE 'S' END,
  start_date = s.start_date, end_date = s.end_date
FROM parking_spaces s
WHERE s.rid = c.rid AND s.carlicense = c.carlicense AND s.status IN ('rented', 'sold');

-- Black (B) and white (W) lists of a lot, each entry valid between two days.
CREATE TABLE parking_lists (
  rid              int NOT NULL,
  id               bigserial,
  lot_id           bigint NOT NULL,
  carlicense       text NOT NULL,
  kind             char(1) NOT NULL CHECK (kind IN ('B', 'W')),
  start_date       date NOT NULL,
  end_date         date NOT NULL,
  reason           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, lot_id, carlicense),
  CHECK (end_date >= start_date),
  FOREIGN KEY (rid, lot_id) REFERENCES parking_lots (rid, id)
);

-- Renewal orders of monthly cars: written once, never changed (the car may be deleted later,
-- so the plate and the lot are kept on the order, not a reference).
CREATE TABLE parking_renewals (
  rid              int NOT NULL,
  id               bigserial,
  car_id           bigint NOT NULL,
  carlicense       text NOT NULL,
  lot_id           bigint NOT NULL,
  months           int NOT NULL CHECK (months BETWEEN 1 AND 120),
  amount           numeric(14,2) NOT NULL CHECK (amount >= 0),
  old_end          date,
  new_end          date NOT NULL,
  -- D the parking desk (moncarrenew) | C the cashier (a paid parking bill)
  source           char(1) NOT NULL CHECK (source IN ('D', 'C')),
  pay_type         text NOT NULL DEFAULT '',
  bill_id          bigint,
  receipt_no       text NOT NULL DEFAULT '',
  cashier_id       bigint,
  cashier_name     text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);
CREATE INDEX parking_renewals_car ON parking_renewals (rid, car_id, id);
CREATE OR REPLACE FUNCTION parking_renewals_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'parking_renewals rows never change';
END $$;
CREATE TRIGGER parking_renewals_frozen BEFORE UPDATE OR DELETE ON parking_renewals
  FOR EACH ROW EXECUTE FUNCTION parking_renewals_frozen();

-- A car's change history: added, edited, released, assigned, renewed, deleted, with who and when.
CREATE TABLE parking_car_logs (
  rid              int NOT NULL,
  id               bigserial,
  car_id           bigint NOT NULL,
  carlicense       text NOT NULL,
  -- add | edit | release | assign | renew | delete
  action           text NOT NULL,
  content          text NOT NULL DEFAULT '',
  created_by       bigint,
  created_by_name  text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id)
);
CREATE INDEX parking_car_logs_car ON parking_car_logs (rid, car_id, id);
