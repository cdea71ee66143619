-- Smart meters (docs/product.md#smart-meters): gateways are devices of family 'meter'; meters behind them, every reading, the day bills, the deductions and bills,
-- the recharge orders, each room's alarm and overdraft, the price plans, the recharge amounts and
-- the vendor platforms. Commands (read, valve, recharge push) go through the one device queue.

-- a gateway (DTU or concentrator) is a device of family 'meter': its link and SIM card
ALTER TABLE devices ADD COLUMN protocol text NOT NULL DEFAULT '' CHECK (protocol IN ('', '4G', 'NB', 'LoRa', 'RS485'));
ALTER TABLE devices ADD COLUMN sim_no text NOT NULL DEFAULT '';

-- tiers: [{ "upto": 200, "price": "0.52" }, { "upto": null, "price": "0.82" }], usage per month
CREATE TABLE meter_price_plans (
  rid         int NOT NULL REFERENCES regions(id),
  id          bigserial,
  title       text NOT NULL CHECK (title <> ''),
  kind        text NOT NULL CHECK (kind IN ('power', 'water', 'gas')),
  tiers       jsonb NOT NULL,
  version     int NOT NULL DEFAULT 1,
  remark      text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, title)
);

CREATE TABLE meters (
  rid             int NOT NULL,
  id              bigserial,
  meter_no        text NOT NULL CHECK (meter_no <> ''),
  title           text NOT NULL DEFAULT '',
  kind            text NOT NULL CHECK (kind IN ('power', 'water', 'gas')),
  mode            text NOT NULL CHECK (mode IN ('prepaid', 'read')),
  gateway_id      bigint NOT NULL,
  hid             bigint,
  -- the room's building, kept with the room (the usage report counts the meters by kind and building)
  bid             bigint,
  plan_id         bigint NOT NULL,
  -- read mode: the fee item (pricing meter) its monthly bills are made on
  item_id         bigint,
  -- the register as last read, and when
  reading         numeric(14,2) NOT NULL DEFAULT 0 CHECK (reading >= 0),
  read_at         timestamptz,
  -- the usage of the current month (the tiers count it) and that month
  month_usage     numeric(14,2) NOT NULL DEFAULT 0,
  usage_month     text NOT NULL DEFAULT '',
  -- prepaid: the money left, yuan (below zero by at most the room's overdraft)
  balance         numeric(12,2) NOT NULL DEFAULT 0,
  valve           text NOT NULL DEFAULT 'open' CHECK (valve IN ('open', 'closed', 'fault')),
  -- why the valve is closed: arrears (a recharge opens it) or manual
  valve_reason    text NOT NULL DEFAULT '' CHECK (valve_reason IN ('', 'arrears', 'manual')),
  -- the owner was told of the alarm threshold; cleared when the balance is above it again
  alarm_sent      boolean NOT NULL DEFAULT false,
  -- read mode: the day of month (29 to 31 mean the month's last day when it is shorter) and hour
  read_day        smallint NOT NULL DEFAULT 1 CHECK (read_day BETWEEN 1 AND 31),
  read_hour       smallint NOT NULL DEFAULT 8 CHECK (read_hour BETWEEN 0 AND 23),
  -- read mode: the register at the last bill and its period (YYYY-MM)
  billed_reading  numeric(14,2) NOT NULL DEFAULT 0,
  billed_period   text NOT NULL DEFAULT '',
  enabled         char(1) NOT NULL DEFAULT 'Y' CHECK (enabled IN ('Y', 'N')),
  remark          text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, meter_no),
  FOREIGN KEY (rid, gateway_id) REFERENCES devices (rid, id),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id),
  FOREIGN KEY (rid, plan_id) REFERENCES meter_price_plans (rid, id),
  FOREIGN KEY (rid, item_id) REFERENCES fee_items (rid, id),
  CHECK (mode = 'prepaid' OR item_id IS NOT NULL)
);
CREATE INDEX meters_hid ON meters (rid, hid);
CREATE INDEX meters_kind_bid ON meters (rid, kind, bid);
CREATE INDEX meters_gateway ON meters (rid, gateway_id);

-- a room's prepaid settings; no row means no alarm, no overdraft, not protected
CREATE TABLE meter_houses (
  rid              int NOT NULL,
  hid              bigint NOT NULL,
  alarm_threshold  numeric(12,2) NOT NULL DEFAULT 0 CHECK (alarm_threshold >= 0),
  overdraft        numeric(12,2) NOT NULL DEFAULT 0 CHECK (overdraft >= 0),
  -- never cut off (a medical need)
  protected        char(1) NOT NULL DEFAULT 'N' CHECK (protected IN ('Y', 'N')),
  remark           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, hid),
  FOREIGN KEY (rid, hid) REFERENCES rooms (rid, id)
);

