-- The daily and periodic kinds look up their latest run by kind and time (jobs/runner.ts).
CREATE INDEX jobs_by_kind ON jobs (kind, created_at DESC);
