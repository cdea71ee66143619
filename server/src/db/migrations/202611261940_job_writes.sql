-- Long jobs write in short transactions so other calls are answered between them (docs/architecture.md,
-- "Long jobs"). Each batch that inserts rows records their ids here in its own transaction; a job
-- that fails, or that starts again after its process died, deletes what its earlier batches wrote
-- (newest first) before it reports or runs again. A finished job's records are dropped.
CREATE TABLE job_writes (
  job_id      bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  seq         bigserial,
  rid         int NOT NULL REFERENCES regions(id),
  tbl         text NOT NULL CHECK (tbl IN ('buildings', 'units', 'rooms', 'members', 'room_members', 'fee_bills')),
  ids         bigint[] NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, seq)
);
