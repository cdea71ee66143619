-- Setup: system settings (setsys) and the daily switches (setdaily), issue 36.

-- setsys: the brand and the community's own details, beside the columns 001_foundation gave regions
ALTER TABLE regions ADD COLUMN system_title text NOT NULL DEFAULT '';
ALTER TABLE regions ADD COLUMN short_title  text NOT NULL DEFAULT '';
ALTER TABLE regions ADD COLUMN company_name text NOT NULL DEFAULT '';
ALTER TABLE regions ADD COLUMN service_qr   text NOT NULL DEFAULT '';
-- map point as "lng,lat" (GCJ-02, as the map service gives it), '' when not set
ALTER TABLE regions ADD COLUMN map_point    text NOT NULL DEFAULT '';

-- setdaily: one row per community and key that differs from the catalogue's default
-- (contract/src/setup/daily.ts); a key without a row reads its default
CREATE TABLE daily_settings (
  rid         int NOT NULL REFERENCES regions(id),
  key         text NOT NULL,
  value       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  updated_by  bigint,
  PRIMARY KEY (rid, key)
);