CREATE TABLE meter_readings (
  rid        int NOT NULL,
  id         bigserial,
  meter_id   bigint NOT NULL,
  value      numeric(14,2) NOT NULL CHECK (value >= 0),
  read_at    timestamptz NOT NULL,
  source     text NOT NULL CHECK (source IN ('auto', 'manual', 'estimated')),
  -- a new meter: the register starts again, no usage
  swap       boolean NOT NULL DEFAULT false,
  usage      numeric(14,2) NOT NULL DEFAULT 0 CHECK (usage >= 0),
  amount     numeric(12,2) NOT NULL DEFAULT 0 CHECK (amount >= 0),
  remark     text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, meter_id) REFERENCES meters (rid, id) ON DELETE CASCADE
);
CREATE INDEX meter_readings_meter ON meter_readings (rid, meter_id, read_at DESC, id DESC);

-- one row per meter and business day
CREATE TABLE meter_day_bills (
  rid            int NOT NULL,
  meter_id       bigint NOT NULL,
  day            date NOT NULL,
  opening        numeric(14,2) NOT NULL,
  closing        numeric(14,2) NOT NULL,
  usage          numeric(14,2) NOT NULL DEFAULT 0,
  -- the last tier price applied that day
  price          numeric(10,4) NOT NULL DEFAULT 0,
  amount         numeric(12,2) NOT NULL DEFAULT 0,
  balance_after  numeric(12,2) NOT NULL DEFAULT 0,
  source         text NOT NULL DEFAULT 'auto' CHECK (source IN ('auto', 'manual', 'estimated')),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, meter_id, day),
  FOREIGN KEY (rid, meter_id) REFERENCES meters (rid, id) ON DELETE CASCADE
);
CREATE INDEX meter_day_bills_day ON meter_day_bills (rid, day);

-- every deduction (prepaid), bill (read mode), recharge credited and refund
CREATE TABLE meter_bill_logs (
  rid            int NOT NULL,
  id             bigserial,
  meter_id       bigint NOT NULL,
  hid            bigint,
  kind           text NOT NULL CHECK (kind IN ('deduct', 'bill', 'recharge', 'refund')),
  usage          numeric(14,2) NOT NULL DEFAULT 0,
  amount         numeric(12,2) NOT NULL,
  balance_after  numeric(12,2) NOT NULL DEFAULT 0,
  reading_id     bigint,
  bill_id        bigint,
  recharge_id    bigint,
  -- the tiers used: [{ "usage": "12.00", "price": "0.52", "amount": "6.24" }]
  breakdown      jsonb NOT NULL DEFAULT '[]',
  plan_version   int NOT NULL DEFAULT 1,
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, meter_id) REFERENCES meters (rid, id) ON DELETE CASCADE
);
CREATE INDEX meter_bill_logs_meter ON meter_bill_logs (rid, meter_id, id DESC);
CREATE INDEX meter_bill_logs_created ON meter_bill_logs (rid, created_at DESC, id DESC);

-- W 待下发, S 已下发 (the meter confirmed), F 下发失败, R 已退款
CREATE TABLE meter_recharges (
  rid           int NOT NULL,
  id            bigserial,
  order_no      text NOT NULL,
  meter_id      bigint NOT NULL,
  hid           bigint,
  member_id     bigint,
  amount        numeric(12,2) NOT NULL CHECK (amount > 0),
  paytype       text NOT NULL,
  status        char(1) NOT NULL DEFAULT 'W' CHECK (status IN ('W', 'S', 'F', 'R')),
  command_id    bigint,
  error         text NOT NULL DEFAULT '',
  confirmed_at  timestamptz,
  refunded_at   timestamptz,
  refund_by     bigint,
  remark        text NOT NULL DEFAULT '',
  operator      text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, order_no),
  FOREIGN KEY (rid, meter_id) REFERENCES meters (rid, id)
);
CREATE INDEX meter_recharges_created ON meter_recharges (rid, created_at DESC, id DESC);

