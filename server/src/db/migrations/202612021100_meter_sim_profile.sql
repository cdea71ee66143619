-- The meter simulator's consumption profile (docs/product.md#smart-meters): a simulated meter's
-- usage in each hour of the day, 24 values; null runs it at per_hour all day.
ALTER TABLE meter_sims ADD COLUMN profile jsonb
  CHECK (profile IS NULL OR (jsonb_typeof(profile) = 'array' AND jsonb_array_length(profile) = 24));
