-- 待办 as the one list of what waits for the signed-in user (issue 36; modules/setup/backlog.ts,
-- docs/product.md#to-do-list): each area raises and settles its items through one registration
-- (registerBacklogSource): the record's id in its area, who submitted it, a deadline, and the
-- codes that may handle it (empty: every staff member of the community).
ALTER TABLE backlog
  ADD COLUMN source_id       text NOT NULL DEFAULT '',
  ADD COLUMN submitter_id    bigint,
  ADD COLUMN submitter_name  text NOT NULL DEFAULT '',
  ADD COLUMN deadline        timestamptz,
  ADD COLUMN roles           text[] NOT NULL DEFAULT '{}';
-- one to-do per record of an area: raising it again reopens it
CREATE UNIQUE INDEX backlog_source ON backlog (rid, kind, source_id) WHERE source_id <> '';
