-- Charging piles (docs/product.md#charging-piles): a pile is a device of family 'pile'; its charging
-- terms, ports, sessions with their meter values, month cards and their orders. Start and stop go
-- through the one device queue (pile_start, pile_stop).

-- a pile's charging terms, keyed by its device's id
CREATE TABLE chargers (
  rid             int NOT NULL,
  id              bigint NOT NULL,
  -- car: 电动汽车 (per kWh by time-of-use band + service fee) | ebike: 电动自行车 (per hour by power band)
  kind            text NOT NULL CHECK (kind IN ('car', 'ebike')),
  ports           smallint NOT NULL CHECK (ports BETWEEN 1 AND 20),
  power_kw        numeric(8,2) NOT NULL CHECK (power_kw > 0),
  -- [{ "start": "08:00", "end": "11:00", "tier": "peak", "price": "1.05" }], covering the day
  tou             jsonb NOT NULL DEFAULT '[]'::jsonb,
  service_fee     numeric(8,2) NOT NULL DEFAULT 0 CHECK (service_fee >= 0),
  -- [{ "min_w": 0, "max_w": 300, "price": "0.50" }], yuan per hour
  bands           jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- bumped on each change of the prices; a session keeps the version it was priced with
  price_version   int NOT NULL DEFAULT 1,
  -- the simulator loses the final meter value of its sessions (tests the time-out close)
  sim_lose_final  char(1) NOT NULL DEFAULT 'N' CHECK (sim_lose_final IN ('Y', 'N')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, id) REFERENCES devices (rid, id) ON DELETE CASCADE
);

-- the ports, created with the pile; state is what the pile reports
CREATE TABLE charger_ports (
  rid           int NOT NULL,
  id            bigserial,
  charger_id    bigint NOT NULL,
  no            smallint NOT NULL,
  title         text NOT NULL DEFAULT '',
  state         text NOT NULL DEFAULT 'free' CHECK (state IN ('free', 'charging', 'finishing', 'fault')),
  -- the register (Wh) and the power (W) the pile last reported
  meter_wh      bigint NOT NULL DEFAULT 0 CHECK (meter_wh >= 0),
  power_w       int NOT NULL DEFAULT 0,
  -- the simulator's session on this port (order, mode, limits, battery need), kept across restarts
  sim           jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, charger_id, no),
  FOREIGN KEY (rid, charger_id) REFERENCES chargers (rid, id) ON DELETE CASCADE
);

CREATE TABLE charge_cards (
  rid            int NOT NULL REFERENCES regions(id),
  id             bigserial,
  title          text NOT NULL CHECK (title <> ''),
  months         smallint NOT NULL CHECK (months BETWEEN 1 AND 36),
  price          numeric(12,2) NOT NULL CHECK (price >= 0),
  hours_per_day  smallint NOT NULL CHECK (hours_per_day BETWEEN 1 AND 24),
  status         char(1) NOT NULL DEFAULT 'Y' CHECK (status IN ('Y', 'N')),
  remark         text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id)
);

-- a member's month card, paid from the balance; its hours a day are free
CREATE TABLE charge_card_orders (
  rid            int NOT NULL,
  id             bigserial,
  card_id        bigint NOT NULL,
  member_id      bigint NOT NULL,
  paid           numeric(12,2) NOT NULL CHECK (paid >= 0),
  hours_per_day  smallint NOT NULL,
  start_date     date NOT NULL,
  end_date       date NOT NULL CHECK (end_date >= start_date),
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, card_id) REFERENCES charge_cards (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id)
);
CREATE INDEX charge_card_orders_member ON charge_card_orders (rid, member_id, end_date);

CREATE TABLE charge_orders (
  rid             int NOT NULL,
  id              bigserial,
  order_no        text NOT NULL,
  charger_id      bigint NOT NULL,
  port_id         bigint NOT NULL,
  member_id       bigint NOT NULL,
  mode            text NOT NULL CHECK (mode IN ('hours', 'energy', 'amount', 'full')),
  -- hours, kWh or yuan as the mode says
  mode_value      numeric(12,2) NOT NULL,
  prepaid         numeric(12,2) NOT NULL CHECK (prepaid >= 0),
  -- the prices in force at the start and their version
  pricing         jsonb NOT NULL,
  price_version   int NOT NULL,
  -- the month card's hours this session may take free, and the card
  card_order_id   bigint,
  card_hours      smallint NOT NULL DEFAULT 0,
  coupon_code     text NOT NULL DEFAULT '',
  coupon_face     numeric(12,2) NOT NULL DEFAULT 0,
  coupon_hours    smallint NOT NULL DEFAULT 0,
  state           text NOT NULL DEFAULT 'starting' CHECK (state IN ('starting', 'charging', 'stopping', 'done', 'failed', 'check', 'checked')),
  end_reason      text NOT NULL DEFAULT '' CHECK (end_reason IN ('', 'full', 'time', 'energy', 'amount', 'unplug', 'console', 'fault', 'timeout')),
  start_at        timestamptz,
  end_at          timestamptz,
  start_wh        bigint,
  end_wh          bigint,
  last_frame_at   timestamptz,
  hours           smallint NOT NULL DEFAULT 0,
  amount          numeric(12,2),
  refund          numeric(12,2),
  -- the settled bill: its hour slots, tiers, bands and free hours
  breakdown       jsonb,
  error           text NOT NULL DEFAULT '',
  check_note      text NOT NULL DEFAULT '',
  checked_by      bigint,
  checked_at      timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, order_no),
  FOREIGN KEY (rid, charger_id) REFERENCES chargers (rid, id),
  FOREIGN KEY (rid, port_id) REFERENCES charger_ports (rid, id),
  FOREIGN KEY (rid, member_id) REFERENCES members (rid, id),
  FOREIGN KEY (rid, card_order_id) REFERENCES charge_card_orders (rid, id)
);
CREATE INDEX charge_orders_live ON charge_orders (rid, state) WHERE state IN ('starting', 'charging', 'stopping');
CREATE INDEX charge_orders_port ON charge_orders (rid, port_id, id);
CREATE INDEX charge_orders_day ON charge_orders (rid, end_at);
CREATE INDEX charge_orders_member ON charge_orders (rid, member_id, start_at);

-- the meter values a pile sent during a session (a few per session: every 5 minutes and the last)
CREATE TABLE charge_frames (
  rid         int NOT NULL,
  id          bigserial,
  order_id    bigint NOT NULL,
  at          timestamptz NOT NULL,
  meter_wh    bigint NOT NULL,
  power_w     int NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  PRIMARY KEY (rid, id),
  FOREIGN KEY (rid, order_id) REFERENCES charge_orders (rid, id) ON DELETE CASCADE
);
CREATE INDEX charge_frames_order ON charge_frames (rid, order_id, at);
