-- Imports keep the uploaded file, not its parsed rows (issue 33: a 138 KB upload stored a 100 MB
-- payload that every job list then read). The job reads the file again in a worker thread; lists
-- read the file's name and never its content or the job's payload. Deleting the job deletes the file.
CREATE TABLE import_files (
  rid         int NOT NULL REFERENCES regions(id),
  job_id      bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  filename    text NOT NULL,
  content     bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, job_id)
);

-- imports made before: their file name moves here (the file itself was never kept), and the rows
-- of finished ones leave the payload; a queued or running one still reads its rows from there
INSERT INTO import_files (rid, job_id, filename, content)
SELECT rid, id, coalesce(payload->>'filename', ''), ''::bytea
FROM jobs
WHERE kind IN ('room_import', 'member_import', 'bill_import', 'meter_import') AND rid IS NOT NULL;

UPDATE jobs SET payload = payload - 'rows'
WHERE kind IN ('room_import', 'member_import', 'bill_import', 'meter_import') AND status IN ('done', 'failed', 'cancelled');
