-- The download centre (下载中心): every export runs as a job (docs/architecture.md#jobs) and
-- leaves its workbook here, kept for EXPORT_KEEP_DAYS days, so the page can follow its progress
-- and the file can be downloaded again, from any server process.
CREATE TABLE export_files (
  rid         int NOT NULL REFERENCES regions(id),
  job_id      bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  filename    text NOT NULL,
  content     bytea NOT NULL,
  rows        int NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rid, job_id)
);
CREATE INDEX export_files_age ON export_files (created_at);
-- the download centre lists an account's own exports, newest first
CREATE INDEX jobs_by_creator ON jobs (rid, created_by, kind, id);
