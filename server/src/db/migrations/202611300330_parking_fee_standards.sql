-- 临时车收费标准 (docs/product.md#temporary-car-fees): one standard per lot and car kind, and its
-- versions. A version is never changed: an edit adds a version effective from a time, so a stay
-- is priced with the version in force at its entry and keeps that version's id.
CREATE TABLE parking_fee_standards (
  rid          int NOT NULL REFERENCES regions(id),
  id           bigserial,
  lot_id       bigint NOT NULL,
  car_type     text NOT NULL CHECK (car_type IN ('small', 'large', 'new_energy')),
  title        text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, lot_id, car_type),
  FOREIGN KEY (rid, lot_id) REFERENCES parking_lots (rid, id)
);

CREATE TABLE parking_fee_versions (
  rid              int NOT NULL REFERENCES regions(id),
  id               bigserial,
  standard_id      bigint NOT NULL,
  effective_from   timestamptz NOT NULL,
  free_minutes     int NOT NULL CHECK (free_minutes BETWEEN 0 AND 1440),
  first_minutes    int NOT NULL CHECK (first_minutes BETWEEN 1 AND 1440),
  first_price      numeric(14,2) NOT NULL CHECK (first_price >= 0),
  step_minutes     int NOT NULL CHECK (step_minutes BETWEEN 1 AND 1440),
  step_price       numeric(14,2) NOT NULL CHECK (step_price >= 0),
  -- the most one 24-hour window costs; 0 = no cap
  cap_amount       numeric(14,2) NOT NULL DEFAULT 0 CHECK (cap_amount >= 0),
  -- Y: weekday [peak_start, peak_end) at the prices above, nights, weekends and holidays at off_*
  band             char(1) NOT NULL DEFAULT 'N' CHECK (band IN ('Y', 'N')),
  peak_start       text NOT NULL DEFAULT '08:00' CHECK (peak_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  peak_end         text NOT NULL DEFAULT '20:00' CHECK (peak_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  off_first_price  numeric(14,2) NOT NULL DEFAULT 0 CHECK (off_first_price >= 0),
  off_step_price   numeric(14,2) NOT NULL DEFAULT 0 CHECK (off_step_price >= 0),
  -- 'YYYY-MM-DD' days priced off-peak all day (the standard's own list)
  holidays         text[] NOT NULL DEFAULT '{}',
  remark           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       bigint,
  PRIMARY KEY (rid, id),
  UNIQUE (rid, standard_id, effective_from),
  FOREIGN KEY (rid, standard_id) REFERENCES parking_fee_standards (rid, id)
);