-- the owner was told (alarm threshold crossed, valve closed for arrears), once each
CREATE TABLE meter_alerts (
  rid         int NOT NULL,
  id          bigserial,
  meter_id    bigint NOT NULL,
  hid         bigint,
  kind        text NOT NULL CHECK (kind IN ('low', 'closed', 'opened')),
  mobile      text NOT NULL DEFAULT '',
  content     text NOT NULL,
  balance     numeric(12,2) NOT NULL DEFAULT 0,
  -- W to send, Y sent, F the provider refused, N no one to tell (no owner's mobile)
  sent        char(1) NOT NULL DEFAULT 'W' CHECK (sent IN ('W', 'Y', 'F', 'N')),
  error       text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, meter_id) REFERENCES meters (rid, id) ON DELETE CASCADE
);

-- per meter kind: the amounts offered, and the least and most of one order
CREATE TABLE meter_recharge_amounts (
  rid         int NOT NULL REFERENCES regions(id),
  kind        text NOT NULL CHECK (kind IN ('power', 'water', 'gas')),
  amounts     jsonb NOT NULL DEFAULT '[]',
  custom      char(1) NOT NULL DEFAULT 'Y' CHECK (custom IN ('Y', 'N')),
  min_amount  numeric(12,2) NOT NULL DEFAULT 10 CHECK (min_amount > 0),
  max_amount  numeric(12,2) NOT NULL DEFAULT 2000 CHECK (max_amount >= min_amount),
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  PRIMARY KEY (rid, kind)
);

-- one row per community: the hours a valve may be closed for arrears (from ≤ hour < to)
CREATE TABLE meter_settings (
  rid             int PRIMARY KEY REFERENCES regions(id),
  close_from      smallint NOT NULL DEFAULT 8 CHECK (close_from BETWEEN 0 AND 23),
  close_to        smallint NOT NULL DEFAULT 20 CHECK (close_to BETWEEN 1 AND 24),
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint
);

-- the vendor platforms meters are reached through; the secret is sealed (lib/secrets.ts)
CREATE TABLE meter_vendors (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  vendor         text NOT NULL CHECK (vendor <> ''),
  title          text NOT NULL CHECK (title <> ''),
  endpoint       text NOT NULL DEFAULT '',
  app_id         text NOT NULL DEFAULT '',
  secret_blob    text NOT NULL DEFAULT '',
  secret_last4   text NOT NULL DEFAULT '',
  callback_url   text NOT NULL DEFAULT '',
  enabled        char(1) NOT NULL DEFAULT 'Y' CHECK (enabled IN ('Y', 'N')),
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, vendor)
);

-- the simulated meters' physical side: the register, the consumption per hour, the valve
CREATE TABLE meter_sims (
  rid          int NOT NULL,
  meter_id     bigint NOT NULL,
  register     numeric(14,2) NOT NULL DEFAULT 0,
  per_hour     numeric(10,3) NOT NULL DEFAULT 0.5 CHECK (per_hour >= 0),
  valve_open   boolean NOT NULL DEFAULT true,
  ticked_at    timestamptz NOT NULL DEFAULT now(),
  reported_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, meter_id),
  FOREIGN KEY (rid, meter_id) REFERENCES meters (rid, id) ON DELETE CASCADE
);

CREATE INDEX meter_alerts_created ON meter_alerts (rid, created_at DESC, id DESC);

-- a refunded recharge's push is called off: the queue never sends it again
ALTER TABLE device_commands DROP CONSTRAINT device_commands_state_check;
ALTER TABLE device_commands ADD CONSTRAINT device_commands_state_check CHECK (state IN ('pending', 'sent', 'done', 'failed', 'cancelled'));

-- the usage report's kept totals: a month's usage and money per meter kind and building (bid 0: a
-- meter without a room), added to by every reading, and the recharges credited (modules/meters/core.ts)
CREATE TABLE meter_month_totals (
  rid        int NOT NULL,
  month      text NOT NULL,
  kind       text NOT NULL,
  bid        bigint NOT NULL,
  usage      numeric(16,2) NOT NULL DEFAULT 0,
  amount     numeric(14,2) NOT NULL DEFAULT 0,
  recharged  numeric(14,2) NOT NULL DEFAULT 0,
  PRIMARY KEY (rid, month, kind, bid)
);

-- the hardware log reads the meters' commands alone, newest first; the home card the failed pushes
CREATE INDEX device_commands_meter ON device_commands (rid, id DESC) WHERE kind IN ('meter_read', 'valve_open', 'valve_close', 'meter_recharge');
CREATE INDEX meter_recharges_failed ON meter_recharges (rid) WHERE status = 'F';

-- the fees area's readings page shows where a reading came from
ALTER TABLE fee_meter_readings ADD COLUMN source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'auto'));
